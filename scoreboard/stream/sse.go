package stream

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Serve streams c's view to a browser: cur (the view when c subscribed)
// at once, then every change, until the browser leaves, the hub drops the
// stream or closes. A stream whose connection can be taken over is written
// directly (direct.go); others, such as HTTP/2 ones, go through net/http.
// A browser that falls Buffer frames behind is dropped; its EventSource
// reconnects and starts again from the current view.
func (h *Hub) Serve(w http.ResponseWriter, r *http.Request, c *Client, cur *Frame) {
	defer h.Unsubscribe(c)
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	switch d, err := hijackStream(w); {
	case err == nil:
		h.serveDirect(c, cur, d)
		return
	case err != errNoDirect:
		return // hijacked, but the head could not be written
	}
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	sw := &sseWriter{h: h, w: w, rc: rc}
	if !sw.write([]byte("retry: 1000\n\n")) || !sw.send(cur, nil) {
		return
	}
	last := cur
	tick := time.NewTicker(h.opts.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-c.gone:
			return
		case f := <-c.ch:
			f = latest(c.ch, f)
			if f == last {
				continue
			}
			if !sw.send(f, last) {
				return
			}
			last = f
		case <-tick.C:
			if !sw.write([]byte(": ping\n\n")) {
				return
			}
		}
	}
}

// sseWriter writes a stream's events to an HTTP response.
type sseWriter struct {
	h  *Hub
	w  http.ResponseWriter
	rc *http.ResponseController
	// deadline is the write deadline set last. It is moved on only once
	// half of it has gone: it still bounds a blocked write (to between
	// WriteTimeout/2 and WriteTimeout), without a timer update on every
	// event.
	deadline time.Time
}

// write writes b and flushes it, and reports whether both went through.
func (s *sseWriter) write(b []byte) bool {
	if now := time.Now(); s.deadline.Sub(now) < s.h.opts.WriteTimeout/2 {
		s.deadline = now.Add(s.h.opts.WriteTimeout)
		_ = s.rc.SetWriteDeadline(s.deadline) // unsupported by some writers; best effort
	}
	if _, err := s.w.Write(b); err != nil {
		return false
	}
	return s.rc.Flush() == nil
}

// send writes f as a patch if the stream shows the view it changes,
// else whole, with the age of the view (ms since it was rendered), so
// that a running clock is counted down from when the state arrived.
// The event goes in one piece: one chunk, one write to the socket.
func (s *sseWriter) send(f, last *Frame) bool {
	event, body := s.h.encoding(f, last)
	bp := eventBufs.Get().(*[]byte)
	b := append((*bp)[:0], event...)
	b = strconv.AppendInt(append(b, `{"age":`...), max(0, s.h.opts.Now().Sub(f.Made).Milliseconds()), 10)
	b = append(append(append(b, ','), body...), sseEnd...)
	ok := s.write(b)
	if cap(b) <= maxPooledEvent {
		*bp = b
		eventBufs.Put(bp)
	}
	return ok
}

// latest returns the last frame queued on ch, or f when none is: only the
// latest view matters (sent whole, if a view was skipped).
func latest(ch <-chan *Frame, f *Frame) *Frame {
	for {
		select {
		case g := <-ch:
			f = g
		default:
			return f
		}
	}
}

// encoding is how f goes to a stream that shows last (nil: nothing yet):
// as a patch if it was made from last, else whole.
func (h *Hub) encoding(f, last *Frame) (event, body []byte) {
	if f.patch != nil && last != nil && last.Ver == f.Base && !h.whole.Load() {
		return eventPatch, f.patch
	}
	return eventView, f.full
}

// serveDirect streams to a hijacked connection (direct.go): the first
// view and heartbeats here, and the frames the hub could not write itself.
func (h *Hub) serveDirect(c *Client, cur *Frame, d *direct) {
	defer d.conn.Close()
	h.mu.Lock()
	c.direct = d
	h.mu.Unlock()
	// The viewer says nothing more on its stream: a read returns when it
	// leaves (or breaks the protocol), and ends the stream at once, as
	// net/http's own background read did before the take-over.
	go func() {
		var b [1]byte
		_, _ = d.conn.Read(b[:])
		h.Unsubscribe(c)
	}()
	timeout := h.opts.WriteTimeout
	d.mu.Lock()
	ok := d.write(h.appendEvent([]byte("retry: 1000\n\n"), cur, nil), timeout)
	d.last = cur
	d.mu.Unlock()
	if !ok {
		return
	}
	h.resumeDirect(c)
	tick := time.NewTicker(h.opts.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-c.gone:
			return
		case <-d.kick:
			d.mu.Lock()
			ok = d.flushPending(timeout)
			d.mu.Unlock()
		case f := <-c.ch:
			for more := true; more; { // only the latest view matters
				select {
				case g := <-c.ch:
					f = g
				default:
					more = false
				}
			}
			d.mu.Lock()
			ok = d.flushPending(timeout)
			// A frame queued while the goroutine held d.mu (the hub then
			// cannot write directly) may find a newer one already written
			// by the hub: it is old news, and writing it would take the
			// viewer back.
			if ok && f != d.last && !olderThan(f, d.last) {
				bp := eventBufs.Get().(*[]byte)
				b := h.appendEvent((*bp)[:0], f, d.last)
				ok = d.write(b, timeout)
				d.last = f
				if cap(b) <= maxPooledEvent {
					*bp = b
					eventBufs.Put(bp)
				}
			}
			d.mu.Unlock()
		case <-tick.C:
			d.mu.Lock()
			ok = d.flushPending(timeout) && d.write([]byte(": ping\n\n"), timeout)
			d.mu.Unlock()
		}
		if !ok {
			return
		}
		h.resumeDirect(c)
	}
}

// olderThan says f was rendered before last (ver 0 is a waiting view made
// on demand, ordered by nothing).
func olderThan(f, last *Frame) bool {
	return last != nil && f.Ver != 0 && last.Ver != 0 && f.Ver < last.Ver
}

// eventBufs hold events being written, shared by the streams: one
// buffer per write under way, not one per viewer.
var eventBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// maxPooledEvent: a buffer grown past this (a whole view of a big board)
// is left to the collector rather than kept.
const maxPooledEvent = 64 << 10

var (
	eventView  = []byte("event: view\ndata: ")
	eventPatch = []byte("event: patch\ndata: ")
	sseEnd     = []byte("\n\n")
)

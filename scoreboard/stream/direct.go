package stream

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// direct is a viewer's stream written by the hub itself, for the cost of a
// socket write: no goroutine wakes for it. The hub writes each frame with
// one non-blocking write (under the hub's lock, through sendLocked); a
// write that cannot complete at once (the viewer's socket buffer is full)
// leaves its rest pending and the stream "slow": from then on frames go
// through the client's channel to its own goroutine (serveDirect), which writes
// the rest, blocking as long as WriteTimeout allows, and makes the stream
// direct again once it has caught up.
type direct struct {
	raw  syscall.RawConn
	conn net.Conn // for the goroutine's blocking writes
	kick chan struct{}

	mu      sync.Mutex // serialises writes; the hub only tries it
	slow    bool       // frames go through the channel (under mu)
	last    *Frame     // the frame the viewer has, or is being written (under mu)
	pending []byte     // the rest of a direct write that did not complete (under mu)
}

// errNoDirect: the connection cannot be written directly (not a plain
// socket, or not hijackable); the stream goes through net/http.
var errNoDirect = errors.New("stream: not a direct stream")

// hijackStream takes over w's connection for an event stream: it writes
// the status line and w's headers (the body ends when the connection
// closes) and returns the stream, slow until its goroutine has written the
// first view.
func hijackStream(w http.ResponseWriter) (*direct, error) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return nil, errNoDirect
	}
	conn, brw, err := hj.Hijack()
	if err != nil {
		return nil, errNoDirect
	}
	var sc syscall.Conn
	for c := conn; ; {
		if s, ok := c.(syscall.Conn); ok {
			sc = s
			break
		}
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			break
		}
		c = u.NetConn()
	}
	var raw syscall.RawConn
	if sc != nil {
		raw, _ = sc.SyscallConn()
	}
	// The server's deadlines for the request no longer apply.
	_ = conn.SetDeadline(time.Time{})
	d := &direct{raw: raw, conn: conn, kick: make(chan struct{}, 1), slow: true}
	if err := writeHead(brw.Writer, w.Header()); err != nil {
		conn.Close()
		return nil, err
	}
	return d, nil
}

func writeHead(bw *bufio.Writer, h http.Header) error {
	bw.WriteString("HTTP/1.1 200 OK\r\n")
	h.Set("Connection", "close")
	if err := h.Write(bw); err != nil {
		return err
	}
	bw.WriteString("\r\n")
	return bw.Flush()
}

// appendEvent appends f as the stream that shows last receives it: a
// patch if it applies, else whole, with the view's age.
func (h *Hub) appendEvent(b []byte, f, last *Frame) []byte {
	event, body := h.encoding(f, last)
	b = append(b, event...)
	b = strconv.AppendInt(append(b, `{"age":`...), max(0, h.opts.Now().Sub(f.Made).Milliseconds()), 10)
	return append(append(append(b, ','), body...), sseEnd...)
}

// tryDirectLocked writes f to d at once if it can: true when f is taken care
// of (written, or its rest pending for the goroutine), false when it must
// go through the channel. Called with the hub's lock held.
func (h *Hub) tryDirectLocked(d *direct, f *Frame) bool {
	if d.raw == nil || !d.mu.TryLock() {
		return false
	}
	defer d.mu.Unlock()
	if d.slow {
		return false
	}
	if f == d.last {
		return true
	}
	h.wbuf = h.appendEvent(h.wbuf[:0], f, d.last)
	b := h.wbuf
	n, werr := 0, error(nil)
	err := d.raw.Write(func(fd uintptr) bool {
		for len(b) > 0 {
			k, e := syscall.Write(int(fd), b)
			if k > 0 {
				n += k
				b = b[k:]
			}
			if e == syscall.EINTR {
				continue
			}
			if e != nil || k <= 0 {
				werr = e
				break
			}
		}
		return true // never wait: the goroutine does
	})
	if err == nil && werr == nil && len(b) == 0 {
		d.last = f
		if cap(h.wbuf) > maxPooledEvent {
			h.wbuf = nil
		}
		return true
	}
	if err != nil || (werr != nil && werr != syscall.EAGAIN) {
		// Broken: the goroutine finds out on its next write and ends
		// the stream.
		d.slow = true
		return false
	}
	// The viewer's socket is full: the goroutine writes the rest.
	d.pending = append([]byte(nil), b...)
	d.last, d.slow = f, true
	select {
	case d.kick <- struct{}{}:
	default:
	}
	return true
}

// write writes b with a blocking write bounded by timeout; under d.mu.
func (d *direct) write(b []byte, timeout time.Duration) bool {
	_ = d.conn.SetWriteDeadline(time.Now().Add(timeout))
	_, err := d.conn.Write(b)
	// No deadline left behind: a passed one would fail the hub's next
	// direct write.
	_ = d.conn.SetWriteDeadline(time.Time{})
	return err == nil
}

// flushPending writes what a direct write left; under d.mu.
func (d *direct) flushPending(timeout time.Duration) bool {
	if len(d.pending) == 0 {
		return true
	}
	ok := d.write(d.pending, timeout)
	d.pending = nil
	return ok
}

// resumeDirect makes the stream direct again if nothing waits for it:
// with the hub's lock held no frame can be queued meanwhile, so none is
// overtaken.
func (h *Hub) resumeDirect(c *Client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	d := c.direct
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.raw != nil && len(c.ch) == 0 && len(d.pending) == 0 {
		d.slow = false
	}
}

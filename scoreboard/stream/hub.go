package stream

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// The hub sends views to browsers as server-sent events. Each view is a
// Frame, made once and encoded once for every stream that shows it: whole
// (a "view" event) and as a patch on the view before it (a "patch"
// event). A stream shows one Topic (a view in a language); each has a
// bounded queue that coalesces to the latest frame, and a stream whose
// queue fills (its socket is stuck) is dropped, so that its EventSource
// reconnects to the current view. Where it can, the hub writes a frame to
// a viewer's socket itself, without waking the stream's goroutine
// (direct.go); Serve is the stream's side (sse.go).
//
// The hub has no lock of its own: it shares its owner's (NewHub), which
// the owner holds while it makes frames and broadcasts them, so that a
// stream subscribed under that lock with the current frame misses no
// later one. Methods named …Locked are called with it held.

// Frame is one view as every stream gets it.
type Frame struct {
	Seq  uint64    // the seq of the state it shows
	Ver  uint64    // unique per frame the hub made (0: a waiting view made on demand, never patched)
	Base uint64    // the Ver its patch applies to
	HTML string    // the whole view
	Made time.Time // when it was rendered, for the age of a late joiner's view
	Tree *Node     // the view's keyed tree, for the next frame's patch
	// full and patch are the JSON of the "view" and "patch" events after
	// the opening brace; patch is nil when the view must go whole.
	full, patch []byte
}

// Topic is what a stream shows: a view (the owner's name for it) in a
// language ("" for the default).
type Topic struct {
	View string
	Lang string
}

// HubOptions configure a Hub.
type HubOptions struct {
	// Buffer is how many frames may wait for one stream; a stream
	// further behind is dropped. Default 32.
	Buffer int
	// WriteTimeout bounds one write to a browser. Default 10s.
	WriteTimeout time.Duration
	// Heartbeat is the interval of SSE comments that keep idle streams
	// open through proxies and find dead browsers. Default 15s.
	Heartbeat time.Duration
	// Now is the clock frames are made by; nil is time.Now.
	Now func() time.Time
	// Left, if set, is called (with the lock held) when a stream ends.
	Left   func(Topic)
	Logger *slog.Logger // nil discards
}

// Hub is the streams of every viewer.
type Hub struct {
	mu      sync.Locker // the owner's lock
	opts    HubOptions
	log     *slog.Logger
	clients map[*Client]struct{}
	ver     uint64 // the last frame's Ver
	wbuf    []byte // the event being written directly (direct.go)
	dropped int    // slow streams dropped
	closed  bool
	whole   atomic.Bool // send whole views only (to measure what patches save)
}

// Client is one browser's stream.
type Client struct {
	topic Topic
	ch    chan *Frame
	gone  chan struct{} // closed when the hub drops the stream
	// direct, once set (under the lock), lets the hub write frames to
	// the viewer's socket itself (direct.go); nil: every frame goes
	// through ch.
	direct *direct
}

// Topic is what the stream shows.
func (c *Client) Topic() Topic { return c.topic }

// Frames are the frames queued for the stream, for tests that read them
// without a socket.
func (c *Client) Frames() <-chan *Frame { return c.ch }

// Gone is closed when the hub drops the stream.
func (c *Client) Gone() <-chan struct{} { return c.gone }

// NewHub returns a hub that shares the owner's lock mu.
func NewHub(mu sync.Locker, opts HubOptions) *Hub {
	if opts.Buffer <= 0 {
		opts.Buffer = 32
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = 10 * time.Second
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = 15 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Hub{mu: mu, opts: opts, log: log, clients: map[*Client]struct{}{}}
}

// SetWhole makes every frame go whole, as before patches (to measure what
// they save).
func (h *Hub) SetWhole(whole bool) { h.whole.Store(whole) }

// NewFrameLocked makes a view's frame from its tree: the whole view as
// the JSON of a "view" event, {"seq":…,"ver":…,"html":…}, and, if prev
// (the view's frame before, or nil) has the same skeleton, the change as a
// "patch" event, {"seq":…,"ver":…,"base":…,"attrs":…,"appends":…,"parts":…}
// (see patch.go). JSON keeps each on one data line.
func (h *Hub) NewFrameLocked(prev *Frame, seq uint64, tree *Node) *Frame {
	h.ver++
	html := tree.HTML()
	f := &Frame{Seq: seq, Ver: h.ver, HTML: html, Made: h.opts.Now(), Tree: tree}
	f.full = encodeEvent(struct {
		Seq  uint64 `json:"seq"`
		Ver  uint64 `json:"ver"`
		HTML string `json:"html"`
	}{seq, f.Ver, html})
	if prev == nil || prev.Ver == 0 {
		return f
	}
	p, ok := Diff(prev.Tree, f.Tree)
	if !ok {
		return f
	}
	f.Base = prev.Ver
	f.patch = encodeEvent(struct {
		Seq  uint64 `json:"seq"`
		Ver  uint64 `json:"ver"`
		Base uint64 `json:"base"`
		Patch
	}{seq, f.Ver, f.Base, p})
	if len(f.patch) >= len(f.full) {
		f.patch = nil // everything changed: the whole view is shorter
	}
	return f
}

// WaitingFrame is a view made on demand and never patched (Ver 0): what
// a stream shows of a view nobody has made yet.
func (h *Hub) WaitingFrame(html string) *Frame {
	return &Frame{HTML: html, Made: h.opts.Now(), full: encodeEvent(struct {
		Seq  uint64 `json:"seq"`
		Ver  uint64 `json:"ver"`
		HTML string `json:"html"`
	}{0, 0, html})}
}

// encodeEvent is v's JSON without its opening brace: the writer puts the
// stream's own fields (the view's age) before it.
func encodeEvent(v any) []byte {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false) // not in HTML: keep the payload small
	_ = e.Encode(v)
	return bytes.TrimSuffix(bytes.TrimPrefix(buf.Bytes(), []byte("{")), []byte("\n"))
}

// SubscribeLocked registers a stream of t, or returns nil after Close.
// The caller takes the current frame under the same lock, and the stream
// gets every frame broadcast after it.
func (h *Hub) SubscribeLocked(t Topic) *Client {
	if h.closed {
		return nil
	}
	c := &Client{topic: t, ch: make(chan *Frame, h.opts.Buffer), gone: make(chan struct{})}
	h.clients[c] = struct{}{}
	return c
}

// Unsubscribe ends c.
func (h *Hub) Unsubscribe(c *Client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.dropLocked(c)
}

// BroadcastLocked queues f for the streams of t, dropping any whose queue
// is full.
func (h *Hub) BroadcastLocked(t Topic, f *Frame) {
	for c := range h.clients {
		if c.topic == t {
			h.sendLocked(c, f)
		}
	}
}

// sendLocked queues f for c, dropping c if its queue is full.
func (h *Hub) sendLocked(c *Client, f *Frame) {
	if c.direct != nil && h.tryDirectLocked(c.direct, f) {
		return
	}
	select {
	case c.ch <- f:
	default:
		h.dropLocked(c)
		h.dropped++
		h.log.Info("scoreboard: dropped a slow viewer", "board", c.topic.View)
	}
}

func (h *Hub) dropLocked(c *Client) {
	if _, ok := h.clients[c]; ok {
		delete(h.clients, c)
		close(c.gone)
		if h.opts.Left != nil {
			h.opts.Left(c.topic)
		}
	}
}

// WatchedLocked reports whether a stream shows t.
func (h *Hub) WatchedLocked(t Topic) bool {
	for c := range h.clients {
		if c.topic == t {
			return true
		}
	}
	return false
}

// ViewersLocked is the number of open streams.
func (h *Hub) ViewersLocked() int { return len(h.clients) }

// DroppedLocked is the number of streams dropped for falling behind.
func (h *Hub) DroppedLocked() int { return h.dropped }

// CloseLocked ends every stream and refuses new ones.
func (h *Hub) CloseLocked() {
	h.closed = true
	for c := range h.clients {
		h.dropLocked(c)
	}
}

package scoreboard

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/internal/boardid"
	"github.com/zertzboard/zertzboard/internal/connlimit"
	"github.com/zertzboard/zertzboard/scoreboard/view"
)

//go:embed web
var webFS embed.FS

var shell = template.Must(template.ParseFS(webFS, "web/page.html"))

// Handler serves the scoreboard:
//
//	GET /                    the tournament view: every board seen
//	GET /board/{id}          one board (also /?board={id})
//	GET /board/{id}/state.json  the board's latest state as received
//	GET /events[?board={id}] the view's updates as server-sent events
//	GET /static/…            the embedded style sheet and script
//
// Any page takes ?overlay=1 for a transparent, compact layout (OBS
// browser sources), and ?eval=1 to show the engine's evaluation bar and
// best turn (when the board's analysis has them).
//
// Board IDs are checked (internal/boardid): a malformed one is 400. A
// board not seen yet is 404; its page still comes with the waiting view,
// which goes live when the board appears (a stream producer may open it
// before the board is switched on). Directories are never listed, and
// every response says nosniff (Secure).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(webFS, "web/static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(filesOnly{static})))
	mux.HandleFunc("GET /events", func(w http.ResponseWriter, r *http.Request) {
		if board := r.URL.Query().Get("board"); board != "" && !badBoard(w, board) {
			return
		}
		s.serveEvents(w, r)
	})
	mux.HandleFunc("GET /board/{id}/state.json", func(w http.ResponseWriter, r *http.Request) {
		if !badBoard(w, r.PathValue("id")) {
			return
		}
		b := s.State(r.PathValue("id"))
		if b == nil {
			http.Error(w, "no state for this board yet", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(b)
	})
	mux.HandleFunc("GET /board/{id}", func(w http.ResponseWriter, r *http.Request) {
		if badBoard(w, r.PathValue("id")) {
			s.servePage(w, r, r.PathValue("id"))
		}
	})
	s.resultRoutes(mux)    // results.go
	s.viewerRoutes(mux)    // viewer.go
	s.spectatorRoutes(mux) // spectator.go
	s.consoleRoutes(mux)   // console.go
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		if board := r.URL.Query().Get("board"); board == "" || badBoard(w, board) {
			s.servePage(w, r, board)
		}
	})
	return Secure(mux)
}

// badBoard answers 400 and returns false unless id is a valid board ID.
func badBoard(w http.ResponseWriter, id string) bool {
	if err := boardid.Check(id); err != nil {
		http.Error(w, "scoreboard: "+err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

// Secure sets the headers every response carries: nosniff, so that a
// browser never runs a state or a style sheet as something else, and no
// referrer to other sites.
func Secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}

// filesOnly hides directories, so that the file server lists none.
type filesOnly struct{ fs.FS }

func (f filesOnly) Open(name string) (fs.File, error) {
	file, err := f.FS.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := file.Stat(); err != nil || st.IsDir() {
		file.Close()
		return nil, fs.ErrNotExist
	}
	return file, nil
}

// HTTP limits: one address (a phone, an OBS machine) needs a few
// connections; a hall of viewers needs hundreds to a thousand or two
// (BenchmarkHall: 1000 viewers cost 44 MiB and a hundredth of a core per
// state; Go raises the soft descriptor limit to the hard one, which
// systemd sets far higher).
// One address may hold 16 connections (under 1 % of them all); viewers'
// event streams may hold all but ConsoleReserve; and when every
// connection is taken, the one idle the longest (a keep-alive waiting for
// a request, a client still sending its headers) gives its place to the
// newcomer (connlimit.TrackHTTP), so the console is always reachable.
var HTTPLimits = connlimit.Limits{Total: 2048, PerAddr: 16, Rate: 32, Burst: 128}

// ConsoleReserve is how many of HTTPLimits.Total viewers' event streams
// never take: the arbiter console's pages, actions and streams.
const ConsoleReserve = 256

// NewHTTPServer is the http.Server for a scoreboard handler: headers must
// arrive within 5 s (slowloris) and fit in 16 KiB, idle connections close
// after a minute, and every response is Secure. Event streams set their
// own write deadlines. There is no ReadTimeout: net/http keeps it as the
// read deadline while a handler runs, and its expiry cancels the request,
// which would end every event stream after that long.
func NewHTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &http.Server{
		Handler:           Secure(h),
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
		ConnState:         connlimit.TrackHTTP,
	}
}

// LimitListener applies HTTPLimits to ln; refused connections are closed
// at once (and logged, rate-limited by the caller's handler). Connections
// from the proxies' addresses (reverse proxies in front, each carrying
// many viewers) have no per-address limit; they count toward the total.
//
// Its connections also give net/http's own error replies (400 for a
// malformed request, 431 for headers too large), which no handler sees,
// the X-Content-Type-Options: nosniff every other response carries.
func LimitListener(ln net.Listener, log *slog.Logger, proxies ...netip.Addr) net.Listener {
	lim := HTTPLimits
	lim.Exempt = append(slices.Clip(lim.Exempt), proxies...)
	return nosniffListener{connlimit.Listener(ln, connlimit.New(lim, nil), func(remote net.Addr, reason string) {
		if log != nil {
			log.Warn("scoreboard: connection refused", "remote", remote.String(), "reason", reason)
		}
	})}
}

type nosniffListener struct{ net.Listener }

func (l nosniffListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &nosniffConn{Conn: c}, nil
}

// nosniffConn adds nosniff to net/http's error replies, which it writes
// straight to the connection in one piece: the status line, these
// headers, and the text.
type nosniffConn struct{ net.Conn }

var (
	goErrorHeaders = []byte("\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n")
	nosniffHeader  = []byte("\r\nX-Content-Type-Options: nosniff")
)

func (c *nosniffConn) Write(p []byte) (int, error) {
	if bytes.HasPrefix(p, []byte("HTTP/1.1 4")) && !bytes.Contains(p, []byte("X-Content-Type-Options")) {
		if i := bytes.Index(p, goErrorHeaders); i > 0 && bytes.IndexByte(p[:i], '\n') < 0 {
			out := make([]byte, 0, len(p)+len(nosniffHeader))
			out = append(append(append(out, p[:i]...), nosniffHeader...), p[i:]...)
			if _, err := c.Conn.Write(out); err != nil {
				return 0, err
			}
			return len(p), nil
		}
	}
	return c.Conn.Write(p)
}

// NetConn returns the wrapped connection (for connlimit).
func (c *nosniffConn) NetConn() net.Conn { return c.Conn }

// encoding is how f goes to a stream that shows last (nil: nothing yet):
// as a patch if it was made from last, else whole.
func (s *Server) encoding(f, last *frame) (event, body []byte) {
	if f.patch != nil && last != nil && last.ver == f.base && !s.whole {
		return eventPatch, f.patch
	}
	return eventView, f.full
}

// serveDirect streams to a hijacked connection (direct.go): the first
// view and heartbeats here, and the frames the hub could not write itself.
func (s *Server) serveDirect(c *client, cur *frame, d *direct) {
	defer d.conn.Close()
	s.mu.Lock()
	c.direct = d
	s.mu.Unlock()
	// The viewer says nothing more on its stream: a read returns when it
	// leaves (or breaks the protocol), and ends the stream at once, as
	// net/http's own background read did before the take-over.
	go func() {
		var b [1]byte
		_, _ = d.conn.Read(b[:])
		s.unsubscribe(c)
	}()
	timeout := s.opts.WriteTimeout
	d.mu.Lock()
	ok := d.write(s.appendEvent([]byte("retry: 1000\n\n"), cur, nil), timeout)
	d.last = cur
	d.mu.Unlock()
	if !ok {
		return
	}
	s.resumeDirect(c)
	tick := time.NewTicker(s.opts.Heartbeat)
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
				b := s.appendEvent((*bp)[:0], f, d.last)
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
		s.resumeDirect(c)
	}
}

// olderThan says f was rendered before last (ver 0 is a waiting view made
// on demand, ordered by nothing).
func olderThan(f, last *frame) bool {
	return last != nil && f.ver != 0 && last.ver != 0 && f.ver < last.ver
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

type pageData struct {
	Lang         i18n.Lang
	Reconnecting string
	LangLabel    string
	PastFmt      string // "Turn %d of %d · …", the live page looking back (app.js)
	Spectator    string // the tournament view's "watch live" card link text ("" on board pages)
	Langs        []langLink
	Title        string
	Board        string
	view.OverlayOptions
	Events string
	Seq    uint64
	Ver    uint64
	Age    int64 // ms since the view's clocks were true (0: servePage ages them)
	HTML   template.HTML
	Links  []pageLink // results, console, downloads (resultpages.go)
}

// servePage writes the page with the current view already in it, so a
// late joiner sees the board before the event stream opens.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request, board string) {
	l, err := pageLang(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	opt, err := view.ParseOverlay(r.URL.Query())
	if err != nil {
		http.Error(w, "scoreboard: "+err.Error(), http.StatusBadRequest)
		return
	}
	f, known := s.currentFrameLang(board, l)
	// The running clock is served as it is now; the page counts on from it.
	age := max(0, s.now().Sub(f.made).Milliseconds())
	d := pageData{Title: "zertzboard", Board: board, Seq: f.seq, Ver: f.ver,
		HTML: template.HTML(view.AgedClocks(f.html, age)), Events: "/events",
		Lang: l, Reconnecting: l.T("page.reconnecting"), LangLabel: l.T("page.language"), PastFmt: l.T("page.past"), Langs: langLinks(r, l)}
	q := url.Values{}
	if board != "" {
		d.Title = board + " · zertzboard"
		q.Set("board", board)
	}
	if l != i18n.EN || i18n.FromAcceptLanguage(r.Header.Get("Accept-Language")) != i18n.EN {
		q.Set("lang", string(l)) // the stream in the page's language, whatever the browser says
	}
	if len(q) > 0 {
		d.Events += "?" + q.Encode()
	}
	d.OverlayOptions = opt
	d.Links = s.pageLinks(board, l)
	if board == "" {
		d.Spectator = l.T("page.spectator")
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	// Everything is escaped; this is the second line of defence against a
	// hostile player name.
	h.Set("Content-Security-Policy", "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	if !known {
		w.WriteHeader(http.StatusNotFound)
	}
	if err := shell.Execute(w, d); err != nil {
		s.log.Debug("scoreboard: writing the page", "err", err)
	}
}

// serveEvents streams a view: the current one at once, then every change.
// A browser that falls ClientBuffer updates behind is dropped; its
// EventSource reconnects and starts again from the current view.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	l, err := pageLang(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if s.Viewers() >= s.opts.MaxViewers {
		http.Error(w, "scoreboard: too many viewers; try again later", http.StatusServiceUnavailable)
		return
	}
	c, cur := s.subscribeLang(r.URL.Query().Get("board"), l)
	if c == nil {
		http.Error(w, "the scoreboard is shutting down", http.StatusServiceUnavailable)
		return
	}
	defer s.unsubscribe(c)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	switch d, err := hijackStream(w); {
	case err == nil:
		s.serveDirect(c, cur, d)
		return
	case err != errNoDirect:
		return // hijacked, but the head could not be written
	}
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	// The write deadline is moved on only once half of it has gone: it
	// still bounds a blocked write (to between WriteTimeout/2 and
	// WriteTimeout), without a timer update on every event.
	var deadline time.Time
	write := func(b []byte) bool {
		if now := time.Now(); deadline.Sub(now) < s.opts.WriteTimeout/2 {
			deadline = now.Add(s.opts.WriteTimeout)
			_ = rc.SetWriteDeadline(deadline) // unsupported by some writers; best effort
		}
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	// send writes f as a patch if the stream shows the view it changes,
	// else whole, with the age of the view (ms since it was rendered), so
	// that a running clock is counted down from when the state arrived.
	// The event goes in one piece: one chunk, one write to the socket.
	send := func(f, last *frame) bool {
		event, body := s.encoding(f, last)
		bp := eventBufs.Get().(*[]byte)
		b := append((*bp)[:0], event...)
		b = strconv.AppendInt(append(b, `{"age":`...), max(0, s.now().Sub(f.made).Milliseconds()), 10)
		b = append(append(append(b, ','), body...), sseEnd...)
		ok := write(b)
		if cap(b) <= maxPooledEvent {
			*bp = b
			eventBufs.Put(bp)
		}
		return ok
	}
	if !write([]byte("retry: 1000\n\n")) || !send(cur, nil) {
		return
	}
	last := cur
	tick := time.NewTicker(s.opts.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-c.gone:
			return
		case f := <-c.ch:
			// Only the latest view matters: skip to it (whole, if a view
			// was skipped).
			for more := true; more; {
				select {
				case g := <-c.ch:
					f = g
				default:
					more = false
				}
			}
			if f == last {
				continue
			}
			if !send(f, last) {
				return
			}
			last = f
		case <-tick.C:
			if !write([]byte(": ping\n\n")) {
				return
			}
		}
	}
}

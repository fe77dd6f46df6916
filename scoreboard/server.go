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
	age := max(0, s.now().Sub(f.Made).Milliseconds())
	d := pageData{Title: "zertzboard", Board: board, Seq: f.Seq, Ver: f.Ver,
		HTML: template.HTML(view.AgedClocks(f.HTML, age)), Events: "/events",
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

// serveEvents streams a view in the page's language through the hub
// (stream.Hub.Serve): the current one at once, then every change. A
// browser that falls ClientBuffer updates behind is dropped; its
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
	s.hub.Serve(w, r, c, cur)
}

package scoreboard

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"time"
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
// browser sources).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(webFS, "web/static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /events", s.serveEvents)
	mux.HandleFunc("GET /board/{id}/state.json", func(w http.ResponseWriter, r *http.Request) {
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
		s.servePage(w, r, r.PathValue("id"))
	})
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		s.servePage(w, r, r.URL.Query().Get("board"))
	})
	return mux
}

type pageData struct {
	Title   string
	Board   string
	Overlay bool
	Events  string
	Seq     uint64
	HTML    template.HTML
}

// servePage writes the page with the current view already in it, so a
// late joiner sees the board before the event stream opens.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request, board string) {
	html, seq := s.Current(board)
	d := pageData{Title: "zertzboard", Board: board, Seq: seq, HTML: template.HTML(html), Events: "/events"}
	if board != "" {
		d.Title = board + " · zertzboard"
		d.Events = "/events?board=" + url.QueryEscape(board)
	}
	switch r.URL.Query().Get("overlay") {
	case "1", "true", "yes", "on":
		d.Overlay = true
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	// Everything is escaped; this is the second line of defence against a
	// hostile player name.
	h.Set("Content-Security-Policy", "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	if err := shell.Execute(w, d); err != nil {
		s.log.Debug("scoreboard: writing the page", "err", err)
	}
}

// serveEvents streams a view: the current one at once, then every change.
// A browser that falls ClientBuffer updates behind is dropped; its
// EventSource reconnects and starts again from the current view.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	c, cur := s.subscribe(r.URL.Query().Get("board"))
	if c == nil {
		http.Error(w, "the scoreboard is shutting down", http.StatusServiceUnavailable)
		return
	}
	defer s.unsubscribe(c)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	write := func(b []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(s.opts.WriteTimeout)) // unsupported by some writers; best effort
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !write([]byte("retry: 1000\n\n")) || !write(cur.sse) {
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
			// Only the latest view matters: skip to it.
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
			if !write(f.sse) {
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

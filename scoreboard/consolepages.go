package scoreboard

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"time"

	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/internal/boardid"
	"github.com/zertzboard/zertzboard/scoreboard/console"
	"github.com/zertzboard/zertzboard/scoreboard/results"
	"github.com/zertzboard/zertzboard/scoreboard/view"
)

// initOps makes the parts of the console and results that need no
// configuration; called by New.
func (s *Server) initOps() {
	s.obs = newObserver(nil)
	now := func() time.Time { return s.obs.now() }
	s.res = results.NewStore(0, s.log, now)
	s.obs.onOver = func(b *opBoard) { s.res.Add(finishedOf(b)) }
}

// OpenResults keeps the finished games in dir, one file per game, and
// reads the ones kept there before, so a restart loses none; max bounds
// those held in memory (0: DefaultMaxResults). Call it before the
// scoreboard handles messages.
func (s *Server) OpenResults(dir string, max int) error {
	if max > 0 {
		s.res.Max = max
	}
	return s.res.Load(dir)
}

// EnableConsole turns the arbiter console on. Call it before Handler.
func (s *Server) EnableConsole(cfg ConsoleConfig) error {
	u, err := url.Parse(cfg.Broker)
	if err != nil || u.Host == "" {
		return fmt.Errorf("scoreboard: console broker URL %q: want tcp://host:port, ssl://, ws:// or wss://", cfg.Broker)
	}
	switch u.Scheme {
	case "tcp", "mqtt", "ssl", "tls", "mqtts", "ws", "wss":
	default:
		return fmt.Errorf("scoreboard: console broker URL %q: scheme must be tcp, ssl, ws or wss", cfg.Broker)
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = 8
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 30 * time.Minute
	}
	if cfg.ReplyTimeout <= 0 {
		cfg.ReplyTimeout = 10 * time.Second
	}
	if cfg.LoginTimeout <= 0 {
		cfg.LoginTimeout = 10 * time.Second
	}
	if cfg.ProbeTimeout <= 0 {
		cfg.ProbeTimeout = cfg.LoginTimeout
	}
	c := console.New(cfg, s.opts.Prefix, s.log, s.obs.now)
	s.ops = c
	go func() { // log out idle sessions, and all at Close
		tick := time.NewTicker(time.Minute)
		defer tick.Stop()
		for {
			select {
			case <-s.done:
				c.CloseAll()
				return
			case <-tick.C:
				c.Sweep()
			}
		}
	}()
	return nil
}

// consolePages is the console's template in each language.
var consolePages = pageTemplates("web/console.html")

// pageTemplates parses a page once per language, with "t" translating.
func pageTemplates(name string) map[i18n.Lang]*template.Template {
	out := map[i18n.Lang]*template.Template{}
	for _, l := range i18n.All {
		out[l] = template.Must(template.New(path.Base(name)).Funcs(template.FuncMap{"t": l.T}).ParseFS(webFS, name))
	}
	return out
}

// langChecked answers 400, naming the languages, for a ?lang= that is
// none of them, as the scoreboard's other pages do (pageLang).
func langChecked(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, err := pageLang(r); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		h(w, r)
	}
}

// opsLang is a console or results request's language: ?lang=, else the
// browser's Accept-Language, else English.
func opsLang(r *http.Request) i18n.Lang {
	if l, err := i18n.Parse(r.URL.Query().Get("lang")); err == nil {
		return l
	}
	return i18n.FromAcceptLanguage(r.Header.Get("Accept-Language"))
}

// opsLangLink is one entry of a page's language picker.
type opsLangLink struct {
	Lang    i18n.Lang
	Name    string
	URL     string
	Current bool
}

func opsLangLinks(r *http.Request, cur i18n.Lang) []opsLangLink {
	links := make([]opsLangLink, len(i18n.All))
	for i, l := range i18n.All {
		links[i] = opsLangLink{Lang: l, Name: l.Name(), URL: r.URL.Path + "?lang=" + string(l), Current: l == cur}
	}
	return links
}

// withLang is path with ?lang=l.
func withLang(path string, l i18n.Lang) string { return path + "?lang=" + string(l) }

type consoleData struct {
	Lang    i18n.Lang
	Langs   []opsLangLink
	Enabled bool
	User    string
	CSRF    string
	Error   string
	Seq     uint64
	HTML    template.HTML
}

func consoleHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	// Browsers send "Origin: null" from a page whose policy is
	// no-referrer (Secure's), and the console's own requests must show
	// where they come from; other sites still learn nothing.
	h.Set("Referrer-Policy", "same-origin")
}

func (s *Server) consoleRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /console", langChecked(s.serveConsole))
	mux.HandleFunc("POST /console/login", langChecked(s.serveLogin))
	mux.HandleFunc("POST /console/logout", langChecked(s.serveLogout))
	mux.HandleFunc("POST /console/act", langChecked(s.serveAct))
	mux.HandleFunc("GET /console/events", langChecked(s.serveConsoleEvents))
}

// renderLogin writes the log-in page, with the message key (and args)
// as its error if key is not "".
func (s *Server) renderLogin(w http.ResponseWriter, r *http.Request, status int, key string, args ...any) {
	l := opsLang(r)
	d := consoleData{Lang: l, Langs: opsLangLinks(r, l), Enabled: s.ops != nil}
	if key != "" {
		d.Error = l.T(key, args...)
	}
	consoleHeaders(w)
	w.WriteHeader(status)
	if err := consolePages[l].Execute(w, d); err != nil {
		s.log.Debug("scoreboard: writing the console", "err", err)
	}
}

func (s *Server) serveConsole(w http.ResponseWriter, r *http.Request) {
	if s.ops == nil {
		s.renderLogin(w, r, http.StatusNotFound, "console.off")
		return
	}
	se := s.ops.Lookup(r)
	if se == nil {
		s.renderLogin(w, r, http.StatusOK, "")
		return
	}
	l := opsLang(r)
	html, seq := s.renderConsole(l)
	consoleHeaders(w)
	d := consoleData{Lang: l, Langs: opsLangLinks(r, l), Enabled: true, User: se.User(), CSRF: se.CSRF(), Seq: seq, HTML: template.HTML(html)}
	if err := consolePages[l].Execute(w, d); err != nil {
		s.log.Debug("scoreboard: writing the console", "err", err)
	}
}

func (s *Server) serveLogin(w http.ResponseWriter, r *http.Request) {
	if s.ops == nil {
		http.Error(w, "scoreboard: the arbiter console is off", http.StatusNotFound)
		return
	}
	addr := console.RemoteHost(r)
	if !console.SameOrigin(r) {
		s.log.Warn("console: cross-origin log-in refused", "remote", addr, "origin", view.ClipText(r.Header.Get("Origin"), 100))
		s.renderLogin(w, r, http.StatusForbidden, "console.err-origin")
		return
	}
	if !s.ops.AllowLogin(addr) {
		s.log.Warn("console: log-in rate-limited", "remote", addr)
		w.Header().Set("Retry-After", strconv.Itoa(int(console.LoginEvery.Seconds())))
		s.renderLogin(w, r, http.StatusTooManyRequests, "console.err-rate")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, console.MaxActionBody)
	if err := r.ParseForm(); err != nil {
		s.renderLogin(w, r, http.StatusBadRequest, "console.err-form")
		return
	}
	user, pass := r.PostForm.Get("user"), r.PostForm.Get("password")
	if user == "" || pass == "" || console.CheckText("user", user, 64) != nil || len(pass) > 256 {
		s.renderLogin(w, r, http.StatusBadRequest, "console.err-missing")
		return
	}
	_, token, err := s.ops.Login(user, pass, addr)
	if err != nil {
		le, ok := err.(*console.LoginError)
		if !ok {
			le = console.BrokerErr(err.Error())
		}
		s.log.Warn("console: log-in refused", "operator", user, "remote", addr, "reason", err.Error())
		if le.Status == http.StatusServiceUnavailable {
			// Refused for want of a session, not for the password: no
			// guess was made.
			s.ops.RefundLogin(addr)
		}
		s.renderLogin(w, r, le.Status, le.Key, le.Args...)
		return
	}
	s.ops.RefundLogin(addr) // only failures count against an address
	if old := s.ops.Lookup(r); old != nil {
		// Logging in again ends the session the browser had.
		s.ops.Logout(old)
		s.log.Info("console: earlier session ended by a new log-in", "operator", old.User(), "remote", addr)
	}
	s.log.Info("console: logged in", "operator", user, "remote", addr)
	http.SetCookie(w, &http.Cookie{Name: console.SessionCookie, Value: token, Path: "/console", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	http.Redirect(w, r, withLang("/console", opsLang(r)), http.StatusSeeOther)
}

// authorise checks a state-changing console request: same origin, a
// session, and its CSRF token (header X-CSRF-Token or form field csrf).
func (s *Server) authorise(w http.ResponseWriter, r *http.Request) *console.Session {
	if s.ops == nil {
		http.Error(w, "scoreboard: the arbiter console is off", http.StatusNotFound)
		return nil
	}
	if !console.SameOrigin(r) {
		s.log.Warn("console: cross-origin request refused", "path", r.URL.Path, "remote", console.RemoteHost(r), "origin", view.ClipText(r.Header.Get("Origin"), 100))
		writeJSON(w, http.StatusForbidden, console.ActionResult{Outcome: "invalid", Reason: "cross-origin request refused"})
		return nil
	}
	se := s.ops.Lookup(r)
	if se == nil {
		writeJSON(w, http.StatusUnauthorized, console.ActionResult{Outcome: "invalid", Reason: "not logged in (or the session expired)"})
		return nil
	}
	r.Body = http.MaxBytesReader(w, r.Body, console.MaxActionBody)
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, console.ActionResult{Outcome: "invalid", Reason: "the form is too large or malformed"})
		return nil
	}
	tok := r.Header.Get("X-CSRF-Token")
	if tok == "" {
		tok = r.PostForm.Get("csrf")
	}
	if len(tok) != len(se.CSRF()) || !constantEqual(tok, se.CSRF()) {
		s.log.Warn("console: request without the session's CSRF token", "operator", se.User(), "remote", console.RemoteHost(r))
		writeJSON(w, http.StatusForbidden, console.ActionResult{Outcome: "invalid", Reason: "missing or wrong CSRF token"})
		return nil
	}
	return se
}

func constantEqual(a, b string) bool {
	ha, hb := sha256.Sum256([]byte(a)), sha256.Sum256([]byte(b))
	return ha == hb
}

func (s *Server) serveLogout(w http.ResponseWriter, r *http.Request) {
	se := s.authorise(w, r)
	if se == nil {
		return
	}
	s.ops.Logout(se)
	s.log.Info("console: logged out", "operator", se.User(), "remote", console.RemoteHost(r))
	http.SetCookie(w, &http.Cookie{Name: console.SessionCookie, Value: "", Path: "/console", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, withLang("/console", opsLang(r)), http.StatusSeeOther)
}

func (s *Server) serveAct(w http.ResponseWriter, r *http.Request) {
	se := s.authorise(w, r)
	if se == nil {
		return
	}
	l := opsLang(r)
	if pl, err := i18n.Parse(r.PostForm.Get("lang")); err == nil {
		l = pl
	}
	action := r.PostForm.Get("action")
	board := r.PostForm.Get("board")
	if !boardid.Valid(board) {
		res := console.ActionResult{Outcome: "invalid", Reason: fmt.Sprintf("board %q is not a valid board ID", view.ClipText(board, 70))}
		res.Text = res.Describe(action, l)
		writeJSON(w, http.StatusBadRequest, res)
		return
	}
	cmd, err := console.BuildCommand(r.PostForm)
	if err != nil {
		res := console.ActionResult{Board: board, Outcome: "invalid", Reason: err.Error()}
		res.Text = res.Describe(action, l)
		writeJSON(w, http.StatusBadRequest, res)
		return
	}
	res, status := s.ops.Act(se, board, cmd)
	s.log.Info("console: action", "operator", se.User(), "remote", console.RemoteHost(r), "board", board, "command", res.Command, "id", res.ID,
		"outcome", res.Outcome, "reason", res.Reason)
	res.Text = res.Describe(action, l)
	writeJSON(w, status, res)
}

// consoleEvent encodes the console's list as one SSE "view" event,
// {"seq":…,"html":…}; JSON keeps the HTML on one data line.
func consoleEvent(seq uint64, html string) []byte {
	var buf bytes.Buffer
	buf.WriteString("event: view\ndata: ")
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	_ = e.Encode(struct {
		Seq  uint64 `json:"seq"`
		HTML string `json:"html"`
	}{seq, html})
	buf.WriteString("\n") // Encode ended the data line
	return buf.Bytes()
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// serveConsoleEvents streams the console's board list as server-sent
// "view" events, re-rendered at each change (coalesced); it keeps the
// session alive while open.
func (s *Server) serveConsoleEvents(w http.ResponseWriter, r *http.Request) {
	if s.ops == nil {
		http.Error(w, "scoreboard: the arbiter console is off", http.StatusNotFound)
		return
	}
	se := s.ops.Lookup(r)
	if se == nil {
		http.Error(w, "scoreboard: not logged in", http.StatusUnauthorized)
		return
	}
	l := opsLang(r)
	if !s.ops.OpenStream(se) {
		http.Error(w, fmt.Sprintf("scoreboard: too many console pages open (at most %d per operator)", console.MaxSessionStreams), http.StatusServiceUnavailable)
		return
	}
	defer s.ops.CloseStream(se)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	write := func(b []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(s.opts.WriteTimeout))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !write([]byte("retry: 1000\n\n")) {
		return
	}
	tick := time.NewTicker(s.opts.Heartbeat)
	defer tick.Stop()
	for {
		wake, _ := s.obs.changes()
		html, seq := s.renderConsole(l)
		if !write(consoleEvent(seq, html)) {
			return
		}
		for waiting := true; waiting; {
			select {
			case <-r.Context().Done():
				return
			case <-s.done:
				return
			case <-wake:
				waiting = false
			case <-tick.C:
				if s.ops.Lookup(r) == nil { // logged out or expired
					return
				}
				if !write([]byte(": ping\n\n")) {
					return
				}
			}
		}
	}
}

// ConsoleConfig is the arbiter console's settings (package console).
type ConsoleConfig = console.Config

package scoreboard

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/scoreboard/console"
	"github.com/zertzboard/zertzboard/wire"
)

var opsUsers = []broker.User{
	{Name: "board", Password: "board-pw", Role: broker.RoleBoard},
	{Name: "arbiter", Password: "arbiter-pw", Role: broker.RoleOperator},
	{Name: "watcher", Password: "watcher-pw", Role: broker.RoleViewer},
}

// startOpsBroker is the embedded broker with a board, an operator and a
// viewer account.
func startOpsBroker(t testing.TB) *broker.Broker {
	t.Helper()
	return startBrokerWith(t, opsUsers)
}

// fakeClock is a settable time for the console's limiter, sessions and
// alerts.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

type consoleRig struct {
	t     *testing.T
	mb    *broker.Broker
	s     *Server
	url   string
	clock *fakeClock
	log   *syncBuffer // the scoreboard's log
}

// newConsoleRig serves a scoreboard with the console on, following the
// embedded broker; cfg's Broker is filled in.
func newConsoleRig(t *testing.T, cfg ConsoleConfig) *consoleRig {
	t.Helper()
	mb := startOpsBroker(t)
	logBuf := &syncBuffer{}
	var out io.Writer = logBuf
	if testing.Verbose() {
		out = io.MultiWriter(logBuf, os.Stderr)
	}
	s := New(Options{Logger: slog.New(slog.NewTextHandler(out, nil))})
	clock := &fakeClock{t: time.Date(2026, 11, 23, 1, 0, 0, 0, time.UTC)}
	s.obs.now = clock.now
	cfg.Broker = "tcp://" + mb.TCPAddr()
	if err := s.EnableConsole(cfg); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	follow(t, s, mb)
	return &consoleRig{t: t, mb: mb, s: s, url: srv.URL, clock: clock, log: logBuf}
}

// browserClient is an HTTP client with a cookie jar that does not follow
// redirects, sending Origin as a browser on the console's page would.
type browserClient struct {
	t      testing.TB
	hc     *http.Client
	base   string
	origin string
	csrf   string
}

func (r *consoleRig) client() *browserClient {
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, Timeout: 2 * wait, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &browserClient{t: r.t, hc: hc, base: r.url, origin: r.url}
}

func (c *browserClient) post(path string, form url.Values, header map[string]string) (*http.Response, string) {
	c.t.Helper()
	req, _ := http.NewRequest("POST", c.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if c.origin != "" {
		req.Header.Set("Origin", c.origin)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

func (c *browserClient) get(path string) (*http.Response, string) {
	c.t.Helper()
	resp, err := c.hc.Get(c.base + path)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

var csrfAttr = regexp.MustCompile(`data-csrf="([0-9a-f]+)"`)

// login logs in and reads the session's CSRF token from the console page.
func (c *browserClient) login(user, pass string) (*http.Response, string) {
	c.t.Helper()
	resp, body := c.post("/console/login", url.Values{"user": {user}, "password": {pass}}, nil)
	if resp.StatusCode == http.StatusSeeOther {
		_, page := c.get("/console")
		if m := csrfAttr.FindStringSubmatch(page); m != nil {
			c.csrf = m[1]
		}
	}
	return resp, body
}

func (c *browserClient) act(board, action string, fields url.Values) (int, console.ActionResult) {
	c.t.Helper()
	if fields == nil {
		fields = url.Values{}
	}
	fields.Set("board", board)
	fields.Set("action", action)
	resp, body := c.post("/console/act", fields, map[string]string{"X-CSRF-Token": c.csrf})
	var r console.ActionResult
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		c.t.Fatalf("action %s: %s: %q", action, resp.Status, body)
	}
	return resp.StatusCode, r
}

// TestConsoleLogin: only the broker's operator accounts get a session,
// and its cookie is HttpOnly, SameSite=Strict and scoped to /console.
func TestConsoleLogin(t *testing.T) {
	r := newConsoleRig(t, ConsoleConfig{})
	closeBrokerFirst(t, r.mb)
	for _, tc := range []struct {
		user, pass string
		status     int
		says       string
	}{
		{"watcher", "watcher-pw", http.StatusForbidden, "not an operator"},
		{"board", "board-pw", http.StatusForbidden, "not an operator"},
		{"arbiter", "wrong", http.StatusUnauthorized, "wrong user name or password"},
		{"nobody", "x", http.StatusUnauthorized, "wrong user name or password"},
		{"", "", http.StatusBadRequest, "user name and password"},
	} {
		r.clock.add(console.LoginEvery) // one attempt more allowed each time
		c := r.client()
		resp, body := c.login(tc.user, tc.pass)
		if resp.StatusCode != tc.status || !strings.Contains(body, tc.says) {
			t.Errorf("log-in as %q: %s, %q; want %d saying %q", tc.user, resp.Status, body, tc.status, tc.says)
		}
		if len(resp.Cookies()) != 0 {
			t.Errorf("log-in as %q set cookies %v", tc.user, resp.Cookies())
		}
		if _, page := c.get("/console"); !strings.Contains(page, `name="password"`) || strings.Contains(page, "data-csrf") {
			t.Errorf("after a refused log-in as %q the console is not the log-in form", tc.user)
		}
	}
	c := r.client()
	resp, body := c.login("arbiter", "arbiter-pw")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/console?lang=") {
		t.Fatalf("operator log-in: %s %q", resp.Status, body)
	}
	ck := resp.Cookies()
	if len(ck) != 1 || ck[0].Name != console.SessionCookie || !ck[0].HttpOnly || ck[0].SameSite != http.SameSiteStrictMode || ck[0].Path != "/console" || len(ck[0].Value) != 64 {
		t.Errorf("session cookie %+v; want one HttpOnly SameSite=Strict cookie on /console with a 256-bit token", ck)
	}
	if c.csrf == "" {
		t.Fatal("the console page has no CSRF token")
	}
	page, pbody := c.get("/console")
	if !strings.Contains(pbody, `id="operator">arbiter<`) || page.Header.Get("X-Frame-Options") != "DENY" ||
		!strings.Contains(page.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Errorf("console page: headers %v; want the operator's name, no framing", page.Header)
	}
	// Log-out ends the session: the cookie no longer acts.
	old := c.csrf
	resp, _ = c.post("/console/logout", url.Values{"csrf": {old}}, nil)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("log-out: %s", resp.Status)
	}
	if status, res := c.act("t1", "pause", nil); status != http.StatusUnauthorized {
		t.Errorf("an action after log-out: %d %+v; want 401", status, res)
	}
}

// TestConsoleAuthorisation: viewers cannot act. A viewer cannot log in
// (above); without a session, with another origin or without the CSRF
// token an action is refused and never reaches the board; a viewer's own
// MQTT publish to cmd/ never reaches the board either.
func TestConsoleAuthorisation(t *testing.T) {
	r := newConsoleRig(t, ConsoleConfig{})
	rec, rep := sampleGame(t, 10)
	states := gameStates(t, rec, rep, "t1")
	fb := newFakeBoard(t, "tcp://"+r.mb.TCPAddr(), "board", "board-pw", "t1", states[3], nil)
	viewer := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + r.mb.TCPAddr()).SetClientID("viewer-1").
		SetUsername("watcher").SetPassword("watcher-pw").SetAutoReconnect(false).SetConnectTimeout(wait))
	if tok := viewer.Connect(); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	t.Cleanup(func() { viewer.Disconnect(50) })
	closeBrokerFirst(t, r.mb)

	anon := r.client()
	if status, res := anon.act("t1", "pause", nil); status != http.StatusUnauthorized || res.Outcome != "invalid" {
		t.Errorf("no session: %d %+v; want 401", status, res)
	}
	op := r.client()
	if resp, body := op.login("arbiter", "arbiter-pw"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("log-in: %s %s", resp.Status, body)
	}
	// Cross-origin: the session's cookie and even its token, from another
	// site's page.
	evil := *op
	evil.origin = "http://evil.example"
	if status, res := evil.act("t1", "pause", nil); status != http.StatusForbidden || !strings.Contains(res.Reason, "cross-origin") {
		t.Errorf("cross-origin action: %d %+v; want 403", status, res)
	}
	resp, _ := evil.post("/console/logout", url.Values{"csrf": {op.csrf}}, nil)
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin log-out: %s; want 403", resp.Status)
	}
	site := *op
	site.origin = ""
	// No Origin (not a browser, so no forgery) but the session's token:
	// allowed.
	if status, res := site.act("t1", "pause", nil); status != http.StatusOK || res.Outcome != "accepted" {
		t.Errorf("a same-site client without Origin: %d %+v; want accepted", status, res)
	}
	nocsrf := *op
	flip := "0"
	if op.csrf[0] == '0' {
		flip = "1"
	}
	nocsrf.csrf = flip + op.csrf[1:] // one hex digit off
	if status, res := nocsrf.act("t1", "pause", nil); status != http.StatusForbidden || !strings.Contains(res.Reason, "CSRF") {
		t.Errorf("wrong CSRF token: %d %+v; want 403", status, res)
	}
	resp, _ = r.client().post("/console/login", url.Values{"user": {"arbiter"}, "password": {"arbiter-pw"}}, map[string]string{"Origin": "http://evil.example"})
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin log-in: %s; want 403", resp.Status)
	}

	// A viewer's publish to cmd/ (QoS 0: the broker drops it quietly).
	viewer.Publish("zertz/t1/cmd/pause", 0, false, `{"id":"from-viewer"}`).WaitTimeout(wait)
	// Then the operator's resume, through the console: once the board has
	// it, the viewer's earlier publish would have arrived too.
	if status, res := op.act("t1", "resume", nil); status != http.StatusOK || res.Outcome != "accepted" {
		t.Fatalf("resume: %d %+v", status, res)
	}
	got := fb.received()
	want := []string{"pause", "resume"} // the no-Origin pause, then the resume
	var names []string
	for _, c := range got {
		names = append(names, strings.Fields(c)[0])
		if strings.Contains(c, "from-viewer") {
			t.Errorf("a viewer's command reached the board: %s", c)
		}
	}
	if !slices.Equal(names, want) {
		t.Errorf("the board received %q; want %q (every refused request reached it?)", got, want)
	}
}

// TestConsoleActions: each action is a command with an id on the
// operator's connection, the board's reply is awaited and reported, and
// the state it publishes shows in the console.
func TestConsoleActions(t *testing.T) {
	r := newConsoleRig(t, ConsoleConfig{})
	rec, rep := sampleGame(t, 10)
	states := gameStates(t, rec, rep, "t1")
	fb := newFakeBoard(t, "tcp://"+r.mb.TCPAddr(), "board", "board-pw", "t1", states[6], recordUpTo(rec, rep, 6))
	closeBrokerFirst(t, r.mb)
	op := r.client()
	op.login("arbiter", "arbiter-pw")
	waitFor(t, r.s, "the board in the console", func() bool { h, _ := r.s.renderConsole(i18n.EN); return strings.Contains(h, `data-board="t1"`) })

	cases := []struct {
		action  string
		fields  url.Values
		outcome string
		payload string // what the board must receive
	}{
		{"pause", nil, "accepted", `"id":"console-`},
		{"pause", nil, "refused", ""},
		{"add-time", url.Values{"player": {"1"}, "seconds": {"30"}}, "accepted", `"ms":30000,"player":1`},
		// The same players (the record names them), with the round.
		{"set-players", url.Values{"player0": {states[6].Players[0]}, "player1": {states[6].Players[1]}, "event": {"Club Open"}, "round": {"3"}}, "accepted", `"round":"3"`},
		{"resume", nil, "accepted", ""},
		{"takeback-accept", nil, "refused", `"accept":true`},
		{"answer", url.Values{"question": {"3"}, "option": {"1"}}, "refused", `"option":1,"question":3`},
		{"declare-result", url.Values{"result": {"resignation"}, "winner": {"0"}, "note": {"P2 resigned at the board"}}, "accepted", `"note":"P2 resigned at the board","result":"resignation","winner":0`},
	}
	for i, tc := range cases {
		status, res := op.act("t1", tc.action, tc.fields)
		if status != http.StatusOK || res.Outcome != tc.outcome || !strings.HasPrefix(res.ID, "console-") {
			t.Fatalf("%s: %d %+v; want %s", tc.action, status, res, tc.outcome)
		}
		got := fb.received()
		if len(got) != i+1 || !strings.Contains(got[i], tc.payload) || !strings.Contains(got[i], res.ID) {
			t.Fatalf("%s: the board received %q; want %d commands, the last with %s and id %s", tc.action, got, i+1, tc.payload, res.ID)
		}
		if tc.outcome == "refused" && res.Reason == "" {
			t.Errorf("%s refused without a reason", tc.action)
		}
		if i == 0 {
			waitFor(t, r.s, "paused in the console", func() bool {
				h, _ := r.s.renderConsole(i18n.EN)
				return strings.Contains(h, `data-paused="true"`) && strings.Contains(h, `data-act="resume"`)
			})
		}
	}
	if st := fb.state(); st.Clock.Remaining[1] != 630000 || st.Phase != "over" || st.ResultNote == "" {
		t.Errorf("the board's state %+v after the actions", st.Clock)
	}
	// Each action is logged: operator, board, command, id, outcome.
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`msg="console: action" operator=arbiter remote=127\.0\.0\.1 board=t1 command=pause id=console-[0-9a-f]{16} outcome=accepted`),
		regexp.MustCompile(`msg="console: action" operator=arbiter remote=127\.0\.0\.1 board=t1 command=pause id=console-[0-9a-f]{16} outcome=refused reason="already paused or over"`),
		regexp.MustCompile(`msg="console: action" operator=arbiter .* command=declare-result id=console-[0-9a-f]{16} outcome=accepted`),
	} {
		if !want.MatchString(r.log.String()) {
			t.Errorf("the log lacks %s:\n%s", want, r.log.String())
		}
	}

	// The declared result reaches the results.
	waitFor(t, r.s, "the result", func() bool { g, _ := r.s.res.List(); return len(g) == 1 })
	g, _ := r.s.res.List()
	if g[0].GameID != "t1-1" || g[0].Reason != "resignation" || g[0].Winner == nil || *g[0].Winner != 0 || g[0].Note != "P2 resigned at the board" {
		t.Errorf("result %+v", g[0])
	}

	// A new game, then a take-back request (tournament): shown with its
	// answers; accepted.
	if status, res := op.act("t1", "new-game", url.Values{"player0": {"Ann"}, "player1": {"Bob"}, "time_control": {"fischer:20m+10s"}, "first": {"1"}}); status != http.StatusOK || res.Outcome != "accepted" {
		t.Fatalf("new-game: %d %+v", status, res)
	}
	if got := fb.received(); !strings.Contains(got[len(got)-1], `"first":1,"id":"console-`) || !strings.Contains(got[len(got)-1], `"players":["Ann","Bob"],"time_control":"fischer:20m+10s"`) {
		t.Errorf("the board received %q", got[len(got)-1])
	}
	// The arbiter's note goes to the board as the note command, trimmed.
	if status, res := op.act("t1", "note", url.Values{"text": {" clock replaced after turn 12 "}}); status != http.StatusOK || res.Outcome != "accepted" || res.Command != "note" {
		t.Fatalf("note: %d %+v", status, res)
	}
	if got := fb.received(); !strings.HasSuffix(got[len(got)-1], `"text":"clock replaced after turn 12"}`) || !strings.HasPrefix(got[len(got)-1], "note {") {
		t.Errorf("the board received %q", got[len(got)-1])
	}
	// A game against the engine: its player and level go to the board.
	if status, res := op.act("t1", "new-game", url.Values{"engine": {"1"}, "level": {"3"}}); status != http.StatusOK || res.Outcome != "accepted" {
		t.Fatalf("new-game against the engine: %d %+v", status, res)
	}
	if got := fb.received(); !strings.Contains(got[len(got)-1], `"engine":"1"`) || !strings.Contains(got[len(got)-1], `"level":3`) {
		t.Errorf("the board received %q", got[len(got)-1])
	}
	fb.mu.Lock()
	fb.st.Takeback = &wire.TakebackRequest{Turn: fb.st.Turn, By: 1}
	fb.st.Seq++
	fb.publishStateLocked()
	fb.mu.Unlock()
	waitFor(t, r.s, "the request in the console", func() bool {
		h, _ := r.s.renderConsole(i18n.EN)
		return strings.Contains(h, `data-takeback="true"`) && strings.Contains(h, `data-act="takeback-accept"`) && strings.Contains(h, "take-back requested by")
	})
	if status, res := op.act("t1", "takeback-accept", nil); status != http.StatusOK || res.Outcome != "accepted" {
		t.Fatalf("accepting the request: %d %+v", status, res)
	}
	waitFor(t, r.s, "the request gone", func() bool { h, _ := r.s.renderConsole(i18n.EN); return strings.Contains(h, `data-takeback="false"`) })
	if got := fb.received(); !strings.Contains(got[len(got)-1], `"accept":true`) {
		t.Errorf("the board received %q", got[len(got)-1])
	}

	// Bad input is refused before anything is sent.
	for _, tc := range []struct {
		board, action string
		fields        url.Values
		says          string
	}{
		{"t1", "explode", nil, "unknown action"},
		{"t 1", "pause", nil, "not a valid board ID"},
		{"t1", "add-time", url.Values{"player": {"2"}, "seconds": {"3"}}, "player must be 0 or 1"},
		{"t1", "add-time", url.Values{"player": {"0"}, "seconds": {"3601"}}, "want 1 to 3600"},
		{"t1", "declare-result", url.Values{"result": {"draw"}, "winner": {"1"}}, "a draw has none"},
		{"t1", "declare-result", url.Values{"result": {"time"}}, "winner must be 0 or 1"},
		{"t1", "declare-result", url.Values{"result": {"draw"}, "note": {strings.Repeat("x", 201)}}, "longer than 200"},
		{"t1", "declare-result", url.Values{"result": {"draw"}, "note": {"a\x07b"}}, "control character"},
		{"t1", "new-game", url.Values{"player0": {"ann"}}, "name both players"},
		{"t1", "new-game", url.Values{"variant": {"9x"}}, "variant"},
		{"t1", "new-game", url.Values{"engine": {"2"}}, "engine \"2\": want 0 or 1"},
		{"t1", "new-game", url.Values{"engine": {"0"}, "level": {"11"}}, "level \"11\": want an engine level from 1 to 10"},
		{"t1", "answer", url.Values{"question": {"0"}, "option": {"1"}}, "the open question's number"},
		{"t1", "answer", url.Values{"question": {"2"}, "option": {"64"}}, "0 to 63"},
	} {
		n := len(fb.received())
		status, res := op.act(tc.board, tc.action, tc.fields)
		if status != http.StatusBadRequest || res.Outcome != "invalid" || !strings.Contains(res.Reason, tc.says) {
			t.Errorf("%s %v: %d %+v; want 400 saying %q", tc.action, tc.fields, status, res, tc.says)
		}
		if len(fb.received()) != n {
			t.Errorf("%s %v reached the board", tc.action, tc.fields)
		}
	}
}

// TestConsoleNoReply: a board that does not answer (offline, or no such
// board) is "no reply" after ReplyTimeout.
func TestConsoleNoReply(t *testing.T) {
	r := newConsoleRig(t, ConsoleConfig{ReplyTimeout: 200 * time.Millisecond})
	closeBrokerFirst(t, r.mb)
	op := r.client()
	if resp, body := op.login("arbiter", "arbiter-pw"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("log-in: %s %s", resp.Status, body)
	}
	if status, res := op.act("ghost", "pause", nil); status != http.StatusGatewayTimeout || res.Outcome != "no reply" || !strings.Contains(res.Text, "no reply") {
		t.Errorf("an absent board: %d %+v; want 504, no reply", status, res)
	}
}

// TestConsoleLoginRateLimit: five attempts at once from an address, then
// one per loginEvery.
func TestConsoleLoginRateLimit(t *testing.T) {
	r := newConsoleRig(t, ConsoleConfig{})
	closeBrokerFirst(t, r.mb)
	c := r.client()
	for i := 0; i < console.LoginBurst; i++ {
		if resp, _ := c.login("arbiter", "nope"); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %s; want 401", i+1, resp.Status)
		}
	}
	resp, body := c.login("arbiter", "arbiter-pw")
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "Too many") {
		t.Fatalf("attempt %d: %s; want 429 with Retry-After", console.LoginBurst+1, resp.Status)
	}
	r.clock.add(console.LoginEvery)
	if resp, _ := c.login("arbiter", "arbiter-pw"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("after %v: %s; want a log-in", console.LoginEvery, resp.Status)
	}
	// A successful log-in does not count; failures do.
	if resp, _ := c.login("arbiter", "nope"); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a failure after the success: %s; want 401", resp.Status)
	}
	if resp, _ := c.login("arbiter", "arbiter-pw"); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the next at once: %s; want 429", resp.Status)
	}
}

// TestConsoleSessions: sessions are bounded, and expire when idle.
func TestConsoleSessions(t *testing.T) {
	r := newConsoleRig(t, ConsoleConfig{MaxSessions: 2, IdleTimeout: time.Minute})
	closeBrokerFirst(t, r.mb)
	a, b, c := r.client(), r.client(), r.client()
	for _, cl := range []*browserClient{a, b} {
		if resp, _ := cl.login("arbiter", "arbiter-pw"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("log-in: %s", resp.Status)
		}
	}
	if resp, body := c.login("arbiter", "arbiter-pw"); resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "log out elsewhere") {
		t.Fatalf("a third session: %s; want 503", resp.Status)
	}
	r.clock.add(30 * time.Second)
	a.get("/console") // a is active, b is not
	r.clock.add(45 * time.Second)
	if _, page := b.get("/console"); !strings.Contains(page, `name="password"`) {
		t.Error("an idle session still opens the console")
	}
	if _, page := a.get("/console"); !strings.Contains(page, "data-csrf") {
		t.Error("an active session was logged out")
	}
	if resp, _ := c.login("arbiter", "arbiter-pw"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("a session after one expired: %s", resp.Status)
	}
}

// TestConsoleAlerts: the console's list from a board's state and events:
// clocks, illegal boards (flagged after 10 s), touch-move, missed capture,
// sensor faults, take-back requests, offline.
func TestConsoleAlerts(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	clock := &fakeClock{t: time.Date(2026, 11, 23, 1, 0, 0, 0, time.UTC)}
	s.obs.now = clock.now
	rec, rep := sampleGame(t, 10)
	states := gameStates(t, rec, rep, "t1")
	ps := planState{State: states[5], GameID: "t1-7", Takeback: &wire.TakebackRequest{Turn: 5, By: 1}}
	ps.Players = [2]string{"ann", "bob"}
	rem := [2]int64{61000, 9500}
	run := 1
	ps.Clock = wire.Clock{Control: "fischer:20m+10s", Remaining: &rem, Running: &run}
	b, _ := json.Marshal(ps)
	s.Handle("zertz/t1/status", []byte("online"))
	s.Handle("zertz/t1/state", b)
	ev := func(v string) { s.Handle("zertz/t1/events", []byte(v)) }
	html, _ := s.renderConsole(i18n.EN)
	for _, want := range []string{`data-board="t1"`, ">ann<", ">bob<", `data-ms="61000"`, `data-ms="9500" data-running="true">0:09.5<`, ">1:01<",
		"fischer:20m+10s", "take-back requested by bob (turn 5)", `data-act="takeback-accept"`, `data-act="pause"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the console lacks %q:\n%s", want, html)
		}
	}
	ev(`{"t":1,"event":"illegal","player":0,"reason":"a marble was moved","rule":"placement","cells":[]}`)
	ev(`{"t":1,"event":"touch-move","player":0,"from":"A1","to":"B2"}`)
	ev(`{"t":1,"event":"fault","reason":"sensor faults: C3 stuck"}`)
	clock.add(9 * time.Second)
	html, _ = s.renderConsole(i18n.EN)
	for _, want := range []string{`class="alert illegal">illegal board: a marble was moved`, "touch-move A1→B2", "sensor faults: C3 stuck"} {
		if !strings.Contains(html, want) {
			t.Errorf("the console lacks %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, "illegal-long") {
		t.Error("an illegal board held 9 s is flagged as held too long")
	}
	clock.add(2 * time.Second)
	if html, _ = s.renderConsole(i18n.EN); !strings.Contains(html, "illegal board for 11 s") {
		t.Errorf("an illegal board held 11 s is not flagged:\n%s", html)
	}
	ev(`{"t":1,"event":"restored","player":0}`)
	ev(`{"t":1,"event":"fault","reason":"sensors healthy"}`)
	s.Handle("zertz/t1/status", []byte("offline"))
	html, _ = s.renderConsole(i18n.EN)
	if strings.Contains(html, "illegal") || strings.Contains(html, "sensor faults") || !strings.Contains(html, "board offline") {
		t.Errorf("after restored, healthy sensors and offline:\n%s", html)
	}
	// Missed capture: the state's latest turn.
	ps.Seq++
	ps.Missed = []int{ps.Turn}
	b, _ = json.Marshal(ps)
	s.Handle("zertz/t1/state", b)
	if html, _ = s.renderConsole(i18n.EN); !strings.Contains(html, "missed capture at turn") || strings.Contains(html, "touch-move") {
		t.Errorf("a missed capture, and the new state dropping the touch-move:\n%s", html)
	}
	// The referee asks: the question, an answer button per option; a
	// dead sensor.
	ps.Seq++
	ps.Question = &referee.Question{ID: 4, Turn: 9, About: "turns", Options: []string{"WD4-A1 GF2-G4", "GF2-G4 WD4-A1"}, Provisional: 0}
	ps.DeadCells = []string{"C3"}
	b, _ = json.Marshal(ps)
	s.Handle("zertz/t1/state", b)
	html, _ = s.renderConsole(i18n.EN)
	for _, want := range []string{"the referee asks about turn 9", `data-act="answer" data-question="4" data-option="1">GF2-G4 WD4-A1<`, "sensor fault at C3 (no reading, or stuck)"} {
		if !strings.Contains(html, want) {
			t.Errorf("the console lacks %q:\n%s", want, html)
		}
	}
	ps.Question = &referee.Question{ID: 5, Turn: 9, Cell: "D4", About: "colour", Options: []string{"w", "b"}}
	b, _ = json.Marshal(ps)
	s.Handle("zertz/t1/state", b)
	if html, _ = s.renderConsole(i18n.DE); !strings.Contains(html, `data-option="1">D4 schwarz<`) {
		t.Errorf("a colour question's answers in German:\n%s", html)
	}
	// A question about the socket a marble the board missed is on.
	ps.Question = &referee.Question{ID: 6, Turn: 9, About: "cell", Options: []string{"D4", "E5"}}
	b, _ = json.Marshal(ps)
	s.Handle("zertz/t1/state", b)
	if html, _ = s.renderConsole(i18n.EN); !strings.Contains(html, `data-option="1">marble on E5<`) {
		t.Errorf("a socket question's answers:\n%s", html)
	}
	ps.Question, ps.DeadCells = nil, nil
	// Hostile names are escaped.
	ps.Players = [2]string{`<script>x</script>`, "bob"}
	b, _ = json.Marshal(ps)
	s.Handle("zertz/t1/state", b)
	if html, _ = s.renderConsole(i18n.EN); strings.Contains(html, "<script>") {
		t.Error("a player name was not escaped")
	}
}

// recordUpTo is the record of a replayed game's first n turns.
func recordUpTo(rec *record.Record, rep *record.Replay, n int) *record.Record {
	r := &record.Record{Variant: rec.Variant, First: rec.First, Players: rec.Players, Event: rec.Event, Round: rec.Round}
	for i := 0; i < n; i++ {
		turn, _ := rep.Game.Turn(i)
		r.Turns = append(r.Turns, turn)
	}
	return r
}

// TestConsoleFormsNumberPlayersFromZero: every choice of a player in the
// console's forms says "Player N" for the value N, as the configuration,
// the pages and MQTT number them; and the players-and-round form asks
// for both names, the event and the round.
func TestConsoleFormsNumberPlayersFromZero(t *testing.T) {
	r := newConsoleRig(t, ConsoleConfig{})
	closeBrokerFirst(t, r.mb)
	c := r.client()
	c.login("arbiter", "arbiter-pw")
	_, page := c.get("/console")
	options := regexp.MustCompile(`<option value="([01])">([^<]*)</option>`).FindAllStringSubmatch(page, -1)
	if len(options) < 8 {
		t.Fatalf("%d player options in the console:\n%s", len(options), page)
	}
	for _, o := range options {
		if o[2] != "Player "+o[1] {
			t.Errorf("option %s reads %q", o[1], o[2])
		}
	}
	form := regexp.MustCompile(`(?s)<form class="act" data-action="set-players">.*?</form>`).FindString(page)
	for _, want := range []string{`name="player0"`, `name="player1"`, `name="event" maxlength="100"`, `name="round" maxlength="32"`} {
		if !strings.Contains(form, want) {
			t.Errorf("the players-and-round form lacks %s:\n%s", want, form)
		}
	}
}

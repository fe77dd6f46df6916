package scoreboard

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/scoreboard/console"
)

// openStream opens /console/events with the client's cookies and returns
// its status; the stream stays open until the test ends.
func (c *browserClient) openStream(t *testing.T) int {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", c.base+"/console/events", nil)
	hc := *c.hc
	hc.Timeout = 0
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp.StatusCode
}

// Finding: one operator session could open all 32 console event streams.
// A session holds at most 4; another operator still gets one.
func TestConsoleStreamsPerSession(t *testing.T) {
	r := newConsoleRig(t, ConsoleConfig{})
	closeBrokerFirst(t, r.mb)
	a, b := r.client(), r.client()
	for _, c := range []*browserClient{a, b} {
		if resp, body := c.login("arbiter", "arbiter-pw"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("log-in: %s %s", resp.Status, body)
		}
	}
	for i := 0; i < console.MaxSessionStreams; i++ {
		if st := a.openStream(t); st != http.StatusOK {
			t.Fatalf("stream %d of one session: %d", i+1, st)
		}
	}
	if st := a.openStream(t); st != http.StatusServiceUnavailable {
		t.Errorf("stream %d of one session: %d; want 503", console.MaxSessionStreams+1, st)
	}
	if st := b.openStream(t); st != http.StatusOK {
		t.Errorf("another operator's stream: %d; want 200", st)
	}
}

// Finding: a log-in refused with 503 (every session taken) before its
// password was checked still counted against the address's attempts.
func TestConsoleFullRefusalIsNotAnAttempt(t *testing.T) {
	r := newConsoleRig(t, ConsoleConfig{MaxSessions: 1})
	closeBrokerFirst(t, r.mb)
	if resp, body := r.client().login("arbiter", "arbiter-pw"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("log-in: %s %s", resp.Status, body)
	}
	c := r.client()
	for i := 0; i < 2*console.LoginBurst; i++ {
		if resp, _ := c.login("arbiter", "arbiter-pw"); resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("log-in %d with the one session taken: %s; want 503, never 429", i+2, resp.Status)
		}
	}
}

// Finding: logging in again left the old session alive. The new log-in
// ends it.
func TestLoginAgainEndsTheOldSession(t *testing.T) {
	r := newConsoleRig(t, ConsoleConfig{})
	closeBrokerFirst(t, r.mb)
	c := r.client()
	if resp, _ := c.login("arbiter", "arbiter-pw"); resp.StatusCode != http.StatusSeeOther {
		t.Fatal("first log-in failed")
	}
	old := c.hc.Jar.Cookies(mustURL(t, c.base+"/console"))
	if resp, _ := c.login("arbiter", "arbiter-pw"); resp.StatusCode != http.StatusSeeOther {
		t.Fatal("second log-in failed")
	}
	stale := r.client()
	stale.hc.Jar.SetCookies(mustURL(t, c.base+"/console"), old)
	if resp, body := stale.get("/console"); resp.StatusCode != http.StatusOK || csrfAttr.MatchString(body) {
		t.Errorf("the old session still opens the console: %s", resp.Status)
	}
	n := r.s.ops.SessionCount()
	if n != 1 {
		t.Errorf("%d sessions after logging in twice; want 1", n)
	}
}

// Viewers' streams never take the console's share of the connections.
func TestViewerStreamsLeaveTheConsoleReserve(t *testing.T) {
	s := New(Options{MaxViewers: 2})
	t.Cleanup(s.Close)
	srv := newTestServer(t, s.Handler())
	for i := 0; i < 2; i++ {
		if st := streamStatus(t, srv+"/events"); st != http.StatusOK {
			t.Fatalf("viewer %d: %d", i+1, st)
		}
	}
	if st := streamStatus(t, srv+"/events"); st != http.StatusServiceUnavailable {
		t.Errorf("a viewer beyond MaxViewers: %d; want 503", st)
	}
	if HTTPLimits.PerAddr > HTTPLimits.Total/100 || New(Options{}).opts.MaxViewers != HTTPLimits.Total-ConsoleReserve {
		t.Errorf("limits %+v, viewers %d: one address must hold a small share and viewers leave the reserve", HTTPLimits, New(Options{}).opts.MaxViewers)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func newTestServer(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// streamStatus opens an event stream, held until the test ends, and
// returns its status.
func streamStatus(t *testing.T, u string) int {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp.StatusCode
}

// Finding: the console accepted an https:// Origin for the same host
// served over http.
func TestOriginSchemeMustMatch(t *testing.T) {
	mk := func(origin, proto string, tls bool) *http.Request {
		r := httptest.NewRequest("POST", "http://board.local/console/act", nil)
		r.Header.Set("Origin", origin)
		if proto != "" {
			r.Header.Set("X-Forwarded-Proto", proto)
		}
		if tls {
			r = httptest.NewRequest("POST", "https://board.local/console/act", nil)
			r.Header.Set("Origin", origin)
		}
		return r
	}
	for _, tc := range []struct {
		origin, proto string
		tls, want     bool
	}{
		{"http://board.local", "", false, true},
		{"https://board.local", "", false, false},
		{"https://board.local", "https", false, true},
		{"http://board.local", "https", false, false},
		{"https://board.local", "", true, true},
		{"http://evil.example", "", false, false},
	} {
		if got := console.SameOrigin(mk(tc.origin, tc.proto, tc.tls)); got != tc.want {
			t.Errorf("Origin %s (forwarded %q, TLS %v): same origin %v; want %v", tc.origin, tc.proto, tc.tls, got, tc.want)
		}
	}
}

// Finding: Go's own 400 and 431 replies lacked nosniff.
func TestGoErrorRepliesCarryNosniff(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewHTTPServer(New(Options{}).Handler(), nil)
	go srv.Serve(LimitListener(raw, nil))
	t.Cleanup(func() { srv.Close() })
	for _, req := range []string{
		"GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + strings.Repeat("a", 40<<10) + "\r\n\r\n", // 431
		"GET / HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n",                                 // 400
	} {
		c, err := net.Dial("tcp", raw.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(10 * time.Second))
		go c.Write([]byte(req))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode < 400 || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q; want nosniff", resp.Status, resp.Header.Get("X-Content-Type-Options"))
		}
		c.Close()
	}
}

// Finding: a wrong password for a board account told the log-in form that
// the account exists. Every wrong password reads the same as an unknown
// user.
func TestWrongPasswordSaysNothingOfTheAccount(t *testing.T) {
	r := newConsoleRig(t, ConsoleConfig{})
	closeBrokerFirst(t, r.mb)
	var first string
	for i, u := range []string{"nobody", "board", "arbiter", "watcher"} {
		resp, body := r.client().login(u, "wrong-password")
		got := resp.Status + " " + body
		if i == 0 {
			first = got
			continue
		}
		if got != first {
			t.Errorf("wrong password for %q: %s\nunknown user: %s", u, resp.Status, first[:min(len(first), 200)])
		}
	}
}

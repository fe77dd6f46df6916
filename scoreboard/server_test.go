package scoreboard

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/wire"
)

func TestWebHardening(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	s.Handle("zertz/b1/state", stateJSON(t, wire.State{Schema: wire.Schema, Seq: 3, BoardID: "b1", Board: "37", Variant: "37",
		Cells: strings.Repeat("o", 37), Phase: "place"}))
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	huge := strings.Repeat("x", 500000)
	for _, tc := range []struct {
		path   string
		status int
		body   string // a substring the body must have
	}{
		{"/", 200, `data-boards="1"`},
		{"/board/b1", 200, `data-seq="3"`},
		{"/board/b1/state.json", 200, `"seq":3`},
		{"/?board=b1", 200, `data-seq="3"`},
		{"/static/app.js", 200, ""},
		{"/static/style.css", 200, ""},
		// An unknown board is 404, with the waiting view that goes live.
		{"/board/table-9", 404, `data-events="/events?board=table-9"`},
		{"/?board=table-9", 404, "table-9"},
		{"/board/table-9/state.json", 404, ""},
		// No listing of the embedded directory.
		{"/static/", 404, ""},
		{"/static", 404, ""},
		// Malformed IDs: 400, without echoing them in full.
		{"/board/" + huge, 400, "500000 bytes"},
		{"/board/a%20b", 400, "bad board ID"},
		{"/board/%3Cscript%3E", 400, "bad board ID"},
		{"/board/" + huge + "/state.json", 400, "bad board ID"},
		{"/?board=" + huge, 400, "bad board ID"},
		{"/events?board=" + huge, 400, "bad board ID"},
		{"/nothing-here", 404, ""},
	} {
		name := tc.path
		if len(name) > 60 {
			name = name[:60] + "…"
		}
		resp, err := http.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatalf("GET %s: %v", name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("GET %s: status %d; want %d", name, resp.StatusCode, tc.status)
		}
		if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("GET %s: X-Content-Type-Options %q; want nosniff", name, got)
		}
		if !strings.Contains(string(body), tc.body) {
			t.Errorf("GET %s: body lacks %q: %.200s", name, tc.body, body)
		}
		if len(body) > 100000 {
			t.Errorf("GET %s: %d-byte body", name, len(body))
		}
	}
}

// Topics whose board level is not a valid board ID are ignored.
func TestHandleIgnoresBadBoardIDs(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	for _, id := range []string{strings.Repeat("x", 65), "a b", "<b>", "tablé"} {
		s.Handle("zertz/"+id+"/status", []byte("online"))
	}
	if html, n := s.Current(""); n != 0 {
		t.Errorf("tournament view has %d boards after invalid IDs: %.200s", n, html)
	}
	s.Handle("zertz/ok-1/status", []byte("online"))
	if _, n := s.Current(""); n != 1 {
		t.Errorf("tournament view has %d boards; want 1", n)
	}
}

// Slowloris: a connection that never finishes its headers is closed.
func TestSlowHeadersClosed(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	srv := NewHTTPServer(s.Handler(), nil)
	srv.ReadHeaderTimeout = 100 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(LimitListener(ln, nil))
	defer srv.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n"))
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := io.ReadAll(c)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("a connection with unfinished headers was kept open")
	}
	if strings.Contains(string(b), "200 OK") {
		t.Errorf("incomplete request answered: %.100s", b)
	}
}

// An event stream outlives the header timeout: nothing the server sets
// ends a stream that is being written.
func TestEventStreamOutlivesTimeouts(t *testing.T) {
	s := New(Options{Logger: testLogger(t), Heartbeat: 20 * time.Millisecond})
	defer s.Close()
	srv := NewHTTPServer(s.Handler(), nil)
	if srv.ReadTimeout != 0 || srv.WriteTimeout != 0 {
		t.Errorf("ReadTimeout %v, WriteTimeout %v: either would end event streams", srv.ReadTimeout, srv.WriteTimeout)
	}
	srv.ReadHeaderTimeout = 50 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(LimitListener(ln, nil))
	defer srv.Close()
	resp, err := http.Get("http://" + ln.Addr().String() + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// Forty heartbeats: many times the header timeout.
	r := bufio.NewReader(resp.Body)
	for pings := 0; pings < 40; {
		l, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended after %d heartbeats: %v", pings, err)
		}
		if strings.HasPrefix(l, ": ping") {
			pings++
		}
	}
}

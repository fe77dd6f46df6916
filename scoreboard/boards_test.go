package scoreboard

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/referee"
)

func TestNotices(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	st := newState(t, "37", [2]string{"Ann", "Bob"})
	st.Seq = 5
	s.Handle("zertz/b1/state", stateJSON(t, st))
	has := func(want string) bool { h, _ := s.Current("b1"); return strings.Contains(h, want) }

	s.Handle("zertz/b1/events", eventJSON(t, referee.Pending{Player: 0, Need: "remove a free ring", Cells: []string{"A1", "B2"}}))
	if !has(`banner pending`) || !has("remove a free ring") || !has(`need" data-cell="A1"`) {
		t.Error("pending notice not shown")
	}
	s.Handle("zertz/b1/events", eventJSON(t, referee.Illegal{Player: 0, Reason: "two marbles placed",
		Cells: []referee.CellFix{{Cell: "D4", Is: "w", Should: "o"}}}))
	if !has(`banner illegal`) || has(`banner pending`) || !has(`fix" data-cell="D4"`) || !has("D4: empty ring") {
		t.Error("illegal notice not shown in place of the pending one")
	}
	s.Handle("zertz/b1/events", eventJSON(t, referee.Restored{Player: 0}))
	if has(`banner illegal`) {
		t.Error("restored did not clear the illegal notice")
	}
	s.Handle("zertz/b1/events", eventJSON(t, referee.Pending{Player: 0, Need: "remove a free ring"}))
	st.Seq = 6
	s.Handle("zertz/b1/state", stateJSON(t, st))
	if has(`banner pending`) {
		t.Error("a new state did not clear the notice of the previous one")
	}
	if _, seq := s.Current("b1"); seq != 6 {
		t.Errorf("seq = %d; want 6", seq)
	}
	s.Handle("zertz/b1/events", eventJSON(t, referee.Pending{Player: 0, Need: "x"}))
	s.Handle("zertz/b1/moves", []byte(`{"event":"move","seq":7}`))
	if has(`banner pending`) {
		t.Error("a move did not clear the pending notice")
	}
}

func TestHandleIgnoresJunk(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	for _, m := range [][2]string{
		{"other/b1/state", "{}"},
		{"zertz/b1/state", "not json"},
		{"zertz/b1/events", `{"event":"pending"}`}, // no board yet
		{"zertz//state", "{}"},
		{"zertz/b1/record", "(;)"},
		{"zertz/" + strings.Repeat("x", 65) + "/status", "online"},
	} {
		s.Handle(m[0], []byte(m[1]))
	}
	if h, _ := s.Current(""); !strings.Contains(h, `data-boards="0"`) {
		t.Errorf("junk made a board: %s", h)
	}
	s.Handle("zertz/b2/status", []byte("offline"))
	if h, _ := s.Current(""); !strings.Contains(h, `data-boards="1"`) || !strings.Contains(h, `card offline`) {
		t.Errorf("status did not make an offline board: %s", h)
	}
	s.Handle("zertz/b2/state", nil) // a cleared retained state
	if h, _ := s.Current(""); !strings.Contains(h, `data-boards="0"`) {
		t.Errorf("a cleared state did not remove the board: %s", h)
	}
}

func TestEventStream(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close) // first: ends the streams srv.Close waits for

	board := dialSSE(t, srv.URL+"/events?board=b1")
	index := dialSSE(t, srv.URL+"/events")
	if v, err := board.next(); err != nil || v.Seq != 0 || !strings.Contains(v.HTML, "Waiting for board") {
		t.Fatalf("first view = %+v, %v; want the waiting view", v, err)
	}
	if v, err := index.next(); err != nil || !strings.Contains(v.HTML, `data-boards="0"`) {
		t.Fatalf("first index = %+v, %v", v, err)
	}
	st := newState(t, "48", [2]string{"Ann", "Bob"})
	for seq := uint64(1); seq <= 20; seq++ {
		st.Seq = seq
		s.Handle("zertz/b1/state", stateJSON(t, st))
	}
	v := board.nextSeq(t, 20) // earlier views may be skipped, never reordered
	if !strings.Contains(v.HTML, `data-seq="20"`) || strings.Count(v.HTML, `class="ring`) != 48 {
		t.Errorf("view of seq 20 is wrong: %.200s", v.HTML)
	}
	if v, err := index.next(); err != nil || !strings.Contains(v.HTML, `href="/board/b1"`) || !strings.Contains(v.HTML, "Ann") || strings.Count(v.HTML, `class="ring`) != 48 {
		t.Errorf("index after a state = %+v, %v", v, err)
	}

	// A late joiner gets the current view at once.
	late := dialSSE(t, srv.URL+"/events?board=b1")
	if v, err := late.next(); err != nil || v.Seq != 20 {
		t.Errorf("late joiner's first view: seq %d, %v; want 20", v.Seq, err)
	}
	// The page itself carries the view too.
	resp, err := http.Get(srv.URL + "/board/b1?overlay=1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`class="overlay layout-full boardpage"`, `data-seq="20"`, `data-events="/events?board=b1"`, `<svg`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("page lacks %s", want)
		}
	}
	resp, err = http.Get(srv.URL + "/board/b1?eval=1&overlay=1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `class="overlay layout-full eval boardpage"`) {
		t.Errorf("?eval=1 does not mark the page: %.300s", body)
	}
	resp, err = http.Get(srv.URL + "/board/b1/state.json")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != string(stateJSON(t, st)) {
		t.Errorf("state.json = %.100s", body)
	}
	for _, path := range []string{"/static/app.js", "/static/style.css", "/?board=b1"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil || resp.StatusCode != 200 {
			t.Errorf("GET %s: %v %v", path, resp.Status, err)
		}
		resp.Body.Close()
	}

	// Close ends every stream.
	s.Close()
	for _, c := range []*sseClient{board, index, late} {
		for {
			if _, err := c.next(); err != nil {
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Errorf("stream ended with %v; want EOF", err)
				}
				break
			}
		}
	}
	if n := s.Viewers(); n != 0 {
		t.Errorf("%d viewers after Close", n)
	}
	resp, err = http.Get(srv.URL + "/events")
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("stream after Close: %v %v; want 503", resp.Status, err)
	}
	resp.Body.Close()
}

func TestSlowViewerDropped(t *testing.T) {
	s := New(Options{ClientBuffer: 2, Logger: testLogger(t)})
	defer s.Close()
	slow, _ := s.subscribe("b1") // never reads
	fast, _ := s.subscribe("b1")
	st := newState(t, "37", [2]string{})
	for seq := uint64(1); seq <= 5; seq++ {
		st.Seq = seq
		s.Handle("zertz/b1/state", stateJSON(t, st))
		<-fast.Frames()
	}
	select {
	case <-slow.Gone():
	default:
		t.Fatal("the slow viewer was not dropped")
	}
	select {
	case <-fast.Gone():
		t.Fatal("the fast viewer was dropped")
	default:
	}
	if s.Dropped() != 1 || s.Viewers() != 1 {
		t.Errorf("dropped %d, viewers %d; want 1, 1", s.Dropped(), s.Viewers())
	}
}

// TestFollow: the scoreboard follows a real broker with paho and sees the
// board's retained state and status, and its events.
func TestFollow(t *testing.T) {
	b := startBroker(t)
	brd := newBoard(t, b, "t1")
	st := newState(t, "61", [2]string{"Ann", "Bob"})
	st.BoardID = "t1"
	brd.state(st) // acknowledged: retained before the scoreboard subscribes
	brd.status("online")
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	follow(t, s, b)
	closeBrokerFirst(t, b)
	waitFor(t, s, "the retained state", func() bool { return s.State("t1") != nil })
	waitFor(t, s, "online", func() bool { h, _ := s.Current(""); return strings.Contains(h, "card online") })
	brd.event(referee.Pending{Need: "remove a free ring"})
	waitFor(t, s, "the pending event", func() bool { h, _ := s.Current("t1"); return strings.Contains(h, "remove a free ring") })
	brd.status("offline")
	waitFor(t, s, "offline", func() bool { h, _ := s.Current(""); return strings.Contains(h, "card offline") })
}

func TestHeartbeat(t *testing.T) {
	s := New(Options{Heartbeat: time.Millisecond, Logger: testLogger(t)})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	c := dialSSE(t, srv.URL+"/events")
	for {
		line, err := c.r.ReadString('\n')
		if err != nil {
			t.Fatalf("no heartbeat: %v", err)
		}
		if line == ": ping\n" {
			break
		}
	}
}

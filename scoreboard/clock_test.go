package scoreboard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/scoreboard/view"

	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/wire"
)

// clocked is st with clocks: remaining times, whose runs (-1 none), paused.
func clocked(t testing.TB, st wire.State, control string, remaining [2]int64, running int, paused bool) []byte {
	t.Helper()
	st.Clock = wire.Clock{Control: control, Remaining: &remaining, Paused: paused}
	if running >= 0 {
		st.Clock.Running = &running
	}
	return mustJSON(t, st)
}

// TestClockRendering: the running clock carries data-running; none runs
// while paused, offline or over; a flag shows; control none draws no
// clock; the off-board results are said in words.
func TestClockRendering(t *testing.T) {
	rec, rep := sampleGame(t, 20)
	st := gameStates(t, rec, rep, "t1")[10]
	s := New(Options{})
	defer s.Close()
	running := regexp.MustCompile(`<span class="clock running" data-ms="(\d+)" data-running="" data-k="p(\d)-clock">`)

	s.Handle("zertz/t1/status", []byte("online"))
	s.Handle("zertz/t1/state", clocked(t, st, "fischer:5m+3s", [2]int64{300000, 254321}, st.ToMove, false))
	h, _ := s.Current("t1")
	m := running.FindAllStringSubmatch(h, -1)
	if len(m) != 1 || m[0][2] != strconv.Itoa(st.ToMove) || m[0][1] != strconv.Itoa([]int{300000, 254321}[st.ToMove]) {
		t.Errorf("running clocks %v; want player %d's", m, st.ToMove)
	}
	if !strings.Contains(h, `data-ms="254321" `) || !strings.Contains(h, ">4:14<") || !strings.Contains(h, "fischer 5m+3s") {
		t.Errorf("the clocks or the control are not shown:\n%s", h)
	}
	if idx, _ := s.Current(""); !strings.Contains(idx, `data-k="clock:t1:0"`) || !strings.Contains(idx, `data-k="clock:t1:1"`) {
		t.Errorf("the tournament card has no clocks:\n%s", idx)
	}

	s.Handle("zertz/t1/status", []byte("offline"))
	if h, _ := s.Current("t1"); running.MatchString(h) {
		t.Error("a clock runs while the board is offline")
	}
	s.Handle("zertz/t1/status", []byte("online"))
	s.Handle("zertz/t1/state", clocked(t, st, "sudden:5m", [2]int64{300000, 254321}, st.ToMove, true))
	if h, _ := s.Current("t1"); running.MatchString(h) || !strings.Contains(h, `class="clock paused"`) || !strings.Contains(h, "paused by the arbiter") {
		t.Errorf("paused:\n%s", h)
	}

	over := st
	over.Phase, over.Result = "over", "time"
	w := 1 - st.ToMove
	over.Winner = &w
	rem := [2]int64{}
	rem[w] = 1234
	s.Handle("zertz/t1/state", clocked(t, over, "sudden:5m", rem, -1, false))
	if h, _ := s.Current("t1"); running.MatchString(h) || !strings.Contains(h, `class="clock flag" data-ms="0"`) || !strings.Contains(h, view.PlayerName(i18n.EN, &over, w)+" wins on time") {
		t.Errorf("flag fall:\n%s", h)
	}
	over.Winner = nil
	s.Handle("zertz/t1/state", clocked(t, over, "sudden:5m", rem, -1, false))
	if h, _ := s.Current("t1"); !strings.Contains(h, "Draw: the flag fell, but the opponent could not win") {
		t.Errorf("flag fall, drawn:\n%s", h)
	}
	over.Result, over.Winner = "resignation", &w
	over.ResultNote, over.Clock = "<b>left the hall</b>", wire.Clock{Control: "none"}
	s.Handle("zertz/t1/state", mustJSON(t, over))
	if h, _ := s.Current("t1"); strings.Contains(h, `class="clock`) || !strings.Contains(h, "resigned") || !strings.Contains(h, "Arbiter: &lt;b&gt;left the hall&lt;/b&gt;") {
		t.Errorf("resignation with a note, no time control:\n%s", h)
	}
}

// TestLateJoinerClockAge: a viewer who connects long after a state arrived
// gets the view with its age, so that the page counts the running clock
// from when the state arrived, not from when the viewer came.
func TestLateJoinerClockAge(t *testing.T) {
	rec, rep := sampleGame(t, 20)
	st := gameStates(t, rec, rep, "t1")[10]
	s := New(Options{})
	var off atomic.Int64
	s.now = func() time.Time { return time.Now().Add(time.Duration(off.Load())) }
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	defer s.Close()
	s.Handle("zertz/t1/state", clocked(t, st, "sudden:5m", [2]int64{300000, 200000}, 0, false))
	off.Store(int64(90 * time.Second))
	v, err := dialSSE(t, srv.URL+"/events?board=t1").next()
	if err != nil || v.Age < 90000 || v.Age > 90000+int64(wait/time.Millisecond) {
		t.Errorf("the late joiner's first view: age %d ms, %v; want 90000 or a little more", v.Age, err)
	}
	resp, err := http.Get(srv.URL + "/board/t1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	// The page is served with the running clock as it is now.
	m := runningSpan.FindSubmatch(body)
	if m == nil {
		t.Fatalf("the page has no running clock:\n%s", body)
	}
	if ms, _ := strconv.Atoi(string(m[2])); ms > 300000-90000 || !strings.Contains(string(m[0]), ">"+view.FmtClock(int64(ms))+"<") {
		t.Errorf("the page's running clock %s; want 3:30 or less", m[0])
	}
	if !strings.Contains(string(body), `data-age="0"`) {
		t.Error("the page's view has an age though its clocks are aged already")
	}
}

// runningSpan matches a running clock as view.RenderClock writes it (the
// same pattern as view.AgedClocks reads).
var runningSpan = regexp.MustCompile(`<span class="([^"]*)" data-ms="(\d+)" data-running="" data-k="([^"]*)">[^<]*</span>`)

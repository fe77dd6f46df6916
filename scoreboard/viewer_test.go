package scoreboard

import (
	"encoding/json"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine/solve"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/scoreboard/view"
	"github.com/zertzboard/zertzboard/wire"
)

func TestMissedWins(t *testing.T) {
	win := func(p, turns int) *solve.ReportWin { return &solve.ReportWin{Player: p, Turns: turns} }
	zero := 0
	// Turn i is played from ps[i-1].
	ps := []*posSearch{
		{N: 0, Mover: 0, Win: win(0, 2), Depth: 1},   // 0 can win in 2
		{N: 1, Mover: 1, Depth: 2},                   // turn 1 by 0
		{N: 2, Mover: 0, Win: win(0, 1), Depth: 0},   // 0 still wins, in 1: turn 1 kept the win
		{N: 3, Mover: 1, Depth: 2},                   // turn 3 did not win at once: missed
		{N: 4, Mover: 0, Depth: 2},                   //
		{N: 5, Mover: 1, Win: win(1, 2), Depth: 1},   // 1 can win in 2
		{N: 6, Mover: 0, Depth: 2},                   // turn 6 by 1
		{N: 7, Mover: 1, Depth: 2},                   // 1 has no win in 1 (refuted): turn 6 missed it
		{N: 8, Mover: 0, Win: win(0, 2), Depth: 1},   // 0 can win in 2
		{N: 9, Mover: 1, Depth: 1},                   // turn 9 by 0
		{N: 10, Mover: 0, Depth: 0},                  // cut short: proves nothing, turn 9 unmarked
		{N: 11, Mover: 1, Win: win(1, 1), Depth: 0},  // 1 can win at once
		{N: 12, Mover: 0, Over: true, Winner: &zero}, // but 0 won: turn 12 missed it
	}
	got := missedWins(ps)
	if want := []int{3, 6, 12}; !slices.Equal(got, want) {
		t.Errorf("missedWins = %v; want %v", got, want)
	}
}

// TestViewerRoutes: the viewer's pages answer a bad or unknown game, a
// position out of range and a board without a record with the reason.
func TestViewerRoutes(t *testing.T) {
	f := newPagesFixture(t)
	for _, c := range []struct {
		path string
		code int
		want string
	}{
		{"/results/t61-1", 200, `data-turns="`},
		{"/results/t61-1/pos/0", 200, `data-turn="0"`},
		{"/results/t61-1/pos/3?analysis=1", 200, `banner analysis`},
		{"/results/t61-1/pos/999", 400, "want a number of turns from 0 to"},
		{"/results/t61-1/pos/-1", 400, "want a number of turns from 0 to"},
		{"/results/nosuch", 404, `no finished game "nosuch"`},
		{"/results/nosuch/pos/1", 404, `no finished game "nosuch"`},
		{"/results/t61-1/pos/1?lang=xx", 400, "xx"},
		{"/board/t2/pos/5", 200, `data-turn="5"`},
		{"/board/t3/pos/1", 404, `no record from board "t3"`},
		{"/board/t2/pos/21", 400, "from 0 to 20"},
	} {
		resp, body := get(t, f.srv.URL+c.path)
		if resp.StatusCode != c.code || !strings.Contains(string(body), c.want) {
			t.Errorf("%s: %d %.300s; want %d with %q", c.path, resp.StatusCode, body, c.code, c.want)
		}
	}
	if resp, _ := get(t, f.srv.URL+"/results"); resp.StatusCode != http.StatusOK {
		t.Fatal(resp.Status)
	}
	_, page := get(t, f.srv.URL+"/results")
	for _, want := range []string{`<a href="/results/t61-1?lang=en">Step through</a>`, `<span class="size" title="Variant">61 rings</span>`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the results page lacks %s", want)
		}
	}
}

// TestLabelsAboveArrows: the ring labels are drawn after (above) the
// analysis line and the last move's arrows, one per ring left, hidden only
// under a marble.
func TestLabelsAboveArrows(t *testing.T) {
	rec, rep := sampleGame(t, 20)
	st := gameStates(t, rec, rep, "t1")[12]
	st.Analysis = &wire.Analysis{MaxTurns: 2}
	st.Analysis.ForcedWin = forcedWinOf(t, rec, rep, 12)
	svg := view.BoardSVG(&st, nil)
	line, labels := strings.Index(svg, `class="analysis-line"`), strings.Index(svg, `<g class="labels">`)
	if line < 0 || labels < line {
		t.Fatalf("the labels (at %d) are not drawn after the analysis line (at %d)", labels, line)
	}
	for i, c := range st.Layout {
		want := "l"
		switch st.Cells[i] {
		case '.':
			want = "lg"
		case 'o':
		default:
			want = "lc"
		}
		m := regexp.MustCompile(`<g class="([a-z]+)" data-k="l-` + c.Label + `"><text class="label" x="[-0-9.]+" y="[-0-9.]+">` + c.Label + `</text></g>`).FindStringSubmatch(svg[labels:])
		if m == nil || m[1] != want {
			t.Errorf("cell %s (%c): label %q above the arrows; want class %s", c.Label, st.Cells[i], m, want)
		}
	}
}

// TestOpStateOf: a state decoded once (wire.State) gives the console and
// the results exactly what decoding the payload into their own fields
// gave, clocks, take-back request and question included.
func TestOpStateOf(t *testing.T) {
	rec, rep := sampleGame(t, 20)
	states := gameStates(t, rec, rep, "t1")
	run, rem := 1, [2]int64{61000, 59000}
	q := &referee.Question{ID: 3, Turn: 12, Cell: "D4", About: "which", Options: []string{"a", "b"}, Provisional: 1, Text: "?"}
	variants := []func(*wire.State){
		func(*wire.State) {},
		func(s *wire.State) {
			s.Clock = wire.Clock{Control: "fischer:5m+3s", Remaining: &rem, Running: &run, Paused: true, IncrementMS: 3000}
			s.TakebackRequest = &wire.TakebackRequest{Turn: 9, By: 1}
			s.Question, s.DeadCells, s.GameID, s.PublishedMS, s.ResultNote = q, []string{"A1"}, "t1-4", 1700000000000, "note"
		},
		func(s *wire.State) { s.Clock = wire.Clock{} },
	}
	for i, st := range []wire.State{states[0], states[13], states[len(states)-1]} {
		for j, change := range variants {
			change(&st)
			payload := stateJSON(t, st)
			var want opState
			if err := json.Unmarshal(payload, &want); err != nil {
				t.Fatal(err)
			}
			if want.Clock != nil && *want.Clock == (wire.Clock{}) {
				want.Clock = nil // an empty clock object is no clock
			}
			m, err := decodeMessage("state", payload)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(m.op, &want) {
				t.Errorf("state %d, variant %d: decoded once %+v; the payload says %+v", i, j, *m.op, want)
			}
		}
	}
}

// TestViewerBusy: with the search slot taken and viewerWaiting requests
// waiting for it, another is refused at once with 503.
func TestViewerBusy(t *testing.T) {
	f := newPagesFixture(t)
	f.s.vw.sem <- struct{}{} // the slot is taken
	f.s.vw.waiting.Store(viewerWaiting)
	resp, body := get(t, f.srv.URL+"/results/t61-1/pos/5?analysis=1")
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "busy") {
		t.Errorf("%d %q; want 503, busy", resp.StatusCode, body)
	}
	f.s.vw.waiting.Store(0)
	<-f.s.vw.sem
	if resp, body := get(t, f.srv.URL+"/results/t61-1/pos/5?analysis=1"); resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "banner analysis") {
		t.Errorf("with the slot free: %d %.200s", resp.StatusCode, body)
	}
}

// TestReplayedOnce: a finished game is replayed once for all its
// positions' requests, and again only if its result is another.
func TestReplayedOnce(t *testing.T) {
	f := newPagesFixture(t)
	res := f.s.res.Get("t61-1")
	a, err := f.s.vw.replayedOf(res)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := f.s.vw.replayedOf(res); b != a {
		t.Error("the game was replayed again")
	}
	other := &GameResult{GameID: res.GameID, Board: res.Board, Record: res.Record}
	if c, _ := f.s.vw.replayedOf(other); c == a || c.end != other {
		t.Error("another result of the same ID kept the old replay")
	}
}

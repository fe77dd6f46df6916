package wire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/referee"
)

func TestSnapshot(t *testing.T) {
	p, err := engine.ParsePosition("37 oooo/ooooo/oooooo/wgobooo/oowooo/ooogo/oooo 4,6,9 0,0,0 0,0,0 0")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := referee.New(referee.Config{Board: p.Board(), Rules: p.Rules(), Game: engine.NewGame(p)})
	if err != nil {
		t.Fatal(err)
	}
	s := Snapshot(ref, "b1", [2]string{"ann", "bob"}, 7, 1234)
	if s.Phase != "capture" || s.Forced == nil || len(s.Forced.Chains) != 4 || s.LastMove != nil || s.Winner != nil {
		t.Errorf("snapshot %+v", s)
	}
	if len(s.Layout) != 37 || s.Layout[0] != (Cell{"A1", 0, 3}) || s.Layout[36] != (Cell{"G4", 6, 9}) || len(s.Cells) != 37 {
		t.Errorf("layout %v, cells %q", s.Layout, s.Cells)
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"schema":1`, `"seq":7`, `"board_id":"b1"`, `"pool":{"white":4,"grey":6,"black":9}`, `"win":{"white":4,"grey":5,"black":6,"each":3}`, `"last_move":null`, `"winner":null`, `"moves":[]`, `"missed_captures":[]`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("state JSON lacks %s:\n%s", want, data)
		}
	}
	// A move message is the referee event plus seq.
	var frames int64
	obs := []byte(p.Cells())
	obs[cell(t, p, "E3")], obs[cell(t, p, "D4")], obs[cell(t, p, "C4")] = 'o', 'o', 'w'
	var moveEv referee.Event
	for ; frames < 40; frames++ {
		for _, e := range ref.ObserveBytes(frames*5, obs) {
			if e.Body.Kind() == "move" {
				moveEv = e
			}
		}
	}
	m, err := json.Marshal(MoveMessage{Event: moveEv, Seq: 8})
	if err != nil || !strings.HasPrefix(string(m), `{"t":`) || !strings.HasSuffix(string(m), `"notation":"E3xC4","seq":8}`) {
		t.Errorf("move message %s, %v", m, err)
	}
	if m, err = json.Marshal(MoveMessage{Event: moveEv, Seq: 8, PublishedMS: 1764100000123}); err != nil || !strings.HasSuffix(string(m), `"seq":8,"published_ms":1764100000123}`) {
		t.Errorf("move message with its publish time %s, %v", m, err)
	}
	s = Snapshot(ref, "b1", [2]string{}, 8, 1300)
	if s.LastMove == nil || s.LastMove.Notation != "E3xC4" || s.LastMove.Player != 0 || s.Turn != 1 || s.Moves[0] != "E3xC4" {
		t.Errorf("after the capture: %+v", s.LastMove)
	}
}

func cell(t *testing.T, p engine.Position, l string) engine.Cell {
	c, err := p.Board().ParseCell(l)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestStateWords: the phase, mode and result write as the words of the
// contract (docs/CONTRACTS.md 5.2), and a state from a newer board with
// words this build does not know still decodes, keeping them, and writes
// them back as they came.
func TestStateWords(t *testing.T) {
	w := 1
	s := State{Mode: referee.Tournament, Phase: engine.PhaseOver, Result: engine.ReasonResignation, Winner: &w}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"mode":"tournament"`, `"phase":"over"`, `"result":"resignation"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("state JSON lacks %s:\n%s", want, b)
		}
	}
	in := `{"schema":1,"mode":"arena","phase":"pondering","result":"stalemate","clock":{"control":"none"}}`
	var back State
	if err := json.Unmarshal([]byte(in), &back); err != nil {
		t.Fatalf("a newer board's state: %v", err)
	}
	if back.Mode != "arena" || back.Phase != "pondering" || back.Result != "stalemate" || back.Phase.Over() {
		t.Errorf("read mode %q, phase %q (over %v), result %q; want them as they came", back.Mode, back.Phase, back.Phase.Over(), back.Result)
	}
	b, err = json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"mode":"arena"`, `"phase":"pondering"`, `"result":"stalemate"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("written back without %s:\n%s", want, b)
		}
	}
	// A state without a mode (an older board) reads as unset and writes
	// as it came.
	var old State
	if err := json.Unmarshal([]byte(`{"schema":1,"phase":"place"}`), &old); err != nil || old.Mode != "" || old.Phase != engine.PhasePlace {
		t.Errorf("an older board's state: mode %q phase %q, %v", old.Mode, old.Phase, err)
	}
	if b, _ := json.Marshal(old); !strings.Contains(string(b), `"mode":""`) {
		t.Errorf("an unset mode writes %s; want \"mode\":\"\"", b)
	}
}

// TestSnapshotEnded: a game ended off the board is over with the
// arbiter's reason; one over on the board has the engine's.
func TestSnapshotEnded(t *testing.T) {
	b, rules, err := engine.ParseVariant("37")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := referee.New(referee.Config{Board: b, Rules: rules, Mode: referee.Tournament})
	if err != nil {
		t.Fatal(err)
	}
	s := Snapshot(ref, "b1", [2]string{"ann", "bob"}, 1, 0)
	if s.Phase != engine.PhasePlace || s.Result != "" || s.Mode != referee.Tournament {
		t.Errorf("new game: phase %q result %q mode %q", s.Phase, s.Result, s.Mode)
	}
	w := 0
	if _, err := ref.End(10, referee.Ending{Winner: &w, Reason: referee.EndResignation, Note: "n"}); err != nil {
		t.Fatal(err)
	}
	s = Snapshot(ref, "b1", [2]string{"ann", "bob"}, 2, 10)
	if s.Phase != engine.PhaseOver || s.Result != engine.ReasonResignation || s.Winner == nil || *s.Winner != 0 || s.ResultNote != "n" {
		t.Errorf("resigned: phase %q result %q winner %v note %q", s.Phase, s.Result, s.Winner, s.ResultNote)
	}
	if _, err := ref.End(11, referee.Ending{Reason: "stalemate"}); err == nil {
		t.Error("a second end was accepted")
	}
	ref2, _ := referee.New(referee.Config{Board: b, Rules: rules})
	if _, err := ref2.End(11, referee.Ending{Reason: engine.ReasonCaptures}); err == nil || !strings.Contains(err.Error(), `"captures"`) {
		t.Errorf("an end by captures off the board: %v; want refused, naming it", err)
	}
	if m := ref2.Mode(); m != referee.Casual || m.String() != "casual" {
		t.Errorf("unset mode: %q (%s); want casual", m, m)
	}
	if _, err := referee.New(referee.Config{Board: b, Rules: rules, Mode: "strict"}); err == nil || !strings.Contains(err.Error(), `"strict"`) {
		t.Errorf("mode strict: %v; want refused, naming it", err)
	}
}

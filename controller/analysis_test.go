package controller

import (
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/analyst"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/solve"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// chanPub passes every state to a channel, so a test waits for events.
type chanPub struct{ states chan wire.State }

func (p chanPub) State(s wire.State)  { p.states <- s }
func (chanPub) Move(wire.MoveMessage) {}
func (chanPub) Event(referee.Event)   {}
func (chanPub) Record([]byte)         {}

// failsafe only ends a test that would otherwise hang; nothing waits on
// it in a passing run.
const failsafe = 2 * time.Minute

// positionAt replays the record's first n turns.
func positionAt(t *testing.T, rec *record.Record, n int) engine.Position {
	t.Helper()
	r := *rec
	r.Turns = rec.Turns[:n]
	rep, err := r.Replay()
	if err != nil {
		t.Fatal(err)
	}
	return rep.Game.Position()
}

// TestAnalysisLive plays a sample game that ends in a win by captures, one
// commit at a time, and checks every analysis published: it belongs to the
// state it comes with (its line is legal from that position and wins), and
// one turn before the end it is a forced win in 1 for the winner.
func TestAnalysisLive(t *testing.T) {
	rec, frames := playFrames(t, "020_Z-Dumbot-fenway-2018-02-24-1204.sgf", 7)
	pub := chanPub{states: make(chan wire.State, 4096)}
	c, err := New(Config{BoardID: "b1", Variant: rec.Variant, First: rec.First, Players: rec.Players, Publisher: pub,
		Analysis: &analyst.Options{MaxTurns: 2, Budget: failsafe}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	n := len(rec.Turns)
	// Stop one turn before the winning turn, then wait for its analysis.
	i := 0
	for ; i < len(frames) && c.State().Turn < n-1; i++ {
		if err := c.Frame(frames[i].t, frames[i].cells); err != nil {
			t.Fatal(err)
		}
	}
	want := c.State().Seq
	timeout := time.After(failsafe)
	var got *wire.State
	for got == nil {
		select {
		case st := <-pub.states:
			checkAnalysis(t, rec, st)
			if st.Seq == want && st.Analysis != nil {
				got = &st
			}
		case <-timeout:
			t.Fatal("no analysis of the position before the winning turn")
		}
	}
	w := got.Analysis.ForcedWin
	winner := positionAt(t, rec, n).Result().Winner
	if w == nil || w.Player != winner || w.Turns != 1 || !got.Analysis.Complete || got.Analysis.MaxTurns != 2 {
		t.Fatalf("analysis before the winning turn = %+v; want a forced win in 1 for player %d", got.Analysis, winner)
	}
	// The rest of the game: the winning turn ends it; no analysis then.
	for ; i < len(frames); i++ {
		if err := c.Frame(frames[i].t, frames[i].cells); err != nil {
			t.Fatal(err)
		}
	}
	if st := c.State(); st.Phase != "over" || st.Analysis != nil {
		t.Fatalf("game over: phase %s, analysis %+v; want none", st.Phase, st.Analysis)
	}
	c.Close() // waits for any search; every state is now in the channel
	close(pub.states)
	for st := range pub.states {
		checkAnalysis(t, rec, st)
	}
}

// checkAnalysis: an analysis is of its own state's position.
func checkAnalysis(t *testing.T, rec *record.Record, st wire.State) {
	t.Helper()
	a := st.Analysis
	if a == nil {
		return
	}
	if st.Phase == "over" {
		t.Errorf("seq %d: analysis of a finished game", st.Seq)
	}
	if a.ForcedWin == nil {
		if a.Depth < 0 || a.Depth > a.MaxTurns || a.Complete != (a.Depth == a.MaxTurns) {
			t.Errorf("seq %d: no win, depth %d of %d, complete %v", st.Seq, a.Depth, a.MaxTurns, a.Complete)
		}
		return
	}
	p := positionAt(t, rec, st.Turn)
	if p.Cells() != st.Cells || a.ForcedWin.Player != p.ToMove() {
		t.Fatalf("seq %d: state and replay disagree", st.Seq)
	}
	var line []engine.Turn
	for _, s := range a.ForcedWin.Line {
		turn, err := engine.ParseTurn(p.Board(), s)
		if err != nil {
			t.Fatal(err)
		}
		line = append(line, turn)
	}
	if !solve.Wins(p, line) {
		t.Errorf("seq %d (turn %d): analysis line %v does not win from the state's position", st.Seq, st.Turn, a.ForcedWin.Line)
	}
}

// TestAnalysisOff: without analysis options (tournament play) no state
// carries an analysis.
func TestAnalysisOff(t *testing.T) {
	rec, frames := playFrames(t, "020_Z-Dumbot-fenway-2018-02-24-1204.sgf", 7)
	pub := chanPub{states: make(chan wire.State, 4096)}
	c, err := New(Config{BoardID: "b1", Variant: rec.Variant, First: rec.First, Players: rec.Players, Publisher: pub})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		if err := c.Frame(f.t, f.cells); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	close(pub.states)
	for st := range pub.states {
		if st.Analysis != nil {
			t.Fatalf("seq %d: analysis %+v with analysis off", st.Seq, st.Analysis)
		}
	}
}

// TestAnalysisTournament: with analysis on "auto" (InTournament false), a
// tournament game is never analysed.
func TestAnalysisTournament(t *testing.T) {
	rec, frames := playFrames(t, "020_Z-Dumbot-fenway-2018-02-24-1204.sgf", 7)
	pub := chanPub{states: make(chan wire.State, 4096)}
	c, err := New(Config{BoardID: "b1", Variant: rec.Variant, First: rec.First, Players: rec.Players, Publisher: pub,
		Mode: referee.Tournament, Analysis: &analyst.Options{MaxTurns: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		if err := c.Frame(f.t, f.cells); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	close(pub.states)
	n := 0
	for st := range pub.states {
		n++
		if st.Analysis != nil {
			t.Fatalf("seq %d: analysis %+v of a tournament game", st.Seq, st.Analysis)
		}
	}
	if n < len(rec.Turns) {
		t.Fatalf("%d states published for %d turns", n, len(rec.Turns))
	}
}

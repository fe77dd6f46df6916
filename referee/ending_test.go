package referee

import (
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// A game ended off the board takes no more turns or take-backs; the board
// cleared and set up again starts the next game, as after a game over on
// the board.
func TestEndOffTheBoard(t *testing.T) {
	b := newBench(t, start37, Tournament)
	if ev := b.show("D4=w A1=."); kinds(ev) != "move" {
		t.Fatalf("first turn: %v", ev)
	}
	w := 1
	ev, err := b.r.End(b.now, Ending{Winner: &w, Reason: EndTime, Note: "flag"})
	if err != nil || len(ev) != 1 {
		t.Fatalf("End = %v, %v", ev, err)
	}
	if g, ok := ev[0].Body.(GameOver); !ok || *g.Winner != 1 || g.Reason != "time" || g.Note != "flag" {
		t.Fatalf("End event %v", ev[0])
	}
	if got := ev[0].String(); !strings.Contains(got, `"winner":1,"reason":"time","note":"flag"`) {
		t.Errorf("game-over JSON %s", got)
	}
	if !b.r.Over() || b.r.Ended() == nil || b.r.Ended().Reason != EndTime {
		t.Fatal("not over after End")
	}
	if s := b.r.Guidance().Status; s != "Game over: P1 wins (time)" {
		t.Errorf("status %q", s)
	}
	if _, err := b.r.End(b.now, Ending{Reason: EndDraw}); err == nil {
		t.Error("a second End was accepted")
	}
	// A turn played on the board after the end does not count, nor does
	// putting the last turn back (a take-back).
	if ev := b.show("E4=b B1=."); len(ev) != 0 || b.r.Game().Len() != 1 {
		t.Errorf("turn after the end: %v, %d turns", ev, b.r.Game().Len())
	}
	b.hold(b.r.cells[0])
	if b.r.Game().Len() != 1 {
		t.Errorf("take-back after the end: %d turns", b.r.Game().Len())
	}
	if ev := b.r.DemandTakeback(b.now); kinds(ev) != "fault" {
		t.Errorf("DemandTakeback after the end: %v", ev)
	}
	// Cleared and set up: the next game.
	b.hold(strings.Repeat(".", 37))
	if ev := b.hold(engine.NewPosition(b.r.b, engine.Standard, 0).Cells()); kinds(ev) != "set-up" {
		t.Fatalf("set up after the end: %v", ev)
	}
	b.r.NewGame(b.now, 1)
	if b.r.Over() || b.r.Ended() != nil {
		t.Error("the new game is over")
	}
}

func TestEndRefusals(t *testing.T) {
	b := newBench(t, start37, Casual)
	two := 2
	for _, e := range []Ending{{Reason: "bored"}, {Reason: EndResignation, Winner: &two}, {Reason: ""}} {
		if _, err := b.r.End(0, e); err == nil {
			t.Errorf("End(%+v) accepted", e)
		}
	}
	if b.r.Over() {
		t.Error("a refused End ended the game")
	}
	// A draw: no winner.
	ev, err := b.r.End(0, Ending{Reason: EndDraw})
	if err != nil || ev[0].Body.(GameOver).Winner != nil || b.r.Guidance().Status != "Game over: drawn (draw)" {
		t.Errorf("draw: %v %v %q", ev, err, b.r.Guidance().Status)
	}
}

// A resumed game that had ended off the board stays ended.
func TestEndResumed(t *testing.T) {
	p, _ := engine.ParsePosition(start37)
	w := 0
	r, err := New(Config{Board: p.Board(), Rules: p.Rules(), Game: engine.NewGame(p), Ended: &Ending{Winner: &w, Reason: EndResignation}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Over() || r.Ended().Reason != EndResignation || !strings.HasPrefix(r.Guidance().Status, "Game over: P0 wins") {
		t.Errorf("resumed: over %v, %q", r.Over(), r.Guidance().Status)
	}
}

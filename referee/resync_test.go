package referee

import (
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// noFreeRing: every edge ring holds a marble, so no ring is free, and a
// white marble sits in the centre. A placement next to it removes no ring,
// and the opponent must then jump with the marble just placed.
const noFreeRing = "37 bbbb/booob/goooog/goowoog/goooog/gooog/bbbb 5,0,0 0,0,0 0,0,0 0"

// holdFor shows cells for ms milliseconds at 200 Hz.
func (b *bench) holdFor(cells string, ms int64) []Event {
	var ev []Event
	for end := b.now + ms; b.now < end; b.now += 5 {
		ev = append(ev, b.r.Observe(b.now, cells)...)
	}
	return ev
}

// The finding of issue 10: a placement that removed no ring, then the
// next player lifts that very marble to jump. The board in between is
// exactly the position before the placement; it is a capture under way,
// not a take-back.
func TestLiftedJumperIsNotATakeback(t *testing.T) {
	b := newBench(t, noFreeRing, Casual)
	ev := b.show("D3=w")
	b.expect(ev, "move forced-capture")
	if got := ev[0].Body.(Move).Notation; got != "WD3" {
		t.Fatalf("committed %s; want WD3", got)
	}
	// The jumper in the hand for most of a hop: the placement stands.
	ev = b.holdFor(b.board("D3=o"), DefaultHopMS-50)
	b.expect(ev, "pending")
	if p := ev[0].Body.(Pending); p.Need != "finish the capture" {
		t.Errorf("pending %+v; want finish the capture", p)
	}
	b.expect(b.show("D3=o D5=w"), "pending") // landed; D4 still to take off
	ev = b.show("D3=o D4=o D5=w")
	b.expect(ev, "move")
	if got := ev[0].Body.(Move).Notation; got != "D3xD5" || b.r.Game().Len() != 2 {
		t.Fatalf("committed %s after %d turns; want D3xD5 as turn 2", got, b.r.Game().Len()-1)
	}
}

// Held for longer than a hop, the same board is a take-back; putting the
// marble back re-commits the placement (a take-back is never final).
func TestLiftedJumperHeldIsATakebackAndRedo(t *testing.T) {
	b := newBench(t, noFreeRing, Casual)
	b.expect(b.show("D3=w"), "move forced-capture")
	lifted := b.board("D3=o")
	ev := b.holdFor(lifted, DefaultHopMS+DefaultSettleMS+50)
	b.expect(ev, "pending takeback")
	if b.r.Game().Len() != 0 {
		t.Fatalf("%d turns after the take-back; want 0", b.r.Game().Len())
	}
	ev = b.show("D3=w")
	if got := kinds(ev); !strings.HasPrefix(got, "move") || !strings.HasSuffix(got, "inferred") {
		t.Fatalf("events %q; want the placement re-committed (move … inferred)", got)
	}
	if got := ev[0].Body.(Move).Notation; got != "WD3" || b.r.Game().Len() != 1 {
		t.Errorf("redo committed %s (%d turns); want WD3", got, b.r.Game().Len())
	}
}

// A take-back undone by putting the pieces back, two turns at once.
func TestTakebackRedoneTwoTurns(t *testing.T) {
	b := newBench(t, start37, Casual)
	b.expect(b.show("D4=w A1=."), "move")
	b.expect(b.show("F2=g G4=."), "move")
	after := b.r.Expected()
	b.expect(b.hold(strings.Repeat("o", 37)), "takeback")
	ev := b.hold(after)
	b.expect(ev, "move move inferred")
	if n := ev[1].Body.(Move).Notation; n != "GF2-G4" || b.r.Expected() != after {
		t.Errorf("redo: %s, board %s; want GF2-G4 and %s", n, b.r.Expected(), after)
	}
}

// The scan stalled over the end of one turn: the referee sees two whole
// placements at once. Either order gives the same position, so both are
// committed and it says they were inferred together.
func TestTwoTurnMerge(t *testing.T) {
	b := newBench(t, start37, Casual)
	ev := b.show("D4=w A1=. F2=g G4=.")
	b.expect(ev, "move move inferred")
	if inf := ev[2].Body.(Inferred); len(inf.Turns) != 2 || inf.Turns[0] != 1 || inf.Turns[1] != 2 {
		t.Errorf("inferred %+v; want turns 1 and 2", inf)
	}
	want := b.board("")
	if b.r.Game().Len() != 2 || want != b.r.Expected() {
		t.Fatalf("after the merge: %d turns, board %s", b.r.Game().Len(), b.r.Expected())
	}
	// And the game goes on.
	b.expect(b.show("B2=b B1=."), "move")
}

// The end of one turn merged with the start of the next: which marble was
// whose is not yet clear, so the referee waits without red LEDs; once the
// second turn is complete, both are committed.
func TestTwoTurnMergeWithTurnUnderWay(t *testing.T) {
	b := newBench(t, start37, Casual)
	ev := b.show("D4=w A1=. F2=g")
	b.expect(ev, "pending")
	if p := ev[0].Body.(Pending); !strings.Contains(p.Need, "two turns") {
		t.Errorf("pending %+v", p)
	}
	for _, h := range b.r.Guidance().Hints {
		if h.Role == RoleWrong {
			t.Fatalf("a cell is marked wrong while two legal turns are under way")
		}
	}
	b.expect(b.show("D4=w A1=. F2=g G4=."), "move move inferred")
	if b.r.Game().Len() != 2 {
		t.Errorf("%d turns; want 2", b.r.Game().Len())
	}
}

// A turn and the start of the next, where only one reading is legal (the
// capture was compulsory): the capture is committed and the placement
// reported as under way.
func TestTurnAndStartOfNext(t *testing.T) {
	b := newBench(t, diagram3, Casual)
	ev := b.show("D1=o D2=o D3=o D4=o D5=w A1=b")
	b.expect(ev, "move pending inferred")
	if n := ev[0].Body.(Move).Notation; n != "D1xD3xD5" {
		t.Errorf("committed %s; want D1xD3xD5", n)
	}
	if p := ev[1].Body.(Pending); p.Need != "remove a free ring" {
		t.Errorf("pending %+v", p)
	}
	b.expect(b.show("D1=o D2=o D3=o D4=o D5=w A1=b G4=."), "move")
}

// Two rings gone and one marble: which ring was the first turn's is not
// clear, so nothing is committed until the second marble is down.
func TestTurnAndRingOfNext(t *testing.T) {
	b := newBench(t, start37, Casual)
	// One marble and two rings gone: the second turn lifted its ring
	// before placing its marble.
	ev := b.show("D4=w A1=. G4=.")
	b.expect(ev, "pending")
	if b.r.Game().Len() != 0 {
		// Two readings (A1 or G4 was the first turn's ring) lead to
		// different positions: nothing is committed yet.
		t.Fatalf("%d turns committed from an ambiguous board", b.r.Game().Len())
	}
	ev = b.show("D4=w A1=. G4=. B2=b")
	b.expect(ev, "move move inferred")
}

// Lost: a turn was committed wrongly (here: the marble was swapped for
// another colour), the players carried on, and the board is now two turns
// from the position before it. The referee takes the wrong turn back and
// resynchronises.
func TestResynchroniseFromEarlierPosition(t *testing.T) {
	b := newBench(t, start37, Casual)
	b.expect(b.show("D4=w A1=."), "move")
	b.expect(b.show("D4=g A1=."), "illegal")
	ev := b.show("D4=g A1=. F2=b G4=.")
	got := kinds(ev)
	if !strings.HasPrefix(got, "takeback move move") || !strings.HasSuffix(got, "inferred") {
		t.Fatalf("events %q; want a take-back and two inferred moves", got)
	}
	if b.r.Game().Len() != 2 || b.r.Expected() != b.board("") {
		t.Fatalf("after resynchronising: %d turns, board %s", b.r.Game().Len(), b.r.Expected())
	}
}

// An illegal try right after a turn is not read as turns from before it.
func TestIllegalTryIsNotResynchronised(t *testing.T) {
	b := newBench(t, start37, Casual)
	b.expect(b.show("D4=w A1=."), "move")
	b.expect(b.show("C3=b E3=g"), "illegal") // two marbles, no ring
	b.expect(b.show(""), "restored")
	if b.r.Game().Len() != 1 {
		t.Errorf("%d turns; want 1", b.r.Game().Len())
	}
}

// A placement whose marble was claimed and cleared while the scan was not
// looking: its colour was never seen. With more than one colour possible,
// the referee goes on with one, asks, and rewrites the game when the
// answer differs.
func TestUnseenColourIsAsked(t *testing.T) {
	// A3 and B4 are gone: a marble on A4 with B5 removed isolates A4,
	// which player 0 claims at once.
	b := newBench(t, "37 oo.o/ooo.o/oooooo/ooooooo/oooooo/ooooo/oooo 6,8,10 0,0,0 0,0,0 0", Casual)
	// The claimed ring is cleared before the scan saw the marble. That
	// looks like a ring lifted that is not free, until the board holds.
	ev := b.holdFor(b.board("A4=. B5=."), DefaultHopMS+DefaultSettleMS+20)
	got := kinds(ev)
	if !strings.HasPrefix(got, "illegal") || !strings.HasSuffix(got, "inferred question") {
		t.Fatalf("events %q; want the turn inferred and a question", got)
	}
	q := ev[len(ev)-1].Body.(Question)
	if q.Cell != "A4" || len(q.Options) != 3 || q.Turn != 1 {
		t.Fatalf("question %+v", q)
	}
	if !strings.Contains(b.r.Guidance().Status, "Which colour was on A4") {
		t.Errorf("status %q does not ask", b.r.Guidance().Status)
	}
	if cell, opts, ok := b.r.Asking(); !ok || cell != "A4" || len(opts) != 3 {
		t.Errorf("Asking() = %s %v %v", cell, opts, ok)
	}
	// The game goes on meanwhile.
	b.expect(b.show("A4=. B5=. F2=g G4=."), "move")
	other, _ := engine.ParseColor(q.Options[2])
	ev = b.r.Answer(b.now, other)
	if got := kinds(ev); !strings.HasPrefix(got, "takeback move move") || !strings.HasSuffix(got, "inferred") {
		t.Fatalf("answer: events %q", got)
	}
	if b.r.Game().Len() != 2 {
		t.Fatalf("%d turns after the answer; want 2", b.r.Game().Len())
	}
	if caps := b.r.Position().Captures(0); caps[other] != 1 {
		t.Errorf("player 0's captures %v; want the %s marble claimed", caps, other)
	}
	if _, _, ok := b.r.Asking(); ok {
		t.Error("the question is still open")
	}
	if ev := b.r.Answer(b.now, other); kinds(ev) != "fault" {
		t.Errorf("a second answer: %q; want a fault", kinds(ev))
	}
}

// When the pool leaves one colour, there is nothing to ask.
func TestUnseenColourFromPool(t *testing.T) {
	b := newBench(t, "37 oo.o/ooo.o/oooooo/ooooooo/oooooo/ooooo/oooo 0,1,0 6,7,10 0,0,0 0", Casual)
	ev := b.holdFor(b.board("A4=. B5=."), DefaultHopMS+DefaultSettleMS+20)
	b.expect(ev, "illegal move game-over inferred")
	if caps := b.r.Position().Captures(0); caps[engine.Grey] != 8 {
		t.Errorf("captures %v; want the last grey claimed", caps)
	}
}

// After a finished game the board shows the result; only once the players
// have cleared it and set it up again does the referee say a new game may
// begin. Setting up without clearing first (or a half-cleared board) is
// not a new game.
func TestSetUpAfterGameOver(t *testing.T) {
	b := newBench(t, "37 w.oo/o.ooo/.ooooo/o.ooooo/o.gooo/ooooo/oooo 1,4,8 2,0,0 2,3,2 0", Casual)
	b.expect(b.show("E4=b G4=."), "move forced-capture")
	b.expect(b.show("E3=o E4=o E5=g"), "move")
	b.expect(b.show("B1=w C2=."), "move game-over")
	start := strings.Repeat("o", 37)
	b.expect(b.hold(start), "") // not cleared yet: rings come back only on a fresh board
	b.expect(b.hold(strings.Repeat(".", 37)), "")
	if !strings.HasPrefix(b.r.Guidance().Status, "Game over") {
		t.Errorf("status while cleared %q; want the result", b.r.Guidance().Status)
	}
	b.expect(b.hold(start), "set-up")
	b.expect(b.hold(start), "")
}

package referee

import (
	"reflect"
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
// placements at once. Every order gives the same position, but the board
// never showed who placed which marble and removed which ring: the
// referee follows one reading, says so, and asks which it was. The answer
// rewrites the record.
func TestTwoTurnMerge(t *testing.T) {
	b := newBench(t, start37, Casual)
	ev := b.show("D4=w A1=. F2=g G4=.")
	b.expect(ev, "move move inferred question")
	if inf := ev[2].Body.(Inferred); len(inf.Turns) != 2 || inf.Turns[0] != 1 || inf.Turns[1] != 2 {
		t.Errorf("inferred %+v; want turns 1 and 2", inf)
	}
	q := ev[3].Body.(Question)
	want := []string{"WD4-A1 GF2-G4", "WD4-G4 GF2-A1", "GF2-A1 WD4-G4", "GF2-G4 WD4-A1"}
	if q.About != "turns" || q.Turn != 1 || q.Provisional != 0 || !reflect.DeepEqual(q.Options, want) {
		t.Fatalf("question %+v; want the four orders %v", q, want)
	}
	after := b.board("")
	if b.r.Game().Len() != 2 || after != b.r.Expected() {
		t.Fatalf("after the merge: %d turns, board %s", b.r.Game().Len(), b.r.Expected())
	}
	// The game goes on meanwhile.
	b.expect(b.show("B2=b B1=."), "move")
	// The answer: grey first (an answer rewrites the game from turn 1).
	ev = b.r.Answer(b.now, q.ID, 3)
	if got := kinds(ev); !strings.HasPrefix(got, "takeback move move move") || !strings.HasSuffix(got, "inferred") {
		t.Fatalf("answer: events %q", got)
	}
	var notes []string
	for i := 0; i < b.r.Game().Len(); i++ {
		tn, _ := b.r.Game().Turn(i)
		notes = append(notes, engine.FormatTurn(b.r.b, tn))
	}
	if got := strings.Join(notes, " "); got != "GF2-G4 WD4-A1 BB2-B1" {
		t.Errorf("after the answer the game is %s; want GF2-G4 WD4-A1 BB2-B1", got)
	}
	if _, ok := b.r.Asking(); ok {
		t.Error("the question is still open after the answer")
	}
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
	b.expect(b.show("D4=w A1=. F2=g G4=."), "move move inferred question")
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
	b.expect(ev, "move inferred pending")
	if n := ev[0].Body.(Move).Notation; n != "D1xD3xD5" {
		t.Errorf("committed %s; want D1xD3xD5", n)
	}
	if p := ev[2].Body.(Pending); p.Need != "remove a free ring" {
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
	b.expect(ev, "move move inferred question")
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
	if !strings.HasPrefix(got, "takeback move move") || !strings.HasSuffix(got, "inferred question") {
		t.Fatalf("events %q; want a take-back, two inferred moves and a question of their order", got)
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
	if a, ok := b.r.Asking(); !ok || a.Cell != "A4" || len(a.Options) != 3 || a.About != "colour" || a.Provisional != 0 {
		t.Errorf("Asking() = %+v %v", a, ok)
	}
	// The game goes on meanwhile.
	b.expect(b.show("A4=. B5=. F2=g G4=."), "move")
	other, _ := engine.ParseColor(q.Options[2])
	ev = b.r.AnswerColour(b.now, other)
	if got := kinds(ev); !strings.HasPrefix(got, "takeback move move") || !strings.HasSuffix(got, "inferred") {
		t.Fatalf("answer: events %q", got)
	}
	if b.r.Game().Len() != 2 {
		t.Fatalf("%d turns after the answer; want 2", b.r.Game().Len())
	}
	if caps := b.r.Position().Captures(0); caps[other] != 1 {
		t.Errorf("player 0's captures %v; want the %s marble claimed", caps, other)
	}
	if _, ok := b.r.Asking(); ok {
		t.Error("the question is still open")
	}
	if ev := b.r.Answer(b.now, q.ID, 2); kinds(ev) != "fault" {
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

// game1After38 is the first built-in game (001_Z-shoto-Dumbot) after turn
// 38: player 0 wins with *BC2-D2, which claims every ring left.
const game1After38 = "37 ..../bb.../bow.../.ob..../.g..../...../.... 0,0,0 3,3,2 2,4,4 0"

// The finding behind make run's first game: two marbles put down at once
// and held for a moment, then taken back. With the only free ring filled
// first, that reads as two legal turns that end the game (player 1 wins
// on a full board). A game never ends on turns the board did not show
// one by one until the board has held for a hop: put back at once, it
// was a try, and the real last turn is committed as played.
func TestTwoTurnEndWaitsForTheBoardToHold(t *testing.T) {
	b := newBench(t, game1After38, Casual)
	ev := b.holdFor(b.board("C2=w D2=b"), 500)
	if b.r.Game().Len() != 0 || b.r.Position().Result().Over {
		t.Fatalf("after a try held 500 ms: %d turns, over %v (events %q)", b.r.Game().Len(), b.r.Position().Result().Over, kinds(ev))
	}
	b.expect(ev, "pending")
	b.holdFor(b.board(""), 400)
	b.holdFor(b.board("C2=b"), 400)
	ev = b.holdFor(b.board("C2=b D2=."), 400)
	b.expect(ev, "move game-over")
	if m := ev[0].Body.(Move); m.Notation != "*BC2-D2" {
		t.Errorf("committed %s; want *BC2-D2", m.Notation)
	}
	if w := ev[1].Body.(GameOver).Winner; w == nil || *w != 0 {
		t.Errorf("winner %v; want player 0", w)
	}
}

// Held for longer than a hop, the same two marbles are the game's last two
// turns; putting them back is then a take-back of both, although every
// ring is claimed (a board half cleared would look the same).
func TestInferredEndTakenBack(t *testing.T) {
	b := newBench(t, game1After38, Casual)
	ev := b.holdFor(b.board("C2=w D2=b"), DefaultHopMS+DefaultSettleMS+50)
	if got := kinds(ev); got != "pending move move game-over inferred" {
		t.Fatalf("events %q; want the two turns and the end once the board held", got)
	}
	ev = b.holdFor(game1Cells(t), 300)
	b.expect(ev, "takeback")
	if b.r.Game().Len() != 0 || b.r.Position().Result().Over {
		t.Fatalf("after the take-back: %d turns, over %v", b.r.Game().Len(), b.r.Position().Result().Over)
	}
}

func game1Cells(t *testing.T) string {
	p, err := engine.ParsePosition(game1After38)
	if err != nil {
		t.Fatal(err)
	}
	return p.Cells()
}

// A winning placement the sensors never saw: the marble put down, its
// ring removed and the claimed ring cleared during one scan stall. The
// colour was never seen; every colour gives the same winner, so the game
// ends, and the referee asks the colour for the record.
func TestUnseenWinningTurnIsAsked(t *testing.T) {
	b := newBench(t, game1After38, Casual)
	ev := b.holdFor(b.board("C2=. D2=."), DefaultHopMS+DefaultSettleMS+50)
	got := kinds(ev)
	if !strings.HasSuffix(got, "move game-over inferred question") {
		t.Fatalf("events %q; want the turn, the end and a question", got)
	}
	q := ev[len(ev)-1].Body.(Question)
	if q.About != "colour" || q.Cell != "C2" || len(q.Options) != 3 {
		t.Fatalf("question %+v; want the colour on C2", q)
	}
	black := -1
	for i, o := range q.Options {
		if o == "b" {
			black = i
		}
	}
	ev = b.r.Answer(b.now, q.ID, black)
	if !strings.HasSuffix(kinds(ev), "inferred") {
		t.Fatalf("answer: events %q", kinds(ev))
	}
	if tn, _ := b.r.Game().Turn(0); engine.FormatTurn(b.r.b, tn) != "*BC2-D2" {
		t.Errorf("after the answer the turn is %s; want *BC2-D2", engine.FormatTurn(b.r.b, tn))
	}
	if res := b.r.Position().Result(); !res.Over || res.Winner != 0 {
		t.Errorf("result %+v; want player 0's win", res)
	}
}

package referee

import (
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

func (b *bench) expectTurn(s string) engine.Turn {
	b.t.Helper()
	turn, err := engine.ParseTurn(b.r.b, s)
	if err != nil {
		b.t.Fatal(err)
	}
	if err := b.r.Expect(&turn); err != nil {
		b.t.Fatal(err)
	}
	return turn
}

func (b *bench) role(label string) Role {
	b.t.Helper()
	return b.r.Guidance().Hints[cellOf(b.t, b.r, label)].Role
}

// On the engine's turn the LEDs show the marble's colour where it goes and
// the ring to remove; a different legal placement is refused with the way
// back, and the turn carried out as shown is committed.
func TestExpectedPlacement(t *testing.T) {
	b := newBench(t, start37, Casual)
	b.expectTurn("GD4-A1")
	if b.role("D4") != RolePlaceGrey || b.role("A1") != RoleRemoveRing {
		t.Fatalf("guidance: D4 %v, A1 %v; want place-grey, remove-ring", b.role("D4"), b.role("A1"))
	}
	if g := b.r.Guidance(); !strings.Contains(g.Status, "plays GD4-A1") {
		t.Errorf("status %q", g.Status)
	}
	for c, h := range b.r.Guidance().Hints {
		if h.Role == RoleFreeRing {
			t.Errorf("%s lit as a free ring on the engine's turn", b.r.b.Label(engine.Cell(c)))
		}
	}
	// Another legal placement, complete: refused, with the way back.
	ev := b.show("C3=w A4=.")
	b.expect(ev, "illegal")
	il := ev[0].Body.(Illegal)
	if il.Rule != RuleEngineTurn || len(il.Cells) != 2 || b.r.Game().Len() != 0 {
		t.Fatalf("illegal %+v, %d turns; want refused by rule engine-turn, C3 and A4 to restore", il, b.r.Game().Len())
	}
	if b.role("C3") != RoleWrong || b.role("A4") != RoleWrong {
		t.Errorf("C3 %v, A4 %v: want both lit wrong", b.role("C3"), b.role("A4"))
	}
	// The right colour on another ring is refused too, before the removal.
	b.expect(b.show("C3=g"), "illegal")
	// Put back: the engine's turn is shown again.
	b.expect(b.show(""), "restored")
	if b.role("D4") != RolePlaceGrey {
		t.Errorf("after restoring, D4 %v; want place-grey", b.role("D4"))
	}
	// Carried out step by step: the marble, then the ring.
	ev = b.show("D4=g")
	b.expect(ev, "pending")
	if b.role("A1") != RoleRemoveRing || b.role("D4") == RolePlaceGrey {
		t.Errorf("after the marble: A1 %v, D4 %v; want only the removal lit", b.role("A1"), b.role("D4"))
	}
	ev = b.show("D4=g A1=.")
	b.expect(ev, "move")
	if m := ev[0].Body.(Move); m.Notation != "GD4-A1" {
		t.Errorf("committed %s", m.Notation)
	}
	if _, ok := b.r.Expecting(); ok {
		t.Error("still expecting a turn after it was committed")
	}
	// The next player's turn is free again.
	if ev := b.show("C3=w A4=."); len(ev) == 0 || kinds(ev[:1]) != "move" {
		t.Errorf("the next player's turn: %v", ev)
	}
}

// A capture is shown hop by hop: the jumper, its next ring and the marble
// it jumps; another chain is refused.
func TestExpectedCaptureHopByHop(t *testing.T) {
	b := newBench(t, diagram3, Casual)
	b.expectTurn("D1xD3xD5")
	if b.role("D1") != RoleChainContinues || b.role("D3") != RoleJumpTarget || b.role("D2") != RoleTakeOff || b.role("D5") != RoleNone {
		t.Fatalf("first hop: D1 %v D3 %v D2 %v D5 %v", b.role("D1"), b.role("D3"), b.role("D2"), b.role("D5"))
	}
	b.expect(b.show("D1=o D3=w"), "pending")
	if b.role("D3") != RoleChainContinues || b.role("D5") != RoleJumpTarget || b.role("D4") != RoleTakeOff || b.role("D2") != RoleTakeOff || b.role("F3") != RoleNone {
		t.Fatalf("second hop: D3 %v D5 %v D4 %v D2 %v F3 %v", b.role("D3"), b.role("D5"), b.role("D4"), b.role("D2"), b.role("F3"))
	}
	// The other way on from D3 is refused.
	b.expect(b.show("D1=o D3=o E3=o F3=w D2=o"), "illegal")
	b.expect(b.show("D1=o D3=w"), "pending")
	ev := b.show("D1=o D2=o D3=o D4=o D5=w")
	b.expect(ev, "move")
	if got := ev[0].Body.(Move).Notation; got != "D1xD3xD5" {
		t.Errorf("committed %s", got)
	}
}

// A take-back of the turn before stays possible on the engine's turn, and
// a hint or the last turn can be shown without being required.
func TestExpectedTakebackAndShow(t *testing.T) {
	b := newBench(t, start37, Casual)
	b.expect(b.show("C3=w A4=."), "move")
	b.expectTurn("GD4-A1")
	b.expect(b.show("C3=o A4=o"), "takeback")
	if _, ok := b.r.Expecting(); ok {
		t.Error("the expectation survived the take-back")
	}
	if b.role("D4") == RolePlaceGrey {
		t.Error("the engine's turn is still lit after the take-back")
	}
	turn, _ := engine.ParseTurn(b.r.b, "BE5-G1")
	b.r.ShowTurn(turn, Msg("guide.hint", "BE5-G1"))
	if b.role("E5") != RolePlaceBlack || b.role("G1") != RoleRemoveRing || b.r.Guidance().Status != "Hint: BE5-G1" {
		t.Errorf("hint: E5 %v G1 %v status %q", b.role("E5"), b.role("G1"), b.r.Guidance().Status)
	}
	// A hint is not binding.
	b.expect(b.show("C3=b A4=."), "move")
	if !b.r.ShowLastTurn(Msg("guide.engine-last", "BC3-A4")) || b.role("C3") != RolePlaceBlack || b.role("A4") != RoleRemoveRing {
		t.Errorf("last turn: C3 %v A4 %v", b.role("C3"), b.role("A4"))
	}
	if gone, _ := engine.ParseTurn(b.r.b, "BE5-A4"); b.r.Expect(&gone) == nil {
		t.Error("expected a turn on a ring that is gone")
	}
}

// A stalled scan that sees the engine's turn and the person's next at
// once commits both, the engine's first; the same board after another
// turn of the engine's is refused.
func TestExpectedTwoTurnsSeenAtOnce(t *testing.T) {
	b := newBench(t, start37, Casual)
	b.expectTurn("GD4-A1")
	ev := b.show("D4=g A1=. F5=w G4=.")
	if n := b.r.Game().Len(); n != 2 || !strings.HasPrefix(kinds(ev), "move move") {
		t.Fatalf("events %q, %d turns; want the engine's turn and the next committed", kinds(ev), n)
	}
	if m := ev[0].Body.(Move); m.Notation != "GD4-A1" {
		t.Errorf("first turn %s; want the engine's GD4-A1", m.Notation)
	}
	c := newBench(t, start37, Casual)
	c.expectTurn("GD4-A1")
	if ev := c.show("D5=g A1=. F5=w G4=."); kinds(ev) != "illegal" || c.r.Game().Len() != 0 {
		t.Errorf("another turn and the next at once: %q, %d turns; want refused", kinds(ev), c.r.Game().Len())
	}
}

// gameTurns is the referee's game in notation, one string per turn.
func (b *bench) gameTurns() []string {
	g := b.r.Game()
	out := make([]string, 0, g.Len())
	for i := 0; i < g.Len(); i++ {
		tn, _ := g.Turn(i)
		out = append(out, engine.FormatTurn(b.r.b, tn))
	}
	return out
}

// playAll plays turns (notation, separated by spaces) from p.
// benchAfter is a bench at the position after turns on the standard
// board of rings ("37", "48", "61"), the board held as it stands.
func benchAfter(t *testing.T, rings, turns string) *bench {
	t.Helper()
	p := playAll(t, engine.NewPosition(engine.MustStandardBoard(rings), engine.Standard, 0), turns)
	b := newBench(t, p.String(), Casual)
	b.holdFor(b.r.Expected(), 300)
	return b
}

func playAll(t *testing.T, p engine.Position, turns string) engine.Position {
	t.Helper()
	for _, s := range strings.Fields(turns) {
		turn, err := engine.ParseTurn(p.Board(), s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		p = p.MustPlay(turn)
	}
	return p
}

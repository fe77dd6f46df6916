package referee

import (
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// from returns the starting board with some cells changed.
func (b *bench) from(start string, edits string) string {
	b.t.Helper()
	cells := []byte(start)
	for _, e := range strings.Fields(edits) {
		label, val, _ := strings.Cut(e, "=")
		c, err := b.r.b.ParseCell(label)
		if err != nil {
			b.t.Fatal(err)
		}
		cells[c] = val[0]
	}
	return string(cells)
}

// A sensor stuck at "vacant ring": the white marble put on D4 never shows,
// so the next player's black marble looks like the end of the first turn.
// Once the black marble jumps over D4, no line of play explains the boards
// as read; with D4 unknown, one does. The referee reports D4 as stuck,
// asks about the turns it misread, and goes on without D4.
func TestStuckSensorFound(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	b.expect(b.hold(b.from(start, "A1=.")), "pending")                // WD4-A1: the marble does not show
	b.expect(b.hold(b.from(start, "A1=. D3=b")), "move")              // read as BD3-A1
	b.expect(b.hold(b.from(start, "A1=. D3=b G4=.")), "pending")      // BD3-G4 read as a ring lifted
	b.expect(b.hold(b.from(start, "A1=. D3=o D5=b G4=.")), "illegal") // D3xD5 over the hidden marble
	ev := b.hold(b.from(start, "A1=. D3=o D5=b G4=."))
	ev = append(ev, b.hold(b.from(start, "A1=. D3=o D5=b G4=. B1=."))...)
	var fault *Fault
	var q *Question
	for _, e := range ev {
		switch x := e.Body.(type) {
		case Fault:
			fault = &x
		case Question:
			q = &x
		}
	}
	if fault == nil || fault.ReasonMsg == nil || fault.ReasonMsg.Key != "fault.stuck-cell" || !strings.Contains(fault.Reason, "D4") {
		t.Fatalf("no stuck-sensor fault naming D4: %v", ev)
	}
	if q == nil || q.Turn != 1 {
		t.Fatalf("no question about the turns from turn 1: %v", ev)
	}
	want := -1
	for i, o := range q.Options {
		if strings.HasPrefix(o, "WD4-A1 BD3-G4 D3xD5") || q.About == "colour" && o == "w" {
			want = i
		}
	}
	if want < 0 {
		t.Fatalf("no option is what was played: %+v", q)
	}
	b.r.Answer(b.now, q.ID, want)
	g := b.r.Game()
	var got []string
	for i := 0; i < g.Len(); i++ {
		tn, _ := g.Turn(i)
		got = append(got, engine.FormatTurn(b.r.b, tn))
	}
	if len(got) < 3 || strings.Join(got[:3], " ") != "WD4-A1 BD3-G4 D3xD5" {
		t.Fatalf("after the answer the game is %v", got)
	}
	// D4 is unknown from now on: its reading is not trusted.
	if !strings.Contains(strings.Join(b.r.DeadCells(), " "), "D4") && b.r.stuck&bit(mustCell(t, b, "D4")) == 0 {
		t.Fatalf("D4 is trusted again")
	}
}

// A stuck socket whose reading changes reads again: it is trusted again,
// and the players are told.
func TestStuckSensorReadsAgain(t *testing.T) {
	b := newBench(t, start37, Casual)
	d4 := mustCell(t, b, "D4")
	b.r.stuck |= bit(d4)
	b.r.stuckRead[d4] = 'o'
	ev := b.show("D4=w A1=.")
	if len(ev) == 0 || ev[0].Body.Kind() != "fault" || ev[0].Body.(Fault).ReasonMsg.Key != "fault.stuck-reads" {
		t.Fatalf("events %v; want the sensor reported reading again first", ev)
	}
	if b.r.stuck != 0 || b.r.Game().Len() != 1 {
		t.Fatalf("stuck %b, %d turns; want D4 trusted and WD4-A1 committed", b.r.stuck, b.r.Game().Len())
	}
}

func mustCell(t *testing.T, b *bench, label string) engine.Cell {
	c, err := b.r.b.ParseCell(label)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A socket whose sensor is stuck is lit as a sensor fault where nothing
// else is to be shown, and listed with the dead ones.
func TestStuckSocketIsShown(t *testing.T) {
	b := newBench(t, start37, Casual)
	d4 := mustCell(t, b, "D4")
	if g := b.r.Guidance(); g.Hints[d4].Role != RoleNone {
		t.Fatalf("D4 lit %v before any fault", g.Hints[d4].Role)
	}
	b.r.stuck |= bit(d4)
	b.r.stuckRead[d4] = 'o'
	if g := b.r.Guidance(); g.Hints[d4].Role != RoleSensorFault {
		t.Fatalf("stuck D4 lit %v; want %v", g.Hints[d4].Role, RoleSensorFault)
	}
	if got := b.r.DeadCells(); len(got) != 1 || got[0] != "D4" {
		t.Fatalf("dead cells %v; want [D4]", got)
	}
	// Other guidance on the cell says more.
	h := make(hints, b.r.b.Len())
	h.set(d4, RoleSensorFault)
	h.set(d4, RoleLastMove)
	if h[d4].Role != RoleLastMove {
		t.Fatalf("a sensor fault outranks the last move")
	}
}

// A verdict that ends the game and waits for the board to hold, beside
// lines of play that wait too, is given once the board has held: the
// lines' look does not drop it (the game was left one turn short).
func TestEndWaitsBesideHeldLines(t *testing.T) {
	b := newBench(t, start37, Casual)
	b.hold(b.r.Expected())
	turn := b.expectTurn("WD4-A1")
	b.r.waitEnd = &decision{lines: [][]engine.Turn{{turn}}, reason: "test"}
	b.r.linesHold, b.r.deferred = true, true
	b.r.obsSince = b.now - b.r.hop
	ev := b.r.late(b.now)
	if b.r.waitEnd != nil && !b.r.deferred {
		t.Fatalf("the waiting verdict is left without a look: events %v", ev)
	}
	ev = append(ev, b.r.late(b.now)...)
	if b.r.waitEnd != nil || b.r.Game().Len() != 1 {
		t.Fatalf("the waiting verdict was not given: %d turns, events %v", b.r.Game().Len(), ev)
	}
}

// replay passes over an illegal try that some line happened to explain
// when the last board is explained from the lines before it. Game 108 of
// the dead exam was asked about such a try, and lost for good.
func TestReplayPassesOverExplainedTry(t *testing.T) {
	b := newBench(t, start37, Casual)
	r := b.r
	root := r.rootLine()
	after := func(p engine.Position, turns ...string) (engine.Position, string) {
		for _, s := range turns {
			tn, err := engine.ParseTurn(r.b, s)
			if err != nil {
				t.Fatal(err)
			}
			p = p.MustPlay(tn)
		}
		return p, p.Cells()
	}
	p1, b1 := after(r.Position(), "WD4-A1")
	_, try := after(p1, "BD5-A2")
	_, b4 := after(p1, "GC3-A3")
	boards := []histBoard{
		{at: board{cells: b1}, root: root},
		{at: board{cells: try}, root: root},
		{at: board{cells: b1}, root: root},
		{at: board{cells: b4}, root: root},
	}
	lines, skipped := r.replay(boards, engine.NoCell, nil)
	if len(lines) != 1 || r.notation(lines[0].turns) != "WD4-A1 GC3-A3" {
		var got []string
		for _, l := range lines {
			got = append(got, r.notation(l.turns))
		}
		t.Fatalf("lines %q; want WD4-A1 GC3-A3", got)
	}
	// Passed over: the board that put the try right (the try's lines do
	// not explain it), then the try itself, once the last board shows
	// the game went on from before it.
	if skipped != 2 {
		t.Errorf("%d boards passed over; want 2", skipped)
	}
}

package referee

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// bench is a referee under test with a clock.
type bench struct {
	t   *testing.T
	r   *Referee
	now int64
}

func newBench(t *testing.T, pos string, mode Mode) *bench {
	t.Helper()
	p, err := engine.ParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(Config{Board: p.Board(), Rules: p.Rules(), Mode: mode, Game: engine.NewGame(p)})
	if err != nil {
		t.Fatal(err)
	}
	return &bench{t: t, r: r}
}

const start37 = "37 oooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 6,8,10 0,0,0 0,0,0 0"

// board returns the official board with some cells changed, e.g. "D4=w A1=.".
func (b *bench) board(edits string) string {
	b.t.Helper()
	cells := []byte(b.r.Expected())
	for _, e := range strings.Fields(edits) {
		label, val, ok := strings.Cut(e, "=")
		c, err := b.r.b.ParseCell(label)
		if !ok || err != nil || len(val) != 1 {
			b.t.Fatalf("bad edit %q", e)
		}
		cells[c] = val[0]
	}
	return string(cells)
}

// hold shows the board for long enough to settle and returns the events.
func (b *bench) hold(cells string) []Event {
	var ev []Event
	for i := 0; i < 30; i++ { // 150 ms at 200 Hz
		ev = append(ev, b.r.Observe(b.now, cells)...)
		b.now += 5
	}
	return ev
}

// show is hold(board(edits)).
func (b *bench) show(edits string) []Event { return b.hold(b.board(edits)) }

func kinds(ev []Event) string {
	var k []string
	for _, e := range ev {
		k = append(k, e.Body.Kind())
	}
	return strings.Join(k, " ")
}

func (b *bench) expect(ev []Event, want string) {
	b.t.Helper()
	if got := kinds(ev); got != want {
		b.t.Fatalf("events %q; want %q\n%v", got, want, ev)
	}
}

func TestPlacementEitherOrder(t *testing.T) {
	b := newBench(t, start37, Casual)
	ev := b.show("D4=w")
	b.expect(ev, "pending")
	p := ev[0].Body.(Pending)
	if p.Need != "remove a free ring" || len(p.Cells) != 18 {
		t.Errorf("pending = %+v; want 18 free rings to remove", p)
	}
	if g := b.r.Guidance(); g.Hints[cellOf(t, b.r, "A1")].Role != RoleFreeRing {
		t.Errorf("A1 should light as a free ring: %+v", g.Hints[cellOf(t, b.r, "A1")])
	}
	ev = b.show("D4=w A1=.")
	b.expect(ev, "move")
	m := ev[0].Body.(Move)
	if m.Turn != 1 || m.Player != 0 || m.Notation != "WD4-A1" {
		t.Errorf("move = %+v", m)
	}
	// Ring first, then the marble.
	b.expect(b.show("G4=."), "pending")
	ev = b.show("G4=. F2=g")
	b.expect(ev, "move")
	if got := ev[0].Body.(Move).Notation; got != "GF2-G4" {
		t.Errorf("second turn %s; want GF2-G4", got)
	}
}

func TestMoveEventJSON(t *testing.T) {
	b := newBench(t, start37, Casual)
	ev := b.show("D4=w A1=.")
	data, err := json.Marshal(ev[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"t":` + itoa(ev[0].T) + `,"event":"move","turn":1,"player":0,"move":{"kind":"place","color":"w","at":"D4","remove":"A1","claimed":[],"from":"pool"},"notation":"WD4-A1"}`
	if string(data) != want {
		t.Errorf("move JSON\n%s\nwant\n%s", data, want)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestGlitchesAndUnreadableNeverCount(t *testing.T) {
	b := newBench(t, start37, Casual)
	glitch := b.board("D4=w A1=.")
	for i := 0; i < 200; i++ {
		cells := b.r.Expected()
		switch i % 50 {
		case 10, 11: // a two-scan glitch that looks like a whole turn
			cells = glitch
		case 30:
			cells = b.board("B2=?")
		}
		if ev := b.r.Observe(b.now, cells); len(ev) > 0 {
			t.Fatalf("frame %d: %v", i, ev)
		}
		b.now += 5
	}
	// A board with an unreadable cell never settles, however long it holds.
	if ev := b.show("D4=w A1=. B2=?"); len(ev) != 0 {
		t.Fatalf("an unreadable board settled: %v", ev)
	}
	if b.r.Game().Len() != 0 {
		t.Fatal("a glitch was committed")
	}
}

func TestRingNotFreeIsIllegalThenRestored(t *testing.T) {
	b := newBench(t, start37, Casual)
	ev := b.show("D5=.")
	b.expect(ev, "illegal")
	ill := ev[0].Body.(Illegal)
	if !strings.Contains(ill.Reason, "ring D5 is not free") || !reflect.DeepEqual(ill.Cells, []CellFix{{"D5", ".", "o"}}) {
		t.Errorf("illegal = %+v", ill)
	}
	if h := b.r.Guidance().Hints[cellOf(t, b.r, "D5")]; h.Role != RoleWrong || h.Should != engine.Vacant {
		t.Errorf("D5 hint %+v; want wrong, should be a vacant ring", h)
	}
	b.expect(b.show(""), "restored")
	b.expect(b.show("D4=b D5=."), "illegal")
	b.expect(b.show("D4=b"), "pending")
	b.expect(b.show("D4=b A2=."), "move")
}

func TestTwoMarblesIsIllegal(t *testing.T) {
	b := newBench(t, start37, Casual)
	ev := b.show("D4=w C3=g")
	b.expect(ev, "illegal")
	if n := len(ev[0].Body.(Illegal).Cells); n != 2 {
		t.Errorf("%d cells to restore; want 2", n)
	}
}

const diagram3 = "37 oooo/ooooo/oooooo/wgobooo/oowooo/ooogo/oooo 4,6,9 0,0,0 0,0,0 0"

func TestChainHopByHop(t *testing.T) {
	b := newBench(t, diagram3, Casual)
	// D1 jumps to D3; D2 still on the board.
	ev := b.show("D1=o D3=w")
	b.expect(ev, "pending")
	if p := ev[0].Body.(Pending); p.Need != "continue capturing from D3" || strings.Join(p.Cells, " ") != "D5 F3" {
		t.Errorf("pending %+v; want continue from D3 to D5 or F3", p)
	}
	b.expect(b.show("D1=o D3=w D2=o"), "pending")
	ev = b.show("D1=o D2=o D3=o D4=o D5=w")
	b.expect(ev, "move")
	if got := ev[0].Body.(Move).Notation; got != "D1xD3xD5" {
		t.Errorf("committed %s; want D1xD3xD5", got)
	}
	if got := b.r.Position().Captures(0); got != [3]int{0, 1, 1} {
		t.Errorf("captures %v", got)
	}
}

func TestChainStraightToTheEnd(t *testing.T) {
	b := newBench(t, diagram3, Casual)
	ev := b.show("D1=o F5=w")
	b.expect(ev, "pending")
	if p := ev[0].Body.(Pending); p.Need != "take off the captured marbles D2, E3, F4" {
		t.Errorf("pending %+v", p)
	}
	b.expect(b.show("D1=o F5=w E3=o"), "pending")
	ev = b.show("D1=o F5=w E3=o D2=o F4=o")
	b.expect(ev, "move")
	if got := ev[0].Body.(Move).Notation; got != "D1xD3xF3xF5" {
		t.Errorf("committed %s", got)
	}
}

func TestCasualPlacementWhileCaptureIsIllegal(t *testing.T) {
	b := newBench(t, diagram3, Casual)
	ev := b.show("A1=w")
	b.expect(ev, "illegal")
	if ill := ev[0].Body.(Illegal); ill.Rule != "capture-compulsory" || ill.Reason != "capture is compulsory: D1 can jump D2" {
		t.Errorf("illegal %+v", ill)
	}
	b.expect(b.show("A1=w A2=."), "illegal")
	b.expect(b.show(""), "restored")
	if b.r.Game().Len() != 0 {
		t.Fatal("committed a placement over a capture in casual mode")
	}
}

func TestTournamentMissedCaptureAndDemand(t *testing.T) {
	b := newBench(t, diagram3, Tournament)
	b.expect(b.show("A1=w"), "pending")
	ev := b.show("A1=w A2=.")
	b.expect(ev, "move missed-capture forced-capture")
	if mc := ev[1].Body.(MissedCapture); mc.Turn != 1 || mc.Player != 0 || len(mc.Jumps) != 3 {
		t.Errorf("missed capture %+v", mc)
	}
	if got := b.r.MissedCaptures(); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("MissedCaptures() = %v", got)
	}
	// The opponent demands the take-back and the board is put back.
	ev = b.r.DemandTakeback(b.now)
	b.expect(ev, "takeback-demand")
	if d := ev[0].Body.(TakebackDemand); len(d.Cells) != 2 || d.By != 1 {
		t.Errorf("demand %+v", d)
	}
	ev = b.show("A1=o A2=o")
	b.expect(ev, "takeback forced-capture")
	if tb := ev[0].Body.(Takeback); tb.Turn != 0 || !reflect.DeepEqual(tb.Undone, []string{"WA1-A2"}) {
		t.Errorf("takeback %+v", tb)
	}
	if b.r.Game().Len() != 0 || len(b.r.MissedCaptures()) != 0 {
		t.Errorf("after the take-back: %d turns, missed %v", b.r.Game().Len(), b.r.MissedCaptures())
	}
	// The capture must now be made (rulebook I): the same placement again
	// is refused, not re-committed and not another missed capture.
	ev = b.show("A1=w A2=.")
	b.expect(ev, "illegal")
	if il := ev[0].Body.(Illegal); il.Rule != string(engine.RuleCaptureCompulsory) {
		t.Errorf("placement after the demanded take-back: %+v; want the capture rule", il)
	}
	if b.r.Game().Len() != 0 {
		t.Errorf("the placement was committed after the demanded take-back")
	}
	b.expect(b.show("A1=o A2=o"), "restored")
}

// TestPlainTakebackKeepsTournamentPlacement: without a demand, a take-back
// does not oblige the capture; putting the placement back redoes it, still a
// missed capture.
func TestPlainTakebackKeepsTournamentPlacement(t *testing.T) {
	b := newBench(t, diagram3, Tournament)
	b.expect(b.show("A1=w"), "pending")
	b.expect(b.show("A1=w A2=."), "move missed-capture forced-capture")
	b.expect(b.show("A1=o A2=o"), "takeback forced-capture")
	b.expect(b.show("A1=w A2=."), "move missed-capture forced-capture inferred")
	if got := b.r.MissedCaptures(); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("MissedCaptures() after the redo = %v; want [1]", got)
	}
}

func TestTouchMove(t *testing.T) {
	b := newBench(t, start37, Tournament)
	b.expect(b.show("D4=w"), "pending")
	ev := b.show("D5=w")
	b.expect(ev, "touch-move pending")
	if tm := ev[0].Body.(TouchMove); tm.From != "D4" || tm.To != "D5" || tm.Player != 0 {
		t.Errorf("touch-move %+v", tm)
	}
	b.expect(b.show("D5=w A1=."), "move")
	// Casual mode accepts the change of mind silently.
	c := newBench(t, start37, Casual)
	c.expect(c.show("D4=w"), "pending")
	c.expect(c.show("D5=w"), "pending")
}

func TestTakebackSeveralTurns(t *testing.T) {
	b := newBench(t, start37, Casual)
	b.expect(b.show("D4=w A1=."), "move")
	b.expect(b.show("F2=g G4=."), "move")
	b.expect(b.show("B3=b A4=."), "move")
	start := strings.Repeat("o", 37)
	ev := b.hold(start)
	b.expect(ev, "takeback")
	if tb := ev[0].Body.(Takeback); tb.Turn != 0 || len(tb.Undone) != 3 || tb.Undone[0] != "BB3-A4" {
		t.Errorf("takeback %+v", tb)
	}
	if !b.r.Position().Equal(mustPos(t, start37)) {
		t.Errorf("position after take-back: %s", b.r.Position())
	}
}

func mustPos(t *testing.T, s string) engine.Position {
	p, err := engine.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Diagram 5 on the board: a sacrifice, the forced capture, then a claim
// that wins. The claimed rings are credited at once.
func TestClaimAndWin(t *testing.T) {
	b := newBench(t, "37 w.oo/o.ooo/.ooooo/o.ooooo/o.gooo/ooooo/oooo 1,4,8 2,0,0 2,3,2 0", Casual)
	b.expect(b.show("E4=b G4=."), "move forced-capture")
	b.expect(b.show("E3=o E4=o E5=g"), "move")
	ev := b.show("B1=w C2=.")
	b.expect(ev, "move game-over")
	if m := ev[0].Body.(Move); !reflect.DeepEqual(m.Move.Claimed, []string{"A1", "B1"}) {
		t.Errorf("claimed %v", m.Move.Claimed)
	}
	if g := ev[1].Body.(GameOver); g.Winner == nil || *g.Winner != 0 || g.Reason != "captures" {
		t.Errorf("game over %+v", g)
	}
	if got := b.r.Guidance().Status; !strings.HasPrefix(got, "Game over: P0 wins") {
		t.Errorf("status %q", got)
	}
}

// A claimed group may be taken off piece by piece while play goes on.
func TestClaimClearedPieceByPiece(t *testing.T) {
	b := newBench(t, "37 ..../...../....../.ooow../...gb./...../.... 5,7,9 0,0,0 0,0,0 0", Casual)
	ev := b.show("D2=w D4=.")
	b.expect(ev, "move")
	if got := ev[0].Body.(Move).Move.Claimed; strings.Join(got, " ") != "D5 E4 E5" {
		t.Fatalf("claimed %v", got)
	}
	if h := b.r.Guidance().Hints[cellOf(t, b.r, "E4")]; h.Role != RoleTakeOff {
		t.Errorf("E4 should light take-off: %+v", h)
	}
	// Physically the claimed rings are still there; take them off bit by bit.
	b.expect(b.hold(withCells(t, b.r, "D2=w D3=o D5=w E4=g E5=b")), "")
	b.expect(b.hold(withCells(t, b.r, "D2=w D3=o D5=o E4=g E5=b")), "") // a marble off, its ring still there
	ev = b.hold(withCells(t, b.r, "D2=w D3=o E5=b"))
	b.expect(ev, "pending")
	if p := ev[0].Body.(Pending); p.Need != "take off the claimed rings E5" || strings.Join(p.Cells, " ") != "E5" {
		t.Errorf("pending %+v", p)
	}
	if g := b.r.Guidance(); !strings.Contains(g.Status, "take off the claimed rings E5") {
		t.Errorf("status %q", g.Status)
	}
	// The next player fills the last vacant ring before E5 is cleared.
	ev = b.hold(withCells(t, b.r, "D2=w D3=g E5=b"))
	b.expect(ev, "move game-over")
	if g := ev[1].Body.(GameOver); g.Reason != "full-board" || *g.Winner != 1 {
		t.Errorf("game over %+v", g)
	}
}

// withCells starts from an all-removed board, then applies the edits.
func withCells(t *testing.T, r *Referee, edits string) string {
	cells := []byte(strings.Repeat(".", r.b.Len()))
	for _, e := range strings.Fields(edits) {
		label, val, _ := strings.Cut(e, "=")
		c, err := r.b.ParseCell(label)
		if err != nil {
			t.Fatal(err)
		}
		cells[c] = val[0]
	}
	return string(cells)
}

func TestPlacementFromCaptures(t *testing.T) {
	b := newBench(t, "37 woob/oogoo/oooogo/boogoob/oooooo/oogoo/boob 0,0,0 3,0,0 2,4,5 0", Casual)
	// A colour the mover did not capture is refused.
	ev := b.show("C2=b")
	b.expect(ev, "illegal")
	if ill := ev[0].Body.(Illegal); ill.Reason != "you have captured no black marble to place" {
		t.Errorf("illegal %+v", ill)
	}
	b.expect(b.show(""), "restored")
	ev = b.show("C2=w A2=.")
	b.expect(ev, "move")
	if m := ev[0].Body.(Move); m.Move.From != "captures" || m.Notation != "*WC2-A2" {
		t.Errorf("move %+v", m)
	}
}

func TestForcedPassIsAutomatic(t *testing.T) {
	// Player 1 places from captures; then player 0 holds nothing and
	// cannot capture, so passes at once.
	b := newBench(t, "37 wwww/.ooo./boooog/booooo./.oooog/booog/bb.g 0,0,0 0,0,0 2,4,5 1", Casual)
	ev := b.show("D4=w")
	b.expect(ev, "move move")
	if ev[1].Body.(Move).Notation != "pass" || b.r.Position().ToMove() != 1 {
		t.Errorf("events %v", ev)
	}
}

func TestFaults(t *testing.T) {
	b := newBench(t, start37, Casual)
	ev := b.r.Observe(0, "ooo")
	b.expect(ev, "fault")
	b.expect(b.r.Observe(5, "ooo"), "") // reported once
	b.hold(b.r.Expected())
	b.expect(b.r.Observe(1, b.r.Expected()), "fault")
}

func cellOf(t *testing.T, r *Referee, label string) engine.Cell {
	c, err := r.b.ParseCell(label)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The per-scan path allocates nothing when the board is unchanged, both
// for a settled board and for one still settling.
func TestUnchangedFrameAllocatesNothing(t *testing.T) {
	b := newBench(t, start37, Casual)
	settled := []byte(b.r.Expected())
	b.hold(string(settled))
	if n := testing.AllocsPerRun(1000, func() { b.r.ObserveBytes(b.now, settled); b.now++ }); n != 0 {
		t.Errorf("settled frame: %v allocations; want 0", n)
	}
	moving := []byte(b.board("D4=w"))
	b.r.ObserveBytes(b.now, moving)
	if n := testing.AllocsPerRun(10, func() { b.r.ObserveBytes(b.now, moving) }); n != 0 {
		t.Errorf("settling frame: %v allocations; want 0", n)
	}
}

func TestJumperLifted(t *testing.T) {
	b := newBench(t, diagram3, Casual)
	ev := b.show("E3=o") // E3's marble in the hand, not yet set down
	b.expect(ev, "pending")
	if p := ev[0].Body.(Pending); p.Need != "finish the capture" {
		t.Errorf("pending %+v", p)
	}
	b.expect(b.show("E3=o C4=w"), "pending") // set down; D4 still to take off
	ev = b.show("E3=o C4=w D4=o")
	b.expect(ev, "move forced-capture")
	if got := ev[0].Body.(Move).Notation; got != "E3xC4" {
		t.Errorf("committed %s; want E3xC4", got)
	}
}

func TestGuidanceRoles(t *testing.T) {
	b := newBench(t, diagram3, Casual)
	role := func(label string) Role { return b.r.Guidance().Hints[cellOf(t, b.r, label)].Role }
	// Between turns with a capture compulsory: the marbles that can start a
	// chain and where their first jumps land.
	for label, want := range map[string]Role{"D1": RoleMustCapture, "D4": RoleMustCapture, "E3": RoleMustCapture, "D3": RoleJumpTarget, "F2": RoleJumpTarget, "C4": RoleJumpTarget, "A1": RoleNone} {
		if got := role(label); got != want {
			t.Errorf("idle: %s is %v; want %v", label, got, want)
		}
	}
	if got := b.r.Guidance().Status; got != "P0 must capture: D1 can jump D2" {
		t.Errorf("status %q", got)
	}
	// Mid-chain: the jumper must go on, to D5 or F3; D2 is taken.
	b.show("D1=o D3=w")
	for label, want := range map[string]Role{"D3": RoleChainContinues, "D5": RoleJumpTarget, "F3": RoleJumpTarget, "D2": RoleTakeOff} {
		if got := role(label); got != want {
			t.Errorf("mid-chain: %s is %v; want %v", label, got, want)
		}
	}
	// After the chain: its cells are the last move (but a free ring shows
	// as free, which says more), and the next player may remove free rings.
	b.show("D1=o D2=o D3=o D4=o D5=w")
	for label, want := range map[string]Role{"D3": RoleLastMove, "D5": RoleLastMove, "D1": RoleFreeRing, "A1": RoleFreeRing} {
		if got := role(label); got != want {
			t.Errorf("after the chain: %s is %v; want %v", label, got, want)
		}
	}
	if got := b.r.Guidance().Status; got != "P1 to move: place a marble, then remove a free ring" {
		t.Errorf("status %q", got)
	}
}

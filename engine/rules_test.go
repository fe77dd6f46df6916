package engine

import (
	"errors"
	"sort"
	"strings"
	"testing"
)

func mustParse(t testing.TB, s string) Position {
	t.Helper()
	p, err := ParsePosition(s)
	if err != nil {
		t.Fatalf("ParsePosition: %v", err)
	}
	return p
}

func labels(b *Board, cs []Cell) string {
	var out []string
	for _, c := range cs {
		out = append(out, b.Label(c))
	}
	return strings.Join(out, " ")
}

func play(t testing.TB, p Position, turns ...string) Position {
	t.Helper()
	for _, s := range turns {
		turn, err := ParseTurn(p.Board(), s)
		if err != nil {
			t.Fatal(err)
		}
		if p, err = p.Play(turn); err != nil {
			t.Fatalf("Play(%s): %v", s, err)
		}
	}
	return p
}

func legal(p Position) []string {
	var out []string
	for _, t := range p.LegalTurns(nil) {
		out = append(out, FormatTurn(p.Board(), t))
	}
	sort.Strings(out)
	return out
}

const edges37 = "A1 A2 A3 A4 B1 B5 C1 C6 D1 D7 E1 E6 F1 F5 G1 G2 G3 G4"

// Rulebook diagram 2: which rings may be removed. A ring is free when it is
// vacant and two cyclically adjacent neighbour cells hold no ring.
func TestDiagram2FreeRings(t *testing.T) {
	tests := []struct {
		name, pos, want string
	}{
		{"start: the 18 edge rings", "37 oooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 6,8,10 0,0,0 0,0,0 0", edges37},
		{"a marble pins its ring", "37 wooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 5,8,10 0,0,0 0,0,0 0",
			strings.TrimPrefix(edges37, "A1 ")},
		// D5 and E3 gone: D4 has two open sides, but opposite ones (d0, d2),
		// and E4's open sides (E3, D5) are not adjacent either.
		{"two open sides that are not adjacent", "37 oooo/ooooo/oooooo/oooo.oo/oo.ooo/ooooo/oooo 6,8,10 0,0,0 0,0,0 0", edges37},
		// E4 gone too: D4 (D5, E4), E5 (E4, D5) and F3 (E3, E4) each have
		// two adjacent open sides.
		{"two adjacent open sides", "37 oooo/ooooo/oooooo/oooo.oo/oo..oo/ooooo/oooo 6,8,10 0,0,0 0,0,0 0",
			"A1 A2 A3 A4 B1 B5 C1 C6 D1 D4 D7 E1 E5 E6 F1 F3 F5 G1 G2 G3 G4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParse(t, tt.pos)
			if got := labels(p.Board(), p.FreeRings()); got != tt.want {
				t.Errorf("FreeRings() = %s\nwant          %s", got, tt.want)
			}
		})
	}
}

// Rulebook diagram 3: the capture choices. Marble D1 may take two marbles
// (D1xD3xD5) or three (D1xD3xF3xF5); nothing forces the longer chain. Two
// other marbles have a single jump each. Worked out by hand, jump by jump.
func TestDiagram3CaptureChoices(t *testing.T) {
	p := mustParse(t, "37 oooo/ooooo/oooooo/wgobooo/oowooo/ooogo/oooo 4,6,9 0,0,0 0,0,0 0")
	want := []string{"D1xD3xD5", "D1xD3xF3xF5", "D4xF2", "E3xC4"}
	if got := legal(p); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("LegalTurns = %v; want %v", got, want)
	}
	tests := []struct {
		turn string
		rule Rule
		msg  string
	}{
		{"WA1-A2", RuleCaptureCompulsory, "capture is compulsory: D1 can jump D2"},
		{"D1xD3", RuleChainIncomplete, "the chain must continue: D3 can jump D4"},
		{"D1xD3xF3", RuleChainIncomplete, "the chain must continue: F3 can jump F4"},
		{"D2xD4", RuleNotAJump, "D2 to D4 jumps over D3, which holds no marble"},
		{"D1xD5", RuleNotAJump, "D1 to D5 is not a jump"},
		{"A1xA3", RuleJumperMissing, "there is no marble at A1"},
	}
	for _, tt := range tests {
		turn, err := ParseTurn(p.Board(), tt.turn)
		if err != nil {
			t.Fatal(err)
		}
		err = p.Check(turn)
		var ite *IllegalTurnError
		if !errors.As(err, &ite) || ite.Rule != tt.rule || !strings.Contains(err.Error(), tt.msg) || !errors.Is(err, ErrIllegal) {
			t.Errorf("Check(%s) = %v; want rule %s saying %q", tt.turn, err, tt.rule, tt.msg)
		}
	}
	// The longer chain takes three marbles: white, white... D2 g, E3 w, F4 g.
	q := play(t, p, "D1xD3xF3xF5")
	if got := q.Captures(0); got != [3]int{1, 2, 0} {
		t.Errorf("captures after D1xD3xF3xF5 = %v; want [1 2 0]", got)
	}
	if q.At(cell(t, q, "F5")) != WhiteMarble || q.At(cell(t, q, "D1")) != Vacant || q.At(cell(t, q, "E3")) != Vacant {
		t.Errorf("the white jumper should end on F5, leaving D1 and E3 vacant: %s", q)
	}
}

func cell(t testing.TB, p Position, label string) Cell {
	t.Helper()
	c, err := p.Board().ParseCell(label)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Diagram5 is the rulebook's diagram 5 as a position. The rulebook gives
// it in words: A (player 0) is five marbles behind; A puts a black marble
// on ring 1 and removes ring 2, forcing B to capture that black (which
// gives B no winning set); then A puts a white on ring 3 and removes ring
// 4, isolating two white marbles: 2 + 2 = 4 white wins. Here ring 1 is
// E4, ring 2 is D2, ring 3 is B1 and ring 4 is C2. A1 (white) and B1 hang
// on C2 alone, and C2 is not free until D2 is gone: so A cannot isolate
// at once, and had A just removed D2, B would take the two whites
// instead. B holds 2 white, 4 grey, 1 black: a grey sacrifice would give
// B five grey, which is why the rulebook stresses black.
const Diagram5 = "37 w.oo/o.ooo/.ooooo/.oooooo/o.gooo/ooooo/oooo 1,3,9 2,0,0 2,4,1 0"

func TestDiagram5SacrificeWins(t *testing.T) {
	p := mustParse(t, Diagram5)
	if got := labels(p.Board(), p.FreeRings()); strings.Contains(got, "C2") {
		t.Fatalf("free rings %s: ring 4 (C2) must not be free before ring 2 (D2) goes", got)
	}
	if turn, ok := p.WinningTurn(); ok {
		t.Fatalf("A wins at once with %s; the diagram needs the sacrifice", FormatTurn(p.Board(), turn))
	}
	p = play(t, p, "BE4-D2")
	if got := legal(p); strings.Join(got, " ") != "E3xE5" {
		t.Fatalf("B's turns = %v; want only the forced E3xE5", got)
	}
	p = play(t, p, "E3xE5")
	if r := p.Result(); r.Over {
		t.Fatalf("B should not have won: %v, captures %v", r, p.Captures(1))
	}
	if got := p.Captures(1); got != [3]int{2, 4, 2} {
		t.Errorf("B's captures = %v; want 2 white, 4 grey, 2 black", got)
	}
	p = play(t, p, "WB1-C2")
	if got := labels(p.Board(), p.Claimed()); got != "A1 B1" {
		t.Errorf("claimed %q; want A1 B1", got)
	}
	if got := p.Captures(0); got != [3]int{4, 0, 0} {
		t.Errorf("A's captures = %v; want 4 white", got)
	}
	if r := p.Result(); !r.Over || r.Winner != 0 || r.Reason != ReasonCaptures {
		t.Errorf("result = %+v; want player 0 wins by captures", r)
	}
	if _, err := p.Play(PassTurn()); !errors.Is(err, ErrIllegal) {
		t.Errorf("a turn after the end: err = %v; want illegal", err)
	}
}

func TestPlacementRules(t *testing.T) {
	start := "37 oooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 6,8,10 0,0,0 0,0,0 0"
	tests := []struct {
		pos, turn string
		rule      Rule
		msg       string
	}{
		{start, "WD4-D5", RuleRingNotFree, "ring D5 is not free: no two adjacent sides are open"},
		{start, "WA1-A1", RuleRemoveOwnRing, "ring A1 holds the marble just placed"},
		{start, "WD4", RuleRemovalRequired, "a free ring must be removed: A1, A2"},
		{start, "*WD4-A1", RulePoolFirst, "marbles come from the pool until it is empty"},
		{"37 wooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 5,8,10 0,0,0 0,0,0 0", "GA1-A2", RuleNotVacant, "ring A1 already holds a marble"},
		{"37 wooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 5,8,10 0,0,0 0,0,0 0", "GD4-A1", RuleRingNotFree, "ring A1 is not free: it holds a marble"},
		{"37 .ooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 6,8,10 0,0,0 0,0,0 1", "GA1-A2", RuleNoRingToPlaceOn, "there is no ring at A1"},
		{"37 .ooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 6,8,10 0,0,0 0,0,0 1", "GB1-A1", RuleRingNotFree, "there is no ring at A1 to remove"},
		// The pool is out of white only: white may not come from captures.
		{"37 oooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 0,8,10 6,0,0 0,0,0 0", "WD4-A1", RuleNoMarble, "the pool has no white marble left"},
		{"37 oooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 0,8,10 6,0,0 0,0,0 0", "*WD4-A1", RulePoolFirst, "until it is empty; it still holds 8 grey, 10 black"},
		{"37 woob/ooooo/oooooo/booooob/oooooo/ooooo/boob 0,0,0 3,4,0 2,4,5 0", "*BD4-A1", RuleNoMarble, "you have captured no black marble"},
		{"37 woob/ooooo/oooooo/booooob/oooooo/ooooo/boob 0,0,0 3,4,0 2,4,5 0", "BD4-A1", RuleNoMarble, "the pool is empty"},
		{start, "pass", RuleCannotPass, "may not pass"},
	}
	for _, tt := range tests {
		t.Run(tt.turn, func(t *testing.T) {
			p := mustParse(t, tt.pos)
			turn, err := ParseTurn(p.Board(), tt.turn)
			if err != nil {
				t.Fatal(err)
			}
			err = p.Check(turn)
			var ite *IllegalTurnError
			if !errors.As(err, &ite) || ite.Rule != tt.rule || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Check(%s) = %v; want rule %s saying %q", tt.turn, err, tt.rule, tt.msg)
			}
		})
	}
}

func TestPlacementFromCapturesOnlyWhenPoolEmpty(t *testing.T) {
	// Pool holds one black: only black placements from the pool, although
	// the mover holds white.
	p := mustParse(t, "37 woob/ooooo/oooooo/booooob/oooooo/ooooo/booo 0,0,1 3,4,0 2,4,5 0")
	for _, turn := range p.LegalTurns(nil) {
		if turn.Color != Black || turn.From != FromPool {
			t.Fatalf("pool holds a black: got %s", FormatTurn(p.Board(), turn))
		}
	}
	// Pool empty: the mover's own colours, from captures.
	p = mustParse(t, "37 woob/oogoo/oooogo/boogoob/oooooo/oogoo/boob 0,0,0 3,0,0 2,4,5 0")
	turns := p.LegalTurns(nil)
	if len(turns) == 0 {
		t.Fatal("no placements; want white ones from captures")
	}
	for _, turn := range turns {
		if turn.Color != White || turn.From != FromCaptures {
			t.Fatalf("got %s; want white from captures", FormatTurn(p.Board(), turn))
		}
	}
	q := play(t, p, "*WE3-A2")
	if q.Captures(0) != [3]int{2, 0, 0} || q.Pool() != [3]int{} {
		t.Errorf("after *WD4-A1: captures %v, pool %v", q.Captures(0), q.Pool())
	}
}

func TestNoFreeRingNoRemoval(t *testing.T) {
	// Every edge ring holds a marble, so no vacant ring is free.
	p := mustParse(t, "37 wwww/wooow/goooog/gooooog/goooog/gooog/bbbb 0,0,6 0,0,0 0,0,0 1")
	if got := p.FreeRings(); len(got) != 0 {
		t.Fatalf("free rings %v; want none", labels(p.Board(), got))
	}
	turns := p.LegalTurns(nil)
	if len(turns) != 19 {
		t.Errorf("%d turns; want 19 (black on each inner ring)", len(turns))
	}
	for _, turn := range turns {
		if turn.Remove != NoCell {
			t.Errorf("%s removes a ring; none is free", FormatTurn(p.Board(), turn))
		}
	}
	q := play(t, p, "BD4")
	if q.Rings() != 37 {
		t.Errorf("rings = %d; want 37", q.Rings())
	}
	turn, _ := ParseTurn(p.Board(), "BD4-D5")
	if err := p.Check(turn); err == nil || !strings.Contains(err.Error(), "no ring can be removed") {
		t.Errorf("Check(BD4-D5) = %v; want no ring can be removed", err)
	}
}

// Any fully occupied group is claimed, even the largest: here the three
// occupied rings are cut off from the two-ring group that keeps a vacancy.
func TestIsolationClaimsLargestGroup(t *testing.T) {
	p := mustParse(t, "37 ..../...../....../.ooow../...gb./...../.... 5,7,9 0,0,0 0,0,0 0")
	q := play(t, p, "WD2-D4")
	if got := labels(q.Board(), q.Claimed()); got != "D5 E4 E5" {
		t.Errorf("claimed %q; want D5 E4 E5", got)
	}
	if q.Captures(0) != [3]int{1, 1, 1} {
		t.Errorf("captures %v; want one of each", q.Captures(0))
	}
	if q.Rings() != 2 || q.At(cell(t, q, "D3")) != Vacant || q.Result().Over {
		t.Errorf("want D2 (white) and D3 (vacant) left in play: %s, %v", q, q.Result())
	}
	// A cut-off group with a vacant ring stays in play, and may be filled.
	r := play(t, q, "GD3")
	if r.Rings() != 0 || !r.Result().Over || r.Result().Winner != 1 || r.Result().Reason != ReasonFullBoard {
		t.Errorf("filling the last vacant ring: %s, %v; want player 1 wins by full board", r, r.Result())
	}
}

func TestFullBoardWins(t *testing.T) {
	// Three mutually adjacent rings, two occupied: no jump lands anywhere.
	p := mustParse(t, "37 ..../...../....../..wg.../..o.../...../.... 5,7,10 0,0,0 0,0,0 1")
	if p.HasCapture() {
		t.Fatal("setup: no capture expected")
	}
	q := play(t, p, "BE3")
	if r := q.Result(); !r.Over || r.Winner != 1 || r.Reason != ReasonFullBoard {
		t.Errorf("result %+v; want player 1 wins by full board", r)
	}
	if q.Captures(1) != [3]int{1, 1, 1} || q.Rings() != 0 {
		t.Errorf("captures %v, rings %d; want all three claimed", q.Captures(1), q.Rings())
	}
}

// passBoard: pool empty, player 0 holds nothing, and no jump lands on a
// ring (the edge marbles' lines run into removed rings or off the board).
const passBoard = "37 wwww/.ooo./boooog/booooo./.oooog/booog/bb.g 0,0,0 0,0,0 2,4,5 0"

func TestPass(t *testing.T) {
	p := mustParse(t, passBoard)
	if got := legal(p); strings.Join(got, " ") != "pass" {
		t.Fatalf("player 0's turns = %v; want pass", got)
	}
	q := play(t, p, "pass")
	if q.Result().Over || q.ToMove() != 1 {
		t.Fatalf("after the pass: %v, to move %d", q.Result(), q.ToMove())
	}
	if got := q.LegalTurns(nil); len(got) == 0 || got[0].From != FromCaptures {
		t.Errorf("player 1 should place from captures: %v", got)
	}
}

// Neither player can move: a draw. No real game reaches it easily, so
// build the position directly: everything captured, nothing held.
func TestNoMovesDraw(t *testing.T) {
	p := mustParse(t, passBoard)
	if p.Result().Over {
		t.Fatalf("player 1 can still move: %v", p.Result())
	}
	p.caps[1] = [3]int8{}
	if p.canMove(0) || p.canMove(1) {
		t.Fatal("nobody should be able to move")
	}
	if r := p.evaluate(); !r.Over || r.Winner != -1 || r.Reason != ReasonNoMoves {
		t.Errorf("evaluate() = %+v; want a draw by no moves", r)
	}
}

func TestRepetitionDraw(t *testing.T) {
	s := passBoard
	hist := " ~wwww/.ooo./boooog/booooo./.oooog/booog/bb.g,0,0,0,2,4,5,0"
	other := " ~owww/.woo./boooog/booooo./.oooog/booog/bb.g,0,0,0,2,4,5,1"
	tests := []struct {
		text string
		over bool
	}{
		{s, false},
		{s + hist, false},                  // second occurrence
		{s + hist + other + hist, true},    // third occurrence
		{s + other + other + other, false}, // other positions do not count
	}
	for _, tt := range tests {
		p := mustParse(t, tt.text)
		if r := p.Result(); r.Over != tt.over || (r.Over && r.Reason != ReasonRepetition) {
			t.Errorf("ParsePosition(%q).Result() = %+v; want over=%v by repetition", tt.text, r, tt.over)
		}
		if got := p.String(); got != tt.text {
			t.Errorf("String() = %q; want %q", got, tt.text)
		}
	}
}

// A real cycle, played: blitz, every edge ring holds a marble so no ring
// is ever free, and the pool is empty. A white shuttles between the
// players' captures while the grey on D3 jumps it to D5 and back. The
// start recurs every 10 turns and the third occurrence is a draw.
func TestRepetitionByPlay(t *testing.T) {
	start := mustParse(t, "37b wwwg/booog/boooog/bogooog/boooog/booog/bbbb 0,0,0 0,0,0 2,0,0 1")
	cycle := []string{"*WD4", "D3xD5", "*WD4", "D5xD3", "pass", "*WD4", "D3xD5", "*WD4", "D5xD3", "pass"}
	p := start
	for round := 1; round <= 2; round++ {
		for i, s := range cycle {
			if p.Result().Over {
				t.Fatalf("round %d, turn %d: over early: %v", round, i+1, p.Result())
			}
			p = play(t, p, s)
		}
		if !p.SameBoard(start) {
			t.Fatalf("round %d: %s is not the start %s", round, p, start)
		}
	}
	if r := p.Result(); !r.Over || r.Reason != ReasonRepetition || r.Winner != -1 {
		t.Errorf("third occurrence: result %+v; want a draw by repetition", r)
	}
	q := mustParse(t, p.String())
	if !q.Equal(p) {
		t.Errorf("text form lost the history:\n%s\n%s", p, q)
	}
}

func TestPlayOverCapture(t *testing.T) {
	p := mustParse(t, "37 oooo/ooooo/oooooo/wgobooo/oowooo/ooogo/oooo 4,6,9 0,0,0 0,0,0 0")
	turn, _ := ParseTurn(p.Board(), "WA1-A2")
	if _, err := p.Play(turn); err == nil {
		t.Fatal("Play should refuse a placement while a capture is compulsory")
	}
	q, err := p.PlayOverCapture(turn)
	if err != nil {
		t.Fatalf("PlayOverCapture(WA1-A2): %v", err)
	}
	if q.At(cell(t, q, "A1")) != WhiteMarble || q.At(cell(t, q, "A2")) != NoRing || q.ToMove() != 1 {
		t.Errorf("after WA1-A2 over a capture: %s", q)
	}
	// Every other rule still holds.
	bad, _ := ParseTurn(p.Board(), "WC3-D5")
	if _, err := p.PlayOverCapture(bad); err == nil || !strings.Contains(err.Error(), "ring D5 is not free") {
		t.Errorf("PlayOverCapture(WC3-D5) = %v; want ring D5 is not free", err)
	}
}

func TestGameClone(t *testing.T) {
	g := NewGame(NewPosition(MustStandardBoard("37"), Standard, 0))
	turn, _ := ParseTurn(g.Position().Board(), "WD4-A1")
	if err := g.Play(turn); err != nil {
		t.Fatal(err)
	}
	c := g.Clone()
	next, _ := ParseTurn(g.Position().Board(), "GF2-G4")
	if err := c.Play(next); err != nil {
		t.Fatal(err)
	}
	if g.Len() != 1 || c.Len() != 2 {
		t.Errorf("after playing on the clone: game %d turns, clone %d", g.Len(), c.Len())
	}
	if err := g.Undo(1); err != nil || c.Len() != 2 || !c.PositionAfter(1).Equal(NewPosition(MustStandardBoard("37"), Standard, 0).MustPlay(turn)) {
		t.Errorf("undo on the original changed the clone")
	}
}

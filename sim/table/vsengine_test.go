package table

import (
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/referee"
)

// lit is the LEDs showing role on cells (RoleNone elsewhere).
func lit(n int, on map[engine.Cell]referee.Role) []referee.Role {
	roles := make([]referee.Role, n)
	for c, r := range on {
		roles[c] = r
	}
	return roles
}

// TestHandCarriesOutAPlacement: the hand places the marble the LEDs show,
// removes the ring they show, takes off what they ask, and makes of it the
// placement; a step the board does not allow (a marble onto a marble) is
// not taken.
func TestHandCarriesOutAPlacement(t *testing.T) {
	pos := engine.NewPosition(engine.MustStandardBoard("37"), engine.Standard, 0)
	var want engine.Turn
	for _, turn := range pos.LegalTurns(nil) {
		if turn.Kind == engine.Place && turn.Color == engine.Grey && turn.Remove != engine.NoCell {
			want = turn
			break
		}
	}
	n := pos.Board().Len()
	h := &hand{b: pos.Board(), board: []byte(pos.Cells()), at: engine.NoCell, rem: engine.NoCell}
	if !h.step(lit(n, map[engine.Cell]referee.Role{want.At: referee.RolePlaceGrey})) || h.board[want.At] != 'g' || h.mode != handPlacing {
		t.Fatalf("place grey on %d: board %s, mode %d", want.At, h.board, h.mode)
	}
	if h.step(lit(n, map[engine.Cell]referee.Role{want.At: referee.RolePlaceWhite})) {
		t.Error("the hand placed a marble on a marble")
	}
	if !h.step(lit(n, map[engine.Cell]referee.Role{want.Remove: referee.RoleRemoveRing})) || h.board[want.Remove] != '.' {
		t.Fatalf("remove ring %d: board %s", want.Remove, h.board)
	}
	if got := h.turn(pos); got != want || !pos.Legal(got) {
		t.Errorf("the hand carried out %s; the LEDs showed %s", engine.FormatTurn(pos.Board(), got), engine.FormatTurn(pos.Board(), want))
	}
	// A claimed ring to take off, then nothing more to do.
	other := engine.NoCell
	for c := range n {
		if h.board[c] == 'o' {
			other = engine.Cell(c)
			break
		}
	}
	takeOff := lit(n, map[engine.Cell]referee.Role{other: referee.RoleTakeOff})
	if !takeOffLeft(takeOff, h.board, true) {
		t.Error("a lit ring to take off is not seen as left to do")
	}
	if !h.step(takeOff) || h.board[other] != '.' || takeOffLeft(takeOff, h.board, true) {
		t.Errorf("take off ring %d: board %s", other, h.board)
	}
	if h.step(lit(n, nil)) {
		t.Error("the hand acted on dark LEDs")
	}
}

// TestHandCarriesOutACapture: the hand jumps the marble the LEDs show
// onto the target they show, the jumped marble taken off, and makes of it
// the capture.
func TestHandCarriesOutACapture(t *testing.T) {
	pos := engine.NewPosition(engine.MustStandardBoard("37"), engine.Standard, 0)
	var want engine.Turn
	for i := 0; want.Kind != engine.Capture; i++ {
		if pos.Result().Over || i > 400 {
			t.Fatal("no single capture in the game")
		}
		turns := pos.LegalTurns(nil)
		for _, turn := range turns {
			if turn.Kind == engine.Capture && turn.Hops() == 1 {
				want = turn
			}
		}
		if want.Kind != engine.Capture {
			pos = pos.MustPlay(turns[i%len(turns)])
		}
	}
	path := want.Path()
	b := pos.Board()
	h := &hand{b: b, board: []byte(pos.Cells()), at: engine.NoCell, rem: engine.NoCell}
	marble := h.board[path[0]]
	if !h.step(lit(b.Len(), map[engine.Cell]referee.Role{path[0]: referee.RoleChainContinues, path[1]: referee.RoleJumpTarget})) {
		t.Fatalf("the hand did not jump %s", engine.FormatTurn(b, want))
	}
	if h.board[path[1]] != marble || h.board[path[0]] != 'o' || h.board[b.Between(path[0], path[1])] != 'o' || h.mode != handCapturing {
		t.Errorf("after the jump: board %s", h.board)
	}
	if got := h.turn(pos); got != want {
		t.Errorf("the hand carried out %s; the LEDs showed %s", engine.FormatTurn(b, got), engine.FormatTurn(b, want))
	}
	if !hasInstruction(lit(b.Len(), map[engine.Cell]referee.Role{path[0]: referee.RoleChainContinues})) || hasInstruction(lit(b.Len(), nil)) {
		t.Error("hasInstruction: a jumper to move is the start of a turn; dark LEDs are not")
	}
}

// TestLEDReaderNeedsAChain: play against the engine is refused, by
// reason, without an LED chain to read its turns from.
func TestLEDReaderNeedsAChain(t *testing.T) {
	w := wiring.Reference()
	if _, err := newLEDReader(w, nil); err == nil {
		t.Error("an LED reader without a chain")
	}
}

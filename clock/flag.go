package clock

import "github.com/zertzboard/zertzboard/engine"

// CanWin reports whether player can still win the game of position p by
// completing a winning set: their captures plus every marble still in the
// pool or on the board make one of the rules' winning sets. A flag fall
// ends the game by time as a win for the opponent only if the opponent
// can still win; else it is drawn (the chess rule, FIDE Laws 6.9). The
// full-board win is left out on purpose: while a marble can still be
// placed some line of play fills the board, so counting it would leave
// the rule no case; docs/RULES.md explains the decision.
func CanWin(p engine.Position, player int) bool {
	have := p.Captures(player & 1)
	pool := p.Pool()
	var onBoard [3]int
	cells := p.Board().Len()
	for c := 0; c < cells; c++ {
		if col, ok := p.At(engine.Cell(c)).Marble(); ok {
			onBoard[col]++
		}
	}
	r := p.Rules()
	each := true
	for col := 0; col < 3; col++ {
		n := have[col] + pool[col] + onBoard[col]
		if n >= r.Win[col] {
			return true
		}
		each = each && n >= r.WinEach
	}
	return each
}

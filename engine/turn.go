package engine

import (
	"errors"
	"fmt"
)

// TurnKind says what a turn does.
type TurnKind uint8

// The kinds of turn.
const (
	// Place puts a marble on a vacant ring and removes a free ring.
	Place TurnKind = iota + 1
	// Capture is one complete capture chain.
	Capture
	// Pass is the turn of a player who cannot move.
	Pass
)

func (k TurnKind) String() string {
	switch k {
	case Place:
		return "place"
	case Capture:
		return "capture"
	case Pass:
		return "pass"
	}
	return fmt.Sprintf("TurnKind(%d)", uint8(k))
}

// Source is where a placed marble comes from.
type Source uint8

// The sources of a placed marble.
const (
	// FromPool is the shared pool.
	FromPool Source = iota
	// FromCaptures is the mover's own captures, allowed once the pool is empty.
	FromCaptures
)

func (s Source) String() string {
	if s == FromCaptures {
		return "captures"
	}
	return "pool"
}

// MaxPath bounds a capture chain's cells: every hop takes a marble and the
// largest set has 24, so no chain has more than 24 cells.
const MaxPath = 25

// Turn is one whole turn: a placement with its ring removal, one complete
// capture chain, or a pass. Turns are small comparable values; the zero Turn
// is not a legal turn. Build them with PlaceTurn, CaptureTurn and PassTurn.
type Turn struct {
	Kind   TurnKind
	Color  Color  // placement: the marble's colour
	From   Source // placement: where the marble comes from
	At     Cell   // placement: the ring the marble goes on
	Remove Cell   // placement: the ring removed, or NoCell when none is free
	n      uint8
	path   [MaxPath]Cell // capture: the jumping marble's cells, start first
}

// PlaceTurn builds a placement. remove is NoCell when no ring is free.
func PlaceTurn(c Color, from Source, at, remove Cell) Turn {
	return Turn{Kind: Place, Color: c, From: from, At: at, Remove: remove}
}

// CaptureTurn builds a capture chain from the cells the jumping marble
// visits, its starting cell first. It panics if the path is longer than
// MaxPath.
func CaptureTurn(path ...Cell) Turn {
	if len(path) > MaxPath {
		panic("engine: capture path longer than MaxPath")
	}
	t := Turn{Kind: Capture, At: NoCell, Remove: NoCell, n: uint8(len(path))}
	copy(t.path[:], path)
	return t
}

// PassTurn is the turn of a player who cannot move.
func PassTurn() Turn { return Turn{Kind: Pass, At: NoCell, Remove: NoCell} }

// Path returns a capture's cells, start first; nil for other turns.
func (t Turn) Path() []Cell {
	if t.n == 0 {
		return nil
	}
	p := make([]Cell, t.n)
	copy(p, t.path[:t.n])
	return p
}

// PathCell returns cell i of a capture's path (0 is the start, Hops() the
// end) without copying the path, or NoCell when there is none: for
// searches that key tables by a capture's cells.
func (t *Turn) PathCell(i int) Cell {
	if i < 0 || i >= int(t.n) {
		return NoCell
	}
	return t.path[i]
}

// Hops is the number of jumps in a capture.
func (t Turn) Hops() int {
	if t.n == 0 {
		return 0
	}
	return int(t.n) - 1
}

// Rule identifies the rule an illegal turn breaks.
type Rule string

// The rules a turn can break.
const (
	RuleGameOver          Rule = "game-over"
	RuleCaptureCompulsory Rule = "capture-compulsory"
	RuleNotVacant         Rule = "ring-not-vacant"
	RuleNoMarble          Rule = "marble-not-available"
	RulePoolFirst         Rule = "pool-not-empty"
	RuleRingNotFree       Rule = "ring-not-free"
	RuleRemovalRequired   Rule = "removal-required"
	RuleRemoveOwnRing     Rule = "remove-placed-ring"
	RuleNotAJump          Rule = "not-a-jump"
	RuleChainIncomplete   Rule = "chain-must-continue"
	RuleCannotPass        Rule = "cannot-pass"
	RuleMalformed         Rule = "malformed-turn"
	RuleNoRingToPlaceOn   Rule = "no-ring"
	RuleJumperMissing     Rule = "no-jumping-marble"
)

// ErrIllegal matches every *IllegalTurnError with errors.Is.
var ErrIllegal = errors.New("illegal turn")

// IllegalTurnError says why a turn is illegal, in a player's words.
type IllegalTurnError struct {
	Turn   string // the turn in notation
	Rule   Rule
	Reason string // e.g. "ring A1 is not free: no two adjacent sides are open"
}

func (e *IllegalTurnError) Error() string {
	return fmt.Sprintf("illegal turn %s: %s", e.Turn, e.Reason)
}

// Is makes errors.Is(err, ErrIllegal) true.
func (e *IllegalTurnError) Is(target error) bool { return target == ErrIllegal }

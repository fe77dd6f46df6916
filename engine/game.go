package engine

import "fmt"

// Game is a game in progress: its start, the turns played and the position
// after each. Undo takes turns back exactly. A Game is not safe for
// concurrent use.
type Game struct {
	positions []Position // positions[0] is the start
	turns     []Turn
	claims    [][]Cell
}

// NewGame starts a game from position start.
func NewGame(start Position) *Game {
	return &Game{positions: []Position{start}}
}

// Position returns the current position.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// Start returns the starting position.
func (g *Game) Start() Position { return g.positions[0] }

// Len returns the number of turns played.
func (g *Game) Len() int { return len(g.turns) }

// Turn returns turn i (0-based) and the rings it claimed.
func (g *Game) Turn(i int) (Turn, []Cell) { return g.turns[i], g.claims[i] }

// PositionAfter returns the position after the first n turns.
func (g *Game) PositionAfter(n int) Position { return g.positions[n] }

// Play checks and plays a turn.
func (g *Game) Play(t Turn) error {
	q, err := g.Position().Play(t)
	if err != nil {
		return err
	}
	g.push(q, t)
	return nil
}

// PlayOverCapture plays a placement made although a capture was compulsory
// (see Position.PlayOverCapture).
func (g *Game) PlayOverCapture(t Turn) error {
	q, err := g.Position().PlayOverCapture(t)
	if err != nil {
		return err
	}
	g.push(q, t)
	return nil
}

func (g *Game) push(q Position, t Turn) {
	g.positions = append(g.positions, q)
	g.turns = append(g.turns, t)
	g.claims = append(g.claims, q.Claimed())
}

// Undo takes back the last n turns.
func (g *Game) Undo(n int) error {
	if n < 0 || n > len(g.turns) {
		return fmt.Errorf("engine: cannot take back %d turns of %d", n, len(g.turns))
	}
	k := len(g.turns) - n
	g.positions, g.turns, g.claims = g.positions[:k+1], g.turns[:k], g.claims[:k]
	return nil
}

// Clone returns an independent copy of the game. Positions are values, so
// the copy shares nothing that either side can change.
func (g *Game) Clone() *Game {
	return &Game{
		positions: append([]Position(nil), g.positions...),
		turns:     append([]Turn(nil), g.turns...),
		claims:    append([][]Cell(nil), g.claims...),
	}
}

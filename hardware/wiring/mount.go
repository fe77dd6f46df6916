package wiring

import (
	"fmt"

	"github.com/zertzboard/zertzboard/engine"
)

// Mount places a game board on the base: game cell (x, y) sits on base
// socket (x+dx, y+dy). A translation of doubled coordinates keeps
// neighbours neighbours, so the rules see the same board the players do.
type Mount struct {
	Game   *engine.Board
	Base   *engine.Board
	Offset engine.Coord
	// Sockets gives the base cell under each game cell, in game board order.
	Sockets []engine.Cell
	// Cells gives the game cell on each base socket, or engine.NoCell.
	Cells []engine.Cell
}

// NewMount checks that every cell of game, moved by off, lands on a socket
// of base.
func NewMount(base, game *engine.Board, off engine.Coord) (*Mount, error) {
	m := &Mount{Game: game, Base: base, Offset: off, Sockets: make([]engine.Cell, game.Len()), Cells: make([]engine.Cell, base.Len())}
	for i := range m.Cells {
		m.Cells[i] = engine.NoCell
	}
	for c := engine.Cell(0); int(c) < game.Len(); c++ {
		g := game.Coord(c)
		s := base.CellAt(engine.Coord{X: g.X + off.X, Y: g.Y + off.Y})
		if s == engine.NoCell {
			return nil, fmt.Errorf("wiring: board %s moved by (%d,%d) puts cell %s off the %s base", game.Name(), off.X, off.Y, game.Label(c), base.Name())
		}
		m.Sockets[c] = s
		m.Cells[s] = c
	}
	return m, nil
}

// DefaultOffset returns the translation that fits game inside base with
// the two centres closest; ties go to the smallest dx, then dy. Distances
// use the hex metric of doubled coordinates (3·dx² + dy²), so that
// "closest" means what it looks like on the board.
func DefaultOffset(base, game *engine.Board) (engine.Coord, error) {
	cx := func(b *engine.Board) (sx, sy int) {
		for c := engine.Cell(0); int(c) < b.Len(); c++ {
			sx += b.Coord(c).X
			sy += b.Coord(c).Y
		}
		return sx, sy
	}
	bx, by := cx(base)
	gx, gy := cx(game)
	nb, ng := base.Len(), game.Len()
	best, found := engine.Coord{}, false
	bestD := 0
	for dx := -2 * base.Columns(); dx <= 2*base.Columns(); dx++ {
		for dy := -64; dy <= 64; dy++ {
			if !fits(base, game, dx, dy) {
				continue
			}
			// Centroid difference scaled by nb·ng to stay in integers.
			ex := (gx+dx*ng)*nb - bx*ng
			ey := (gy+dy*ng)*nb - by*ng
			d := 3*ex*ex + ey*ey
			if !found || d < bestD {
				best, bestD, found = engine.Coord{X: dx, Y: dy}, d, true
			}
		}
	}
	if !found {
		return engine.Coord{}, fmt.Errorf("wiring: board %s does not fit on the %s base", game.Name(), base.Name())
	}
	return best, nil
}

func fits(base, game *engine.Board, dx, dy int) bool {
	for c := engine.Cell(0); int(c) < game.Len(); c++ {
		g := game.Coord(c)
		if base.CellAt(engine.Coord{X: g.X + dx, Y: g.Y + dy}) == engine.NoCell {
			return false
		}
	}
	return true
}

// Project writes the game board's cells, in game board order, from a
// frame of base sockets. dst is reused when it is long enough, so that a
// steady stream of frames does not allocate.
func (m *Mount) Project(dst []byte, base []engine.Content) []byte {
	dst = dst[:0]
	for _, s := range m.Sockets {
		dst = append(dst, byte(base[s]))
	}
	return dst
}

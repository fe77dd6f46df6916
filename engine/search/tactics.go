package search

import (
	"sync"

	"github.com/zertzboard/zertzboard/engine"
)

// geometry is a board's neighbour table, for telling quiet placements from
// tactical ones without playing them.
type geometry struct {
	nbr     [engine.MaxCells][6]engine.Cell // NoCell off the board
	nbrMask [engine.MaxCells]uint64
}

var geometries sync.Map // *engine.Board → *geometry

func geometryOf(b *engine.Board) *geometry {
	if g, ok := geometries.Load(b); ok {
		return g.(*geometry)
	}
	g := &geometry{}
	for c := 0; c < b.Len(); c++ {
		co := b.Coord(engine.Cell(c))
		for d := 0; d < 6; d++ {
			n := b.CellAt(co.Neighbour(d))
			g.nbr[c][d] = n
			if n != engine.NoCell {
				g.nbrMask[c] |= 1 << uint(n)
			}
		}
	}
	geometries.Store(b, g)
	return g
}

// sets are a position's rings and marbles as bit sets, made once a node.
type sets struct {
	rings, occ uint64
}

func setsOf(p *engine.Position) sets {
	var s sets
	n := p.Board().Len()
	for c := 0; c < n; c++ {
		switch p.At(engine.Cell(c)) {
		case engine.NoRing:
		case engine.Vacant:
			s.rings |= 1 << uint(c)
		default:
			s.rings |= 1 << uint(c)
			s.occ |= 1 << uint(c)
		}
	}
	return s
}

func cellBit(c engine.Cell) uint64 {
	if c < 0 {
		return 0
	}
	return 1 << uint(c)
}

// tactical reports whether a placement may change more than the pool: it
// gives the opponent a capture (there is none before a placement, or it
// would be compulsory, so any capture after it involves the new marble),
// or it may claim rings by isolation (the engine's own test: the marble
// fills its group's last vacancy, or the removed ring cuts the rings
// around it apart). Quiet placements all leave the evaluation the same
// but for the marble's colour, so the search need not try them all.
func (g *geometry) tactical(s *sets, t *engine.Turn) bool {
	at, rem := t.At, t.Remove
	rings := s.rings &^ cellBit(rem)
	occ := s.occ | cellBit(at)
	vac := rings &^ occ
	nb := &g.nbr[at]
	for d := 0; d < 6; d++ {
		m := nb[d]
		if m < 0 || occ&cellBit(m) == 0 {
			continue
		}
		// m jumps the new marble, or the new marble jumps m.
		if vac&cellBit(nb[(d+3)%6]) != 0 || vac&cellBit(g.nbr[m][d]) != 0 {
			return true
		}
	}
	if g.nbrMask[at]&vac == 0 {
		return true // maybe the last vacancy of its group
	}
	if rem == engine.NoCell {
		return false
	}
	around := g.nbrMask[rem] & rings
	if around == 0 {
		return false
	}
	if around&vac == 0 {
		return true
	}
	// More than one arc of rings around the removed ring: it may cut.
	arcs := 0
	rn := &g.nbr[rem]
	for d := 0; d < 6; d++ {
		here := rings&cellBit(rn[d]) != 0
		prev := rings&cellBit(rn[(d+5)%6]) != 0
		if here && !prev {
			arcs++
		}
	}
	return arcs > 1
}

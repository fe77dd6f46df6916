package search

import (
	"math/bits"
	"sync"

	"github.com/zertzboard/zertzboard/engine"
)

// geometry is a board's neighbour table, for telling quiet placements from
// tactical ones without playing them.
type geometry struct {
	nbr     [engine.MaxCells][6]engine.Cell // NoCell off the board
	nbrBit  [engine.MaxCells][6]uint64      // the same as one-cell sets; 0 off the board
	nbrMask [engine.MaxCells]uint64
}

// arcCount[m] is the number of arcs (runs, cyclically) of set bits in the
// 6-bit mask m.
var arcCount = func() (t [64]uint8) {
	for m := 0; m < 64; m++ {
		for d := 0; d < 6; d++ {
			if m&(1<<d) != 0 && m&(1<<((d+5)%6)) == 0 {
				t[m]++
			}
		}
	}
	return t
}()

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
				g.nbrBit[c][d] = 1 << uint(n)
			}
		}
	}
	geometries.Store(b, g)
	return g
}

// sets are a position's rings, free rings and marbles as bit sets.
type sets struct {
	rings, free, occ uint64
}

func setsOf(p *engine.Position) sets {
	rings, free, m := p.Bitboards()
	return sets{rings: rings, free: free, occ: m[0] | m[1] | m[2]}
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

// closure grows seed to everything connected to it inside set.
func (g *geometry) closure(seed, set uint64) uint64 {
	reach := seed & set
	todo := reach
	for todo != 0 {
		c := bits.TrailingZeros64(todo)
		todo &= todo - 1
		add := g.nbrMask[c] & set &^ reach
		reach |= add
		todo |= add
	}
	return reach
}

// maxClaims bounds the claims the quiescence search tries in one position.
const maxClaims = 6

// claimTurns appends placements that claim marbles by isolation: removing
// a free ring that cuts off a group with no vacant ring, or filling the
// last vacant ring of a group. Captures are not compulsory in p (the
// caller checks), so these are the placements that win material at once,
// which the quiescence search tries besides standing pat. The marble
// placed is the most plentiful colour of the mover's supply, on the first
// vacant ring that the claim leaves. Every turn is checked legal.
func claimTurns(p *engine.Position, buf []engine.Turn) []engine.Turn {
	g, st := geometryOf(p.Board()), setsOf(p)
	me := p.ToMove()
	supply, src := p.Pool(), engine.FromPool
	if supply == [3]int{} {
		supply, src = p.Captures(me), engine.FromCaptures
	}
	col := -1
	for c := 2; c >= 0; c-- {
		if supply[c] > 0 && (col < 0 || supply[c] > supply[col]) {
			col = c
		}
	}
	if col < 0 {
		return buf
	}
	vac := st.rings &^ st.occ
	free := st.free
	n := 0
	add := func(at, rem engine.Cell) {
		t := engine.PlaceTurn(engine.Color(col), src, at, rem)
		if n < maxClaims && p.Legal(t) {
			buf = append(buf, t)
			n++
		}
	}
	// Removals that cut off a full group.
	for f := free; f != 0 && n < maxClaims; f &= f - 1 {
		rem := engine.Cell(bits.TrailingZeros64(f))
		if !g.mayCut(&st, rem) {
			continue
		}
		rings := st.rings &^ cellBit(rem)
		rest := vac &^ cellBit(rem)
		claimed := rings &^ g.closure(rest, rings)
		if claimed&st.occ == 0 || rest == 0 {
			continue
		}
		add(engine.Cell(bits.TrailingZeros64(rest)), rem)
	}
	// Placements on the last vacant ring of a group with marbles.
	for v := vac; v != 0 && n < maxClaims; v &= v - 1 {
		at := engine.Cell(bits.TrailingZeros64(v))
		if g.nbrMask[at]&vac != 0 {
			continue
		}
		group := g.closure(cellBit(at), st.rings)
		if group&vac != cellBit(at) || group&st.occ == 0 {
			continue
		}
		rem := engine.NoCell
		if f := free &^ cellBit(at); f != 0 {
			rem = engine.Cell(bits.TrailingZeros64(f))
		}
		add(at, rem)
	}
	return buf
}

// mayCut reports whether removing ring rem may leave a group of rings
// without a vacant ring: its remaining neighbours form more than one arc,
// or none of them is vacant.
func (g *geometry) mayCut(s *sets, rem engine.Cell) bool {
	rings := s.rings &^ (1 << uint(rem))
	around := g.nbrMask[rem] & rings
	if around == 0 {
		return false
	}
	if around&^s.occ == 0 {
		return true
	}
	var m uint8
	nb := &g.nbrBit[rem]
	for d := 0; d < 6; d++ {
		if rings&nb[d] != 0 {
			m |= 1 << d
		}
	}
	return arcCount[m] > 1
}

// tacticalCache is geometry.tactical for the many placements of one
// position: the landing rings that make a placement on a ring give a
// capture, and whether a removed ring splits the rings around it, are
// worked out once per ring and reused across colours and removals.
type tacticalCache struct {
	g         *geometry
	st        sets
	vac       uint64
	haveAt    uint64
	land      [engine.MaxCells]uint64 // by ring placed on: the vacant rings a jump would land on
	haveRem   uint64
	splitting uint64 // removed rings whose remaining neighbours form two arcs or more
}

func newTacticalCache(g *geometry, st sets) *tacticalCache {
	return &tacticalCache{g: g, st: st, vac: st.rings &^ st.occ}
}

// tactical is geometry.tactical (TestTacticalCache checks they agree).
func (c *tacticalCache) tactical(t *engine.Turn) bool {
	g := c.g
	at, rem := t.At, t.Remove
	atBit, remBit := uint64(1)<<uint(at), cellBit(rem)
	if c.haveAt&atBit == 0 {
		c.haveAt |= atBit
		var land uint64
		nb := &g.nbr[at]
		for d := 0; d < 6; d++ {
			m := nb[d]
			if m < 0 || c.st.occ&(1<<uint(m)) == 0 {
				continue
			}
			land |= g.nbrBit[at][(d+3)%6] | g.nbrBit[m][d]
		}
		c.land[at] = land & c.vac &^ atBit
	}
	if c.land[at]&^remBit != 0 {
		return true // a capture after it
	}
	if g.nbrMask[at]&c.vac&^remBit == 0 {
		return true // maybe the last vacancy of its group
	}
	if rem == engine.NoCell {
		return false
	}
	around := g.nbrMask[rem] & c.st.rings
	if around == 0 {
		return false
	}
	if around&^c.st.occ&^atBit == 0 {
		return true
	}
	if c.haveRem&remBit == 0 {
		c.haveRem |= remBit
		var m uint8
		for d := 0; d < 6; d++ {
			if c.st.rings&g.nbrBit[rem][d] != 0 {
				m |= 1 << d
			}
		}
		if arcCount[m] > 1 {
			c.splitting |= remBit
		}
	}
	return c.splitting&remBit != 0
}

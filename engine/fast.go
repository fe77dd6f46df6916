package engine

import "math/bits"

// CountTurns returns len(p.LegalTurns(nil)) without writing out a turn:
// placements are counted from the vacant and free rings, capture chains by
// walking them. Perft uses it for the last ply. It does not allocate.
func (p Position) CountTurns() int {
	if p.result.Over {
		return 0
	}
	if n := p.countCaptures(); n > 0 {
		return n
	}
	n := p.countPlacements()
	if n == 0 {
		return 1 // a pass
	}
	return n
}

func (p *Position) countCaptures() int {
	occ := p.occ()
	n := 0
	for m := occ; m != 0; m &= m - 1 {
		c := Cell(bits.TrailingZeros64(m))
		if p.jumpDir(occ, c) >= 0 {
			n += p.countChains(occ, c)
		}
	}
	return n
}

// countChains counts the maximal chains from c (c can jump, or the chain
// that reached it ends here).
func (p *Position) countChains(occ uint64, c Cell) int {
	b := p.b
	n := 0
	for d := 0; d < 6; d++ {
		to := b.jumpTo[c][d]
		if to < 0 {
			continue
		}
		mid := bit(b.jumpMid[c][d])
		if occ&mid == 0 || p.rings&^occ&bit(to) == 0 {
			continue
		}
		n += p.countChains(occ&^(bit(c)|mid)|bit(to), to)
	}
	if n == 0 {
		return 1
	}
	return n
}

// countPlacements counts colour × vacant ring × removal: a vacant ring that
// is itself free leaves one free ring fewer to remove, and with none left
// the placement removes nothing (one turn).
func (p *Position) countPlacements() int {
	supply := p.supply(p.toMove)
	colours := 0
	for _, n := range supply {
		if n > 0 {
			colours++
		}
	}
	if colours == 0 {
		return 0
	}
	vac, free := p.vacant(), p.free()
	nf, nv := bits.OnesCount64(free), bits.OnesCount64(vac)
	per := (nv-nf)*max(nf, 1) + nf*max(nf-1, 1)
	return colours * per
}

// Apply plays a turn taken from p.LegalTurns (or WinningTurn) without
// checking it: the fast path for searches that generate their own turns.
// A turn from anywhere else must go through Play; an illegal one gives a
// position that breaks the rules.
func (p Position) Apply(t *Turn) Position { return p.apply(t) }

// WinningTurn returns a turn that wins the game at once for the player to
// move, if there is one: a capture chain, or a placement whose isolation
// claims, that completes a winning set, or a placement that claims the
// last rings. It decides without playing every turn: isolation is worked
// out once per removable ring, not once per placement. The turn is legal
// in p.
func (p Position) WinningTurn() (Turn, bool) {
	if p.result.Over {
		return Turn{}, false
	}
	if p.r.Wins(p.caps[p.toMove]) {
		// A parsed position can hand the mover a winning set already;
		// no game reaches one. Play the turns to see.
		for _, t := range p.LegalTurns(nil) {
			if q := p.apply(&t); q.result.Over && q.result.Winner == int(p.toMove) {
				return t, true
			}
		}
		return Turn{}, false
	}
	if p.HasCapture() {
		return p.winningCapture()
	}
	return p.winningPlacement()
}

// winningCapture searches the capture chains for one that completes a
// winning set. Captures only add marbles, so a chain that reaches a winning
// set on the way wins however it is completed.
func (p *Position) winningCapture() (Turn, bool) {
	occ := p.occ()
	var path [MaxPath]Cell
	var t Turn
	caps := p.caps[p.toMove]
	for m := occ; m != 0; m &= m - 1 {
		c := Cell(bits.TrailingZeros64(m))
		if p.jumpDir(occ, c) >= 0 && p.winChain(occ, c, caps, &path, 0, &t) {
			return t, true
		}
	}
	return Turn{}, false
}

func (p *Position) winChain(occ uint64, c Cell, caps [3]int8, path *[MaxPath]Cell, depth int, out *Turn) bool {
	path[depth] = c
	b := p.b
	jumped := false
	for d := 0; d < 6; d++ {
		to := b.jumpTo[c][d]
		if to < 0 {
			continue
		}
		mc := b.jumpMid[c][d]
		mid := bit(mc)
		if occ&mid == 0 || p.rings&^occ&bit(to) == 0 {
			continue
		}
		jumped = true
		next := caps
		for col := range p.marbles {
			if p.marbles[col]&mid != 0 {
				next[col]++
			}
		}
		// Marbles jumped earlier in this chain are gone from occ, so the
		// colour read from p.marbles is right: mid is still occupied.
		if p.winChain(occ&^(bit(c)|mid)|bit(to), to, next, path, depth+1, out) {
			return true
		}
	}
	if jumped || depth == 0 || !p.r.Wins(caps) {
		return false
	}
	*out = Turn{Kind: Capture, At: NoCell, Remove: NoCell, n: uint8(depth + 1)}
	copy(out.path[:depth+1], path[:depth+1])
	return true
}

// winningPlacement: a placement wins only through what it claims. For each
// choice of removal the groups of the remaining rings are found once: the
// groups with no vacant ring are claimed by any placement, and a group whose
// only vacant ring is at is claimed too when the marble goes on at.
func (p *Position) winningPlacement() (Turn, bool) {
	supply := p.supply(p.toMove)
	if supply[0]+supply[1]+supply[2] == 0 {
		return Turn{}, false
	}
	vac, free := p.vacant(), p.free()
	if vac == 0 {
		return Turn{}, false
	}
	if !p.couldWinByClaims(supply) {
		return Turn{}, false
	}
	// Only a vacant ring with no vacant neighbour can be the last of its
	// group: lonely now, or once the removed ring, its one vacant
	// neighbour, is gone.
	var lonely, oneNbr uint64
	for v := vac; v != 0; v &= v - 1 {
		c := bits.TrailingZeros64(v)
		switch bits.OnesCount64(p.b.nbrMask[c] & vac) {
		case 0:
			lonely |= 1 << uint(c)
		case 1:
			oneNbr |= 1 << uint(c)
		}
	}
	// Placements that remove nothing: on the only free ring, or anywhere
	// when none is free.
	switch {
	case free == 0:
		if t, ok := p.winOnRemoval(NoCell, vac, lonely, supply); ok {
			return t, true
		}
	case bits.OnesCount64(free) == 1:
		if t, ok := p.winOnRemoval(NoCell, free, lonely, supply); ok {
			return t, true
		}
	}
	for f := free; f != 0; f &= f - 1 {
		rem := Cell(bits.TrailingZeros64(f))
		l := (lonely | p.b.nbrMask[rem]&oneNbr) &^ bit(rem)
		if t, ok := p.winOnRemoval(rem, vac&^bit(rem), l, supply); ok {
			return t, true
		}
	}
	return Turn{}, false
}

// couldWinByClaims is a quick bound: claiming every marble on the board
// and the one placed must complete a winning set, unless a claim could
// take the last rings (a full-board win). Early in a game it rules out
// every placement at once.
func (p *Position) couldWinByClaims(supply [3]int8) bool {
	if bits.OnesCount64(p.vacant()) <= 2 || p.unsettled {
		return true // the last vacant rings: a claim may take every ring
	}
	best := p.caps[p.toMove]
	for c := range best {
		best[c] += int8(bits.OnesCount64(p.marbles[c]))
		if supply[c] > 0 {
			best[c]++
		}
	}
	return p.r.Wins(best)
}

// winOnRemoval looks for a winning placement on one of the rings in ats,
// with ring rem removed (NoCell: none). lonely holds the vacant rings
// with no vacant neighbour once rem is gone.
func (p *Position) winOnRemoval(rem Cell, ats, lonely uint64, supply [3]int8) (Turn, bool) {
	b := p.b
	rings := p.rings &^ bit(rem)
	vac := p.vacant() &^ bit(rem)
	// base: the groups left with no vacant ring, claimed whatever is
	// placed. Removing rem cuts nothing off when its remaining neighbours
	// form one arc and one of them is vacant (see mayIsolate).
	var base uint64
	if around := b.nbrMask[rem&63] & rings; rem == NoCell && !p.unsettled {
		// nothing removed: every group keeps its vacant ring
	} else if p.unsettled || around&vac == 0 && around != 0 || arcs[b.arcMask(rem, rings)] > 1 {
		base = rings &^ b.closure(vac, rings)
	}
	// Groups whose only vacant ring is a candidate: placing there claims
	// the group as well.
	var singleAt [8]Cell
	var singleG [8]uint64
	var singles uint64
	n := 0
	for left := ats & lonely; left != 0 && n < len(singleAt); left &= left - 1 {
		v := Cell(bits.TrailingZeros64(left))
		if g, ok := b.soleVacancy(v, rings, vac); ok {
			singleAt[n], singleG[n] = v, g
			singles |= bit(v)
			n++
		}
	}
	if n == len(singleAt) {
		// More lone vacancies than the list holds: take the slow road
		// for the rest (no real position comes near).
		for left := ats & lonely &^ singles; left != 0; left &= left - 1 {
			v := Cell(bits.TrailingZeros64(left))
			if g, ok := b.soleVacancy(v, rings, vac); ok {
				if t, ok := p.tryClaim(rem, v, base|g, rings, supply); ok {
					return t, true
				}
			}
		}
	}
	for i := 0; i < n; i++ {
		if t, ok := p.tryClaim(rem, singleAt[i], base|singleG[i], rings, supply); ok {
			return t, true
		}
	}
	if base != 0 {
		if rest := ats &^ singles; rest != 0 {
			// Any other ring gives the same claim; the colour matters
			// only through the supply.
			if t, ok := p.tryClaim(rem, Cell(bits.TrailingZeros64(rest)), base, rings, supply); ok {
				return t, true
			}
		}
	}
	return Turn{}, false
}

// tryClaim: does placing on at, removing rem, claiming claimed (rings is
// the ring set after the removal) win with some colour of the supply?
func (p *Position) tryClaim(rem, at Cell, claimed, rings uint64, supply [3]int8) (Turn, bool) {
	if claimed == 0 {
		return Turn{}, false
	}
	src := p.source()
	full := rings&^claimed == 0
	for _, col := range Colors {
		if supply[col] == 0 {
			continue
		}
		caps := p.caps[p.toMove]
		if src == FromCaptures {
			caps[col]--
		}
		for c := range caps {
			caps[c] += int8(bits.OnesCount64(p.marbles[c] & claimed))
		}
		if claimed&bit(at) != 0 {
			caps[col]++
		}
		if full || p.r.Wins(caps) {
			return Turn{Kind: Place, Color: col, From: src, At: at, Remove: rem}, true
		}
	}
	return Turn{}, false
}

// soleVacancy: is v the only vacant ring of its group in rings? If so it
// returns the group. The flood stops at the first other vacant ring, which
// is usually a step or two away.
func (b *Board) soleVacancy(v Cell, rings, vac uint64) (uint64, bool) {
	reach := bit(v)
	todo := reach
	for todo != 0 {
		c := bits.TrailingZeros64(todo)
		todo &= todo - 1
		add := b.nbrMask[c] & rings &^ reach
		if add&vac != 0 {
			return 0, false
		}
		reach |= add
		todo |= add
	}
	return reach, true
}

// arcMask is the 6-bit mask of c's neighbours that are in rings, in
// direction order.
func (b *Board) arcMask(c Cell, rings uint64) uint8 {
	var m uint8
	for d := 0; d < 6; d++ {
		if n := b.nbr[c][d]; n != NoCell && rings&bit(n) != 0 {
			m |= 1 << d
		}
	}
	return m
}

// OnBoard returns the marbles of each colour on the board.
func (p Position) OnBoard() [3]int {
	return [3]int{bits.OnesCount64(p.marbles[0]), bits.OnesCount64(p.marbles[1]), bits.OnesCount64(p.marbles[2])}
}

// Bitboards returns the rings, the free rings (FreeRings) and each
// colour's marbles as sets of cells (bit c set for cell c), for searches
// that keep their own bit tricks.
func (p Position) Bitboards() (rings, free uint64, marbles [3]uint64) {
	return p.rings, p.free(), p.marbles
}

// VacantRings returns the number of vacant rings.
func (p Position) VacantRings() int { return bits.OnesCount64(p.vacant()) }

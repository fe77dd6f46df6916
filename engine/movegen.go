package engine

import (
	"iter"
	"math/bits"
)

// LegalTurns appends every legal turn to buf and returns it. Captures are
// compulsory, so when any capture exists only capture chains are listed:
// every maximal chain, each branch separately. Otherwise every placement:
// colour × vacant ring × free ring (or no removal when none is free). A
// player with no turn gets a single pass. A finished game has no turns.
//
// With a buffer of enough capacity it does not allocate.
func (p Position) LegalTurns(buf []Turn) []Turn {
	if p.result.Over {
		return buf
	}
	n := len(buf)
	buf = p.appendCaptures(buf)
	if len(buf) > n {
		return buf
	}
	buf = p.appendPlacements(buf)
	if len(buf) == n {
		buf = append(buf, PassTurn())
	}
	return buf
}

// HasCapture reports whether a capture is available (and so compulsory).
func (p Position) HasCapture() bool {
	if p.result.Over {
		return false
	}
	_, _, ok := p.firstJump()
	return ok
}

// MustPass reports whether the player to move has no turn but a pass: no
// capture, and no marble to place. It is cheaper than LegalTurns.
func (p Position) MustPass() bool { return !p.result.Over && !p.canMove(p.toMove) }

// CaptureTurns lists every legal capture chain.
func (p Position) CaptureTurns() []Turn {
	if p.result.Over {
		return nil
	}
	return p.appendCaptures(nil)
}

func (p *Position) appendCaptures(buf []Turn) []Turn {
	occ := p.occ()
	var path [MaxPath]Cell
	for m := occ; m != 0; m &= m - 1 {
		buf = p.chains(buf, occ, Cell(bits.TrailingZeros64(m)), &path, 0)
	}
	return buf
}

// chains extends the chain in path[:depth] from c, appending every maximal
// continuation.
func (p *Position) chains(buf []Turn, occ uint64, c Cell, path *[MaxPath]Cell, depth int) []Turn {
	path[depth] = c
	jumped := false
	b := p.b
	for d := 0; d < 6; d++ {
		to := b.jumpTo[c][d]
		if to < 0 {
			continue
		}
		mid := bit(b.jumpMid[c][d])
		if occ&mid == 0 || p.rings&^occ&bit(to) == 0 {
			continue
		}
		jumped = true
		buf = p.chains(buf, occ&^(bit(c)|mid)|bit(to), to, path, depth+1)
	}
	if !jumped && depth > 0 {
		t := Turn{Kind: Capture, At: NoCell, Remove: NoCell, n: uint8(depth + 1)}
		copy(t.path[:depth+1], path[:depth+1])
		buf = append(buf, t)
	}
	return buf
}

func (p *Position) appendPlacements(buf []Turn) []Turn {
	src := p.source()
	supply := p.supply(p.toMove)
	vac, free := p.vacant(), p.free()
	for _, col := range Colors {
		if supply[col] == 0 {
			continue
		}
		for v := vac; v != 0; v &= v - 1 {
			at := Cell(bits.TrailingZeros64(v))
			rem := free &^ bit(at)
			if rem == 0 {
				buf = append(buf, Turn{Kind: Place, Color: col, From: src, At: at, Remove: NoCell})
				continue
			}
			for ; rem != 0; rem &= rem - 1 {
				buf = append(buf, Turn{Kind: Place, Color: col, From: src, At: at, Remove: Cell(bits.TrailingZeros64(rem))})
			}
		}
	}
	return buf
}

// Perft counts the leaf positions of the game tree to the given depth, one
// move being one whole turn. Finished games are leaves that do not count
// beyond their depth. The last ply is counted, not generated (CountTurns).
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	// One buffer per ply, reused across siblings; the root's is exact, and
	// the others grow to their largest position once.
	bufs := make([][]Turn, depth)
	bufs[depth-1] = make([]Turn, 0, p.CountTurns())
	return perft(p, depth, bufs)
}

func perft(p Position, depth int, bufs [][]Turn) uint64 {
	if depth == 1 {
		return uint64(p.CountTurns())
	}
	turns := p.LegalTurns(bufs[depth-1][:0])
	bufs[depth-1] = turns
	var n uint64
	for i := range turns {
		n += perft(p.apply(&turns[i]), depth-1, bufs)
	}
	return n
}

// Turns yields the legal turns, as LegalTurns lists them, one at a time:
// a search that stops at the first good turn never writes out the rest.
// Capture chains are found in full before the first is yielded (there are
// few); placements are made as they are yielded.
func (p Position) Turns() iter.Seq[Turn] {
	return func(yield func(Turn) bool) {
		if p.result.Over {
			return
		}
		var caps [16]Turn
		if list := p.appendCaptures(caps[:0]); len(list) > 0 {
			for _, t := range list {
				if !yield(t) {
					return
				}
			}
			return
		}
		src := p.source()
		supply := p.supply(p.toMove)
		vac, free := p.vacant(), p.free()
		any := false
		for _, col := range Colors {
			if supply[col] == 0 {
				continue
			}
			for v := vac; v != 0; v &= v - 1 {
				at := Cell(bits.TrailingZeros64(v))
				rem := free &^ bit(at)
				any = true
				if rem == 0 {
					if !yield(Turn{Kind: Place, Color: col, From: src, At: at, Remove: NoCell}) {
						return
					}
					continue
				}
				for ; rem != 0; rem &= rem - 1 {
					if !yield(Turn{Kind: Place, Color: col, From: src, At: at, Remove: Cell(bits.TrailingZeros64(rem))}) {
						return
					}
				}
			}
		}
		if !any {
			yield(PassTurn())
		}
	}
}

package engine

import "math/bits"

// Zobrist keys: one random 64-bit word per feature of a position, the hash
// being the XOR of the features present. Play keeps it up to date
// incrementally (a few XORs per turn), so a search can use it as a
// transposition-table key for free.
//
// Counts index their table modulo zCounts: the standard sets hold at most
// 10 of a colour, so the reduction never folds two reachable counts.
const zCounts = 32

var (
	zRing    [MaxCells]uint64
	zMarble  [3][MaxCells]uint64
	zPool    [3][zCounts]uint64
	zCaps    [2][3][zCounts]uint64
	zToMove1 uint64
)

func init() {
	// splitmix64 from a fixed seed: the same keys in every run, so hashes
	// may be compared across processes (and tests are reproducible).
	s := uint64(0x5a3e27a7c0ffee13)
	next := func() uint64 {
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for c := range zRing {
		zRing[c] = next()
	}
	for col := range zMarble {
		for c := range zMarble[col] {
			zMarble[col][c] = next()
		}
	}
	for col := range zPool {
		for n := range zPool[col] {
			zPool[col][n] = next()
		}
	}
	for pl := range zCaps {
		for col := range zCaps[pl] {
			for n := range zCaps[pl][col] {
				zCaps[pl][col][n] = next()
			}
		}
	}
	zToMove1 = next()
}

func zCount(n int8) int { return int(uint8(n)) % zCounts }

// zobrist computes the hash from scratch.
func (p *Position) zobrist() uint64 {
	var h uint64
	for m := p.rings; m != 0; m &= m - 1 {
		h ^= zRing[bits.TrailingZeros64(m)]
	}
	for col := range p.marbles {
		for m := p.marbles[col]; m != 0; m &= m - 1 {
			h ^= zMarble[col][bits.TrailingZeros64(m)]
		}
		h ^= zPool[col][zCount(p.pool[col])]
		h ^= zCaps[0][col][zCount(p.caps[0][col])]
		h ^= zCaps[1][col][zCount(p.caps[1][col])]
	}
	if p.toMove == 1 {
		h ^= zToMove1
	}
	return h
}

// Hash returns the position's Zobrist hash: rings, marbles, pool, captures
// and the player to move (what SameBoard compares; not the repetition
// history). Equal positions hash equal; different ones collide with
// probability about 2⁻⁶⁴ per pair.
func (p Position) Hash() uint64 { return p.hash }

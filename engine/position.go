package engine

import (
	"math/bits"
)

// Content is what a cell holds, as one character of the frame-log alphabet.
type Content byte

// The contents of a cell.
const (
	NoRing      Content = '.'
	Vacant      Content = 'o'
	WhiteMarble Content = 'w'
	GreyMarble  Content = 'g'
	BlackMarble Content = 'b'
	// Unreadable is a sensor reading between the calibrated bands. A
	// position never holds it; observations may.
	Unreadable Content = '?'
)

// MarbleContent returns the content of a ring holding a marble of colour c.
func MarbleContent(c Color) Content { return Content(colorLetters[c]) }

// Marble reports whether the content is a marble, and its colour.
func (c Content) Marble() (Color, bool) {
	switch c {
	case WhiteMarble:
		return White, true
	case GreyMarble:
		return Grey, true
	case BlackMarble:
		return Black, true
	}
	return 0, false
}

// Result is the state of a game: over or not, and who won.
type Result struct {
	Over   bool
	Winner int // 0 or 1; -1 for a draw or a game in progress
	Reason Reason
}

// Position is a ZÈRTZ position: rings, marbles, pool, both players'
// captures, the player to move and the earlier positions that count for
// repetition. It is an immutable value: Play returns a new Position and
// never changes its receiver, so keeping an old value is an exact undo.
//
// The zero Position has no board and is not a legal position; create
// positions with NewPosition or ParsePosition.
type Position struct {
	b       *Board
	r       *Rules
	rings   uint64
	marbles [3]uint64
	pool    [3]int8
	caps    [2][3]int8
	toMove  int8
	result  Result
	claimed uint64 // rings claimed by isolation in the turn that led here
	hist    *histNode
	hash    uint64 // Zobrist hash of the key, kept by apply (zobrist.go)
	// edge holds the rings with two cyclically adjacent open sides: the
	// free rings are its vacant ones. It depends on the rings alone, and
	// rings only go, so apply updates it around the rings removed.
	edge uint64
	// unsettled is set when a parsed position has a group of rings with no
	// vacant ring: the next placement claims it, so apply must not take
	// its shortcut past the isolation check. Play never leaves one.
	unsettled bool
}

// posKey is what makes two positions the same for repetition.
type posKey struct {
	rings   uint64
	marbles [3]uint64
	pool    [3]int8
	caps    [2][3]int8
	toMove  int8
}

// histNode is an immutable list of the earlier positions that could still
// recur. Only positions with the same rings and an empty pool can: rings
// never come back and the pool never refills. So the list is empty for most
// of a game, and sharing it between Position values is safe.
type histNode struct {
	key  posKey
	prev *histNode
}

// NewPosition returns the starting position of a game on b with rules r;
// player first (0 or 1) moves first.
func NewPosition(b *Board, r *Rules, first int) Position {
	p := Position{b: b, r: r, rings: b.all, toMove: int8(first & 1)}
	for c := range p.pool {
		p.pool[c] = int8(r.Pool[c])
	}
	p.hash = p.zobrist()
	p.edge = b.edges(p.rings)
	p.result = p.evaluate()
	return p
}

func (p *Position) key() posKey {
	return posKey{p.rings, p.marbles, p.pool, p.caps, p.toMove}
}

// Board returns the position's board.
func (p Position) Board() *Board { return p.b }

// Rules returns the position's rules.
func (p Position) Rules() *Rules { return p.r }

// Variant returns the contract's variant name, e.g. "37" or "37b".
func (p Position) Variant() string { return Variant(p.b, p.r) }

// ToMove returns the player to move, 0 or 1.
func (p Position) ToMove() int { return int(p.toMove) }

// Result returns whether the game is over and who won.
func (p Position) Result() Result { return p.result }

// At returns what cell c holds.
func (p Position) At(c Cell) Content {
	m := bit(c)
	switch {
	case p.rings&m == 0:
		return NoRing
	case p.marbles[White]&m != 0:
		return WhiteMarble
	case p.marbles[Grey]&m != 0:
		return GreyMarble
	case p.marbles[Black]&m != 0:
		return BlackMarble
	}
	return Vacant
}

// Cells returns every cell's content in board order: the frame-log form.
func (p Position) Cells() string {
	buf := make([]byte, p.b.n)
	p.AppendCells(buf[:0])
	return string(buf)
}

// AppendCells appends every cell's content in board order to dst.
func (p Position) AppendCells(dst []byte) []byte {
	for c := 0; c < p.b.n; c++ {
		dst = append(dst, byte(p.At(Cell(c))))
	}
	return dst
}

// Pool returns the marbles of each colour left in the pool.
func (p Position) Pool() [3]int { return widen(p.pool) }

// Captures returns the marbles of each colour that player holds.
func (p Position) Captures(player int) [3]int { return widen(p.caps[player&1]) }

func widen(a [3]int8) [3]int { return [3]int{int(a[0]), int(a[1]), int(a[2])} }

// Rings returns the number of rings on the board.
func (p Position) Rings() int { return bits.OnesCount64(p.rings) }

// Claimed returns the rings that the turn leading here claimed by
// isolation, in board order.
func (p Position) Claimed() []Cell { return cellsOf(p.claimed) }

// FreeRings returns the rings that may be removed now, in board order: the
// vacant rings with two cyclically adjacent sides open.
func (p Position) FreeRings() []Cell { return cellsOf(p.free()) }

// Equal reports whether p and q are the same position, repetition history
// included. What the last turn claimed (Claimed) describes the turn, not the
// position, and is not compared.
func (p Position) Equal(q Position) bool {
	if p.b != q.b || p.r != q.r || p.key() != q.key() || p.result != q.result {
		return false
	}
	a, b := p.hist, q.hist
	for a != nil && b != nil {
		if a.key != b.key {
			return false
		}
		a, b = a.prev, b.prev
	}
	return a == nil && b == nil
}

// SameBoard reports whether p and q have the same rings, marbles, pool,
// captures and player to move: the same position for repetition.
func (p Position) SameBoard(q Position) bool { return p.b == q.b && p.key() == q.key() }

func (p *Position) occ() uint64    { return p.marbles[0] | p.marbles[1] | p.marbles[2] }
func (p *Position) vacant() uint64 { return p.rings &^ p.occ() }

// free returns the removable rings: vacant, with two cyclically adjacent
// neighbour cells holding no ring.
func (p *Position) free() uint64 { return p.edge & p.vacant() }

// open2 reports whether c has two cyclically adjacent neighbour cells
// without a ring.
func (b *Board) open2(c int, rings uint64) bool {
	pr := &b.pair[c]
	return rings&pr[0] == 0 || rings&pr[1] == 0 || rings&pr[2] == 0 ||
		rings&pr[3] == 0 || rings&pr[4] == 0 || rings&pr[5] == 0
}

// edges computes the edge set of a ring set from scratch.
func (b *Board) edges(rings uint64) uint64 {
	var out uint64
	for m := rings; m != 0; m &= m - 1 {
		if c := bits.TrailingZeros64(m); b.open2(c, rings) {
			out |= 1 << uint(c)
		}
	}
	return out
}

// edgesAfter updates edge, the edge set of the ring set before, for the
// ring set after (a subset): only the neighbours of removed rings can
// gain an open side.
func (b *Board) edgesAfter(edge, before, after uint64) uint64 {
	gone := before &^ after
	edge &^= gone
	var near uint64
	for m := gone; m != 0; m &= m - 1 {
		near |= b.nbrMask[bits.TrailingZeros64(m)]
	}
	for m := near & after &^ edge; m != 0; m &= m - 1 {
		if c := bits.TrailingZeros64(m); b.open2(c, after) {
			edge |= 1 << uint(c)
		}
	}
	return edge
}

func (p *Position) poolEmpty() bool { return p.pool[0]|p.pool[1]|p.pool[2] == 0 }

// source returns where the player to move takes marbles from.
func (p *Position) source() Source {
	if p.poolEmpty() {
		return FromCaptures
	}
	return FromPool
}

// supply returns the marbles the given player may place.
func (p *Position) supply(player int8) [3]int8 {
	if p.poolEmpty() {
		return p.caps[player]
	}
	return p.pool
}

// firstJump finds a capture hop from any marble, if there is one.
func (p *Position) firstJump() (from, over Cell, ok bool) {
	occ := p.occ()
	for m := occ; m != 0; m &= m - 1 {
		c := Cell(bits.TrailingZeros64(m))
		if p.b.nbrMask[c]&occ == 0 {
			continue // nothing next to it to jump
		}
		if d := p.jumpDir(occ, c); d >= 0 {
			return c, p.b.jumpMid[c][d], true
		}
	}
	return NoCell, NoCell, false
}

// jumpDir returns a direction in which the marble at c can jump given the
// occupied set occ, or -1.
func (p *Position) jumpDir(occ uint64, c Cell) int {
	mid, to := &p.b.midMask[c], &p.b.toMask[c]
	land := p.rings &^ occ
	for d := 0; d < 6; d++ {
		if occ&mid[d] != 0 && land&to[d] != 0 {
			return d
		}
	}
	return -1
}

// canMove reports whether player could make a turn other than a pass.
func (p *Position) canMove(player int8) bool {
	s := p.supply(player)
	if s[0]+s[1]+s[2] > 0 && p.vacant() != 0 {
		return true
	}
	_, _, ok := p.firstJump()
	return ok
}

// evaluate decides the result of the position, for the player who just
// moved (only the mover can gain marbles).
func (p *Position) evaluate() Result {
	mover := 1 - p.toMove
	switch {
	case p.rings == 0:
		return Result{Over: true, Winner: int(mover), Reason: ReasonFullBoard}
	case p.r.Wins(p.caps[mover]):
		return Result{Over: true, Winner: int(mover), Reason: ReasonCaptures}
	case p.repeats() >= 2:
		return Result{Over: true, Winner: -1, Reason: ReasonRepetition}
	case !p.canMove(p.toMove) && !p.canMove(mover):
		return Result{Over: true, Winner: -1, Reason: ReasonNoMoves}
	}
	return Result{Winner: -1}
}

// repeats counts the earlier occurrences of this position.
func (p *Position) repeats() int {
	k, n := p.key(), 0
	for h := p.hist; h != nil; h = h.prev {
		if h.key == k {
			n++
		}
	}
	return n
}

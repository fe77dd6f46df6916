package engine

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// Play checks t and returns the position after it. p is unchanged. The
// error is an *IllegalTurnError that says which rule t breaks.
func (p Position) Play(t Turn) (Position, error) {
	if err := p.Check(t); err != nil {
		return p, err
	}
	return p.apply(&t), nil
}

// PlayOverCapture plays a placement made although a capture was
// compulsory. Tournament rules (rulebook I.3) let such a placement stand
// until the opponent demands it be taken back, so the referee records it
// rather than refusing it. Every other rule is checked as in Play.
func (p Position) PlayOverCapture(t Turn) (Position, error) {
	if err := p.check(t, true); err != nil {
		return p, err
	}
	return p.apply(&t), nil
}

// MustPlay is Play for turns known to be legal; it panics otherwise.
func (p Position) MustPlay(t Turn) Position {
	q, err := p.Play(t)
	if err != nil {
		panic(err)
	}
	return q
}

// apply plays a legal turn: placement and removal, then isolation claims;
// or a capture chain; or a pass. Then it decides the result. It keeps the
// Zobrist hash up to date incrementally.
func (p Position) apply(t *Turn) Position {
	q := p
	q.claimed = 0
	m := p.toMove
	b := p.b
	h := p.hash ^ zToMove1
	switch t.Kind {
	case Place:
		if t.From == FromCaptures {
			q.caps[m][t.Color]--
		} else {
			q.pool[t.Color]--
		}
		q.marbles[t.Color] |= bit(t.At)
		h ^= zMarble[t.Color][t.At]
		if t.Remove != NoCell {
			q.rings &^= bit(t.Remove)
			h ^= zRing[t.Remove]
		}
		// Every group of rings with no vacant ring goes to the mover.
		if q.mayIsolate(t.At, t.Remove) {
			claimed := q.rings &^ b.closure(q.vacant(), q.rings)
			if claimed != 0 {
				for c := range q.marbles {
					got := q.marbles[c] & claimed
					q.caps[m][c] += int8(bits.OnesCount64(got))
					q.marbles[c] &^= got
					for ; got != 0; got &= got - 1 {
						h ^= zMarble[c][bits.TrailingZeros64(got)]
					}
				}
				q.rings &^= claimed
				q.claimed = claimed
				for ; claimed != 0; claimed &= claimed - 1 {
					h ^= zRing[bits.TrailingZeros64(claimed)]
				}
			}
		}
		q.unsettled = false
	case Capture:
		for i := 0; i+1 < int(t.n); i++ {
			from, to := t.path[i], t.path[i+1]
			mid := b.Between(from, to)
			for c := range q.marbles {
				if q.marbles[c]&bit(mid) != 0 {
					q.marbles[c] &^= bit(mid)
					q.caps[m][c]++
					h ^= zMarble[c][mid]
				}
				if q.marbles[c]&bit(from) != 0 {
					q.marbles[c] = q.marbles[c]&^bit(from) | bit(to)
					h ^= zMarble[c][from] ^ zMarble[c][to]
				}
			}
		}
	}
	for c := range q.pool {
		if q.pool[c] != p.pool[c] {
			h ^= zPool[c][zCount(p.pool[c])] ^ zPool[c][zCount(q.pool[c])]
		}
		if q.caps[m][c] != p.caps[m][c] {
			h ^= zCaps[m][c][zCount(p.caps[m][c])] ^ zCaps[m][c][zCount(q.caps[m][c])]
		}
	}
	q.hash = h
	if q.rings != p.rings {
		q.edge = b.edgesAfter(p.edge, p.rings, q.rings)
	}
	q.toMove = 1 - m
	if q.poolEmpty() && q.rings == p.rings && q.pool == p.pool {
		q.hist = &histNode{key: p.key(), prev: p.hist}
	} else {
		q.hist = nil
	}
	q.result = q.evaluate()
	return q
}

// arcs[m] counts the runs of set bits in the 6-bit cyclic mask m: the
// separate arcs of a cell's neighbours that hold a ring.
var arcs = func() (a [64]uint8) {
	for m := 0; m < 64; m++ {
		for d := 0; d < 6; d++ {
			if m&(1<<d) != 0 && m&(1<<((d+5)%6)) == 0 {
				a[m]++
			}
		}
	}
	return a
}()

// mayIsolate reports whether placing on at and removing rem (NoCell for
// none) could have left a group of rings with no vacant ring. It is false
// only when cheap local facts prove no group was cut off, so apply can skip
// the flood fill. q is the position after the placement and removal.
//
// Before the turn every group held a vacant ring (Play claims the others;
// a parsed position that breaks this is unsettled). Removing rem splits no
// group when its remaining ring neighbours form one arc (two cyclically
// adjacent neighbours are adjacent to each other); rem's group keeps a
// vacant ring when one of them is vacant; at's group keeps one when a
// neighbour of at is vacant.
func (q *Position) mayIsolate(at, rem Cell) bool {
	if q.unsettled {
		return true
	}
	b := q.b
	vac := q.vacant()
	if b.nbrMask[at]&vac == 0 {
		return true
	}
	if rem == NoCell {
		return false
	}
	around := b.nbrMask[rem] & q.rings
	if around == 0 {
		return false
	}
	if around&vac == 0 {
		return true
	}
	return arcs[b.arcMask(rem, q.rings)] > 1
}

// Between returns the cell jumped over from one cell to another, or NoCell
// when that is not a jump (two steps in a straight line).
func (b *Board) Between(from, to Cell) Cell {
	for d := 0; d < 6; d++ {
		if b.jumpTo[from][d] == to {
			return b.jumpMid[from][d]
		}
	}
	return NoCell
}

// Check reports whether t is legal in p, and if not, which rule it breaks
// and why, as an *IllegalTurnError.
func (p Position) Check(t Turn) error { return p.check(t, false) }

// Legal reports whether t is legal in p: Check without the explanation,
// for searches that test many turns.
func (p Position) Legal(t Turn) bool { return p.checkTurn(t, false, true) == nil }

// errQuiet stands for any illegal turn when no explanation is wanted.
var errQuiet = errors.New("engine: illegal turn")

// check is Check; overCapture lets a placement ignore a compulsory capture.
func (p Position) check(t Turn, overCapture bool) error { return p.checkTurn(t, overCapture, false) }

// checkTurn is check; quiet returns errQuiet instead of an explanation.
func (p Position) checkTurn(t Turn, overCapture, quiet bool) error {
	bad := func(rule Rule, format string, args ...any) error {
		return p.illegal(t, quiet, rule, format, args...)
	}
	if p.result.Over {
		return bad(RuleGameOver, "the game is over (%s)", p.result.describe())
	}
	switch t.Kind {
	case Pass:
		if p.canMove(p.toMove) {
			return bad(RuleCannotPass, "a player who can move may not pass")
		}
		return nil
	case Place:
		return p.checkPlace(t, overCapture, quiet)
	case Capture:
		return p.checkCapture(t, quiet)
	}
	return bad(RuleMalformed, "not a turn")
}

// illegal is the error checkTurn gives for t: errQuiet when quiet (the
// caller only wants to know), else an *IllegalTurnError that names the
// rule and says why.
func (p Position) illegal(t Turn, quiet bool, rule Rule, format string, args ...any) error {
	if quiet {
		return errQuiet
	}
	return &IllegalTurnError{Turn: FormatTurn(p.b, t), Rule: rule, Reason: fmt.Sprintf(format, args...)}
}

// checkPlace checks a placement: on a vacant ring of the board, with a
// marble the mover may take, no capture pending (unless overCapture),
// and the ring removed free.
func (p Position) checkPlace(t Turn, overCapture, quiet bool) error {
	bad := func(rule Rule, format string, args ...any) error {
		return p.illegal(t, quiet, rule, format, args...)
	}
	b := p.b
	valid := func(c Cell) bool { return c >= 0 && int(c) < b.n }
	if t.Color > Black || t.From > FromCaptures || !valid(t.At) || (t.Remove != NoCell && !valid(t.Remove)) {
		return bad(RuleMalformed, "not a placement on this board")
	}
	if from, over, ok := p.firstJump(); ok && !overCapture {
		return bad(RuleCaptureCompulsory, "capture is compulsory: %s can jump %s", b.Label(from), b.Label(over))
	}
	if p.At(t.At) != Vacant {
		if p.rings&bit(t.At) == 0 {
			return bad(RuleNoRingToPlaceOn, "there is no ring at %s", b.Label(t.At))
		}
		return bad(RuleNotVacant, "ring %s already holds a marble", b.Label(t.At))
	}
	switch {
	case t.From == FromCaptures && !p.poolEmpty():
		return bad(RulePoolFirst, "marbles come from the pool until it is empty; it still holds %s", poolWords(p.pool))
	case t.From == FromPool && p.poolEmpty():
		return bad(RuleNoMarble, "the pool is empty: place a marble from your captures")
	case t.From == FromPool && p.pool[t.Color] == 0:
		return bad(RuleNoMarble, "the pool has no %s marble left", t.Color)
	case t.From == FromCaptures && p.caps[p.toMove][t.Color] == 0:
		return bad(RuleNoMarble, "you have captured no %s marble to place", t.Color)
	}
	free := p.free() &^ bit(t.At)
	switch {
	case free == 0 && t.Remove != NoCell:
		return bad(RuleRingNotFree, "ring %s is not free: no ring can be removed after this placement", b.Label(t.Remove))
	case free == 0:
		return nil
	case t.Remove == NoCell:
		return bad(RuleRemovalRequired, "a free ring must be removed: %s", strings.Join(b.labelsOf(free), ", "))
	case t.Remove == t.At:
		return bad(RuleRemoveOwnRing, "ring %s holds the marble just placed", b.Label(t.At))
	case p.rings&bit(t.Remove) == 0:
		return bad(RuleRingNotFree, "there is no ring at %s to remove", b.Label(t.Remove))
	case p.occ()&bit(t.Remove) != 0:
		return bad(RuleRingNotFree, "ring %s is not free: it holds a marble", b.Label(t.Remove))
	case free&bit(t.Remove) == 0:
		return bad(RuleRingNotFree, "ring %s is not free: no two adjacent sides are open", b.Label(t.Remove))
	}
	return nil
}

// checkCapture checks a capture: every jump over a marble onto a vacant
// ring, and the chain continued while it can.
func (p Position) checkCapture(t Turn, quiet bool) error {
	bad := func(rule Rule, format string, args ...any) error {
		return p.illegal(t, quiet, rule, format, args...)
	}
	b := p.b
	valid := func(c Cell) bool { return c >= 0 && int(c) < b.n }
	if t.n < 2 {
		return bad(RuleMalformed, "a capture needs at least one jump")
	}
	for i := 0; i < int(t.n); i++ {
		if !valid(t.path[i]) {
			return bad(RuleMalformed, "not a capture on this board")
		}
	}
	occ := p.occ()
	start := t.path[0]
	if occ&bit(start) == 0 {
		return bad(RuleJumperMissing, "there is no marble at %s to jump with", b.Label(start))
	}
	for i := 0; i+1 < int(t.n); i++ {
		from, to := t.path[i], t.path[i+1]
		mid := b.Between(from, to)
		switch {
		case mid == NoCell:
			return bad(RuleNotAJump, "%s to %s is not a jump: a jump goes over one adjacent ring in a straight line", b.Label(from), b.Label(to))
		case occ&bit(mid) == 0:
			return bad(RuleNotAJump, "%s to %s jumps over %s, which holds no marble", b.Label(from), b.Label(to), b.Label(mid))
		case p.rings&bit(to) == 0:
			return bad(RuleNotAJump, "%s to %s lands where there is no ring", b.Label(from), b.Label(to))
		case occ&bit(to) != 0:
			return bad(RuleNotAJump, "%s to %s lands on a ring that holds a marble", b.Label(from), b.Label(to))
		}
		occ = occ&^(bit(from)|bit(mid)) | bit(to)
	}
	end := t.path[t.n-1]
	if d := p.jumpDir(occ, end); d >= 0 {
		return bad(RuleChainIncomplete, "the chain must continue: %s can jump %s", b.Label(end), b.Label(b.jumpMid[end][d]))
	}
	return nil
}

func poolWords(pool [3]int8) string {
	var parts []string
	for c, n := range pool {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, Color(c)))
		}
	}
	return strings.Join(parts, ", ")
}

func (r Result) describe() string {
	switch {
	case !r.Over:
		return "in progress"
	case r.Winner >= 0:
		return fmt.Sprintf("player %d won by %s", r.Winner, r.Reason)
	}
	return fmt.Sprintf("drawn by %s", r.Reason)
}

// String describes the result, e.g. "player 1 won by captures".
func (r Result) String() string { return r.describe() }

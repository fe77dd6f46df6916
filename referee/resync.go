package referee

import (
	"fmt"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
)

// redoTurn is a turn a take-back undid, kept so that putting the pieces
// back re-commits it.
type redoTurn struct {
	turn  engine.Turn
	over  bool   // it was a placement over a compulsory capture
	cells string // the board after it
}

func (r *Referee) isMissed(n int) bool {
	for _, m := range r.missed {
		if m == n {
			return true
		}
	}
	return false
}

// matchRedo re-commits turns a take-back undid when the board shows the
// position after them again: a take-back is never final.
func (r *Referee) matchRedo(t int64, obs string) ([]Event, bool) {
	for j := len(r.redo) - 1; j >= 0; j-- {
		if r.redo[j].cells != obs {
			continue
		}
		todo := r.redo[:j+1]
		rest := r.redo[j+1:]
		var ev []Event
		start := r.game.Len()
		for _, rt := range todo {
			if rt.turn.Kind == engine.Pass && r.game.Len() > start {
				if last, _ := r.game.Turn(r.game.Len() - 1); last.Kind == engine.Pass {
					continue // replayed by afterTurn already
				}
			}
			if rt.turn.Kind == engine.Pass {
				continue
			}
			ev = append(ev, r.commit(t, obs, rt.turn, rt.over)...)
		}
		r.redo = rest
		turns := make([]int, 0, r.game.Len()-start)
		for n := start + 1; n <= r.game.Len(); n++ {
			turns = append(turns, n)
		}
		return append(ev, Event{t, Inferred{Turns: turns, Reason: "the pieces were put back: the take-back is undone"}}), true
	}
	return nil, false
}

// maxTwoTurnCandidates bounds the first turns a two-turn inference tries.
// A 61-ring board's opening has 3 × 61 × 12 placements; pruning by the
// rings seen gone leaves far fewer.
const maxTwoTurnCandidates = 4096

// twoCand is one reading of the board as two turns from the official
// position: t1 whole, then t2 whole (whole) or under way.
type twoCand struct {
	t1, t2 engine.Turn
	over2  bool // t2 is a placement over a compulsory capture (tournament)
	whole  bool
	one    bool            // t1 alone explains the board
	q1, q2 engine.Position // after t1; after t2 (whole only)
}

// inferTwo reads a settled board that no single turn explains as two
// consecutive turns: the end of one and the start or whole of the next,
// as when the scan stalls while the hands keep moving. It commits them
// when every reading leads to the same position, and tells the players to
// finish the turn when the readings agree only that two turns are under
// way. From further back (the last turn or two taken back first) it
// resynchronises the same way, so the referee never stays lost.
func (r *Referee) inferTwo(t int64, obs string) ([]Event, bool) {
	n := r.game.Len()
	maxBack := 0
	if r.lostBefore >= 1 {
		// Only once the players have carried on past an illegal board
		// (rather than putting it right) is an earlier position the
		// better reading: an illegal try on this one can look like
		// turns from there.
		maxBack = 2
	}
	for back := 0; back <= maxBack && back <= n; back++ {
		base := r.game.PositionAfter(n - back)
		if base.Result().Over {
			continue
		}
		clear := r.toClear
		if back > 0 {
			clear = 0
		}
		cands := r.twoTurnReadings(base, r.cells[n-back], clear, obs, back > 0)
		if len(cands) == 0 {
			continue
		}
		one, whole, start := splitCands(cands)
		switch {
		case len(one) > 0 && samePositions(one, false):
			return r.commitReading(t, obs, back, one[0], false), true
		case len(one) > 0:
			continue // an earlier position's turns, but which is unclear
		case len(whole) > 0 && samePositions(whole, true):
			return r.commitReading(t, obs, back, whole[0], true), true
		case back == 0 && len(whole) == 0 && len(start) > 0 && samePositions(start, false):
			return r.commitReading(t, obs, back, start[0], false), true
		case back == 0:
			// Two turns are under way and their order is not yet clear:
			// wait for the board to complete them, without red LEDs.
			h := make(hints, r.b.Len())
			return r.pendingEvent(t, "finish the turn (two turns seen at once)", nil, h), true
		}
	}
	return nil, false
}

func splitCands(cs []twoCand) (one, whole, start []twoCand) {
	for _, c := range cs {
		switch {
		case c.one:
			one = append(one, c)
		case c.whole:
			whole = append(whole, c)
		default:
			start = append(start, c)
		}
	}
	return one, whole, start
}

func samePositions(cs []twoCand, whole bool) bool {
	for _, c := range cs[1:] {
		if whole && !c.q2.Equal(cs[0].q2) || !whole && !c.q1.Equal(cs[0].q1) {
			return false
		}
	}
	return true
}

// commitReading takes back `back` turns, then commits the reading's turns.
func (r *Referee) commitReading(t int64, obs string, back int, c twoCand, whole bool) []Event {
	var ev []Event
	if back > 0 {
		ev = append(ev, r.takeback(t, back)...)
		r.redo = nil
	}
	first := r.game.Len() + 1
	ev = append(ev, r.commit(t, obs, c.t1, false)...)
	turns := []int{first}
	if whole {
		ev = append(ev, r.commit(t, obs, c.t2, c.over2)...)
		turns = append(turns, r.game.Len())
	} else if !c.one {
		// The second turn is under way: say what it still needs.
		r.candDone = true
		ev = append(ev, r.inferOne(t, obs)...)
	}
	reason := "two turns seen at once (the scan missed the board between them)"
	switch {
	case back > 0:
		reason = fmt.Sprintf("resynchronised: %d turn(s) taken back and %d inferred", back, len(turns))
	case c.one:
		reason = "a turn inferred"
	case !whole:
		reason = "a turn and the start of the next seen at once (the scan missed the board between them)"
	}
	return append(ev, Event{t, Inferred{Turns: turns, Reason: reason}})
}

// inferOne is infer without the two-turn reading, for the turn under way
// after an inferred one.
func (r *Referee) inferOne(t int64, obs string) []Event {
	r.noTwo = true
	defer func() { r.noTwo = false }()
	return r.infer(t, obs)
}

// twoTurnReadings lists the readings of obs as t1 then t2 from base (exp
// its cells, clear the claimed rings still coming off). With alsoOne, a
// single turn from base counts too (as t1 with t2 a pass-free nothing).
func (r *Referee) twoTurnReadings(base engine.Position, exp string, clear uint64, obs string, alsoOne bool) []twoCand {
	if r.noTwo {
		return nil
	}
	// Rings seen gone that the official board has: a placement's removal
	// must be one of them.
	var gone uint64
	for c := 0; c < len(exp); c++ {
		if obs[c] == '.' && exp[c] != '.' {
			gone |= bit(engine.Cell(c))
		}
	}
	saveClear, saveOrig, saveProbe := r.toClear, r.orig, r.probing
	r.probing = true
	defer func() { r.toClear, r.orig, r.probing = saveClear, saveOrig, saveProbe }()

	var out []twoCand
	tried := 0
	for _, t1 := range base.LegalTurns(nil) {
		if t1.Kind == engine.Place && t1.Remove != engine.NoCell && gone&bit(t1.Remove) == 0 {
			continue
		}
		if t1.Kind == engine.Place && r.seen[t1.At] != 0 && r.seen[t1.At] != t1.Color.Letter()[0] {
			continue // a marble of another colour was seen there
		}
		if tried++; tried > maxTwoTurnCandidates {
			break
		}
		q, err := base.Play(t1)
		if err != nil {
			continue
		}
		for q.MustPass() && !q.Result().Over {
			q = q.MustPlay(engine.PassTurn())
		}
		exp1 := q.Cells()
		// The rings t1 claimed may still be on the board.
		r.toClear, r.orig = clear, saveOrig
		for _, c := range q.Claimed() {
			if obs[c] != '.' {
				r.toClear |= bit(c)
				r.orig[c] = exp[c]
				if t1.Kind == engine.Place && c == t1.At {
					r.orig[c] = t1.Color.Letter()[0]
				}
			}
		}
		d := r.diff(obs, exp1)
		if d == 0 {
			if alsoOne {
				out = append(out, twoCand{t1: t1, q1: q, one: true})
			}
			continue
		}
		if q.Result().Over {
			continue
		}
		capture := q.HasCapture()
		if capture {
			if t2, ok := r.matchChain(obs, exp1, q); ok {
				q2, _ := q.Play(t2)
				out = append(out, twoCand{t1: t1, t2: t2, whole: true, q1: q, q2: q2})
				continue
			}
		}
		pl := r.matchPlacement(obs, exp1, d, q, capture)
		switch {
		case pl.commit:
			var q2 engine.Position
			if pl.over {
				q2, err = q.PlayOverCapture(pl.turn)
			} else {
				q2, err = q.Play(pl.turn)
			}
			if err == nil {
				out = append(out, twoCand{t1: t1, t2: pl.turn, over2: pl.over, whole: true, q1: q, q2: q2})
			}
		case pl.pending:
			out = append(out, twoCand{t1: t1, q1: q})
		case capture:
			if r.chainFits(obs, exp1, q) {
				out = append(out, twoCand{t1: t1, q1: q})
			}
		}
	}
	return out
}

// chainFits reports whether obs is a capture under way from q, without
// changing anything.
func (r *Referee) chainFits(obs, exp string, q engine.Position) bool {
	_, ok := r.chainInProgress(0, obs, exp, q)
	return ok
}

// Inferred: turns were committed without the board having shown each of
// them settled (two turns seen at once, a resynchronisation, or a
// take-back undone). The referee says so, for the arbiter and the log.
type Inferred struct {
	Turns  []int  `json:"turns"`
	Reason string `json:"reason"`
}

// Kind names the body as the contract does.
func (Inferred) Kind() string { return "inferred" }

func (i Inferred) String() string {
	parts := make([]string, len(i.Turns))
	for k, n := range i.Turns {
		parts[k] = fmt.Sprint(n)
	}
	return fmt.Sprintf("turns %s inferred: %s", strings.Join(parts, ", "), i.Reason)
}

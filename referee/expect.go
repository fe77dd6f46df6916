package referee

import (
	"fmt"

	"github.com/zertzboard/zertzboard/engine"
)

// RuleEngineTurn is the rule an Illegal event names when, on the engine's
// turn, the board shows another turn than the one the engine chose (legal
// or not).
const RuleEngineTurn = "engine-turn"

// expectation is the turn the player to move must carry out: the engine's
// choice, shown on the LEDs. It holds only in the position it was chosen
// for.
type expectation struct {
	turn engine.Turn
	at   engine.Position
	name string // the turn in notation
}

// Expect makes turn the only turn the referee accepts from the player to
// move in the current position (the engine's turn, which the players carry
// out as the LEDs show it); nil lifts that. A different turn, legal or
// not, is refused as illegal with guidance back to the position. The
// expectation ends by itself once the game moves on (a turn committed,
// taken back, a new game).
func (r *Referee) Expect(turn *engine.Turn) error {
	if turn == nil {
		r.expect = nil
		r.guide = r.idleGuidance()
		return nil
	}
	p := r.game.Position()
	if !p.Legal(*turn) {
		return fmt.Errorf("referee: %s is not a legal turn in the position", engine.FormatTurn(r.b, *turn))
	}
	if turn.Kind == engine.Pass {
		return fmt.Errorf("referee: a pass is played by the referee, not expected of the players")
	}
	r.expect = &expectation{turn: *turn, at: p, name: engine.FormatTurn(r.b, *turn)}
	if !r.illegal && !r.demand && r.question == nil {
		r.guide = r.idleGuidance()
	}
	return nil
}

// Expecting returns the turn the player to move must carry out, if any.
func (r *Referee) Expecting() (engine.Turn, bool) {
	if e := r.expecting(); e != nil {
		return e.turn, true
	}
	return engine.Turn{}, false
}

func (r *Referee) expecting() *expectation {
	e := r.expect
	if e == nil || r.ended != nil || r.question != nil || !r.game.Position().Equal(e.at) {
		return nil
	}
	return e
}

// ShowTurn lights a turn for the player to move without requiring it (a
// hint: the engine's suggestion), with status as the status line. It
// holds until the board or the game changes.
func (r *Referee) ShowTurn(turn engine.Turn, status Message) {
	exp := r.Expected()
	r.guide = guidance(r.turnHints(turn, exp, exp, false), status)
}

// ShowLastTurn lights the last turn played as a whole (the marble placed
// and the ring removed, or every hop of a capture), with status as the
// status line, until the board or the game changes. It reports false when
// no turn was played.
func (r *Referee) ShowLastTurn(status Message) bool {
	n := r.game.Len()
	if n == 0 {
		return false
	}
	turn, _ := r.game.Turn(n - 1)
	if turn.Kind == engine.Pass {
		return false
	}
	before := r.cells[n-1]
	r.guide = guidance(r.turnHints(turn, before, before, true), status)
	return true
}

// turnHints lights what carrying out turn needs from the position
// whose cells are exp, with the board showing obs: what each remaining
// step needs. A placement lights the ring for the marble in its colour,
// the ring to remove and the rings its isolation claims; a capture lights
// the jumper, the ring of its next hop and the marbles to take off, one
// hop at a time (all hops at once with whole).
func (r *Referee) turnHints(turn engine.Turn, exp, obs string, whole bool) hints {
	h := make(hints, r.b.Len())
	switch turn.Kind {
	case engine.Place:
		if obs[turn.At] != byte(engine.MarbleContent(turn.Color)) {
			h.set(turn.At, placeRole(turn.Color))
		}
		if turn.Remove != engine.NoCell && obs[turn.Remove] != '.' {
			h.set(turn.Remove, RoleRemoveRing)
		}
		if q, err := r.game.Position().Play(turn); err == nil && !whole {
			for _, c := range q.Claimed() {
				if obs[c] != '.' {
					h.set(c, RoleTakeOff)
				}
			}
		}
	case engine.Capture:
		path := turn.Path()
		at := 0
		if !whole {
			at = r.jumperAt(turn, exp, obs)
		}
		for i := 1; i < len(path); i++ {
			m := r.b.Between(path[i-1], path[i])
			if (i <= at+1 || whole) && obs[m] != 'o' {
				h.set(m, RoleTakeOff)
			}
			if whole {
				h.set(path[i], RoleJumpTarget)
			}
		}
		if at < len(path)-1 {
			h.set(path[at], RoleChainContinues)
			h.set(path[at+1], RoleJumpTarget)
		}
	}
	return h
}

// jumperAt says how many hops of a capture the board shows made: the
// index on the path of the ring the jumper stands on (the last ring seen
// under it while it is lifted).
func (r *Referee) jumperAt(turn engine.Turn, exp, obs string) int {
	path := turn.Path()
	j := exp[path[0]]
	for i := len(path) - 1; i >= 1; i-- {
		if path[i] != path[0] && obs[path[i]] == j && exp[path[i]] != j {
			return i
		}
	}
	if obs[path[0]] == j {
		return 0
	}
	for k := len(r.jumperSeen) - 1; k >= 0; k-- {
		for i := len(path) - 1; i >= 1; i-- {
			if path[i] == r.jumperSeen[k] {
				return i
			}
		}
	}
	return 0
}

func placeRole(c engine.Color) Role {
	switch c {
	case engine.Grey:
		return RolePlaceGrey
	case engine.Black:
		return RolePlaceBlack
	}
	return RolePlaceWhite
}

// onTheWay reports whether obs is the expected turn under way (done,
// whether it is complete): every cell holds what it held or what the turn
// leaves there (a captured marble or a claimed ring may already be off).
func (r *Referee) onTheWay(e *expectation, obs, exp string) (ok, done bool) {
	turn := e.turn
	final := e.at.MustPlay(turn).Cells()
	var touched [engine.MaxCells]bool
	switch turn.Kind {
	case engine.Place:
		col := byte(engine.MarbleContent(turn.Color))
		q := e.at.MustPlay(turn)
		claimed := bitsOf(q.Claimed())
		done = true
		for c := 0; c < len(exp); c++ {
			o := obs[c]
			switch cb := bit(engine.Cell(c)); {
			case claimed&cb != 0:
				touched[c] = true
				if !(o == exp[c] || o == 'o' || o == '.' || engine.Cell(c) == turn.At && o == col) {
					return false, false
				}
				if engine.Cell(c) == turn.At && o == 'o' {
					done = false
				}
			case engine.Cell(c) == turn.At || engine.Cell(c) == turn.Remove:
				touched[c] = true
				if o != exp[c] && o != final[c] {
					return false, false
				}
				done = done && o == final[c]
			}
		}
	case engine.Capture:
		path := turn.Path()
		j := exp[path[0]]
		var onPath uint64
		for i, c := range path {
			onPath |= bit(c)
			touched[c] = true
			if i > 0 {
				touched[r.b.Between(path[i-1], c)] = true
			}
		}
		jumpers := 0
		for c := 0; c < len(exp); c++ {
			if !touched[c] {
				continue
			}
			o := obs[c]
			switch {
			case o == exp[c] && o != j:
			case o == 'o':
			case o == j && onPath&bit(engine.Cell(c)) != 0:
				if exp[c] != j || engine.Cell(c) == path[0] {
					jumpers++
				}
			case o == exp[c]: // a marble of the jumper's colour the chain jumps
			default:
				return false, false
			}
		}
		if jumpers > 1 {
			return false, false
		}
		done = true
		for c := 0; c < len(exp); c++ {
			if touched[c] && obs[c] != final[c] {
				done = false
			}
		}
	default:
		return false, false
	}
	for c := 0; c < len(exp); c++ {
		if !touched[c] && obs[c] != exp[c] && !r.cl.clearing(engine.Cell(c), obs[c]) {
			return false, false
		}
	}
	return true, done
}

// inferExpected referees a settled board on the engine's turn: the turn
// carried out is committed, a turn under way is guided on, a take-back is
// a take-back, and anything else is refused with guidance back to the
// position. It reports false when no turn is expected.
func (r *Referee) inferExpected(t int64, obs, exp string, d uint64) ([]Event, bool) {
	e := r.expecting()
	if e == nil {
		return nil, false
	}
	if ok, done := r.onTheWay(e, obs, exp); ok {
		if done {
			return r.commit(t, obs, e.turn, false), true
		}
		if e.turn.Kind == engine.Capture {
			// Follow the jumper, for the next hop's guidance.
			if at := r.jumperAt(e.turn, exp, obs); at > 0 {
				c := e.turn.Path()[at]
				if len(r.jumperSeen) == 0 || r.jumperSeen[len(r.jumperSeen)-1] != c {
					r.jumperSeen = append(r.jumperSeen, c)
				}
			}
		}
		r.illegal = false
		h := r.turnHints(e.turn, exp, obs, false)
		for _, c := range cellsOf(r.cl.set) {
			h.set(c, RoleTakeOff)
		}
		need := Msg("need.engine-turn", e.name)
		r.guide = guidance(h, Msg("guide.engine-turn", player(e.at.ToMove()), e.name))
		var lit []engine.Cell
		for c, x := range h {
			if x.Role != RoleNone {
				lit = append(lit, engine.Cell(c))
			}
		}
		return []Event{{t, Pending{Player: e.at.ToMove(), Need: need.English(), Cells: r.labels(lit), NeedMsg: &need}}}, true
	}
	if k, ok := r.matchTakeback(obs); ok {
		return r.takeback(t, k), true
	}
	// A scan that stalled may have missed the engine's turn complete and
	// seen it with the start (or whole) of the person's next: two turns,
	// the first of which must be the engine's (commit refuses another).
	if ev, ok := r.inferTwo(t, obs); ok && commits(ev) {
		return ev, true
	}
	return r.refuse(t, obs, exp, d, e), true
}

// refuse flags a board that is not the expected turn.
func (r *Referee) refuse(t int64, obs, exp string, d uint64, e *expectation) []Event {
	return r.flagIllegal(t, obs, exp, d, fmt.Sprintf("the engine plays %s: put the board back and carry out %s as lit", e.name, e.name), RuleEngineTurn)
}

// engineGuidance is the idle guidance on the engine's turn: the turn to
// carry out, from its start.
func (r *Referee) engineGuidance(e *expectation, h hints) Guidance {
	exp := r.Expected()
	for c, x := range r.turnHints(e.turn, exp, exp, false) {
		h.set(engine.Cell(c), x.Role)
	}
	return guidance(h, Msg("guide.engine-turn", player(e.at.ToMove()), e.name))
}

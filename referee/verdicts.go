package referee

import (
	"strings"

	"github.com/zertzboard/zertzboard/engine"
)

// commit plays a turn seen complete on the board.
func (r *Referee) commit(t int64, obs string, turn engine.Turn, over bool) []Event {
	p := r.game.Position()
	exp := r.Expected()
	player := p.ToMove()
	if e := r.expecting(); e != nil && engine.FormatTurn(r.b, turn) != e.name {
		// Only the engine's turn may be played (a reading that bypassed
		// inferExpected, e.g. two turns seen at once).
		return r.refuse(t, obs, exp, r.cl.diff(obs, exp), e)
	}
	var err error
	if over {
		err = r.game.PlayOverCapture(turn)
	} else {
		err = r.game.Play(turn)
	}
	if err != nil { // matchers only commit legal turns
		return r.flagIllegal(t, obs, exp, r.cl.diff(obs, exp), err.Error(), "")
	}
	q := r.game.Position()
	r.cells = append(r.cells, q.Cells())
	n := r.game.Len()
	claimed := q.Claimed()
	for _, c := range claimed {
		if obs[c] != '.' {
			r.cl.set |= bit(c)
			r.cl.orig[c] = exp[c]
			if c == turn.At {
				r.cl.orig[c] = obs[c]
			}
		}
	}
	ev := []Event{{t, Move{Turn: n, Player: player, Move: engine.NewMoveObject(r.b, turn, claimed), Notation: engine.FormatTurn(r.b, turn)}}}
	if over {
		r.missed = append(r.missed, n)
		ev = append(ev, Event{t, MissedCapture{Turn: n, Player: player, Jumps: firstHops(p)}})
	}
	r.illegal, r.demand, r.restAt, r.jumperSeen, r.redo, r.hyps, r.mustCapture = false, false, engine.NoCell, nil, nil, nil, false
	return append(ev, r.afterTurn(t)...)
}

// afterTurn announces what follows a turn: the end, forced passes, and
// compulsory captures.
func (r *Referee) afterTurn(t int64) []Event {
	var ev []Event
	for {
		q := r.game.Position()
		if res := q.Result(); res.Over {
			var w *int
			if res.Winner >= 0 {
				w = &res.Winner
			}
			ev = append(ev, Event{t, GameOver{Winner: w, Reason: res.Reason}})
			break
		}
		if q.MustPass() {
			player := q.ToMove()
			if err := r.game.Play(engine.PassTurn()); err != nil {
				break
			}
			r.cells = append(r.cells, r.game.Position().Cells())
			ev = append(ev, Event{t, Move{Turn: r.game.Len(), Player: player, Move: engine.NewMoveObject(r.b, engine.PassTurn(), nil), Notation: "pass"}})
			continue
		}
		if q.HasCapture() {
			ev = append(ev, Event{t, ForcedCaptureOf(q)})
		}
		break
	}
	r.guide = r.idleGuidance()
	return ev
}

// ForcedCaptureOf describes the compulsory captures of a position: the
// marbles that can start a chain, their first jumps and every chain.
func ForcedCaptureOf(q engine.Position) ForcedCapture {
	b := q.Board()
	fc := ForcedCapture{Player: q.ToMove(), Jumps: firstHops(q)}
	var starts uint64
	for _, turn := range q.CaptureTurns() {
		path := turn.Path()
		if starts&bit(path[0]) == 0 {
			starts |= bit(path[0])
			fc.From = append(fc.From, b.Label(path[0]))
		}
		fc.Chains = append(fc.Chains, engine.FormatTurn(b, turn))
	}
	return fc
}

// firstHops lists the distinct first jumps of every capture chain.
func firstHops(q engine.Position) []Jump {
	b := q.Board()
	var out []Jump
	seen := map[[2]engine.Cell]bool{}
	for _, turn := range q.CaptureTurns() {
		path := turn.Path()
		k := [2]engine.Cell{path[0], path[1]}
		if !seen[k] {
			seen[k] = true
			out = append(out, Jump{From: b.Label(path[0]), Over: b.Label(b.Between(path[0], path[1])), To: b.Label(path[1])})
		}
	}
	return out
}

// takeback reverts the game k turns, to the position now on the board.
func (r *Referee) takeback(t int64, k int) []Event {
	n := r.game.Len()
	var undone []string
	redo := make([]redoTurn, k)
	for i := n - 1; i >= n-k; i-- {
		turn, _ := r.game.Turn(i)
		undone = append(undone, engine.FormatTurn(r.b, turn))
		redo[i-(n-k)] = redoTurn{turn: turn, over: r.isMissed(i + 1), cells: r.cells[i+1]}
	}
	if err := r.game.Undo(k); err != nil {
		return []Event{{t, Fault{Reason: err.Error()}}}
	}
	r.cells = r.cells[:len(r.cells)-k]
	// A take-back the opponent demanded for a missed capture cannot be
	// undone by putting the placement back: the capture must be made now.
	r.mustCapture = r.demand && r.game.Position().HasCapture()
	if r.mustCapture {
		redo = nil
	}
	r.cl, r.illegal, r.demand, r.restAt, r.jumperSeen, r.redo, r.hyps = claims{}, false, false, engine.NoCell, nil, redo, nil
	r.endInferred = false
	r.lines, r.linesBefore, r.linesOld, r.kept = nil, nil, nil, nil
	for len(r.missed) > 0 && r.missed[len(r.missed)-1] > r.game.Len() {
		r.missed = r.missed[:len(r.missed)-1]
	}
	for len(r.answered) > 0 && r.answered[len(r.answered)-1] > r.game.Len() {
		r.answered = r.answered[:len(r.answered)-1]
	}
	ev := []Event{{t, Takeback{Turn: r.game.Len(), Undone: undone}}}
	if q := r.game.Position(); q.HasCapture() {
		ev = append(ev, Event{t, ForcedCaptureOf(q)})
	}
	r.guide = r.idleGuidance()
	return ev
}

func (r *Referee) pendingEvent(t int64, need Message, cells []engine.Cell, h hints) []Event {
	r.illegal = false
	for _, c := range cellsOf(r.cl.set) {
		h.set(c, RoleTakeOff)
	}
	p := r.game.Position()
	r.guide = guidance(h, Msg("guide.pending", player(p.ToMove()), need))
	return []Event{{t, Pending{Player: p.ToMove(), Need: need.English(), Cells: r.labels(cells), NeedMsg: &need}}}
}

// flagIllegal reports an illegal board and says, per cell, what to restore.
func (r *Referee) flagIllegal(t int64, obs, exp string, d uint64, reason, rule string) []Event {
	r.illegal, r.illegalTry = true, rule != ""
	r.lost = r.lostBefore + 1
	if r.lost >= lostBoards {
		// Lost for boards on end: what the referee follows from here may
		// not be what was played, so it ends no game on its own word.
		r.doubtful = true
	}
	h := make(hints, r.b.Len())
	fixes := []CellFix{}
	for _, c := range cellsOf(d) {
		fixes = append(fixes, CellFix{Cell: r.b.Label(c), Is: string(obs[c]), Should: string(exp[c])})
		h.wrong(c, engine.Content(exp[c]))
	}
	why := Message{Key: RuleKey(rule), Text: reason}
	r.guide = guidance(h, Msg("guide.illegal", why, fixList(fixes)))
	return []Event{{t, Illegal{Player: r.game.Position().ToMove(), Reason: reason, Rule: rule, Cells: fixes, ReasonMsg: &why}}}
}

// idleGuidance is the guidance between turns: the last turn, claimed rings
// to take off, and what the player to move may do.
func (r *Referee) idleGuidance() Guidance {
	p := r.game.Position()
	h := make(hints, r.b.Len())
	if n := r.game.Len(); n > 0 {
		turn, _ := r.game.Turn(n - 1)
		switch turn.Kind {
		case engine.Place:
			h.set(turn.At, RoleLastMove)
			h.set(turn.Remove, RoleLastMove)
		case engine.Capture:
			for _, c := range turn.Path() {
				h.set(c, RoleLastMove)
			}
		}
	}
	var status []Message
	if q := r.question; q != nil {
		if q.cell != engine.NoCell {
			h.set(q.cell, RoleChainContinues)
			status = append(status, Msg("guide.question", r.b.Label(q.cell)))
		} else {
			status = append(status, Msg("guide.question-turns", q.base))
		}
	}
	if r.cl.set != 0 {
		cs := cellsOf(r.cl.set)
		for _, c := range cs {
			h.set(c, RoleTakeOff)
		}
		status = append(status, Msg("guide.take-off-claimed", strings.Join(r.labels(cs), ", ")))
	}
	switch res := p.Result(); {
	case r.ended != nil:
		status = append([]Message{r.endedStatus()}, status...)
	case res.Over && res.Winner >= 0:
		status = append([]Message{Msg("guide.over-win", player(res.Winner), Msg("result."+string(res.Reason)))}, status...)
	case res.Over:
		status = append([]Message{Msg("guide.over-draw", Msg("result."+string(res.Reason)))}, status...)
	case r.expecting() != nil:
		g := r.engineGuidance(r.expecting(), h)
		return guidance(g.Hints, append(g.Parts, status...)...)
	case p.HasCapture():
		from, over := firstJump(p)
		for _, turn := range p.CaptureTurns() {
			path := turn.Path()
			h.set(path[0], RoleMustCapture)
			h.set(path[1], RoleJumpTarget)
		}
		status = append([]Message{Msg("guide.must-capture", player(p.ToMove()), r.b.Label(from), r.b.Label(over))}, status...)
	default:
		free := p.FreeRings()
		for _, c := range free {
			h.set(c, RoleFreeRing)
		}
		what := Msg("guide.place-and-remove")
		if len(free) == 0 {
			what = Msg("guide.place-no-free-ring")
		}
		status = append([]Message{Msg("guide.to-move", player(p.ToMove()), what)}, status...)
	}
	return guidance(h, status...)
}

package referee

import (
	"fmt"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
)

// infer checks a settled observation against the official position: a
// complete legal turn is committed, a legal turn in progress is reported
// as pending, an earlier position of the game is a take-back, and anything
// else is illegal.
func (r *Referee) infer(t int64, obs string) []Event {
	r.tbWait, r.recheck, r.recheckOne, r.deferred, r.waitEnd, r.recheckUnknown = 0, false, false, false, nil, false
	r.linesHold, r.captureHeld = false, false
	r.lostBefore, r.lost = r.lost, 0 // flagIllegal counts on
	p := r.game.Position()
	exp := r.Expected()
	r.noteSeen(obs, exp)
	clearing := r.cl.set
	r.cl.off(obs) // claimed rings seen off are off for good
	d := r.cl.diff(obs, exp)
	if p.Result().Over || r.ended != nil {
		return r.inferAfterEnd(t, obs, exp, d)
	}
	if d == 0 {
		return r.inferAtRest(t, obs, exp, clearing)
	}
	if ev, ok := r.matchRedo(t, obs); ok {
		return ev
	}
	if ev, ok := r.inferExpected(t, obs, exp, d); ok {
		return ev
	}
	capture := p.HasCapture()
	if capture {
		if turn, ok := r.matchChain(&r.cl, obs, exp, p); ok {
			if ev, ok := r.doubt(t, obs); ok {
				return ev
			}
			return r.commitSeen(t, obs, turn, false)
		}
	}
	pl := r.matchPlacement(obs, exp, d, p, capture)
	pl.events = r.touchMove(p, pl.at)
	if pl.commit && !pl.over {
		if ev, ok := r.doubt(t, obs); ok {
			return append(pl.events, ev...)
		}
		return append(pl.events, r.commitSeen(t, obs, pl.turn, false)...)
	}
	if k, ok := r.matchTakeback(obs); ok {
		// A jumper lifted off its ring can leave exactly the position
		// before the last turn (a placement that removed no ring, whose
		// marble now jumps). That is a capture under way until the board
		// holds for longer than a hop takes.
		if capture && liftedJumper(obs, exp, p) {
			if ev, ok := r.chainInProgress(t, obs, exp, p); ok {
				r.tbWait, r.deferred = k, true
				return ev
			}
		}
		return r.takeback(t, k)
	}
	// A capture under way can look like a placement over the capture whose
	// claimed group is half cleared; the capture is the natural reading.
	if capture {
		if ev, ok := r.chainInProgress(t, obs, exp, p); ok {
			// Look again once it has held: a stuck sensor may show a
			// marble that is gone.
			r.captureHeld, r.deferred = true, true
			return ev
		}
	}
	if pl.commit {
		return append(pl.events, r.commitSeen(t, obs, pl.turn, true)...)
	}
	if pl.pending {
		return append(pl.events, r.pendingEvent(t, pl.need, pl.cells, pl.hints)...)
	}
	return r.inferUnexplained(t, obs, exp, d, pl)
}

// noteSeen remembers, for each ring the official board leaves vacant,
// the marble obs shows on it, and forgets it once the marble is lifted
// or the official board accounts for the cell.
func (r *Referee) noteSeen(obs, exp string) {
	for c := 0; c < len(exp); c++ {
		switch {
		case exp[c] != 'o':
			r.seen[c] = 0 // the official board accounts for this cell
		case isMarble(obs[c]):
			r.seen[c] = obs[c]
		case obs[c] == 'o':
			r.seen[c] = 0 // the marble seen there was lifted again
		}
	}
}

// inferAfterEnd reads a settled board once the game is over: the board
// cleared and set up again for a new game, a take-back, the claimed rings
// coming off, or a marble set down that shows the end was inferred
// wrongly.
func (r *Referee) inferAfterEnd(t int64, obs, exp string, d uint64) []Event {
	// The board shows the result until the players clear it and set
	// it up again; then a new game may begin.
	if strings.Trim(obs, ".") == "" {
		r.cleared = true
		return nil
	}
	if r.cleared && obs == engine.NewPosition(r.b, r.cfg.Rules, 0).Cells() {
		r.cleared = false
		return []Event{{t, SetUp{}}}
	}
	if r.endInferred && r.ended == nil {
		// The end was inferred, never seen turn by turn: the pieces
		// put back are a take-back before they are a clearing.
		if k, ok := r.matchTakeback(obs); ok {
			return r.takeback(t, k)
		}
	}
	if d == 0 || r.ended != nil {
		// The claimed rings are coming off, or the game ended off the
		// board (time, resignation...): no turn or take-back counts.
		return nil
	}
	if k, ok := r.matchTakeback(obs); ok {
		return r.takeback(t, k)
	}
	// A marble set down after the end: if the end was inferred
	// wrongly, the game goes on; follow it.
	for c := 0; c < len(exp); c++ {
		if isMarble(obs[c]) && obs[c] != exp[c] {
			ev, _ := r.track(t, obs)
			return ev
		}
	}
	return nil // the board is being cleared after the game
}

// inferAtRest reads a settled board that shows the official position
// (claimed rings aside): an illegal board put right, and the claimed
// rings still to take off.
func (r *Referee) inferAtRest(t int64, obs, exp string, clearing uint64) []Event {
	p := r.game.Position()
	r.hyps = nil
	var ev []Event
	if r.illegal {
		r.illegal = false
		ev = append(ev, Event{t, Restored{Player: p.ToMove()}})
	}
	if !r.demand {
		r.guide = r.idleGuidance()
	}
	if r.cl.set != 0 && obs != exp && (r.cl.set != clearing || len(ev) > 0) {
		cs := cellsOf(r.cl.set)
		ev = append(ev, Event{t, Pending{Player: p.ToMove(), Need: "take off the claimed rings " + strings.Join(r.labels(cs), ", "), Cells: r.labels(cs)}})
	}
	return ev
}

// inferUnexplained reads a settled board that no single turn from the
// official position explains: a stuck sensor, lines of play, two turns
// merged, the referee lost; else the board is illegal, for pl's reason
// when the placement matcher gave one.
func (r *Referee) inferUnexplained(t int64, obs, exp string, d uint64, pl placementMatch) []Event {
	// No single turn explains the board: perhaps the scan missed the end
	// of one turn and saw it merged with the next, or lost sight for
	// longer; resynchronise where the board is a position two turns away.
	if lostRetry(r.lostBefore) {
		// The board before made no sense either: perhaps a sensor is
		// stuck, and has been misleading the referee.
		if ev, ok := r.stuckSearch(t, obs, false); ok {
			return ev
		}
	}
	if !r.noTwo && r.lines == nil {
		// Follow every line of play from the official position until the
		// boards tell which was played.
		if ev, ok := r.linesObserve(t, obs); ok {
			return ev
		}
		r.lines, r.linesBefore, r.linesOld = nil, nil, nil
	}
	if ev, ok := r.inferTwo(t, obs); ok {
		return ev
	}
	if ev, ok := r.track(t, obs); ok {
		return ev
	}
	if lostRetry(r.lostBefore) {
		if ev, ok := r.relock(t, obs); ok {
			return ev
		}
	}
	if pl.reason != "" {
		return r.flagIllegal(t, obs, exp, d, pl.reason, pl.rule)
	}
	return r.flagIllegal(t, obs, exp, d, "the board differs from every legal continuation", "")
}

// claims are the claimed rings still on the physical board, and what
// each held: the official position's (Referee.cl) or a line of play's.
// The matchers take them as an argument and change nothing.
type claims struct {
	set  uint64
	orig [engine.MaxCells]byte
}

// diff returns the cells where the observation differs from exp,
// tolerating claimed rings that are still being taken off.
func (k *claims) diff(obs, exp string) uint64 {
	var d uint64
	for c := 0; c < len(exp); c++ {
		if o := obs[c]; o != exp[c] && o != '?' && !k.clearing(engine.Cell(c), o) {
			d |= 1 << uint(c)
		}
	}
	return d
}

// clearing reports whether cell c is a claimed ring still being taken off
// that shows o: what it held, or its ring with the marble gone.
func (k *claims) clearing(c engine.Cell, o byte) bool {
	return k.set&bit(c) != 0 && (o == k.orig[c] || o == 'o')
}

// off drops the claimed rings obs shows gone: off for good.
func (k *claims) off(obs string) {
	for _, c := range cellsOf(k.set) {
		if obs[c] == '.' {
			k.set &^= bit(c)
		}
	}
}

// claim notes the rings position q claimed that obs still shows, with
// what each held before (exp; the placed marble on the turn's own cell).
func (k *claims) claim(q engine.Position, turn engine.Turn, exp, obs string) {
	for _, c := range q.Claimed() {
		if obs[c] != '.' {
			k.set |= bit(c)
			k.orig[c] = exp[c]
			if turn.Kind == engine.Place && c == turn.At {
				k.orig[c] = turn.Color.Letter()[0]
			}
		}
	}
}

// matchChain looks for a capture chain whose end is exactly the observed
// board. Two chains can end alike: a loop of marbles jumped either way
// round. Then the one through the cells where the jumper was seen wins.
func (r *Referee) matchChain(cl *claims, obs, exp string, p engine.Position) (engine.Turn, bool) {
	var found []engine.Turn
	for _, turn := range p.CaptureTurns() {
		f := r.chainEnd(exp, turn)
		ok := true
		for c := 0; c < len(exp) && ok; c++ {
			ok = obs[c] == f[c] || obs[c] == '?' || cl.clearing(engine.Cell(c), obs[c])
		}
		if ok {
			found = append(found, turn)
		}
	}
	if len(found) == 0 {
		return engine.Turn{}, false
	}
	for _, turn := range found {
		if passesThrough(turn.Path(), r.jumperSeen) {
			return turn, true
		}
	}
	return found[0], true
}

// passesThrough reports whether seen is a subsequence of path.
func passesThrough(path, seen []engine.Cell) bool {
	i := 0
	for _, c := range path {
		if i < len(seen) && seen[i] == c {
			i++
		}
	}
	return i == len(seen)
}

// chainEnd is the board after a capture chain.
func (r *Referee) chainEnd(exp string, turn engine.Turn) []byte {
	f := []byte(exp)
	path := turn.Path()
	j := f[path[0]]
	for i := 0; i+1 < len(path); i++ {
		f[path[i]] = 'o'
		f[r.b.Between(path[i], path[i+1])] = 'o'
		f[path[i+1]] = j
	}
	return f
}

// chainProgress is a capture under way: the legal chains obs is on the
// way to, and where the jumper is (at, NoCell if not seen off its start;
// atEnd when on its last ring). The jumper may be anywhere along its path
// or lifted, and the jumped marbles taken off before, during or after the
// hops; nothing else may change and no marble may appear.
type chainProgress struct {
	fits  []engine.Turn
	at    engine.Cell
	atEnd bool
}

// matchProgress reads obs as a capture under way from p (exp its cells,
// cl its claimed rings). It changes nothing.
func (r *Referee) matchProgress(cl *claims, obs, exp string, p engine.Position) (chainProgress, bool) {
	var (
		fits  []engine.Turn
		at    = engine.NoCell // where the jumper is, if seen off its start
		atEnd bool            // the jumper is on its last ring
	)
	for _, turn := range p.CaptureTurns() {
		path := turn.Path()
		var onPath, jumped uint64
		for i, c := range path {
			onPath |= bit(c)
			if i > 0 {
				jumped |= bit(r.b.Between(path[i-1], c))
			}
		}
		j := exp[path[0]]
		fit, seen := true, engine.NoCell
		var before, after [256]int8
		for c := 0; c < len(exp) && fit; c++ {
			o, e, cb := obs[c], exp[c], bit(engine.Cell(c))
			if o == '?' {
				// A dead sensor: it may hold anything. What it held counts
				// among the marbles that may have moved.
				if cb&(onPath|jumped) != 0 {
					before[e]++
				}
				continue
			}
			switch {
			case cb&(onPath|jumped) == 0:
				fit = o == e || cl.clearing(engine.Cell(c), o)
				continue
			case o == e:
			case o == 'o':
			case o == j && cb&onPath != 0:
				seen = engine.Cell(c)
			default:
				fit = false
			}
			before[e]++
			after[o]++
		}
		if !fit || after['w'] > before['w'] || after['g'] > before['g'] || after['b'] > before['b'] {
			continue
		}
		fits = append(fits, turn)
		if seen != engine.NoCell && seen != path[0] {
			at = seen
			if seen == path[len(path)-1] {
				atEnd = true
			}
		}
	}
	return chainProgress{fits: fits, at: at, atEnd: atEnd}, len(fits) > 0
}

// chainInProgress reports a capture under way from the official position
// (matchProgress), follows the jumper and says what the capture still
// needs.
func (r *Referee) chainInProgress(t int64, obs, exp string, p engine.Position) ([]Event, bool) {
	cp, ok := r.matchProgress(&r.cl, obs, exp, p)
	if !ok {
		return nil, false
	}
	fits, at, atEnd := cp.fits, cp.at, cp.atEnd
	if at != engine.NoCell && (len(r.jumperSeen) == 0 || r.jumperSeen[len(r.jumperSeen)-1] != at) {
		r.jumperSeen = append(r.jumperSeen, at)
	}
	h := make(hints, r.b.Len())
	var need Message
	var lit []engine.Cell
	switch {
	case atEnd:
		for _, turn := range fits {
			path := turn.Path()
			if path[len(path)-1] != at {
				continue
			}
			for i := 1; i < len(path); i++ {
				if m := r.b.Between(path[i-1], path[i]); obs[m] != 'o' {
					lit = append(lit, m)
					h.set(m, RoleTakeOff)
				}
			}
			break
		}
		need = Msg("need.take-off-captured", strings.Join(r.labels(lit), ", "))
	case at != engine.NoCell:
		h.set(at, RoleChainContinues)
		for _, turn := range fits {
			path := turn.Path()
			for i := 1; i < len(path); i++ {
				if path[i-1] == at {
					lit = append(lit, path[i])
					h.set(path[i], RoleJumpTarget)
				}
				if m := r.b.Between(path[i-1], path[i]); obs[m] == exp[m] && i <= indexOf(path, at) {
					h.set(m, RoleTakeOff)
				}
			}
		}
		need = Msg("need.continue-capture", r.b.Label(at))
	default:
		for _, turn := range fits {
			path := turn.Path()
			h.set(path[0], RoleMustCapture)
			lit = append(lit, path[1])
			h.set(path[1], RoleJumpTarget)
		}
		need = Msg("need.finish-capture")
	}
	return r.pendingEvent(t, need, dedupe(lit), h), true
}

func indexOf(path []engine.Cell, c engine.Cell) int {
	for i, x := range path {
		if x == c {
			return i
		}
	}
	return -1
}

func dedupe(cs []engine.Cell) []engine.Cell {
	var seen uint64
	out := cs[:0]
	for _, c := range cs {
		if seen&bit(c) == 0 {
			seen |= bit(c)
			out = append(out, c)
		}
	}
	return out
}

// placementMatch is what matchPlacement found.
type placementMatch struct {
	commit bool
	turn   engine.Turn
	over   bool // a placement over a compulsory capture (tournament)

	pending bool
	need    Message
	cells   []engine.Cell
	hints   hints

	reason, rule string      // illegal, when not ""
	events       []Event     // touch-move
	at           engine.Cell // the marble placed, NoCell for none
}

// placementCells sorts the cells d where obs differs from exp: a marble
// on a vacant ring (placed), a vacant ring gone (removed), and any other
// difference.
func placementCells(obs, exp string, d uint64) (placed, removed []engine.Cell, other uint64) {
	for _, c := range cellsOf(d) {
		switch o, e := obs[c], exp[c]; {
		case e == 'o' && isMarble(o):
			placed = append(placed, c)
		case e == 'o' && o == '.':
			removed = append(removed, c)
		default:
			other |= bit(c)
		}
	}
	return placed, removed, other
}

// matchPlacement reads the observation as a placement: one vacant ring now
// holding a marble, and at most one vacant ring gone, in either order; any
// other change must be the turn's own isolation claim being taken off.
func (r *Referee) matchPlacement(obs, exp string, d uint64, p engine.Position, capture bool) placementMatch {
	m := placementMatch{at: engine.NoCell}
	placed, removed, other := placementCells(obs, exp, d)
	if len(placed) > 1 || len(removed) > 1 || len(placed)+len(removed) == 0 {
		return m // not a placement
	}
	if capture && (r.cfg.Mode == Casual || r.mustCapture) {
		from, over := firstJump(p)
		m.reason, m.rule = fmt.Sprintf("capture is compulsory: %s can jump %s", r.b.Label(from), r.b.Label(over)), string(engine.RuleCaptureCompulsory)
		return m
	}
	free := bitsOf(p.FreeRings())
	if len(placed) == 0 { // a ring lifted before the marble is placed
		rr := removed[0]
		switch {
		case other != 0:
			return m
		case free&bit(rr) == 0:
			m.reason, m.rule = fmt.Sprintf("ring %s is not free: no two adjacent sides are open", r.b.Label(rr)), string(engine.RuleRingNotFree)
		default:
			m.pending, m.need, m.hints = true, Msg("need.place-marble"), make(hints, r.b.Len())
		}
		return m
	}
	at := placed[0]
	col, _ := engine.Content(obs[at]).Marble()
	src := engine.FromPool
	if pool := p.Pool(); pool[0]+pool[1]+pool[2] == 0 {
		src = engine.FromCaptures
	}
	m.at = at
	rem := engine.NoCell
	if len(removed) == 1 {
		rem = removed[0]
	} else if others := free &^ bit(at); others != 0 {
		if other != 0 {
			return m
		}
		turn := engine.PlaceTurn(col, src, at, engine.NoCell)
		if err := r.checkMarble(p, turn, capture); err != nil {
			m.reason, m.rule = illegalWords(err)
			return m
		}
		m.pending, m.need, m.cells = true, Msg("need.remove-free-ring"), cellsOf(others)
		m.hints = make(hints, r.b.Len())
		for _, c := range m.cells {
			m.hints.set(c, RoleFreeRing)
		}
		return m
	}
	turn := engine.PlaceTurn(col, src, at, rem)
	var q engine.Position
	var err error
	if capture {
		q, err = p.PlayOverCapture(turn)
	} else {
		q, err = p.Play(turn)
	}
	if err != nil {
		m.reason, m.rule = illegalWords(err)
		return m
	}
	claimed := bitsOf(q.Claimed())
	if other&^claimed != 0 {
		return m
	}
	for _, c := range cellsOf(other) {
		held := exp[c]
		if c == at {
			held = obs[at]
		}
		if o := obs[c]; o != held && o != 'o' && o != '.' {
			return m
		}
	}
	m.commit, m.turn, m.over = true, turn, capture
	return m
}

// touchMove follows where a placed marble rests this turn (tournament
// mode) and reports a marble that rested on one ring and moved to another.
func (r *Referee) touchMove(p engine.Position, at engine.Cell) []Event {
	if r.cfg.Mode != Tournament || at == engine.NoCell {
		return nil
	}
	var ev []Event
	if r.restAt != engine.NoCell && r.restAt != at {
		ev = append(ev, Event{r.lastT, TouchMove{Player: p.ToMove(), From: r.b.Label(r.restAt), To: r.b.Label(at)}})
	}
	r.restAt = at
	return ev
}

// checkMarble checks the marble part of a placement before its ring is
// removed: the ring and the colour, with the removal left out.
func (r *Referee) checkMarble(p engine.Position, turn engine.Turn, capture bool) error {
	free := p.FreeRings()
	for _, f := range free {
		if f != turn.At {
			turn.Remove = f
			break
		}
	}
	var err error
	if capture {
		_, err = p.PlayOverCapture(turn)
	} else {
		err = p.Check(turn)
	}
	return err
}

func illegalWords(err error) (reason, rule string) {
	if ite, ok := err.(*engine.IllegalTurnError); ok {
		return ite.Reason, string(ite.Rule)
	}
	return err.Error(), ""
}

func bitsOf(cs []engine.Cell) uint64 {
	var s uint64
	for _, c := range cs {
		s |= bit(c)
	}
	return s
}

func firstJump(p engine.Position) (from, over engine.Cell) {
	for _, turn := range p.CaptureTurns() {
		path := turn.Path()
		return path[0], p.Board().Between(path[0], path[1])
	}
	return engine.NoCell, engine.NoCell
}

// matchTakeback finds the latest earlier position whose board is exactly
// the observation, and returns how many turns back it is.
func (r *Referee) matchTakeback(obs string) (int, bool) {
	n := len(r.cells) - 1
	for i := n - 1; i >= 0; i-- {
		if r.cells[i] == obs {
			return n - i, true
		}
	}
	return 0, false
}

// liftedJumper reports whether the observation differs from the official
// board only by one marble lifted off its ring, and that marble can start
// a capture.
func liftedJumper(obs, exp string, p engine.Position) bool {
	at := engine.NoCell
	for c := 0; c < len(exp); c++ {
		if obs[c] == exp[c] {
			continue
		}
		if at != engine.NoCell || obs[c] != 'o' || !isMarble(exp[c]) {
			return false
		}
		at = engine.Cell(c)
	}
	if at == engine.NoCell {
		return false
	}
	for _, turn := range p.CaptureTurns() {
		if turn.Path()[0] == at {
			return true
		}
	}
	return false
}

// commitSeen commits a turn the board showed whole. After the referee was
// lost, or while a question is open, a turn that would end the game is not
// committed on its own word: decide waits for the board to hold and asks.
func (r *Referee) commitSeen(t int64, obs string, turn engine.Turn, over bool) []Event {
	if r.doubtful || r.question != nil {
		p := r.game.Position()
		var q engine.Position
		var err error
		if over {
			q, err = p.PlayOverCapture(turn)
		} else {
			q, err = p.Play(turn)
		}
		if err == nil && q.Result().Over {
			return r.decide(t, obs, 0, [][]engine.Turn{{turn}}, "the game's last turn, after the referee was lost")
		}
	}
	return r.commit(t, obs, turn, over)
}

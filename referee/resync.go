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
	whole  bool
	one    bool            // t1 alone explains the board
	q1, q2 engine.Position // after t1; after t2 (whole only)
}

// inferTwo reads a settled board that no single turn explains as two
// consecutive turns: the end of one and the start or whole of the next,
// as when the scan stalls while the hands keep moving. It commits them
// when every reading leads to the same position, and tells the players to
// finish the turn when the readings agree only that two turns are under
// way. (track resynchronises from further back.)
func (r *Referee) inferTwo(t int64, obs string) ([]Event, bool) {
	base := r.game.Position()
	if base.Result().Over {
		return nil, false
	}
	cands := r.twoTurnReadings(base, r.Expected(), r.cl.set, obs, true)
	if e := r.expecting(); e != nil {
		// On the engine's turn the first turn is known: the engine's.
		kept := cands[:0]
		for _, c := range cands {
			if c.t1 == e.turn {
				kept = append(kept, c)
			}
		}
		cands = kept
	}
	if !r.stalled && len(r.unknown) == 0 {
		// Scanned without a stall, a marble put down shows, if only in
		// passing: a first turn whose marble never did is not what the
		// hands did (a stuck sensor may hide one: stuckSearch).
		kept := cands[:0]
		for _, c := range cands {
			if c.t1.Kind != engine.Place || isMarble(obs[c.t1.At]) || r.touched&bit(c.t1.At) != 0 {
				kept = append(kept, c)
			}
		}
		cands = kept
	}
	if len(cands) == 0 {
		return nil, false
	}
	one, whole, start := splitCands(cands)
	if len(one) > 0 && !r.unseenOK {
		// One turn whose claimed marble went before the scan saw it
		// settled, or an illegal try (a ring lifted that is not free):
		// a try is put right at once, so wait for the board to hold.
		r.recheckOne, r.deferred = true, true
		return nil, false
	}
	// Every reading that explains the board whole: one turn whose claimed
	// marbles went before the scan saw them, or two whole turns.
	var lines [][]engine.Turn
	for _, c := range one {
		lines = append(lines, []engine.Turn{c.t1})
	}
	for _, c := range whole {
		lines = append(lines, []engine.Turn{c.t1, c.t2})
	}
	if len(lines) > 0 {
		reason := "two turns seen at once (the scan missed the board between them)"
		if len(whole) == 0 {
			reason = "a turn inferred: its claimed rings went before the scan saw them"
		}
		if ev := r.decide(t, obs, 0, lines, reason); ev != nil {
			return ev, true
		}
	}
	if len(whole) == 0 && len(one) == 0 && sameFirstTurn(start) {
		return r.commitStart(t, obs, start[0]), true
	}
	// Two turns are under way and their order is not yet clear: wait for
	// the board to complete them, without red LEDs. If it stays like this,
	// look further: the lines of play followed from here on may tell.
	if ev, ok := r.track(t, obs); ok {
		return ev, true
	}
	r.recheck, r.deferred = true, true
	return r.pendingEvent(t, Msg("need.finish-turn"), nil, make(hints, r.b.Len())), true
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

// sameFirstTurn reports whether every reading starts with the same turn.
func sameFirstTurn(cs []twoCand) bool {
	for _, c := range cs[1:] {
		if c.t1 != cs[0].t1 {
			return false
		}
	}
	return len(cs) > 0
}

// commitStart commits the first turn of a reading whose second turn is
// still under way, and says what that turn still needs.
func (r *Referee) commitStart(t int64, obs string, c twoCand) []Event {
	// While lost, the lines followed stay: an inferred reading may be
	// what lost the referee.
	hyps := r.hyps
	defer func() {
		if r.hyps == nil {
			r.hyps = hyps
		}
	}()
	first := r.game.Len() + 1
	ev := r.commit(t, obs, c.t1, false)
	ev = append(ev, r.inferOne(t, obs)...)
	return append(ev, Event{t, Inferred{Turns: []int{first}, Reason: "a turn and the start of the next seen at once (the scan missed the board between them)"}})
}

// inferOne is infer without the two-turn reading, for the turn under way
// after an inferred one.
func (r *Referee) inferOne(t int64, obs string) []Event {
	r.noTwo = true
	defer func() { r.noTwo = false }()
	return r.infer(t, obs)
}

// goneRings are the rings that obs shows gone and exp still has.
func goneRings(exp, obs string) uint64 {
	var gone uint64
	for c := 0; c < len(exp); c++ {
		if obs[c] == '.' && exp[c] != '.' {
			gone |= bit(engine.Cell(c))
		}
	}
	return gone
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
	gone := goneRings(exp, obs)
	var still uint64
	if exp == r.Expected() {
		still = r.still
	}
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
		cl := claims{set: clear, orig: r.cl.orig}
		cl.claim(q, t1, exp, obs)
		d := cl.diff(obs, exp1)
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
			if t2, ok := r.matchChain(&cl, obs, exp1, q); ok {
				q2, _ := q.Play(t2)
				out = append(out, twoCand{t1: t1, t2: t2, whole: true, q1: q, q2: q2})
				continue
			}
		}
		pl := r.matchPlacement(obs, exp1, d, q, capture)
		if still&bit(pl.at) != 0 {
			// That marble stood there before t1 and its sensor has read
			// the same since: no t2 put it there (see stillMarbles).
			continue
		}
		switch {
		case pl.commit:
			var q2 engine.Position
			if pl.over {
				q2, err = q.PlayOverCapture(pl.turn)
			} else {
				q2, err = q.Play(pl.turn)
			}
			if err == nil {
				out = append(out, twoCand{t1: t1, t2: pl.turn, whole: true, q1: q, q2: q2})
			}
		case pl.pending:
			out = append(out, twoCand{t1: t1, q1: q})
		case capture:
			if _, ok := r.matchProgress(&cl, obs, exp1, q); ok {
				out = append(out, twoCand{t1: t1, q1: q})
			}
		}
	}
	return out
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

// maxHypotheses bounds the positions track follows while lost, and
// maxBack how many committed turns it doubts.
const (
	maxHypotheses = 24
	maxBack       = 3
)

// hypothesis is a line of play the referee follows while lost: from the
// official position after turn base, the turns seen since.
type hypothesis struct {
	base  int
	turns []engine.Turn
	pos   engine.Position
}

// track follows a board that no reading of the official position
// explains. From the official position and the two before it (a wrong
// commit may be what lost the referee), it keeps every line of play that
// explains each settled board in at most two turns, and resynchronises to
// one as soon as all that explain the board exactly agree on the
// position. The first illegal board only starts the lines: an illegal try
// right after a turn can look like turns from before it, and players put
// an illegal try right, where lost players carry on.
func (r *Referee) track(t int64, obs string) ([]Event, bool) {
	n := r.game.Len()
	started := r.hyps != nil
	if r.hyps == nil {
		for back := 0; back <= maxBack && back <= n; back++ {
			r.hyps = append(r.hyps, hypothesis{base: n - back, pos: r.game.PositionAfter(n - back)})
		}
	}
	exact := r.trackHypotheses(obs)
	if len(exact) == 0 {
		return nil, false
	}
	if !started {
		// An illegal try is put right at once; a board that stays is the
		// game going on. Look again if it holds.
		r.recheck, r.deferred = true, true
		return nil, false
	}
	// The lines that explain the board, from the earliest base among them.
	base := exact[0].base
	for _, h := range exact {
		base = min(base, h.base)
	}
	lines := make([][]engine.Turn, len(exact))
	for i, h := range exact {
		l, _ := r.turnsPlayed(base, h.base)
		lines[i] = append(l, h.turns...)
	}
	if base < n || r.unseenPlacement(base, lines) {
		// Turns committed were misread, or a line puts a marble on a
		// socket whose reading never changed: perhaps a stuck sensor
		// misled the referee (it hid a marble, or still shows one that
		// left, and the turns since were read one player shifted), and
		// the resynchronisation would follow it on.
		if ev, ok := r.stuckSearch(t, obs, false); ok {
			return ev, true
		}
	}
	// The referee was lost: it ends no game on its own word from here.
	r.doubtful = true
	ev := r.decide(t, obs, n-base, lines, fmt.Sprintf("resynchronised from the position after turn %d", base))
	return ev, ev != nil
}

// trackHypotheses carries each hypothesis of the resynchronisation one
// or two turns on to the board obs (and keeps it, the board may still be
// on its way), bounded by maxHypotheses. It returns those that explain
// obs exactly.
func (r *Referee) trackHypotheses(obs string) (exact []hypothesis) {
	var next []hypothesis
	add := func(h hypothesis) {
		hc := h.pos.Cells()
		for c := 0; c < len(hc); c++ {
			if hc[c] == '.' && obs[c] != '.' {
				return // rings never come back
			}
		}
		for _, x := range next {
			if x.pos.Equal(h.pos) {
				return
			}
		}
		next = append(next, h)
	}
	for _, h := range r.hyps {
		if h.pos.Result().Over {
			add(h)
			continue
		}
		hc := h.pos.Cells()
		cands := r.readingsAll(h.pos, hc, 0, obs)
		for _, c := range cands {
			nh := hypothesis{base: h.base, turns: append(append([]engine.Turn(nil), h.turns...), c.t1)}
			switch {
			case c.one:
				nh.pos = c.q1
				exact = append(exact, nh)
			case c.whole:
				nh.turns = append(nh.turns, c.t2)
				nh.pos = c.q2
				exact = append(exact, nh)
			default:
				nh.pos = c.q1
			}
			add(nh)
		}
		// The turn after them may be under way too: a marble set down or
		// a ring lifted. Without that cell, the board may be turns from h.
		buf := []byte(obs)
		for c := 0; c < len(hc); c++ {
			if hc[c] != 'o' || obs[c] == 'o' {
				continue
			}
			buf[c] = 'o'
			for _, k := range r.twoTurnReadings(h.pos, hc, 0, string(buf), true) {
				if !k.one && !k.whole {
					continue
				}
				nh := hypothesis{base: h.base, turns: append(append([]engine.Turn(nil), h.turns...), k.t1), pos: k.q1}
				if k.whole {
					nh.turns, nh.pos = append(nh.turns, k.t2), k.q2
				}
				add(nh)
			}
			buf[c] = obs[c]
		}
	}
	for _, h := range r.hyps { // the board may still be on its way
		add(h)
	}
	if len(next) > maxHypotheses {
		next = next[:maxHypotheses]
	}
	r.hyps = next
	return exact
}

// unseenPlacement reports whether a line of turns from the position
// after turn base puts a marble on a socket whose reading has not changed
// since the first board kept from then on (none after a stall): the
// marble never showed, not even as a hand over it.
func (r *Referee) unseenPlacement(base int, lines [][]engine.Turn) bool {
	if r.stalled {
		return false
	}
	since, found := int64(0), false
	for _, h := range r.hist {
		if found && h.at.stalled {
			return false
		}
		if !found && h.n >= base {
			since, found = h.since, true
		}
	}
	if !found {
		return false
	}
	for _, l := range lines {
		for _, turn := range l {
			if turn.Kind == engine.Place && r.lastChange[turn.At] <= since {
				return true
			}
		}
	}
	return false
}

// late gives the verdict that waited for the board to hold.
func (r *Referee) late(t int64) []Event {
	r.deferred = false
	obs := r.known(r.settled)
	unknown := r.recheckUnknown
	r.recheckUnknown = false
	hold, captureHeld := r.linesHold, r.captureHeld
	r.linesHold, r.captureHeld = false, false
	switch {
	case hold:
		ev := r.linesHeld(t)
		if r.waitEnd != nil && r.question == nil {
			// A verdict that ends the game waits too: look again at the
			// next frame.
			r.deferred = true
		}
		return ev
	case captureHeld:
		ev, _ := r.stuckSearch(t, obs, true)
		return ev
	case r.tbWait != 0:
		k := r.tbWait
		r.tbWait = 0
		return r.takeback(t, k)
	case r.waitEnd != nil:
		d := r.waitEnd
		r.waitEnd = nil
		return r.decide(t, obs, d.back, d.lines, d.reason)
	case r.recheckOne:
		r.recheckOne, r.unseenOK = false, true
		defer func() { r.unseenOK = false }()
		if ev, ok := r.inferTwo(t, obs); ok {
			return ev
		}
	case r.recheck:
		r.recheck = false
		// The board held: let the lines (and fresh ones from the official
		// position and the ones before it) see it again, as a board the
		// players carried on to.
		hyps := r.hyps
		r.hyps = nil
		n := r.game.Len()
		for back := 0; back <= maxBack && back <= n; back++ {
			r.hyps = append(r.hyps, hypothesis{base: n - back, pos: r.game.PositionAfter(n - back)})
		}
		for _, h := range hyps {
			if h.base <= n && len(r.hyps) < maxHypotheses {
				r.hyps = append(r.hyps, h)
			}
		}
		if ev, ok := r.track(t, obs); ok {
			return ev
		}
	}
	if unknown {
		ev, _ := r.inferUnknown(t, r.settled)
		return ev
	}
	return nil
}

// known fills the cells whose sensors are dead with what the official
// board has there: the referee goes on without them. When that does not
// explain a board that holds, tryUnknown tries what else they may hold.
func (r *Referee) known(cells string) string {
	if len(r.unknown) == 0 || len(cells) != r.b.Len() {
		return cells
	}
	exp := r.Expected()
	b := []byte(cells)
	for _, c := range r.unknown {
		if b[c] == '?' {
			b[c] = exp[c]
		}
	}
	return string(b)
}

// noteDead reports a change in the cells whose sensors are dead: once when
// a sensor dies, once when all read again.
func (r *Referee) noteDead(t int64, dead []int) []Event {
	if r.stuck != 0 {
		// A stuck socket was reported as such, not as dead.
		var live []int
		for _, c := range dead {
			if r.stuck&bit(engine.Cell(c)) == 0 {
				live = append(live, c)
			}
		}
		dead = live
	}
	same := len(dead) == len(r.dead)
	for i := 0; same && i < len(dead); i++ {
		same = dead[i] == r.dead[i]
	}
	if same {
		return nil
	}
	r.dead = dead
	unknown := dead
	if len(unknown) == 0 {
		msg := Msg("fault.cells-read")
		return []Event{{t, Fault{Reason: msg.English(), ReasonMsg: &msg}}}
	}
	labels := make([]string, len(unknown))
	for i, c := range unknown {
		labels[i] = r.b.Label(engine.Cell(c))
	}
	msg := Msg("fault.dead-cells", strings.Join(labels, ", "))
	return []Event{{t, Fault{Reason: msg.English(), ReasonMsg: &msg}}}
}

// maxUnknownTried bounds the dead cells whose contents are guessed at: a
// board with more dead sensors than this waits for the sensors.
const maxUnknownTried = 2

// readingsAll is twoTurnReadings with the dead sensors' cells holding
// whatever they may hold: obs's unknown cells are tried with every
// content (rings never come back), from the position base (exp its cells).
func (r *Referee) readingsAll(base engine.Position, exp string, clear uint64, obs string) []twoCand {
	if len(r.unknown) == 0 || len(r.unknown) > maxUnknownTried {
		return r.twoTurnReadings(base, exp, clear, obs, true)
	}
	var out []twoCand
	b := []byte(obs)
	var try func(i int)
	try = func(i int) {
		if i == len(r.unknown) {
			out = append(out, r.twoTurnReadings(base, exp, clear, string(b), true)...)
			return
		}
		c := r.unknown[i]
		for _, v := range []byte(".owgb") {
			if exp[c] == '.' && v != '.' {
				continue
			}
			b[c] = v
			try(i + 1)
		}
		b[c] = obs[c]
	}
	try(0)
	return out
}

// inferUnknown reads a board with dead sensors: their cells may hold what
// the official board says, or a marble put on a dead socket, a ring lifted
// from one, a marble captured off one. Every reading that explains the
// board whole, whatever the unknown cells hold, is a line of play, and
// decide commits one or asks. While a reading has a turn still under way,
// it waits (up to the hop time) for the turn to finish. It reports false
// when no reading explains the board, for infer to say what it is.
func (r *Referee) inferUnknown(t int64, raw string) ([]Event, bool) {
	return r.inferUnknownFrom(t, raw, 0)
}

func (r *Referee) inferUnknownFrom(t int64, raw string, depth int) ([]Event, bool) {
	if len(r.unknown) == 0 || len(r.unknown) > maxUnknownTried || r.game.Position().Result().Over || r.ended != nil {
		return nil, false
	}
	exp := r.Expected()
	base := r.known(raw)
	if base == exp {
		return nil, false
	}
	var lines [][]engine.Turn
	var firsts []engine.Turn // every reading's first turn, partial ones too
	var partialFirsts []engine.Turn
	for _, c := range r.readingsAll(r.game.Position(), exp, r.cl.set, base) {
		firsts = append(firsts, c.t1)
		switch {
		case c.one:
			lines = append(lines, []engine.Turn{c.t1})
		case c.whole:
			lines = append(lines, []engine.Turn{c.t1, c.t2})
		default:
			partialFirsts = append(partialFirsts, c.t1)
		}
	}
	if len(firsts) == 0 {
		return nil, false
	}
	agree := true
	for _, f := range firsts[1:] {
		agree = agree && f == firsts[0]
	}
	endsGame := false
	if q, ok := r.playable(r.game.Position(), firsts[:1]); ok {
		endsGame = q.Result().Over
	}
	if agree && !endsGame && (len(partialFirsts) > 0 || len(lines) > 1) && depth < 2 {
		// Every reading begins with the same turn: commit it, and read
		// the rest of the board from there.
		ev := r.commitLine(t, base, 0, firsts[:1])
		ev = append(ev, Event{t, Inferred{Turns: r.turnsFrom(r.game.Len() - 1), Reason: "read with the dead sensors' cells unknown"}})
		if more, ok := r.inferUnknownFrom(t, raw, depth+1); ok {
			ev = append(ev, more...)
		}
		return ev, true
	}
	// A reading with a turn still under way that begins otherwise than
	// the whole readings: wait for the turn to finish, and follow the
	// whole readings meanwhile in case the board moves on past them.
	other := false
	for _, f := range partialFirsts {
		seen := false
		for _, l := range lines {
			seen = seen || l[0] == f
		}
		other = other || !seen
	}
	if other || len(lines) == 0 {
		n := r.game.Len()
		r.hyps = []hypothesis{{base: n, pos: r.game.Position()}}
		for _, l := range lines {
			if q, ok := r.playable(r.game.Position(), l); ok {
				r.hyps = append(r.hyps, hypothesis{base: n, turns: l, pos: q})
			}
		}
		r.recheckUnknown, r.deferred = true, true
		return r.pendingEvent(t, Msg("need.finish-turn"), nil, make(hints, r.b.Len())), true
	}
	ev := r.decide(t, base, 0, lines, "read with the dead sensors' cells unknown")
	return ev, ev != nil
}

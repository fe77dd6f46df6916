package referee

import (
	"math/bits"

	"github.com/zertzboard/zertzboard/engine"
)

// The tracker of lines of play, used while a sensor is dead.
//
// A line is a sequence of legal turns from the official position, with the
// position after them. Every settled board is checked against every live
// line: a line survives, unchanged, when the board shows its position or a
// turn under way from it, and grows by one or two turns when those turns
// explain the board; a line that explains nothing dies. The turns every
// live line begins with are committed; where the lines disagree the
// referee follows them all until a later board decides, and asks the
// players when the board cannot (the lines have gone on for askAfter turns
// apart, or they end in the same position, or there are too many).
//
// A dead sensor's cell reads '?' and matches anything: its content follows
// from each line. A turn on it (a marble put on a dead socket, a dead ring
// removed) changes fewer cells than the board shows, and is found among
// the legal turns whose visible cells changed.

// line is one line of play.
type line struct {
	turns []engine.Turn // since the official position, passes left out
	pos   engine.Position
	cells string
	// cl holds the claimed rings still on the board, and what each held,
	// as the official board's do.
	cl   claims
	rest bool // the board shows pos: no turn under way
	// leaps counts the settled boards that took the line two whole turns
	// on with no stall before them: the scan sees turns one by one, so
	// such a line is possible (the next player was quick) but suspect (a
	// stuck sensor hides turns too).
	leaps int
	// hop: the line's last turn put down a marble the board never
	// showed, which is jumping now (see hiddenTaken): the next board
	// shows the capture done, or the line dies.
	hop bool
}

// maxLines bounds the lines followed; askAfter is how many turns lines
// that disagree may run apart before the players are asked.
const (
	maxLines = 64
	askAfter = 2
)

// maxLineTurns bounds how many turns lines may run apart: past it they
// are asked about whatever they are.
const maxLineTurns = 6

// lostBoards is how many illegal settled boards in a row make the
// referee doubt the game it follows: players put an illegal try right at
// once, so that many is a referee that lost the game, not a try.
const lostBoards = 3

// maxIndistinct bounds the options of a question about lines no board can
// tell apart (the same board, every turn whole): the players step
// through them with the buttons, or the arbiter answers from the console.
const maxIndistinct = 24

// stepPlays bounds the turns played to check one settled board against
// the lines of play: a few milliseconds on a Pi Zero. Past it the referee
// commits nothing on that board (see linesObserve).
const stepPlays = 3000

// stallMS is the wait between two frames that makes a stall: longer than
// a 10 Hz scan's. Turns may have come and gone unseen during one.
const stallMS = 120

// rootLine is the official position as a line.
func (r *Referee) rootLine() line {
	return line{pos: r.game.Position(), cells: r.Expected(), cl: r.cl, rest: true}
}

// play extends l by turn, with the forced passes after it, and with the
// rings the turn claimed noted as still on the board where obs shows them.
func (r *Referee) play(l line, turn engine.Turn, over bool, obs string) (line, bool) {
	if r.plays != nil {
		if *r.plays <= 0 {
			r.short = true
			return l, false
		}
		*r.plays--
	}
	var q engine.Position
	var err error
	if over {
		q, err = l.pos.PlayOverCapture(turn)
	} else {
		q, err = l.pos.Play(turn)
	}
	if err != nil {
		return l, false
	}
	n := line{turns: append(append(make([]engine.Turn, 0, len(l.turns)+2), l.turns...), turn), cl: l.cl, leaps: l.leaps}
	n.cl.claim(q, turn, l.cells, obs)
	for q.MustPass() && !q.Result().Over {
		q = q.MustPlay(engine.PassTurn())
	}
	n.pos, n.cells = q, q.Cells()
	return n, true
}

// extendStalled follows l over a stall, to depth turns among the cells
// touched: the turns, and a marble put down where a jumper set off from
// with the jump under way when the board shows no unknown cell.
func (r *Referee) extendStalled(l line, obs string, touched, gone, unknown uint64, depth int, add func(line)) {
	if unknown == 0 {
		// Nor did a marble put down where a jumper set off from: the
		// jump may be under way, the marble jumped over not yet
		// lifted (see hiddenJumps).
		r.jumpsHidden = true
		defer func() { r.jumpsHidden = false }()
		r.hiddenJumps(l, obs, gone, add)
	}
	r.furtherTurns(l, obs, touched, gone|unknown, depth, 0, add)
}

// changes compares a board obs with a line's cells: the cells that read
// otherwise, those of them whose ring is gone, and the unknown ('?').
func changes(obs, cells string) (changed, gone, unknown uint64) {
	for c := 0; c < len(obs); c++ {
		switch {
		case obs[c] == '?':
			unknown |= bit(engine.Cell(c))
		case obs[c] != cells[c]:
			changed |= bit(engine.Cell(c))
			if obs[c] == '.' {
				gone |= bit(engine.Cell(c))
			}
		}
	}
	return changed, gone, unknown
}

// extend lists the ways line l explains obs: itself at rest or with a
// turn under way, one turn more, or two.
func (r *Referee) extend(l line, at board, add func(line)) {
	obs := at.cells
	// Claimed rings seen off the board are off for good.
	l.cl.off(obs)
	if l.pos.Result().Over {
		// After the game the board shows its result until the players
		// clear it: pieces only come off.
		for c := 0; c < len(obs); c++ {
			if o, e := obs[c], l.cells[c]; o != e && o != '?' && o != '.' && !(o == 'o' && isMarble(e)) && !l.cl.clearing(engine.Cell(c), o) {
				return
			}
		}
		l.rest = true
		add(l)
		return
	}
	if l.hop {
		// Only the capture done, and what follows it, explain a board
		// after a hidden marble's jump.
		self := add
		add = func(n line) {
			if len(n.turns) > len(l.turns) {
				self(n)
			}
		}
	}
	if d := l.cl.diff(obs, l.cells); d == 0 {
		l.rest = true
		add(l)
	} else {
		r.nextTurns(l, obs, d, 0, add)
	}
	// Two turns seen at once (the scan stalled), or turns the board shows
	// only in part (a marble put on a dead socket, a dead ring removed):
	// the first turn, with what the board shows after it.
	changed, gone, unknown := changes(obs, l.cells)
	if changed|at.touched == 0 {
		return
	}
	// A cell the hands touched between the boards may have held a turn's
	// marble that has gone again (jumped, or claimed). After a stall, the
	// board may be three turns on.
	depth, hidden := 1, uint64(0)
	if at.stalled {
		depth = 2
	}
	depth += r.deeper
	if at.stalled && unknown == 0 {
		// A marble put down and jumped over during the stall never
		// showed: the ring between two changed cells may have held it.
		// (With a socket unknown, the lines try what it holds instead:
		// both would multiply them past what a board may cost.)
		hidden = r.between(changed)
	}
	if at.stalled {
		r.extendStalled(l, obs, changed|unknown|at.touched|hidden, gone, unknown, depth, add)
		return
	}
	if unknown == 0 && at.showed != [3]uint64{} {
		// Scanned without a stall, a marble seen in passing on a ring a
		// jumper could have set off from, and gone again, may be the
		// turn's marble jumping, the marble it jumped not yet lifted:
		// the board then reads as a placement where the jumper landed.
		r.jumpsFrom(l, obs, gone, &at.showed, add)
	}
	// A marble the board showed before, on a socket whose reading has
	// not changed since, was not taken away and put back by these turns.
	still := stillFor(l, at)
	r.furtherTurns(l, obs, changed|unknown|at.touched, gone|unknown, depth, still, func(n line) {
		if gain := len(n.turns) - len(l.turns); gain >= 2 {
			n.leaps++
		}
		add(n)
	})
}

// between is the cells a one-hop jump between two cells of set passes
// over.
func (r *Referee) between(set uint64) uint64 {
	var out uint64
	for a := set; a != 0; a &= a - 1 {
		from := engine.Cell(bits.TrailingZeros64(a))
		for b := a & (a - 1); b != 0; b &= b - 1 {
			out |= bit(r.b.Between(from, engine.Cell(bits.TrailingZeros64(b))))
		}
	}
	return out
}

// jumpSources is the rings vacant in cells and on the board obs from
// which one hop lands on a cell of set that obs shows a marble on, over a
// marble: where a marble put down in a stall may have set off as a jumper
// before the scan saw it.
func (r *Referee) jumpSources(set uint64, obs, cells string) uint64 {
	var out uint64
	for a := set; a != 0; a &= a - 1 {
		to := engine.Cell(bits.TrailingZeros64(a))
		if !isMarble(obs[to]) {
			continue
		}
		for _, mid := range r.b.Neighbours(to) {
			if !isMarble(obs[mid]) {
				continue
			}
			for _, from := range r.b.Neighbours(mid) {
				if from != to && cells[from] == 'o' && obs[from] == 'o' && r.b.Between(from, to) == mid {
					out |= bit(from)
				}
			}
		}
	}
	return out
}

// hiddenJumps adds the lines that explain obs with a marble put down
// from l where the board never showed it, on a ring from which one hop
// lands on a marble obs shows new (see jumpSources), removing a ring in
// rem, and the capture from there under way, its first hop made and
// nothing else changed. After a stall, the jumper seen on its landing
// ring may have set off from a marble put down unseen (the marble jumped
// over not yet lifted), where the other lines read the jumper as a
// placement there.
func (r *Referee) hiddenJumps(l line, obs string, rem uint64, add func(line)) {
	r.jumpsFrom(l, obs, rem, nil, add)
}

// jumpsFrom is hiddenJumps; with showed (a board scanned without a
// stall), only from the rings that showed a marble of the placement's
// colour in passing.
func (r *Referee) jumpsFrom(l line, obs string, rem uint64, showed *[3]uint64, add func(line)) {
	if l.pos.Result().Over || l.pos.HasCapture() {
		return
	}
	src := r.jumpSources(newMarbles(obs, l.cells), obs, l.cells)
	if showed != nil {
		src &= showed[0] | showed[1] | showed[2]
	}
	if src == 0 {
		return
	}
	var buf [64]engine.Turn
	for _, t := range firstTurns(l.pos, src, rem, buf[:0]) {
		if showed != nil && t.Kind == engine.Place && showed[t.Color]&bit(t.At) == 0 {
			continue
		}
		n, ok := r.play(l, t, false, obs)
		if !ok || !n.pos.HasCapture() {
			continue
		}
		// Exactly the jumper moved one hop on, from the marble put down:
		// nothing else the board shows differs from the line.
		d := n.cl.diff(obs, n.cells)
		for _, c := range n.pos.CaptureTurns() {
			if path := c.Path(); path[0] == t.At && d == bit(path[0])|bit(path[1]) && obs[path[1]] == n.cells[t.At] {
				// The next board shows the capture done, or the line
				// dies (see line.hop).
				n.rest, n.hop = false, true
				add(n)
				break
			}
		}
	}
}

// furtherTurns adds the lines that explain obs with one turn from l
// played whole (a placement on a cell in at removing a ring in rem, or a
// capture leaving a cell in at), then what one more turn, whole or under
// way, explains; with depth 2, two turns played whole first. No later
// turn places a marble on a cell in still (see stillFor).
func (r *Referee) furtherTurns(l line, obs string, at, rem uint64, depth int, still uint64, add func(line)) {
	var buf [64]engine.Turn
	for _, t1 := range firstTurns(l.pos, at, rem, buf[:0]) {
		n, ok := r.play(l, t1, false, obs)
		if !ok {
			continue
		}
		if d := n.cl.diff(obs, n.cells); d == 0 {
			n.rest = true
			add(n)
		} else if !n.pos.Result().Over {
			r.nextTurns(n, obs, d, still, add)
		}
		if r.jumpsHidden {
			r.hiddenJumps(n, obs, rem, add)
		}
		if depth > 1 && !n.pos.Result().Over {
			r.furtherTurns(n, obs, at, rem, depth-1, still, add)
		}
	}
}

// nextTurns adds what one turn from l, whole or under way, explains obs
// (d the cells that differ, with l's claimed rings): a turn under way
// keeps l itself alive. A placement on a cell in still is none: that
// marble was there before l's last turns (see stillFor).
func (r *Referee) nextTurns(l line, obs string, d, still uint64, add func(line)) {
	p := l.pos
	capture := p.HasCapture()
	if capture {
		// A chain seen whole is whole: chains are played to their end.
		if turn, ok := r.matchChain(&l.cl, obs, l.cells, p); ok {
			if n, ok := r.play(l, turn, false, obs); ok {
				n.rest = true
				add(n)
			}
		} else if _, ok := r.matchProgress(&l.cl, obs, l.cells, p); ok {
			l.rest = false
			add(l)
		}
	}
	pl := r.matchPlacement(obs, l.cells, d, p, capture)
	if still&bit(pl.at) != 0 {
		return
	}
	switch {
	case pl.commit:
		if n, ok := r.play(l, pl.turn, pl.over, obs); ok {
			n.rest = true
			add(n)
		}
	case pl.pending:
		l.rest = false
		add(l)
	}
}

// sameLine reports whether two lines are the same turns.
func sameLine(a, b line) bool { return sameTurns(a.turns, b.turns) }

// step checks a settled board against every live line and returns those
// that explain it, or none. budget, if not nil, bounds the turns played
// to find them (and is what is left afterwards); complete is false when it
// ran out, and the lines returned are then not all there are.
func (r *Referee) step(lines []line, at board, budget *int) (next []line, complete bool) {
	r.plays, r.short = budget, false
	defer func() { r.plays = nil }()
	for _, l := range lines {
		if r.short {
			break
		}
		r.extend(l, at, func(n line) {
			for i, x := range next {
				if sameLine(x, n) {
					next[i].rest = next[i].rest || n.rest
					next[i].leaps = min(next[i].leaps, n.leaps)
					return
				}
			}
			next = append(next, n)
		})
	}
	return next, !r.short
}

// commonPrefix is the turns every line begins with.
func commonPrefix(lines []line) []engine.Turn {
	if len(lines) == 0 {
		return nil
	}
	p := lines[0].turns
	for _, l := range lines[1:] {
		k := 0
		for k < len(p) && k < len(l.turns) && p[k] == l.turns[k] {
			k++
		}
		p = p[:k]
	}
	return p
}

// blindObserve referees a settled board read with dead sensors (raw holds
// '?' there) by following every line of play.
func (r *Referee) blindObserve(t int64, raw string) []Event {
	r.lostBefore, r.lost = r.lost, 0 // flagIllegal counts on
	if ev, ok := r.linesObserve(t, raw); ok {
		return ev
	}
	if lostRetry(r.lostBefore) {
		// The board before made no sense either: find the lines of play
		// from further back.
		if ev, ok := r.relock(t, raw); ok {
			return ev
		}
	}
	known := r.known(raw)
	exp := r.Expected()
	return r.flagIllegal(t, known, exp, r.cl.diff(known, exp), "the board differs from every line of play", "")
}

// linesReason says why turns were committed from the lines of play.
func (r *Referee) linesReason() string {
	if len(r.unknown) > 0 {
		return "read with the dead sensors' cells unknown"
	}
	return "followed as lines of play (the scan missed boards between turns)"
}

// linesObserve checks a settled board against the lines of play, and
// reports false when none explains it.
func (r *Referee) linesObserve(t int64, raw string) ([]Event, bool) {
	work := stepPlays
	next, prev, old, whole := r.linesNext(raw, &work)
	next, whole, unsure := r.linesSure(raw, next, prev, whole, &work)
	known := r.known(raw)
	if !whole {
		// Too many ways the board may have come about to follow them
		// all: nothing is committed on a partial count. The lines start
		// afresh; a later board, or the relock, tells.
		r.lines, r.linesBefore, r.linesOld = nil, nil, nil
		r.linesHold, r.deferred = false, false
		return r.pendingEvent(t, Msg("need.finish-turn"), nil, make(hints, r.b.Len())), true
	}
	if len(next) == 0 {
		return nil, false
	}
	if minLeaps(next) > minLeaps(r.lines) {
		// Every line needs two whole turns since the last board, which
		// the scan saw with no stall between: a stuck sensor hiding a
		// turn is as likely as a quick next player.
		if ev, ok := r.stuckSearch(t, raw, false); ok {
			return ev, true
		}
	}
	fresh := len(prev) == 1 && len(prev[0].turns) == 0
	r.linesOld, r.linesBefore, r.lines = old, prev, next
	if fresh && len(r.unknown) == 0 && unseenOnly(next, known, r.showed) {
		// Every line has a turn whose marble the board never showed: an
		// illegal try (a ring lifted that is not free) looks the same.
		// Red until the board holds or goes on; the lines are followed.
		exp := r.Expected()
		r.linesHold, r.deferred = true, true
		return r.flagIllegal(t, known, exp, r.cl.diff(known, exp), "the board differs from every legal continuation", ""), true
	}
	var ev []Event
	if r.illegal {
		r.illegal = false
		ev = append(ev, Event{t, Restored{Player: r.game.Position().ToMove()}})
	}
	if len(next) > maxLines {
		// Too many to follow: ask about their first turns rather than
		// guess.
		return append(ev, r.askFirst(t, known, next, maxOptions)...), true
	}
	// A turn is committed once every line begins with it. With a sensor
	// dead, a turn there shows only in part, and an illegal try can look
	// like one; after the referee was lost, the lines may not be the whole
	// story: then three settled boards in a row must agree on it (or a
	// board must hold).
	if unsure && len(commonPrefix(next)) > 0 {
		return append(ev, r.askUnsure(t, known, next)...), true
	}
	agree := next
	if len(r.unknown) > 0 || r.doubtful {
		agree = append(append(append([]line(nil), next...), prev...), old...)
	}
	got, done := r.commitPrefix(t, known, shownWhole(next, commonPrefix(agree)))
	if ev = append(ev, got...); done {
		return ev, true
	}
	if len(commonPrefix(r.lines)) > 0 {
		r.linesHold, r.deferred = true, true
	}
	return r.linesPending(t, known, prev, fresh, ev), true
}

// linesNext steps the lines of play to the settled board raw: the lines
// followed, else those before the last board, else the official
// position's; beside them the lines the last board killed when this one
// brings them back. It returns the lines that explain raw, the lines
// before and before those as linesObserve keeps them, and whole false
// when there were too many ways to follow within work.
func (r *Referee) linesNext(raw string, work *int) (next, prev, old []line, whole bool) {
	if r.lines == nil {
		r.lines = []line{r.rootLine()}
		r.linesBefore, r.linesOld = nil, nil
	}
	next, whole = r.step(r.lines, r.current(raw), work)
	prev, old = r.lines, r.linesBefore
	if whole && len(next) > 0 {
		// The board is again the one a line before the last board
		// showed at rest: the last board may have been an illegal try,
		// put right since, that other lines explained by chance (two
		// marbles at once read as a turn and the next under way). The
		// line goes on beside them.
		for _, l := range r.linesBefore {
			if l.rest && !l.pos.Result().Over && !hasLine(next, l) {
				if l.cl.off(raw); l.cl.diff(raw, l.cells) == 0 {
					next = append(next, l)
				}
			}
		}
	}
	// The lines the last board killed, if other lines explained it: that
	// board may have been an illegal try, put right now.
	try := r.linesTry
	if len(r.hist) < 2 || r.hist[len(r.hist)-2].since != r.linesTrySince || r.linesTryLen != r.game.Len() {
		try = nil
	}
	r.linesTry = nil
	var died []line
	if len(next) == 0 && whole {
		died = r.lines
	}
	if len(next) == 0 && whole && r.linesBefore != nil {
		// The last board may have been an illegal try put right since,
		// which some line happened to explain: the lines before it.
		next, whole = r.step(r.linesBefore, r.current(raw), work)
		prev, old = nil, nil
	}
	if len(next) == 0 && whole {
		// Perhaps a line was never followed: the official position's.
		// The lines that explained the last board stay at hand as those
		// before this one: this board may be an illegal try that no line
		// explains and the official position's did by chance, and the
		// next board, the try put right, returns to them.
		next, whole = r.step([]line{r.rootLine()}, r.current(raw), work)
		if len(r.lines) > 0 && !(len(r.lines) == 1 && len(r.lines[0].turns) == 0) {
			prev, old = r.lines, nil
		}
	}
	if whole && len(try) > 0 {
		// The board before killed the lines that explained the one before
		// it, but others explained it: if those lines explain this board,
		// that board was an illegal try put right, and they go on beside
		// the others (a placement the try's lines read is no fact).
		more, ok := r.step(try, r.current(raw), work)
		if !ok {
			whole = false
		}
		for _, l := range more {
			if !hasLine(next, l) && len(next) < maxLines {
				next = append(next, l)
			}
		}
	}
	if whole && len(next) > 0 && len(died) > 0 {
		r.linesTry, r.linesTrySince, r.linesTryLen = died, r.obsSince, r.game.Len()
	}
	return next, prev, old, whole
}

// linesSure narrows the lines after a stall to those the frames seen in
// passing allow, looking deeper when none put a marble where the board
// showed one, and reports unsure when the lines are to be asked about
// rather than committed.
func (r *Referee) linesSure(raw string, next, prev []line, whole bool, work *int) ([]line, bool, bool) {
	if whole && len(next) > 0 && r.stalled && len(r.unknown) == 0 && hasOfficial(prev) {
		// One line explains the board: a hidden marble jumping now may
		// too (see doubt).
		jumping := r.jumping
		r.jumping = jumping || len(next) == 1
		next, whole = r.afterStall(next, raw, work)
		r.jumping = jumping
	}
	if whole && r.stalled && len(r.unknown) == 0 && (len(next) == 0 || !r.colourShown(next)) {
		// After a stall, perhaps more turns came and went between the
		// boards than the lines look for, or the lines never put a marble
		// where the board showed one in passing: look deeper, among the
		// turns the hands touched. (Scanned without a stall, a board no
		// line explains is left to the resynchronisation and the stuck
		// search: a deeper line there is more often a stuck sensor's.)
		if deep, ok := r.deeperLines(raw, work); !ok {
			whole = false
		} else if len(deep) > 0 {
			next = deep
		}
	}
	// After a stall, lines none of which puts a marble where the board
	// showed one in passing, even looking deeper, are not the whole story:
	// the line played may be longer still. They are asked about rather
	// than committed.
	unsure := whole && r.stalled && len(r.unknown) == 0 && len(next) > 0 && !r.colourShown(next)
	if whole && r.stalled && len(r.unknown) == 0 && len(next) > 0 {
		// After a stall, the frames seen in passing rule out the lines
		// that could not have shown them in order; when they rule out
		// every line, the line played is one the search did not reach,
		// and the lines are asked about rather than committed.
		if kept := r.agreeing(next, raw); len(kept) == 0 {
			unsure = true
		} else {
			next = kept
		}
	}
	if whole && len(r.unknown) == 0 && len(next) > 0 && r.guessOpen() {
		// While a question about turns is open, the game follows its
		// guess: turns read on top of it are no more certain, and are
		// asked about with it (see widen).
		unsure = true
	}
	return next, whole, unsure
}

// linesPending says what the lines that linesObserve kept but could not
// commit wait for: one line goes on turn by turn or waits for the turn
// under way; lines run apart are asked about, or wait for the next board
// or for the board to hold.
func (r *Referee) linesPending(t int64, known string, prev []line, fresh bool, ev []Event) []Event {
	if len(r.lines) == 1 {
		switch l := r.lines[0]; {
		case l.rest && len(l.turns) == 0 && len(r.unknown) == 0:
			// The board is the official position again: the referee
			// goes on turn by turn.
			r.lines, r.linesBefore, r.linesOld, r.linesHold = nil, nil, nil, false
			r.guide = r.idleGuidance()
		case !l.rest && len(l.turns) == 0 && len(r.unknown) == 0:
			// A turn under way from the official position: the referee
			// goes on turn by turn, and says what the turn still needs.
			r.lines, r.linesBefore, r.linesOld, r.linesHold = nil, nil, nil, false
			ev = append(ev, r.inferOne(t, known)...)
		case !l.rest:
			ev = append(ev, r.pendingEvent(t, Msg("need.finish-turn"), nil, make(hints, r.b.Len()))...)
		case !r.demand:
			r.guide = r.idleGuidance()
		}
		return ev
	}
	allRest, sameBoard, minLen := true, true, len(r.lines[0].turns)
	for _, l := range r.lines {
		allRest = allRest && l.rest
		sameBoard = sameBoard && l.cells == r.lines[0].cells
		minLen = min(minLen, len(l.turns))
	}
	// How far the lines have run apart: the turns past those they share
	// (shared turns wait for boards to agree on them, not for questions).
	minLen -= len(commonPrefix(r.lines))
	if allRest && r.linesOver(r.lines) && len(r.unknown) > 0 {
		// Every line ends the game, read with a sensor dead: the players
		// say which. (Seen whole, the lines wait for the board to hold:
		// a try put right at once can look like a game's last turn.)
		return append(ev, r.askLines(t, known, r.lines)...)
	}
	// Look again once the board has held: a turn left under way that
	// long, beside lines the board shows whole, is no turn under way; and
	// lines that leave the same board can never be told apart by it.
	r.linesHold, r.deferred = true, true
	limit := maxOptions
	if allRest && sameBoard {
		// No board will ever tell these apart: however many, ask.
		limit = maxIndistinct
	}
	if minLen >= maxLineTurns {
		// Lines kept apart this long are asked about, however many:
		// memory stays bounded, and the referee asks rather than guess.
		return append(ev, r.askFirst(t, known, r.lines, maxIndistinct)...)
	}
	// Read with a sensor dead, lines that ran apart on the first board
	// they explain wait for the next board or for the board to hold: an
	// illegal try put right at once can look like turns with the dead
	// socket's ring in them.
	wait := fresh && len(r.unknown) > 0 || r.newUnseenRemoval(r.lines, r.linesBefore)
	// Nor on a board that ended a line at rest while others explain it:
	// it may be an illegal try (two marbles put down at once read as
	// turns), and the next board, the try put right, goes to that line
	// again (see above).
	wait = wait || len(r.unknown) > 0 && restDied(prev, r.lines)
	if allRest && sameBoard && len(prev) > 0 && sameLines(prev, r.lines) || minLen >= askAfter && !wait {
		if len(r.lines) <= limit {
			return append(ev, r.askLines(t, known, r.lines)...)
		}
	}
	return append(ev, r.pendingEvent(t, Msg("need.finish-turn"), nil, make(hints, r.b.Len()))...)
}

// restDied reports whether a line of before at rest has no line in now
// that begins with its turns: the board ended it.
func restDied(before, now []line) bool {
	for _, b := range before {
		if !b.rest {
			continue
		}
		found := false
		for _, n := range now {
			if len(n.turns) >= len(b.turns) && sameTurns(n.turns[:len(b.turns)], b.turns) {
				found = true
				break
			}
		}
		if !found {
			return true
		}
	}
	return false
}

// hasOfficial reports whether one of lines is the official position, with
// no turn since.
func hasOfficial(lines []line) bool {
	for _, l := range lines {
		if len(l.turns) == 0 {
			return true
		}
	}
	return false
}

// newUnseenRemoval reports whether a line, new on this board (not in
// before), ends with a placement whose ring removed is a socket read
// '?': a marble set down anywhere and put back (an illegal try) reads as
// such a turn, the dead ring "removed".
func (r *Referee) newUnseenRemoval(lines, before []line) bool {
	for _, l := range lines {
		if len(l.turns) == 0 || hasLine(before, l) {
			continue
		}
		last := l.turns[len(l.turns)-1]
		if last.Kind != engine.Place || last.Remove == engine.NoCell {
			continue
		}
		for _, u := range r.unknown {
			if engine.Cell(u) == last.Remove {
				return true
			}
		}
	}
	return false
}

// minLeaps is the fewest leaps of any of the lines (see line.leaps).
func minLeaps(lines []line) int {
	m := 0
	for i, l := range lines {
		if i == 0 || l.leaps < m {
			m = l.leaps
		}
	}
	return m
}

// askLines asks which of the lines was played, and follows the one the
// game takes meanwhile.
func (r *Referee) askLines(t int64, obs string, lines []line) []Event {
	ls := make([][]engine.Turn, 0, len(lines))
	for _, l := range lines {
		if len(l.turns) > 0 {
			ls = append(ls, l.turns)
		}
	}
	r.lines, r.linesBefore, r.linesOld = nil, nil, nil
	if len(ls) == 0 {
		return nil
	}
	var opts []option
	from := r.game.Position()
	for _, l := range ls {
		if q, ok := r.playable(from, l); ok {
			opts = append(opts, option{turns: l, end: q.Result()})
		}
	}
	if len(opts) == 0 {
		return nil
	}
	if len(opts) == 1 {
		return r.decide(t, obs, 0, ls[:1], r.linesReason())
	}
	ends := false
	for _, o := range opts {
		ends = ends || o.end.Over
	}
	if ends && len(r.unknown) > 0 {
		return r.askEnd(t, obs, 0, opts, r.linesReason())
	}
	return r.ask(t, obs, 0, opts, r.linesReason())
}

// askUnsure asks which of the lines was played, even when they are one:
// lines the board does not bear out whole (see linesObserve).
func (r *Referee) askUnsure(t int64, obs string, lines []line) []Event {
	// The turns the lines share are no more certain than the rest: the
	// question is about them all, even when the lines differ only in a
	// marble's colour (see openQuestion).
	r.askingUnsure = true
	defer func() { r.askingUnsure = false }()
	if len(lines) > 1 {
		return r.askLines(t, obs, lines)
	}
	r.lines, r.linesBefore, r.linesOld = nil, nil, nil
	q, ok := r.playable(r.game.Position(), lines[0].turns)
	if !ok || len(lines[0].turns) == 0 {
		return nil
	}
	opts := []option{{turns: lines[0].turns, end: q.Result()}}
	if q.Result().Over {
		return r.askEnd(t, obs, 0, opts, r.linesReason())
	}
	return r.ask(t, obs, 0, opts, r.linesReason())
}

// askFirst asks which of the lines was played when at most limit of them
// differ; when more do, it asks about the turns they begin with (the
// longest beginnings of which at most limit differ), follows the lines
// that begin as the game does meanwhile, and keeps the others for the
// answer. Cutting the lines to limit would leave out, as often as not,
// the one the players played.
func (r *Referee) askFirst(t int64, obs string, lines []line, limit int) []Event {
	cp := len(commonPrefix(lines))
	k, n := 0, 0
	for ; ; k++ {
		c := distinctPrefixes(lines, k)
		if c > limit {
			break
		}
		if n = c; k > maxLineTurns+cp || c == len(lines) {
			k = -1 // every line whole: ask about them all
			break
		}
	}
	if k < 0 || n == 0 {
		return r.askLines(t, obs, lines[:min(len(lines), limit)])
	}
	k-- // the longest beginnings of which at most limit differ
	if k <= cp {
		// Even their first turns apart differ too much to ask: ask about
		// the first few lines rather than guess.
		return r.askLines(t, obs, lines[:min(len(lines), limit)])
	}
	var opts []option
	var groups [][]line
	from := r.game.Position()
	for _, l := range lines {
		p := l.turns[:min(k, len(l.turns))]
		i := 0
		for i < len(opts) && !sameTurns(opts[i].turns, p) {
			i++
		}
		if i == len(opts) {
			q, ok := r.playable(from, p)
			if !ok {
				continue
			}
			opts = append(opts, option{turns: p, end: q.Result()})
			groups = append(groups, nil)
		}
		if len(groups[i]) < maxLines {
			groups[i] = append(groups[i], l)
		}
	}
	r.lines, r.linesBefore, r.linesOld = nil, nil, nil
	if len(opts) < 2 {
		return r.askLines(t, obs, lines[:min(len(lines), limit)])
	}
	for _, o := range opts {
		if o.end.Over {
			// A beginning that ends the game is asked about as any end is.
			return r.askEnd(t, obs, 0, opts, r.linesReason())
		}
	}
	base := r.game.Len()
	ev := r.ask(t, obs, 0, opts, r.linesReason())
	q := r.question
	if q == nil || q.prov < 0 || q.base != base || len(q.options) != len(opts) {
		// Widened with an open question's options (ask): the lines do not
		// start from the game any more.
		return ev
	}
	q.lines = groups
	r.lines = trimLines(groups[q.prov], opts[q.prov].turns)
	if len(r.lines) == 0 {
		r.lines = nil
	}
	return ev
}

// distinctPrefixes counts the lines' different beginnings of k turns
// (a shorter line is its own beginning).
func distinctPrefixes(lines []line, k int) int {
	n := 0
	for i, l := range lines {
		p := l.turns[:min(k, len(l.turns))]
		dup := false
		for _, m := range lines[:i] {
			if dup = sameTurns(p, m.turns[:min(k, len(m.turns))]); dup {
				break
			}
		}
		if !dup {
			n++
		}
	}
	return n
}

// linesOver reports whether every line ends the game.
func (r *Referee) linesOver(lines []line) bool {
	for _, l := range lines {
		if !l.pos.Result().Over {
			return false
		}
	}
	return len(lines) > 0
}

// linesHeld looks at the lines again once the board has held for the hop
// time: when those the board shows at rest all end the game, the players
// are asked which was played; otherwise the lines wait for the next board.
func (r *Referee) linesHeld(t int64) []Event {
	known := r.known(r.settled)
	ev, done := r.commitPrefix(t, known, commonPrefix(r.lines))
	if done {
		return ev
	}
	var rest []line
	for _, l := range r.lines {
		if l.rest {
			rest = append(rest, l)
		}
	}
	if len(r.lines) < 2 || len(rest) == 0 || len(rest) > maxIndistinct {
		return ev
	}
	// Lines that leave boards apart only on dead sockets' cells: the
	// board will not tell them apart while the players wait.
	same := true
	for _, l := range rest {
		same = same && sameBut(l.cells, rest[0].cells, r.unknown)
	}
	if !r.linesOver(rest) && !same {
		return ev
	}
	// The board has held with these lines at rest: a turn left under way
	// that long is no turn under way, and the board will not tell more.
	return append(ev, r.askLines(t, known, rest)...)
}

// sameBut reports whether two boards are the same but for the cells in
// unknown.
func sameBut(a, b string, unknown []int) bool {
	if len(unknown) == 0 || len(a) != len(b) {
		return a == b
	}
	for c := 0; c < len(a); c++ {
		if a[c] == b[c] {
			continue
		}
		dead := false
		for _, u := range unknown {
			dead = dead || u == c
		}
		if !dead {
			return false
		}
	}
	return true
}

// commitPrefix commits the turns p every line begins with, and reports
// whether the lines were dropped (a question, or a verdict that waits).
func (r *Referee) commitPrefix(t int64, known string, p []engine.Turn) ([]Event, bool) {
	if len(p) == 0 {
		return nil, false
	}
	if q, ok := r.playable(r.game.Position(), p); ok && q.Result().Over && len(r.unknown) > 0 {
		// Read with a sensor dead, the board never tells the whole
		// story: the game ends on the players' word, not a reading.
		r.lines, r.linesBefore, r.linesOld = nil, nil, nil
		return r.askEnd(t, known, 0, []option{{turns: p, end: q.Result()}}, r.linesReason()), true
	} else if ok && q.Result().Over && t-r.obsSince < r.hop {
		// Nothing ends the game before the board holds. The lines are
		// followed meanwhile, as they are: should the players carry on
		// (the end was misread), the next board goes to them, with
		// what the hands did since (a line begun boards ago is not
		// found afresh from the official position).
		r.linesHold, r.deferred = true, true
		return r.pendingEvent(t, Msg("need.finish-turn"), nil, make(hints, r.b.Len())), true
	}
	before := r.game.Len()
	ev := r.decide(t, known, 0, [][]engine.Turn{p}, r.linesReason())
	if r.game.Len() != before+len(p) || r.question != nil {
		r.lines, r.linesBefore, r.linesOld = nil, nil, nil
		return ev, true
	}
	r.lines = trimLines(r.lines, p)
	r.linesBefore = trimLines(r.linesBefore, p)
	r.linesOld = trimLines(r.linesOld, p)
	r.linesTry, r.linesTryLen = trimLines(r.linesTry, p), r.game.Len()
	return ev, false
}

// shownWhole cuts the turns p every line begins with to those the board
// has shown finished: a capture (chains are seen to their end), or a
// placement after which, in every line, the board shows the position at
// rest or a later turn whole. A placement whose marble the board has not
// shown at rest may yet be an illegal try, or the next player's marble
// read as this turn's (a stuck sensor under the marble really placed).
func shownWhole(lines []line, p []engine.Turn) []engine.Turn {
	if len(p) == 0 || p[len(p)-1].Kind != engine.Place {
		return p
	}
	for _, l := range lines {
		if len(l.turns) == len(p) && !l.rest {
			return p[:len(p)-1]
		}
	}
	return p
}

// trimLines drops the committed turns p from the lines that begin with
// them, and the lines that do not.
func trimLines(lines []line, p []engine.Turn) []line {
	out := lines[:0:0]
	for _, l := range lines {
		if len(l.turns) >= len(p) && sameTurns(l.turns[:len(p)], p) {
			l.turns = l.turns[len(p):]
			out = append(out, l)
		}
	}
	return out
}

// firstTurns lists the legal turns from p that the board may show done:
// a placement on a cell in at (changed, or unknown) removing a ring in rem
// (gone, or unknown), or a capture whose jumper left a cell in at. Only
// those are generated, so a line costs little however many turns p has.
func firstTurns(p engine.Position, at, rem uint64, buf []engine.Turn) []engine.Turn {
	if p.Result().Over {
		return buf
	}
	if p.HasCapture() {
		for _, t := range p.CaptureTurns() {
			if at&bit(t.Path()[0]) != 0 {
				buf = append(buf, t)
			}
		}
		return buf
	}
	rings, free, marbles := p.Bitboards()
	vacant := rings &^ (marbles[0] | marbles[1] | marbles[2])
	src := engine.FromPool
	if pool := p.Pool(); pool[0]+pool[1]+pool[2] == 0 {
		src = engine.FromCaptures
	}
	for a := at & vacant; a != 0; a &= a - 1 {
		c := engine.Cell(bits.TrailingZeros64(a))
		others := free &^ bit(c)
		for _, col := range engine.Colors {
			if others == 0 {
				if t := engine.PlaceTurn(col, src, c, engine.NoCell); p.Legal(t) {
					buf = append(buf, t)
				}
				continue
			}
			for rm := others & rem; rm != 0; rm &= rm - 1 {
				if t := engine.PlaceTurn(col, src, c, engine.Cell(bits.TrailingZeros64(rm))); p.Legal(t) {
					buf = append(buf, t)
				}
			}
		}
	}
	return buf
}

// doubt checks a board that one turn explains, seen after a stall,
// against every line of play from the official position: when other lines
// (two turns seen at once, a turn and the next under way) explain it too,
// the referee follows them all rather than commit the one turn. Seen scan
// by scan, a board one turn from the last is that turn.
func (r *Referee) doubt(t int64, obs string) ([]Event, bool) {
	if r.noTwo || r.lines != nil {
		return nil, false
	}
	if !r.stalled {
		// Scan by scan, a board one turn from the last is that turn,
		// unless a marble seen in passing, and gone, may have jumped to
		// where the turn puts its own (see jumpsFrom): the lines decide.
		if len(r.unknown) > 0 || !r.jumpShown(obs) {
			return nil, false
		}
		return r.linesObserve(t, obs)
	}
	work := stepPlays
	next, whole := r.step([]line{r.rootLine()}, r.current(obs), &work)
	if whole && len(next) == 1 && len(r.unknown) == 0 {
		// The stall may have hidden a marble put down and jumped away
		// at once, the capture still under way: the jumper stands where
		// the one turn puts its marble (see hiddenTaken).
		r.jumping = true
		defer func() { r.jumping = false }()
		next, whole = r.afterStall(next, obs, &work)
	}
	if whole && len(next) < 2 && (len(next) == 0 || len(r.unknown) > 0 || r.framesAgree(next[0], obs) && !r.guessOpen()) {
		return nil, false
	}
	// More than one line, or one the frames seen in passing rule out (the
	// line played is one the search did not reach): the lines decide.
	return r.linesObserve(t, obs)
}

// jumpShown reports whether a ring vacant on the official board and on
// obs showed a marble in passing from which one hop lands on a marble obs
// shows new (see jumpSources).
func (r *Referee) jumpShown(obs string) bool {
	shown := r.showed[0] | r.showed[1] | r.showed[2]
	if shown == 0 {
		return false
	}
	exp := r.Expected()
	return len(obs) == len(exp) && r.jumpSources(newMarbles(obs, exp), obs, exp)&shown != 0
}

// newMarbles is the cells on which obs shows a marble that cells does not
// hold.
func newMarbles(obs, cells string) uint64 {
	var out uint64
	for c := 0; c < len(obs); c++ {
		if isMarble(obs[c]) && obs[c] != cells[c] {
			out |= bit(engine.Cell(c))
		}
	}
	return out
}

// guessOpen reports whether a question about turns is open, the game
// following its guess meanwhile.
func (r *Referee) guessOpen() bool {
	q := r.question
	return q != nil && q.prov >= 0 && q.sockets == nil
}

// sameLines reports whether two sets of lines are the same turns.
func sameLines(a, b []line) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameLine(a[i], b[i]) {
			return false
		}
	}
	return true
}

// unseenOnly reports whether every line has a placement whose marble obs
// does not show (put down and claimed before the scan saw it), nor showed
// in passing on its ring (showed, by colour: see Referee.showed).
func unseenOnly(lines []line, obs string, showed [3]uint64) bool {
	for _, l := range lines {
		unseen := false
		for _, t := range l.turns {
			unseen = unseen || t.Kind == engine.Place && !isMarble(obs[t.At]) && showed[t.Color]&bit(t.At) == 0
		}
		if !unseen {
			return false
		}
	}
	return len(lines) > 0
}

// afterStall adds to next, the lines from the official position that
// explain the board raw after a stall, the longer ones the stall may have
// hidden (see the comments), and reports false when the budget ran out.
func (r *Referee) afterStall(next []line, raw string, work *int) ([]line, bool) {
	whole := true
	// A longer line is followed only if it accounts for the hands'
	// traces since the last settled board: it changes or passes over
	// every cell they touched, and puts a marble of each colour seen in
	// passing where it was seen. A cell no line found so far accounts
	// for (a glitch, a hand passed over) is no evidence against it.
	noise := r.touchedWant()
	for _, l := range next {
		if cov, _, ok := r.lineCells(l); ok {
			noise &^= cov
		}
	}
	fits := func(l line) bool {
		cov, held, ok := r.lineCells(l)
		return ok && r.showsColours(held) && r.touchedWant()&^noise&^cov == 0
	}
	// After a stall, more turns may have come and gone than the lines
	// look for: a line one turn longer may explain the board too
	// (a capture seen whole may be two, a placement between them).
	// The referee follows those the hands' traces allow beside the
	// others, rather than commit a shorter line as certain.
	r.deeper = 1
	more, ok := r.step([]line{r.rootLine()}, r.current(raw), work)
	r.deeper = 0
	if !ok {
		whole = false
	}
	for _, l := range more {
		if fits(l) && !hasLine(next, l) {
			next = append(next, l)
		}
	}
	if whole {
		// The stall may have hidden the hands anywhere: a marble put
		// on a ring and jumped away, or captured, by the next turn
		// leaves no trace. Such lines are followed too, as far as
		// the budget goes (past it, the referee goes on with those
		// it has, as it did before it looked).
		cur := r.current(raw)
		hidden := r.unseenRings() &^ cur.touched
		cur.touched |= hidden
		spare := *work
		more, ok := r.step([]line{r.rootLine()}, cur, &spare)
		*work = spare
		if ok {
			for _, l := range more {
				if taken, hop := r.hiddenTaken(l, hidden, raw); fits(l) && taken && !hasLine(next, l) {
					l.hop = hop
					next = append(next, l)
				}
			}
		}
	}
	return next, whole
}

// deeperLines looks for lines from the official position one turn
// deeper than extend does, and returns those it can believe (see
// believable), or none; ok is false when the budget ran out.
func (r *Referee) deeperLines(raw string, work *int) (lines []line, ok bool) {
	r.deeper = 1
	next, whole := r.step([]line{r.rootLine()}, r.current(raw), work)
	r.deeper = 0
	if !whole {
		return nil, false
	}
	return r.believable(next), true
}

// showsColours reports whether held (the cells a line put a marble of
// each colour on) holds every cell that showed a marble of that colour in
// passing since the last settled board.
func (r *Referee) showsColours(held [3]uint64) bool {
	for k := range held {
		if r.showed[k]&^held[k] != 0 {
			return false
		}
	}
	return true
}

// touchedWant is the cells the hands touched since the last settled
// board, those that read '?' now aside.
func (r *Referee) touchedWant() uint64 {
	want := r.touched
	for c := 0; c < len(r.settled); c++ {
		if r.settled[c] == '?' {
			want &^= bit(engine.Cell(c))
		}
	}
	return want
}

// unseenRings is the vacant rings of the official position next to a
// marble: where a marble put down in a stall may have been jumped away
// or captured before the scan saw it.
func (r *Referee) unseenRings() uint64 {
	rings, _, marbles := r.game.Position().Bitboards()
	all := marbles[0] | marbles[1] | marbles[2]
	var near uint64
	for m := all; m != 0; m &= m - 1 {
		for _, n := range r.b.Neighbours(engine.Cell(bits.TrailingZeros64(m))) {
			near |= bit(n)
		}
	}
	return near & rings &^ all
}

// hiddenTaken reports whether every marble line l puts on a ring in
// hidden (where the board never showed it) is gone by the next turn: it
// jumps, or is jumped over; hop reports that the last one is jumping on
// the board obs (see doubt).
func (r *Referee) hiddenTaken(l line, hidden uint64, obs string) (taken, hop bool) {
	p := r.game.Position()
	pending := engine.NoCell
	for _, turn := range l.turns {
		q, err := p.Play(turn)
		if err != nil {
			if q, err = p.PlayOverCapture(turn); err != nil {
				return false, false
			}
		}
		if pending != engine.NoCell {
			if turn.Kind != engine.Capture || isMarble(q.Cells()[pending]) {
				return false, false
			}
			pending = engine.NoCell
		}
		if turn.Kind == engine.Place && hidden&bit(turn.At) != 0 {
			pending = turn.At
		}
		for q.MustPass() && !q.Result().Over {
			q = q.MustPlay(engine.PassTurn())
		}
		p = q
	}
	if pending == engine.NoCell {
		return true, false
	}
	// The last turn's hidden marble may be jumping now, when a single
	// turn explains the board (see doubt): the line has a capture under
	// way from its ring, which the board shows vacant, and a marble of
	// its colour where the first hop lands, on a ring vacant in the line
	// (and so one the hands touched since the last board).
	if !r.jumping || l.rest || isMarble(obs[pending]) || !l.pos.HasCapture() {
		return false, false
	}
	colour := l.cells[pending]
	for _, c := range l.pos.CaptureTurns() {
		if path := c.Path(); path[0] == pending && obs[path[1]] == colour && l.cells[path[1]] == 'o' && r.touched&bit(path[1]) != 0 {
			return true, true
		}
	}
	return false, false
}

// hasLine reports whether lines holds a line of the same turns as l.
func hasLine(lines []line, l line) bool {
	for _, x := range lines {
		if sameLine(x, l) {
			return true
		}
	}
	return false
}

// colourShown reports whether some line puts a marble of the colour each
// cell showed in passing on it (always, when none showed one).
func (r *Referee) colourShown(lines []line) bool {
	if r.showed == [3]uint64{} {
		return true
	}
	for _, l := range lines {
		if _, held, ok := r.lineCells(l); ok && r.showsColours(held) {
			return true
		}
	}
	return false
}

// believable keeps, of lines found by looking deeper than usual, those
// that put a marble of the colour each cell showed in passing on it, and
// believes them only if each also changes or passes over every cell the
// hands touched since the last settled board (a '?' reading aside):
// otherwise it returns none.
func (r *Referee) believable(lines []line) []line {
	want := r.touchedWant()
	var kept []line
	for _, l := range lines {
		cov, held, ok := r.lineCells(l)
		switch {
		case !ok || want&^cov != 0 && r.showsColours(held):
			return nil
		case r.showsColours(held):
			kept = append(kept, l)
		}
	}
	return kept
}

// lineCells plays line l from the official position and returns the
// cells its turns change or pass over (with those where the board is not
// yet its position: a turn under way), and, for white, grey and black,
// the cells a marble of that colour stood on or passed over.
func (r *Referee) lineCells(l line) (cov uint64, held [3]uint64, ok bool) {
	hold := func(cells string) {
		for c := 0; c < len(cells); c++ {
			if k := marbleIndex(cells[c]); k >= 0 {
				held[k] |= bit(engine.Cell(c))
			}
		}
	}
	p := r.game.Position()
	hold(p.Cells())
	hold(r.settled)
	for _, turn := range l.turns {
		q, err := p.Play(turn)
		if err != nil {
			if q, err = p.PlayOverCapture(turn); err != nil {
				return 0, held, false
			}
		}
		before, after := p.Cells(), q.Cells()
		for c := 0; c < len(before); c++ {
			if before[c] != after[c] {
				cov |= bit(engine.Cell(c))
			}
		}
		hold(after)
		if turn.Kind == engine.Place {
			// Its marble stood there, if only until its ring was claimed.
			held[turn.Color] |= bit(turn.At)
		}
		if path := turn.Path(); len(path) > 0 {
			k := marbleIndex(before[path[0]])
			for _, c := range path {
				cov |= bit(c)
				if k >= 0 {
					held[k] |= bit(c)
				}
			}
		}
		for q.MustPass() && !q.Result().Over {
			q = q.MustPlay(engine.PassTurn())
		}
		p = q
	}
	for c := 0; c < len(l.cells) && c < len(r.settled); c++ {
		if l.cells[c] != r.settled[c] {
			cov |= bit(engine.Cell(c))
		}
	}
	return cov, held, true
}

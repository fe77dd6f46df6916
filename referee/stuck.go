package referee

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
)

// Stuck sensors.
//
// A dead sensor reads '?', and the referee knows at once not to trust it.
// A stuck sensor reads a plausible content ('o', a marble, '.') whatever
// is put on its socket, and nothing tells it from a real board until the
// boards stop making sense: a marble put on the stuck socket shows only as
// the ring its player removed, and the next player's marble then looks
// like the end of that turn. The referee finds such a sensor when the
// settled boards since a position up to maxRevise turns back are explained
// by no line of play as read, but are by lines of play in which one
// socket, whose reading has not changed since, holds something else. It
// then reports that socket as a sensor fault, referees on with the socket
// unknown (as a dead one), and asks the players about the turns the
// faulty reading made it commit: the options are the lines of play that
// explain every board, and none is fact until the players answer. A stuck
// socket whose reading changes reads again.
//
// Nothing tells a stuck reading from a real one before the boards
// contradict it; the turns committed before then are committed on the
// reading, as any referee would, and asked about once the fault shows.

// maxRevise is how many committed turns back the referee looks for the
// board where a stuck sensor began to mislead it; maxHist bounds the
// settled boards kept for that.
const (
	maxRevise = 12
	maxHist   = 160
)

// stuckReach is how far (in steps between neighbouring sockets) a stuck
// socket may lie from the cells where the board contradicts the official
// one: a jump over it, a marble beside it.
const stuckReach = 2

// replayWork bounds one replay's cost: the turns it plays to follow the
// lines through the boards (each a microsecond or two here, ten on a Pi
// Zero). It keeps a relock to tens of milliseconds whatever the boards.
const replayWork = 8000

// searchWork bounds a whole stuck search: the replays of all its
// candidate sockets share it.
const searchWork = 40000

// lostRetry reports whether the referee, lost for n settled boards, looks
// for its place again now: after 1, 2, 4, 8... boards, so that boards that
// never make sense cost little.
func lostRetry(n int) bool { return n > 0 && n&(n-1) == 0 }

// maxStuck is how many sockets the referee takes for stuck at once, when
// more than one would explain the boards.
const maxStuck = 2

// histBoard is one settled board, with the official line of play it was
// read against.
type histBoard struct {
	at    board
	since int64
	n     int  // the game's length then
	root  line // the official position then
}

// board is a settled board as the line matchers read it: its cells, the
// cells the hands touched since the board before, and whether the scan
// stalled in between.
type board struct {
	cells   string
	touched uint64
	stalled bool
}

// current is the settled board being refereed.
func (r *Referee) current(cells string) board {
	return board{cells: cells, touched: r.touched, stalled: r.stalled}
}

// remember keeps the settled board for stuckSearch, dropping boards from
// before the last maxRevise turns.
func (r *Referee) remember(cells string) {
	n := r.game.Len()
	k := 0
	for k < len(r.hist) && (n-r.hist[k].n > maxRevise || r.hist[k].n > n) {
		k++
	}
	if k == len(r.hist) || len(r.hist)-k >= maxHist {
		k = max(k, len(r.hist)-maxHist+1)
	}
	if k > 0 {
		r.hist = append(r.hist[:0], r.hist[k:]...)
	}
	r.hist = append(r.hist, histBoard{at: r.current(cells), since: r.obsSince, n: n, root: r.rootLine()})
}

// faulty is the sockets whose sensors are dead (as reported) or stuck.
func (r *Referee) faulty() uint64 {
	set := r.stuck
	for _, c := range r.dead {
		set |= bit(engine.Cell(c))
	}
	return set
}

// mask hides the stuck sockets' readings ('?'), and notices a stuck
// socket that reads something else again. It returns the frame to settle
// and the events to report.
func (r *Referee) mask(t int64, cells string) (string, []Event) {
	if r.stuck == 0 {
		return cells, nil
	}
	var ev []Event
	for _, c := range cellsOf(r.stuck) {
		if cells[c] != r.stuckRead[c] && cells[c] != '?' {
			r.stuck &^= bit(c)
			msg := Msg("fault.stuck-reads", r.b.Label(c))
			ev = append(ev, Event{t, Fault{Reason: msg.English(), ReasonMsg: &msg}})
		}
	}
	if r.stuck == 0 {
		return cells, ev
	}
	b := []byte(cells)
	for _, c := range cellsOf(r.stuck) {
		b[c] = '?'
	}
	return string(b), ev
}

// stuckSearch looks for a stuck sensor behind a board that no turn from
// the official position explains (see above), and reports whether it
// found one. With held, the board is a capture under way that has held
// for the hop time: a stuck sensor may be showing a jumper or a captured
// marble that is gone, and the lines that need one explain the board with
// the capture done.
func (r *Referee) stuckSearch(t int64, raw string, held bool) ([]Event, bool) {
	if r.stuck != 0 || len(r.unknown) > 0 || r.stalled || r.Over() || r.question != nil || len(r.hist) < 2 {
		return nil, false
	}
	boards := r.histSince()
	if boards == nil {
		return nil, false
	}
	// As read, do the boards have a line of play (held: at rest)? Then
	// nothing is stuck.
	budget := searchWork
	if lines, _ := r.replay(boards, engine.NoCell, &budget); restOnly(lines, held) != nil {
		return nil, false
	}
	// The candidates: the sockets whose reading contradicts the game,
	// then their neighbours, then theirs, while the search's work lasts
	// (searchWork).
	exp := r.Expected()
	var ring, seen uint64
	for c := 0; c < len(exp); c++ {
		if raw[c] != exp[c] {
			ring |= bit(engine.Cell(c))
		}
	}
	var near []engine.Cell
	for step := 0; step <= stuckReach && ring != 0; step++ {
		seen |= ring
		near = append(near, cellsOf(ring)...)
		var next uint64
		for _, c := range cellsOf(ring) {
			for _, x := range r.b.Neighbours(c) {
				next |= bit(x)
			}
		}
		ring = next &^ seen
	}
	// The sockets that would do, with the fewest boards passed over as
	// illegal tries. Two are both taken for stuck: the one that is not
	// reads again at its next change, and is then trusted.
	var found [][]engine.Turn
	var cells uint64
	fewest := len(boards)
	for _, c := range near {
		// A stuck sensor reads the same over the boards that contradict
		// the game: the last two, at least.
		if raw[c] == '?' || r.lastChange[c] >= boards[len(boards)-2].since {
			continue
		}
		if budget <= 0 {
			break
		}
		lines, skipped := r.replay(boards, c, &budget)
		lines = restOnly(lines, held)
		if lines == nil || skipped > fewest {
			continue
		}
		if skipped < fewest {
			found, cells, fewest = nil, 0, skipped
		}
		cells |= bit(c)
		for _, l := range lines {
			found = append(found, l.turns)
		}
	}
	if bits.OnesCount64(cells) > maxStuck {
		return nil, false // too many would do: let later boards tell
	}
	if cells == 0 {
		return nil, false
	}
	r.stuck |= cells
	labels := r.labels(cellsOf(cells))
	for _, c := range cellsOf(cells) {
		r.stuckRead[c] = r.frame[c]
	}
	msg := Msg("fault.stuck-cell", strings.Join(labels, "/"))
	ev := []Event{{t, Fault{Reason: msg.English(), ReasonMsg: &msg}}}
	return append(ev, r.askRevision(t, raw, cells, boards[0].n, found)...), true
}

// histSince returns the settled boards kept since the deepest one read
// against a position of the game as it is, or nil for fewer than two.
func (r *Referee) histSince() []histBoard {
	for i, h := range r.hist {
		if h.n <= r.game.Len() && r.game.PositionAfter(h.n).Equal(h.root.pos) {
			if i >= len(r.hist)-1 {
				return nil
			}
			return r.hist[i:]
		}
	}
	return nil
}

// relock finds the referee's place again when the boards have stopped
// making sense: the lines of play that explain every settled board of the
// last turns (illegal tries passed over), from up to maxRevise turns
// back, dead sockets unknown as they were read. Where they change the
// turns committed, the players are asked (askRevision). It reports false
// when no line explains the boards.
func (r *Referee) relock(t int64, raw string) ([]Event, bool) {
	if r.Over() {
		return nil, false
	}
	boards := r.histSince()
	if boards == nil {
		return nil, false
	}
	lines, _ := r.replay(boards, engine.NoCell, nil)
	if lines == nil {
		return nil, false
	}
	ls := make([][]engine.Turn, 0, len(lines))
	for _, l := range lines {
		ls = append(ls, l.turns)
	}
	r.lines, r.linesBefore, r.linesOld = nil, nil, nil
	ev := r.askRevision(t, raw, 0, boards[0].n, ls)
	if r.illegal {
		r.illegal = false
		ev = append([]Event{{t, Restored{Player: r.game.Position().ToMove()}}}, ev...)
	}
	return ev, true
}

// restOnly keeps the lines at rest, if only, and returns nil for none.
func restOnly(lines []line, only bool) []line {
	if !only {
		return lines
	}
	var rest []line
	for _, l := range lines {
		if l.rest {
			rest = append(rest, l)
		}
	}
	return rest
}

// replay follows every line of play from boards[0]'s official position
// through the boards, with cell (unless NoCell) unknown from the first
// board after its reading last changed. It returns the lines that explain
// them all, or nil. A board no line explains, an illegal try put right
// since, is passed over (skipped counts them); the last one must be
// explained.
func (r *Referee) replay(boards []histBoard, cell engine.Cell, budget *int) (lines []line, skipped int) {
	work := replayWork
	if budget != nil {
		work = min(work, *budget)
		defer func(from int) { *budget -= from - work }(work)
	}
	lines = []line{boards[0].root}
	var before []line // the lines before the last board explained
	frozen := false
	for i, h := range boards {
		b := h.at
		// The board that first shows the stuck reading shows the truth
		// (a sensor freezes at what it reads), and is no illegal try.
		first := false
		if cell != engine.NoCell && h.since >= r.lastChange[cell] && !frozen {
			frozen, first = true, true
		}
		if cell != engine.NoCell && h.since > r.lastChange[cell] && b.cells[cell] != '?' {
			m := []byte(b.cells)
			m[cell] = '?'
			b.cells = string(m)
		}
		next, whole := r.step(lines, b, &work)
		if len(next) == 0 && whole && before != nil && !first && i == len(boards)-1 {
			// The board before the last may have been an illegal try put
			// right since, which some line happened to explain: it is
			// passed over, and the lines before it go on.
			if next, whole = r.step(before, b, &work); len(next) > 0 {
				skipped++
			}
		}
		if !whole {
			return nil, skipped // too costly to tell: no answer
		}
		if len(next) == 0 && i < len(boards)-1 && !first {
			// A board no line explains (an illegal try, put right since)
			// changes no line; the last board must be explained.
			skipped++
			continue
		}
		if len(next) == 0 {
			return nil, skipped
		}
		before, lines = lines, next[:min(len(next), maxLines)]
	}
	return lines, skipped
}

// askRevision asks about the turns since base that the lines of play
// (read with cell unknown) say were played, where they are not those
// committed: a stuck sensor made the referee commit on its reading.
func (r *Referee) askRevision(t int64, raw string, cells uint64, base int, lines [][]engine.Turn) []Event {
	// The committed turns since base, passes left out as the lines do.
	done, at := r.turnsPlayed(base, r.game.Len())
	// The turns every line and the game share stand.
	keep := len(done)
	for _, l := range lines {
		k := 0
		for k < keep && k < len(l) && l[k] == done[k] {
			k++
		}
		keep = k
	}
	from := base
	if keep > 0 {
		from = at[keep-1]
	}
	var opts []option
	start := r.game.PositionAfter(from)
	for _, l := range lines {
		rest := l[keep:]
		dup := len(rest) == 0
		for _, o := range opts {
			dup = dup || sameTurns(o.turns, rest)
		}
		if dup {
			continue
		}
		if q, ok := r.playable(start, rest); ok {
			opts = append(opts, option{turns: append([]engine.Turn(nil), rest...), end: q.Result()})
		}
	}
	known := []byte(r.known(raw))
	for _, c := range cellsOf(cells) {
		known[c] = '?'
	}
	if len(opts) == 0 {
		// The turns committed stand; the board shows a turn under way.
		return r.pendingEvent(t, Msg("need.finish-turn"), nil, make(hints, r.b.Len()))
	}
	reason := "the lines of play that explain every board of the last turns"
	if cells != 0 {
		reason = fmt.Sprintf("read with the sensor of %s stuck", strings.Join(r.labels(cellsOf(cells)), " or "))
	}
	back := r.game.Len() - from
	for _, o := range opts {
		if o.end.Over {
			return r.askEnd(t, string(known), back, opts, reason)
		}
	}
	r.doubtful = true
	return r.ask(t, string(known), back, opts, reason)
}

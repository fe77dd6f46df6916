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

// maxReplayLines bounds the lines a replay follows. A socket unknown over
// many turns lets through every colour put on it and every ring removed
// around it: more lines than the live ones (maxLines), all of which must
// be kept for the players' answer to be among them. replayWork bounds
// their cost.
const maxReplayLines = 512

// stuckReach is how far (in steps between neighbouring sockets) a stuck
// socket may lie from the cells where the board contradicts the official
// one: a jump over it, a marble beside it.
const stuckReach = 2

// replayWork bounds one replay's cost: the turns it plays to follow the
// lines through the boards (each a microsecond or two here, ten on a Pi
// Zero). It keeps a relock to tens of milliseconds whatever the boards.
const replayWork = 8000

// searchWork bounds a whole stuck search: the replays of all its
// candidate sockets share it (80,000 turns played: a tenth of a second or
// so here, under a second on a Pi Zero; the search runs only once boards
// stop making sense, after 1, 2, 4, 8... such boards). A socket that never changed is unknown over
// all the boards kept, and each of its replays can cost a whole
// replayWork: 40,000 left the socket stuck untried in games the exams
// follow with 80,000.
const searchWork = 80000

// lostRetry reports whether the referee, lost for n settled boards, looks
// for its place again now: after 1, 2, 4, 8... boards, so that boards that
// never make sense cost little.
func lostRetry(n int) bool { return n > 0 && n&(n-1) == 0 }

// tooCostly is what replay reports as boards passed over when its work
// ran out before the last board.
const tooCostly = -1

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
	// still is the marbles the official position (in frame-log form:
	// root) and the board share whose sensors read the same since the
	// board the position's last turn was read from (see stillMarbles).
	still uint64
	root  string
	// showed is the rings that showed a marble of each colour in passing
	// since the board before (the current board only; none in replays).
	showed [3]uint64
}

// current is the settled board being refereed.
func (r *Referee) current(cells string) board {
	return board{cells: cells, touched: r.touched, stalled: r.stalled, still: r.still, root: r.Expected(), showed: r.showed}
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
	if r.stuck != 0 || len(r.unknown) > 0 || r.stalled || r.Over() || len(r.hist) < 2 {
		return nil, false
	}
	if r.notStuck != 0 && r.game.Len()-r.notStuckAt > maxRevise {
		r.notStuck, r.doubted = 0, 0
	}
	boards := r.histSince()
	if boards == nil {
		return nil, false
	}
	if r.question != nil && boards[0].n > r.question.base {
		// A question is open about turns before the boards: a revision
		// from after them would leave its guess standing as fact.
		return nil, false
	}
	for _, h := range boards[1:] {
		if h.at.stalled {
			// The scan stalled: turns may have gone unseen, and a line of
			// play cut short by that looks like a stuck sensor.
			return nil, false
		}
	}
	// As read, do the boards have a line of play (held: at rest)? Then
	// nothing is stuck.
	budget := searchWork
	if lines, _ := r.replay(boards, engine.NoCell, &budget, -1, 0); plausible(restOnly(lines, held)) != nil {
		return nil, false
	}
	near := r.stuckCandidates(raw)
	found, base := r.stuckSockets(boards, near, raw, held, budget)
	if len(found) > maxStuck {
		// Several sockets would do, and nothing on the board tells which:
		// the players know where they put the marble the board missed.
		// However many they are (a marble put down unseen and its ring
		// claimed at once could have been on any ring that never changed;
		// no later board will tell), they are sockets of the board: the
		// screen and the buttons go through them one by one, the LEDs
		// show each, the console lists them.
		if q := r.question; q != nil && q.sockets != nil && sameSockets(q.allSockets, found) {
			return nil, false // asked already
		}
		return r.askSocket(t, base, found, 0), true
	}
	return r.takeStuck(t, raw, found, base)
}

// stuckCandidates lists the sockets a stuck sensor may be on, nearest
// first: those whose reading contradicts the game, then their
// neighbours, then theirs, out to stuckReach, then every other socket.
func (r *Referee) stuckCandidates(raw string) []engine.Cell {
	// The sockets whose reading contradicts the game, then their
	// neighbours, then theirs, while the search's work lasts (searchWork).
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
	// Then the sockets further away: a marble put on a stuck socket and
	// its ring claimed at once shows only as turns read one player
	// shifted, which the board contradicts far from the socket.
	for c := 0; c < len(exp); c++ {
		if seen&bit(engine.Cell(c)) == 0 {
			near = append(near, engine.Cell(c))
		}
	}
	return near
}

// stuckSockets searches the candidates near for the sockets whose being
// stuck explains the boards, within budget: first those not passed
// over, then, with what is left, those passed over (notStuck).
func (r *Referee) stuckSockets(boards []histBoard, near []engine.Cell, raw string, held bool, budget int) ([]socketLines, int) {
	// The sockets that would do, with the fewest boards passed over as
	// illegal tries. Two are both taken for stuck: the one that is not
	// reads again at its next change, and is then trusted.
	// The boards are replayed from the furthest back first, then, if no
	// socket explains them, from fewer turns back: the fewer boards, the
	// fewer illegal tries to mislead the replay (a socket that never
	// changed is unknown over all of them).
	//
	// The sockets passed over (notStuck) are tried last, when no other
	// explains the boards: "none of these" rejected the lines read with
	// them, or the marble on them, and a socket may explain the boards
	// with other lines (those rejected are passed over), or hide a ring
	// removed rather than a marble put down. Else a stuck socket whose
	// first lines were wrong would stay hidden from the search, and the
	// referee lost, for as long as it is passed over.
	pass := budget
	if r.notStuck != 0 {
		pass = budget / 2 // the rest for the sockets passed over
	}
	rest := budget - pass
	found, base := r.searchSockets(boards, near, raw, held, r.notStuck, &pass)
	if found == nil && r.notStuck != 0 {
		rest += max(pass, 0)
		found, base = r.searchSockets(boards, near, raw, held, ^r.notStuck, &rest)
		if len(found) > maxStuck {
			// The players said they put no marble on the sockets of a
			// socket question: it is not asked again, and those whose
			// lines were rejected are.
			k := 0
			for _, s := range found {
				if r.doubted&bit(s.cell) != 0 {
					found[k] = s
					k++
				}
			}
			found = found[:k]
		}
	}
	return found, base
}

// takeStuck takes the sockets found for stuck: a fault that names them,
// and a question about the turns read with them.
func (r *Referee) takeStuck(t int64, raw string, found []socketLines, base int) ([]Event, bool) {
	var cells uint64
	var lines [][]engine.Turn
	var by []uint64 // the socket each line is read with
	for _, s := range found {
		cells |= bit(s.cell)
		lines = append(lines, s.lines...)
		for range s.lines {
			by = append(by, bit(s.cell))
		}
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
	return append(ev, r.askRevisionBy(t, raw, cells, base, lines, by)...), true
}

// searchSockets is stuckSearch's search: the sockets of near (but those
// of skip) that explain the boards, each with its lines, over all the
// boards first, then over fewer (windows); and the turn the lines begin
// after.
func (r *Referee) searchSockets(boards []histBoard, near []engine.Cell, raw string, held bool, skip uint64, budget *int) ([]socketLines, int) {
	var found []socketLines
	base := boards[0].n
	for _, w := range r.windows(boards) {
		// The fewer boards a socket leaves unexplained, the likelier it
		// is: every candidate is tried with no board passed over first,
		// then one, two..., so that a wrong socket stops at its first
		// unexplained boards and the search's work reaches them all.
		// A socket is tried again with more boards passed over only when
		// it stopped for passing over too many.
		var done uint64
		for most := 0; most < len(w) && found == nil && *budget > 0; most = max(2*most, 1) {
			for _, c := range near {
				// A stuck sensor reads the same over the boards that
				// contradict the game: the last two, at least.
				if raw[c] == '?' || r.lastChange[c] >= boards[len(boards)-2].since || (done|skip)&bit(c) != 0 {
					continue
				}
				if *budget <= 0 {
					break
				}
				lines, skipped := r.replay(w, c, budget, most, 0)
				if skipped == tooCostly {
					// Unknown over all the boards, the socket lets
					// through too many lines to follow: perhaps it froze
					// later, and read the truth until then. From the
					// boards of the last 8, 4 and 2 turns on.
					for _, from := range r.freezes(w) {
						if lines, skipped = r.replay(w, c, budget, most, from); skipped != tooCostly && lines != nil || *budget <= 0 {
							break
						}
					}
				}
				if skipped <= most {
					done |= bit(c) // its answer, whatever the limit
				}
				lines = plausible(restOnly(lines, held))
				if lines == nil {
					continue
				}
				var ls [][]engine.Turn
				for _, l := range lines {
					if !r.isRejected(w[0].n, l.turns) {
						ls = append(ls, l.turns)
					}
				}
				if ls == nil {
					continue
				}
				if found != nil && skipped > found[0].skipped {
					continue
				}
				if found != nil && skipped < found[0].skipped {
					found = nil
				}
				found = append(found, socketLines{cell: c, skipped: skipped, lines: ls})
			}
		}
		if found != nil {
			base = w[0].n
			break
		}
	}
	return found, base
}

// freezes returns the boards of w from which a socket may be taken for
// unknown when unknown over all of them is too costly to replay: those
// from 8, 4 and 2 turns before the last.
func (r *Referee) freezes(w []histBoard) []int {
	var out []int
	last := w[len(w)-1].n
	for _, back := range []int{8, 4, 2} {
		for i, h := range w {
			if h.n >= last-back {
				if i > 0 && (len(out) == 0 || out[len(out)-1] != i) {
					out = append(out, i)
				}
				break
			}
		}
	}
	return out
}

// windows returns all the boards, then those since 8, 4 and 2 turns
// back: suffixes of boards that begin at a board read against a position
// of the game as it is, and hold two boards at least.
func (r *Referee) windows(boards []histBoard) [][]histBoard {
	n := r.game.Len()
	out := [][]histBoard{boards}
	for _, back := range []int{8, 4, 2} {
		for i, h := range boards {
			if h.n >= n-back {
				if i > 0 && len(boards)-i >= 2 && (len(out) == 0 || len(out[len(out)-1]) != len(boards)-i) && r.game.PositionAfter(h.n).Equal(h.root.pos) {
					out = append(out, boards[i:])
				}
				break
			}
		}
	}
	return out
}

// socketLines are the lines of play that explain the boards with one
// socket unknown (from the position after turn base).
type socketLines struct {
	cell    engine.Cell
	lines   [][]engine.Turn
	skipped int // boards the lines pass over as illegal tries
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
	// A socket taken for stuck is unknown from the board that first showed
	// its frozen reading, not only since it was found: the boards kept
	// from before then read it as it froze. The lines are read with it
	// unknown, and may all be wrong (it was not the one): the question
	// lets the players say so (askRevisionBy's "none of these").
	cell, cells := engine.NoCell, r.stuck
	if cs := cellsOf(r.stuck); len(cs) == 1 {
		cell = cs[0]
	}
	lines, _ := r.replay(boards, cell, nil, -1, 0)
	if lines == nil {
		return nil, false
	}
	ls := make([][]engine.Turn, 0, len(lines))
	for _, l := range lines {
		ls = append(ls, l.turns)
	}
	if ls, _ = r.dropRejected(boards[0].n, ls, nil); len(ls) == 0 {
		return nil, false
	}
	r.lines, r.linesBefore, r.linesOld = nil, nil, nil
	ev := r.askRevision(t, raw, cells, boards[0].n, ls)
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

// plausible keeps the lines that saw every turn on its own board, or
// after a stall (no leaps), and returns nil for none.
func plausible(lines []line) []line {
	var out []line
	for _, l := range lines {
		if l.leaps == 0 {
			out = append(out, l)
		}
	}
	return out
}

// replay follows every line of play from boards[0]'s official position
// through the boards, with cell (unless NoCell) unknown from the first
// board after its reading last changed. It returns the lines that explain
// them all, or nil. A board no line explains, an illegal try put right
// since, is passed over (skipped counts them); the last one must be
// explained. With most >= 0, lines that pass over more boards than that
// are given up (nil). When the work runs out, it returns nil and tooCostly.
//
// The socket is unknown from board maskFrom on, if that is later: a sensor
// read the truth until it froze, and the later it froze, the fewer lines
// explain the boards (see stuckSearch).
func (r *Referee) replay(boards []histBoard, cell engine.Cell, budget *int, most, maskFrom int) (lines []line, skipped int) {
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
		// (The boards may begin after it, and none of them is that board:
		// the first board kept may be passed over as any other.)
		first := false
		if cell != engine.NoCell && h.since >= r.lastChange[cell] && !frozen {
			frozen, first = true, i > 0
		}
		if cell != engine.NoCell && i >= maskFrom && h.since > r.lastChange[cell] && b.cells[cell] != '?' {
			m := []byte(b.cells)
			m[cell] = '?'
			b.cells = string(m)
		}
		next, whole := r.step(lines, b, &work)
		if !whole {
			return nil, tooCostly // too costly to tell: no answer
		}
		if len(next) == 0 && before != nil {
			// The board before may have been an illegal try that a line
			// happened to explain, killing the true one: the lines from
			// before it.
			if next, whole = r.step(before, b, &work); !whole {
				return nil, tooCostly
			}
			if len(next) > 0 {
				skipped++
			}
		}
		if len(next) == 0 && i < len(boards)-1 && !first {
			// A board no line explains (an illegal try, put right since)
			// changes no line; the last board must be explained.
			skipped++
			if most >= 0 && skipped > most {
				return nil, skipped
			}
			continue
		}
		if len(next) == 0 || most >= 0 && skipped > most {
			return nil, skipped
		}
		before, lines = lines, next[:min(len(next), maxReplayLines)]
	}
	return lines, skipped
}

// askRevision asks about the turns since base that the lines of play
// (read with cell unknown) say were played, where they are not those
// committed: a stuck sensor made the referee commit on its reading.
func (r *Referee) askRevision(t int64, raw string, cells uint64, base int, lines [][]engine.Turn) []Event {
	return r.askRevisionBy(t, raw, cells, base, lines, nil)
}

// askRevisionBy is askRevision with the socket each line is read with
// (by, beside lines), when two sockets were taken for stuck: the answer
// tells which was, and the other is trusted again.
func (r *Referee) askRevisionBy(t int64, raw string, cells uint64, base int, lines [][]engine.Turn, by []uint64) []Event {
	// The turns every line and the game share stand.
	keep, from := r.shared(base, lines)
	var opts []option
	start := r.game.PositionAfter(from)
	for k, l := range lines {
		rest := l[keep:]
		var read uint64
		if k < len(by) {
			read = by[k]
		}
		dup := len(rest) == 0
		for i := range opts {
			if sameTurns(opts[i].turns, rest) {
				dup = true
				opts[i].read |= read
			}
		}
		if dup {
			continue
		}
		if q, ok := r.playable(start, rest); ok {
			opts = append(opts, option{turns: append([]engine.Turn(nil), rest...), end: q.Result(), read: read})
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
	var ev []Event
	ended := false
	for _, o := range opts {
		ended = ended || o.end.Over
	}
	if ended {
		ev = r.askEnd(t, string(known), back, opts, reason)
	} else {
		r.doubtful = true
		ev = r.ask(t, string(known), back, opts, reason)
	}
	if q := r.question; q != nil && by != nil && bits.OnesCount64(cells) > 1 {
		q.stuckCells = cells
	}
	if q := r.question; q != nil && cells != 0 && q.groups == nil && q.cell == engine.NoCell && q.sockets == nil && len(q.options) < maxIndistinct {
		// Read with a socket taken for stuck, the lines may all be wrong
		// (the socket was not the one): the players can say so.
		q.options = append(q.options, option{label: OtherRing, other: true})
		q.revised = cells
		ev[len(ev)-1] = Event{t, r.questionBody()}
	}
	return ev
}

// answerNone takes the players' "none of these" to a question about the
// turns read with a socket taken for stuck. The answer rejects the lines
// offered; it does not say the sensor is sound, nor that the turns the
// boards showed whole before the socket froze are wrong. So the turns
// asked about (the guess, and those committed on it since) are taken
// back, the turns before them stand, and the boards as read are searched
// again with the socket still unknown, the rejected lines passed over:
// the players are asked about what explains them. When nothing does, the
// socket was perhaps not the one: it is read again and passed over while
// another socket explains the boards (doubted: tried again, with other
// lines, when none does). When nothing explains the boards yet, the board
// is refereed on from the turns that stand: the boards to come tell where
// the game went (the lost referee's stuck search, relock).
func (r *Referee) answerNone(t int64, q *question) []Event {
	r.question = nil
	r.lines, r.linesBefore, r.linesOld = nil, nil, nil
	r.reject(q)
	var ev []Event
	if back := r.game.Len() - q.base; back > 0 {
		ev = append(ev, r.takeback(t, back)...)
		r.redo = nil
	}
	raw := r.settled
	if len(raw) != r.b.Len() {
		raw = r.Expected()
	}
	if more, ok := r.lookAgain(t, raw, q.revised&r.stuck, q.base); ok {
		return append(ev, more...)
	}
	// No line read with the socket unknown explains the boards: perhaps it
	// was not the one. It is read again, and the search looks at the
	// others first; at it again (with other lines than those rejected)
	// only when no other explains the boards (see stuckSearch).
	for _, c := range cellsOf(q.revised & r.stuck) {
		r.stuck &^= bit(c)
		msg := Msg("fault.stuck-trusted", r.b.Label(c))
		ev = append(ev, Event{t, Fault{Reason: msg.English(), ReasonMsg: &msg}})
	}
	r.notStuck |= q.revised
	r.doubted |= q.revised
	r.notStuckAt = r.game.Len()
	if more, ok := r.stuckSearch(t, raw, false); ok {
		return append(ev, more...)
	}
	r.guide = r.idleGuidance()
	return ev
}

// maxRejected bounds the rejected lines kept.
const maxRejected = 128

// rejectedLine is a line of play the players said was not played, from
// the position after turn base.
type rejectedLine struct {
	base  int
	turns []engine.Turn
}

// reject keeps the lines question q offered (but OtherRing) as rejected:
// the players answered "none of these". Lines from turns taken back since,
// or from more than twice maxRevise turns back, are dropped.
func (r *Referee) reject(q *question) {
	n := r.game.Len()
	k := 0
	for _, x := range r.rejected {
		if x.base <= n && x.base >= n-2*maxRevise {
			r.rejected[k] = x
			k++
		}
	}
	r.rejected = r.rejected[:k]
	for i := range q.options {
		for _, o := range q.standsFor(i) {
			if !o.other && len(o.turns) > 0 {
				r.rejected = append(r.rejected, rejectedLine{base: q.base, turns: append([]engine.Turn(nil), o.turns...)})
			}
		}
	}
	if len(r.rejected) > maxRejected {
		r.rejected = r.rejected[len(r.rejected)-maxRejected:]
	}
}

// isRejected reports whether the line of play l, from the position after
// turn base (as the game stands), begins with a line the players rejected.
func (r *Referee) isRejected(base int, l []engine.Turn) bool {
	for _, x := range r.rejected {
		if x.base > r.game.Len() {
			continue // from turns taken back since
		}
		want := x.turns
		if x.base >= base {
			// The game's turns from base to the rejected line's base, then it.
			pre, _ := r.turnsPlayed(base, x.base)
			want = append(pre, x.turns...)
		} else {
			// The rejected line begins before base: the game's turns since
			// its base must be its beginning.
			pre, _ := r.turnsPlayed(x.base, base)
			if len(pre) > len(want) || !sameTurns(pre, want[:len(pre)]) {
				continue
			}
			want = want[len(pre):]
		}
		if len(want) > 0 && len(l) >= len(want) && sameTurns(l[:len(want)], want) {
			return true
		}
	}
	return false
}

// dropRejected keeps the lines (from the position after turn base) that
// do not begin with a rejected line, and the socket each is read with (by,
// beside them, when given).
func (r *Referee) dropRejected(base int, lines [][]engine.Turn, by []uint64) ([][]engine.Turn, []uint64) {
	if len(r.rejected) == 0 {
		return lines, by
	}
	var out [][]engine.Turn
	var outBy []uint64
	for i, l := range lines {
		if r.isRejected(base, l) {
			continue
		}
		out = append(out, l)
		if i < len(by) {
			outBy = append(outBy, by[i])
		}
	}
	return out, outBy
}

// lookAgain searches the boards kept since the position after turn base
// for the lines of play that explain them with one of the sockets cells
// unknown, but for those the players rejected, and asks about them
// (askRevisionBy). The turns up to base stand: every line the search
// found agreed on them. It reports false when no line explains the
// boards.
func (r *Referee) lookAgain(t int64, raw string, cells uint64, base int) ([]Event, bool) {
	if cells == 0 || r.Over() || base > r.game.Len() {
		return nil, false
	}
	var boards []histBoard
	for i, h := range r.hist {
		if h.n == base && r.game.PositionAfter(base).Equal(h.root.pos) {
			boards = r.hist[i:]
			break
		}
	}
	if len(boards) < 2 {
		return nil, false
	}
	budget := searchWork
	var lines [][]engine.Turn
	var by []uint64
	for _, c := range cellsOf(cells) {
		ls, skipped := r.replay(boards, c, &budget, -1, 0)
		if skipped == tooCostly {
			for _, from := range r.freezes(boards) {
				if ls, skipped = r.replay(boards, c, &budget, -1, from); skipped != tooCostly && ls != nil || budget <= 0 {
					break
				}
			}
		}
		for _, l := range plausible(ls) {
			lines = append(lines, l.turns)
			by = append(by, bit(c))
		}
	}
	if lines, by = r.dropRejected(base, lines, by); len(lines) > 0 {
		return r.askRevisionBy(t, raw, cells, base, lines, by), true
	}
	return nil, false
}

// trustAgain takes the sockets an answer shows were not stuck for sound
// again: the question was asked with two sockets taken for stuck
// (stuckCells), and the line answered is read with only one of them.
func (r *Referee) trustAgain(t int64, q *question, chosen option) []Event {
	if q.stuckCells == 0 || chosen.read == 0 || chosen.read&^q.stuckCells != 0 || chosen.read == q.stuckCells {
		return nil
	}
	var ev []Event
	for _, c := range cellsOf(q.stuckCells &^ chosen.read) {
		if r.stuck&bit(c) == 0 {
			continue
		}
		r.stuck &^= bit(c)
		msg := Msg("fault.stuck-trusted", r.b.Label(c))
		ev = append(ev, Event{t, Fault{Reason: msg.English(), ReasonMsg: &msg}})
	}
	return ev
}

// shared returns how many of the turns committed since base (passes left
// out, as lines of play leave them) every line begins with, and the game's
// length after them.
func (r *Referee) shared(base int, lines [][]engine.Turn) (keep, from int) {
	done, at := r.turnsPlayed(base, r.game.Len())
	keep = len(done)
	for _, l := range lines {
		k := 0
		for k < keep && k < len(l) && l[k] == done[k] {
			k++
		}
		keep = k
	}
	from = base
	if keep > 0 {
		from = at[keep-1]
	}
	return keep, from
}

// askSocket asks the players on which socket they put the marble the
// board did not see: each of the sockets found would explain the boards
// with its sensor stuck (see stuckSearch), and nothing on the board tells
// which. The turns committed stand until the answer; the answer takes
// that socket for stuck and asks about the turns its lines change
// (askRevision). A question offers at most maxIndistinct options: more
// sockets are offered a page at a time, from found[page] on, the last
// option (OtherRing) asking about the next page.
func (r *Referee) askSocket(t int64, base int, found []socketLines, page int) []Event {
	// The question is about the first turn any line changes.
	var lines [][]engine.Turn
	for _, s := range found {
		lines = append(lines, s.lines...)
	}
	_, from := r.shared(base, lines)
	offer := found[page:]
	if len(offer) > maxIndistinct-1 {
		offer = offer[:maxIndistinct-1]
	}
	q := &question{id: r.nextQuestion + 1, base: base, prov: -1, cell: engine.NoCell, turn: from + 1, sockets: offer, allSockets: found, page: page}
	r.nextQuestion++
	for _, s := range offer {
		q.options = append(q.options, option{label: r.b.Label(s.cell)})
	}
	// The last option is always "on none of these rings": the next page,
	// or, after the last, another explanation.
	q.options = append(q.options, option{label: OtherRing})
	r.lines, r.linesBefore, r.linesOld, r.hyps = nil, nil, nil, nil
	r.question = q
	r.guide = r.idleGuidance()
	return []Event{{t, r.questionBody()}}
}

// answerSocket takes the socket the players named: its sensor is stuck,
// and the turns its lines change are asked about. OtherRing asks about
// the next page of sockets.
func (r *Referee) answerSocket(t int64, q *question, opt int) []Event {
	if opt >= len(q.sockets) {
		r.question = nil
		if next := q.page + len(q.sockets); next < len(q.allSockets) {
			return r.askSocket(t, q.base, q.allSockets, next)
		}
		// None of them: the search looks again without them.
		for _, s := range q.allSockets {
			r.notStuck |= bit(s.cell)
			r.doubted &^= bit(s.cell) // no marble there, the players say
		}
		r.notStuckAt = r.game.Len()
		raw := r.settled
		if len(raw) != r.b.Len() {
			raw = r.Expected()
		}
		ev, _ := r.stuckSearch(t, raw, false)
		return ev
	}
	s := q.sockets[opt]
	r.question = nil
	r.lines, r.linesBefore, r.linesOld = nil, nil, nil
	r.stuck |= bit(s.cell)
	r.stuckRead[s.cell] = r.frame[s.cell]
	msg := Msg("fault.stuck-cell", r.b.Label(s.cell))
	ev := []Event{{t, Fault{Reason: msg.English(), ReasonMsg: &msg}}}
	raw := r.settled
	if len(raw) != r.b.Len() {
		raw = r.Expected()
	}
	return append(ev, r.askRevision(t, raw, bit(s.cell), q.base, s.lines)...)
}

// sameSockets reports whether two socket lists name the same sockets.
func sameSockets(a, b []socketLines) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].cell != b[i].cell {
			return false
		}
	}
	return true
}

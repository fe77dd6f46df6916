package referee

import "github.com/zertzboard/zertzboard/engine"

// The boards seen in passing.
//
// Between two settled boards the scan sees the hands at work: frames that
// never held for the settle time. After a stall they are all the referee
// knows of the turns it did not see settle, and they come in order: a line
// of play that explains the settled board but whose turns could not have
// shown those frames one after the other (a marble seen on a cell after
// the capture that, in the line, took it away; a ring seen gone before the
// turn that removes it) is not what was played. Lines the frames rule out
// are dropped; when the frames rule out every line, the line played is
// one the search did not reach (more turns were hidden than it looks
// for), and nothing is committed as certain (see linesObserve).

// maxPassing bounds the frames kept between two settled boards; past it
// none is checked.
const maxPassing = 64

// notePassing records a frame that differs from the last (after masking):
// a frame that came and went again, the one before it back (a glitch, a
// hand's flicker), is no evidence and is dropped; the first one is
// compared with the board settled last (passBase).
func (r *Referee) notePassing(cells string) {
	if r.passFull {
		return
	}
	if n := len(r.passing); n >= 2 && r.passing[n-2] == cells || n == 1 && cells == r.passBase {
		r.passing = r.passing[:n-1]
		return
	}
	if len(r.passing) == maxPassing {
		r.passFull, r.passing = true, r.passing[:0]
		return
	}
	r.passing = append(r.passing, cells)
}

// settlePassing makes the frames seen since the last settled board those
// that led to the board settling now. After a board that explained
// nothing, they are added to those that led to it (what the hands did
// before it still counts), unless it broke a rule: an illegal try, whose
// frames, and those putting it right, no line of play shows; then none
// is checked.
func (r *Referee) settlePassing(illegal, try bool) {
	if illegal && !try && !r.passedFull && !r.passFull && len(r.passed)+len(r.passing) <= maxPassing {
		r.passed = append(r.passed, r.passing...)
	} else {
		r.passed, r.passing = r.passing, r.passed
		r.passedFull = r.passFull || illegal
	}
	r.passing, r.passFull, r.passBase = r.passing[:0], false, r.masked
}

// resetPassing forgets the frames seen in passing (a new game).
func (r *Referee) resetPassing() {
	r.passing, r.passed, r.passFull, r.passedFull = r.passing[:0], r.passed[:0], false, true
}

// agreeing returns the lines whose turns, played from the official
// position, could have shown the frames seen since the last settled board
// in the order they came, on the way to raw (see framesAgree).
func (r *Referee) agreeing(lines []line, raw string) []line {
	var out []line
	for _, l := range lines {
		if r.framesAgree(l, raw) {
			out = append(out, l)
		}
	}
	return out
}

// passStep is one turn of a line, as the frames seen in passing may show
// it: the cells its capture path crosses and the jumper's colour.
type passStep struct {
	path   uint64
	jumper byte
	// taken: the rings the turns so far removed as their own (a
	// placement's ring), which do not come back; a ring claimed
	// with a group may stay on the board a while.
	taken uint64
}

// lineSteps plays turns from p: the cells of p and of each position
// after a turn, and each turn's step. It reports false when the turns
// are no line from p.
func lineSteps(p engine.Position, turns []engine.Turn) (pos []string, steps []passStep, ok bool) {
	pos = []string{p.Cells()}
	steps = make([]passStep, 0, len(turns))
	for _, turn := range turns {
		q, err := p.Play(turn)
		if err != nil {
			if q, err = p.PlayOverCapture(turn); err != nil {
				return nil, nil, false
			}
		}
		var s passStep
		if len(steps) > 0 {
			s.taken = steps[len(steps)-1].taken
		}
		if turn.Kind == engine.Place {
			s.taken |= bit(turn.Remove)
		}
		if path := turn.Path(); len(path) > 0 {
			s.jumper = p.Cells()[path[0]]
			for _, c := range path {
				s.path |= bit(c)
			}
		}
		for q.MustPass() && !q.Result().Over {
			q = q.MustPlay(engine.PassTurn())
		}
		p = q
		pos = append(pos, p.Cells())
		steps = append(steps, s)
	}
	return pos, steps, true
}

// framesAgree reports whether line l, played from the official position,
// could have shown the frames seen in passing since the last settled
// board, in order, ending with the settled board raw (its last turn may
// be under way there). A frame fits between two positions of the line one
// turn apart when each of its cells shows what one of them holds, a hand
// ('?'), the jumper of that turn on a cell of its path, or anything on a
// ring claimed by the later one (a claimed ring may stay on the board a
// while; a ring a placement removed does not come back). With no frames kept (none, or too many), every line agrees.
func (r *Referee) framesAgree(l line, raw string) bool {
	if r.passedFull || len(r.passed) == 0 || len(raw) != r.b.Len() {
		return true
	}
	pos, steps, ok := lineSteps(r.game.Position(), l.turns)
	if !ok {
		return true // not a line from here: no evidence either way
	}
	fits := func(f string, k int) bool {
		a := pos[k]
		if k == len(steps) {
			// After the line's last turn: its position, or the settled
			// board (a turn under way).
			var taken uint64
			if k > 0 {
				taken = steps[k-1].taken
			}
			for c := 0; c < len(f); c++ {
				if o := f[c]; o != '?' && o != a[c] && o != raw[c] && (a[c] != '.' || taken&bit(engine.Cell(c)) != 0) {
					return false
				}
			}
			return true
		}
		b, s := pos[k+1], steps[k]
		for c := 0; c < len(f); c++ {
			o, at := f[c], bit(engine.Cell(c))
			if o == '?' || o == a[c] || o == b[c] || b[c] == '.' && s.taken&at == 0 || s.path&at != 0 && o == s.jumper {
				continue
			}
			return false
		}
		return true
	}
	k := 0
	for _, f := range r.passed {
		if len(f) != len(raw) {
			return true
		}
		for !fits(f, k) {
			if k++; k > len(steps) {
				return false
			}
		}
	}
	return true
}

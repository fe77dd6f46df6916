package referee

import "github.com/zertzboard/zertzboard/engine"

// Marbles that never moved.
//
// A sensor reads its socket 100 to 200 times a second. A marble taken off
// its ring (a jumper setting off, a marble captured) and another put back
// there shows as a change, if only for a few scans: no hand is that quick.
// So where a socket has read the same marble since before the turns a
// reading says were played, those turns did not take that marble away
// and put one of its colour back: a stuck sensor still shows the marble
// that left (a jumper frozen on its start), and the reading would commit
// a marble nobody placed, of a colour nobody chose. After a stall, frames
// are missing and nothing is known.

// stillMarbles returns the marbles obs shows where the official position
// has them too, on sockets whose reading has not changed since the board
// its last turn was read from (none after a stall since then).
func (r *Referee) stillMarbles(obs string) uint64 {
	if r.stalled || len(obs) != r.b.Len() {
		return 0
	}
	n := r.game.Len()
	since, found := int64(0), false
	for i := len(r.hist) - 1; i >= 0; i-- {
		h := r.hist[i]
		if h.n != n {
			since, found = h.since, true
			break
		}
		if h.at.stalled {
			return 0
		}
	}
	if !found {
		return 0
	}
	exp := r.Expected()
	var still uint64
	for c := 0; c < len(obs); c++ {
		if isMarble(obs[c]) && obs[c] == exp[c] && r.lastChange[c] <= since {
			still |= bit(engine.Cell(c))
		}
	}
	return still
}

// stillFor returns the marbles line l and the board at share that no
// turn of the line's from l on can have taken away and put back: those
// of the official position's still marbles (board.still) for the
// official position, and for a line that explained the board before,
// those it shows whose sockets the hands did not touch since. None after
// a stall.
func stillFor(l line, at board) uint64 {
	if at.stalled {
		return 0
	}
	if len(l.turns) == 0 {
		if l.cells == at.root {
			return at.still
		}
		return 0
	}
	var still uint64
	for c := 0; c < len(at.cells); c++ {
		if o := at.cells[c]; isMarble(o) && o == l.cells[c] && (at.touched|l.cl.set)&bit(engine.Cell(c)) == 0 {
			still |= bit(engine.Cell(c))
		}
	}
	return still
}

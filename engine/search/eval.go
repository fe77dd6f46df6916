package search

import "github.com/zertzboard/zertzboard/engine"

// The evaluation, in points from the side to move's view (a captured
// marble is worth roughly 100). It scores each player's progress towards
// a winning set and subtracts the opponent's:
//
//   - every winning set still reachable (enough marbles of its colours left
//     on the board and in the pool) is scored by how many marbles it still
//     needs, steeply: one marble short is worth far more than six;
//   - the best set counts in full, the second best by half (two threats at
//     once are harder to stop than one);
//   - every captured marble counts a little by itself, scarce colours more;
//   - the player to move gets a small bonus (the initiative).
//
// Boardspace's robots score the difference in marbles still needed; this
// is that idea made non-linear, with dead sets left out.

// needValue[n] is the value of a winning set that needs n more marbles.
var needValue = [...]int{0, 900, 480, 260, 140, 75, 40, 20, 10, 5, 2, 1, 0}

// marbleValue is a captured marble's own worth, by colour.
var marbleValue = [3]int{36, 28, 22}

// tempo is the side to move's bonus.
const tempo = 12

// evalLimit bounds the evaluation well inside the mate scores.
const evalLimit = 20000

// Evaluate returns the static evaluation of p from the view of the player
// to move, in points (about 100 per captured marble). It does not search:
// a capture that is compulsory in p is not played out. A finished game
// scores 0 (Search scores wins and draws itself).
func Evaluate(p engine.Position) int {
	if p.Result().Over {
		return 0
	}
	return evaluate(&p)
}

func evaluate(p *engine.Position) int {
	me := p.ToMove()
	r := p.Rules()
	pool, board := p.Pool(), p.OnBoard()
	var left [3]int
	for c := range left {
		left[c] = pool[c] + board[c]
	}
	v := progress(r, p.Captures(me), left) - progress(r, p.Captures(1-me), left) + tempo
	return max(-evalLimit, min(evalLimit, v))
}

// progress scores one player's captures caps, with left marbles of each
// colour still to be won.
func progress(r *engine.Rules, caps, left [3]int) int {
	best, second := 0, 0
	add := func(v int) {
		if v > best {
			best, second = v, best
		} else if v > second {
			second = v
		}
	}
	eachNeed, eachOK := 0, true
	mat := 0
	for c := range caps {
		mat += caps[c] * marbleValue[c]
		need := r.Win[c] - caps[c]
		if need <= 0 {
			need = 0
		}
		if need <= left[c] {
			add(needValue[min(need, len(needValue)-1)])
		}
		if n := r.WinEach - caps[c]; n > 0 {
			if n > left[c] {
				eachOK = false
			}
			eachNeed += n
		}
	}
	if eachOK {
		add(needValue[min(eachNeed, len(needValue)-1)])
	}
	return best + second/2 + mat
}

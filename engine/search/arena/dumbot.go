package arena

import "github.com/zertzboard/zertzboard/engine"

// Dumbot is a baseline after Boardspace's robots as issue 21 describes
// them (written from that description, not from their code): a plain
// alpha-beta over whole turns to a fixed depth (Boardspace's Dumbot
// searches 2, WeakBot 1, SmartBot 3), captures first and no other
// ordering, no transposition table and no quiescence, with the
// difference in marbles still needed to win as the evaluation (and the
// marbles held as a tie-break).
//
// MaxNodes (0: none) bounds its work like the engine's budget: it deepens
// 1, 2, … up to Depth and plays the best turn of the deepest depth it
// finished, so at equal node budgets the two compare fairly.
type Dumbot struct {
	Depth    int
	MaxNodes int64
	Nodes    int64

	nodes   int64
	stopped bool
}

// Name implements Player.
func (d *Dumbot) Name() string { return "dumbot" }

// Turn implements Player.
func (d *Dumbot) Turn(p engine.Position) engine.Turn {
	d.nodes, d.stopped = 0, false
	turns := p.LegalTurns(nil)
	best := turns[0]
	depth := max(d.Depth, 1)
	for k := 1; k <= depth; k++ {
		alpha := -1 << 30
		var iterBest engine.Turn
		for i := range turns {
			q := p.Apply(&turns[i])
			v := -d.ab(q, k-1, 1, -(1 << 30), -alpha)
			if d.stopped {
				break
			}
			if v > alpha {
				alpha, iterBest = v, turns[i]
			}
		}
		if d.stopped {
			break
		}
		best = iterBest
	}
	d.Nodes += d.nodes
	return best
}

const dumbWin = 1 << 20

// resultScore scores a finished game for the player to move, sooner wins
// higher, as the baselines' searches all do; over is false while it goes on.
func resultScore(p engine.Position, ply int) (v int, over bool) {
	r := p.Result()
	switch {
	case !r.Over:
		return 0, false
	case r.Winner < 0:
		return 0, true
	case r.Winner == p.ToMove():
		return dumbWin - ply, true
	}
	return -(dumbWin - ply), true
}

func (d *Dumbot) ab(p engine.Position, depth, ply, alpha, beta int) int {
	d.nodes++
	if d.MaxNodes > 0 && d.nodes >= d.MaxNodes {
		d.stopped = true
		return 0
	}
	if v, over := resultScore(p, ply); over {
		return v
	}
	if depth <= 0 {
		return dumbEval(p)
	}
	best := -(1 << 30)
	for _, t := range p.LegalTurns(nil) {
		v := -d.ab(p.Apply(&t), depth-1, ply+1, -beta, -alpha)
		if d.stopped {
			return 0
		}
		if v > best {
			best = v
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			break
		}
	}
	return best
}

// dumbEval: the opponent's marbles still needed minus the mover's, with a
// small term for the marbles held.
func dumbEval(p engine.Position) int {
	me := p.ToMove()
	r := p.Rules()
	need := func(pl int) (int, int) {
		caps := p.Captures(pl)
		best, each, held := 99, 0, 0
		for c := range caps {
			best = min(best, max(0, r.Win[c]-caps[c]))
			each += max(0, r.WinEach-caps[c])
			held += caps[c]
		}
		return min(best, each), held
	}
	nm, hm := need(me)
	no, ho := need(1 - me)
	return 100*(no-nm) + (hm - ho)
}

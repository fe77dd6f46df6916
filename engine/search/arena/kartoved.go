package arena

import "github.com/zertzboard/zertzboard/engine"

// Kartoved is a baseline after Kartoved's zertz as issue 21 describes it
// (written from that description, not from its code): a plain alpha-beta
// over whole turns to a fixed depth (the program offers 1, 3 or 5), the
// turns in the order the move generator gives them (no move ordering), no
// transposition table, no quiescence, and an evaluation of captures only:
// the marbles the mover has captured minus the opponent's, each marble
// weighted by how few of its colour win (KartovedEval).
//
// MaxNodes (0: none) bounds its work like the engine's budget: it then
// searches the depths 1, 3, 5, … up to Depth and plays the best turn of
// the deepest it finished (without MaxNodes it searches Depth directly,
// as the program does).
type Kartoved struct {
	Depth    int
	MaxNodes int64
	Nodes    int64
	// Reached is the depth of the last turn's deepest finished search.
	Reached int

	nodes   int64
	stopped bool
}

// Name implements Player.
func (k *Kartoved) Name() string { return "kartoved" }

// Turn implements Player.
func (k *Kartoved) Turn(p engine.Position) engine.Turn {
	k.nodes, k.stopped, k.Reached = 0, false, 0
	turns := p.LegalTurns(nil)
	best := turns[0]
	depth := max(k.Depth, 1)
	depths := []int{depth}
	if k.MaxNodes > 0 {
		depths = depths[:0]
		for d := 1; d < depth; d += 2 {
			depths = append(depths, d)
		}
		depths = append(depths, depth)
	}
	for _, d := range depths {
		alpha := -1 << 30
		var iterBest engine.Turn
		for i := range turns {
			v := -k.ab(p.Apply(&turns[i]), d-1, 1, -(1 << 30), -alpha)
			if k.stopped {
				break
			}
			if v > alpha {
				alpha, iterBest = v, turns[i]
			}
		}
		if k.stopped {
			break
		}
		best, k.Reached = iterBest, d
	}
	k.Nodes += k.nodes
	return best
}

func (k *Kartoved) ab(p engine.Position, depth, ply, alpha, beta int) int {
	k.nodes++
	if k.MaxNodes > 0 && k.nodes >= k.MaxNodes {
		k.stopped = true
		return 0
	}
	if v, over := resultScore(p, ply); over {
		return v
	}
	if depth <= 0 {
		return KartovedEval(p)
	}
	best := -(1 << 30)
	for _, t := range p.LegalTurns(nil) {
		v := -k.ab(p.Apply(&t), depth-1, ply+1, -beta, -alpha)
		if k.stopped {
			return 0
		}
		best = max(best, v)
		alpha = max(alpha, v)
		if alpha >= beta {
			break
		}
	}
	return best
}

// KartovedEval counts captures only, for the player to move: each marble
// captured is worth 12 divided by the number of its colour that wins (a
// rare colour is worth more), the mover's minus the opponent's. Nothing
// else on the board counts.
func KartovedEval(p engine.Position) int {
	r := p.Rules()
	me := p.ToMove()
	mine, theirs := p.Captures(me), p.Captures(1-me)
	v := 0
	for c := range mine {
		w := 12 / max(r.Win[c], 1)
		v += w * (mine[c] - theirs[c])
	}
	return v
}

package arena

import (
	"math"

	"github.com/zertzboard/zertzboard/engine"
)

// UCT is a baseline after hiive's Zertz3D as issue 21 describes it
// (written from that description, not from its code): Monte Carlo tree
// search with UCB1 selection (c = √2) and uniformly random playouts to the
// end of the game, Iterations of them a turn (Zertz3D's default is
// 1,000), without its symmetry-merging table. It plays the most visited
// turn. Deterministic for its seed.
type UCT struct {
	Iterations int
	Seed       uint64
	state      uint64
}

// Name implements Player.
func (u *UCT) Name() string { return "uct" }

type uctNode struct {
	pos      engine.Position
	turns    []engine.Turn
	children []*uctNode
	visits   float64
	wins     float64 // for the player who moved into this node
}

func (u *UCT) rand(n int) int {
	u.state = mix(u.state + u.Seed + 0x9e3779b97f4a7c15)
	return int(u.state % uint64(n))
}

// Turn implements Player.
func (u *UCT) Turn(p engine.Position) engine.Turn {
	root := &uctNode{pos: p, turns: p.LegalTurns(nil)}
	root.children = make([]*uctNode, len(root.turns))
	iters := max(u.Iterations, 1)
	for i := 0; i < iters; i++ {
		path := []*uctNode{root}
		n := root
		// Select down to a node with an unexpanded child, or the end.
		for !n.pos.Result().Over {
			if k := u.unexpanded(n); k >= 0 {
				c := &uctNode{pos: n.pos.Apply(&n.turns[k])}
				c.turns = c.pos.LegalTurns(nil)
				c.children = make([]*uctNode, len(c.turns))
				n.children[k] = c
				n = c
				path = append(path, n)
				break
			}
			n = n.best(math.Sqrt2)
			path = append(path, n)
		}
		winner := u.playout(n.pos)
		for _, v := range path {
			v.visits++
			// The player who moved into v is the one not to move there.
			switch {
			case winner < 0:
				v.wins += 0.5
			case winner != v.pos.ToMove():
				v.wins++
			}
		}
	}
	best, most := 0, -1.0
	for k, c := range root.children {
		if c != nil && c.visits > most {
			best, most = k, c.visits
		}
	}
	return root.turns[best]
}

// unexpanded picks a random child not yet expanded, or -1.
func (u *UCT) unexpanded(n *uctNode) int {
	var free []int
	for k, c := range n.children {
		if c == nil {
			free = append(free, k)
		}
	}
	if len(free) == 0 {
		return -1
	}
	return free[u.rand(len(free))]
}

// best is the child with the highest UCB1 value.
func (n *uctNode) best(c float64) *uctNode {
	var out *uctNode
	bv := math.Inf(-1)
	logN := math.Log(n.visits)
	for _, ch := range n.children {
		v := ch.wins/ch.visits + c*math.Sqrt(logN/ch.visits)
		if v > bv {
			out, bv = ch, v
		}
	}
	return out
}

// playout plays random turns to the end and returns the winner (-1: a
// draw, or the turn limit).
func (u *UCT) playout(p engine.Position) int {
	var buf []engine.Turn
	for n := 0; n < MaxTurns && !p.Result().Over; n++ {
		buf = p.LegalTurns(buf[:0])
		p = p.Apply(&buf[u.rand(len(buf))])
	}
	if r := p.Result(); r.Over {
		return r.Winner
	}
	return -1
}

package solve

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// FuzzSolve: any win the solver reports holds: its line is legal from the
// position, alternates from the player to move, has 2K−1 turns for a win
// in K, and ends in that player's win. Positions come from seeded random
// games, stopped a few turns before their end (where wins are), on any
// board, with either rules.
func FuzzSolve(f *testing.F) {
	for seed := uint64(0); seed < 12; seed++ {
		f.Add(seed, uint8(seed%5), uint8(1+seed%3))
	}
	f.Fuzz(func(t *testing.T, seed uint64, back, k uint8) {
		p := fuzzPosition(seed, int(back%8))
		maxTurns := 1 + int(k%3)
		res := Solve(context.Background(), p, Options{MaxTurns: maxTurns, MaxNodes: 50000})
		if res.Win == nil {
			if res.Complete && res.Depth != maxTurns && !p.Result().Over {
				t.Fatalf("%s: complete without a win, depth %d of %d", p, res.Depth, maxTurns)
			}
			return
		}
		w := res.Win
		if w.Player != p.ToMove() || w.Turns < 1 || w.Turns > maxTurns || len(w.Line) != 2*w.Turns-1 || !res.Complete {
			t.Fatalf("%s: win for %d in %d with %d turns (complete %v)", p, w.Player, w.Turns, len(w.Line), res.Complete)
		}
		if !Wins(p, w.Line) {
			t.Fatalf("%s: line %s does not win", p, notation(p, w.Line))
		}
		// And by hand: play it with Play, checking each turn.
		q := p
		for _, turn := range w.Line {
			var err error
			if q, err = q.Play(turn); err != nil {
				t.Fatalf("%s: line %s: %v", p, notation(p, w.Line), err)
			}
		}
		if r := q.Result(); !r.Over || r.Winner != w.Player {
			t.Fatalf("%s: line %s ends %v", p, notation(p, w.Line), r)
		}
	})
}

// fuzzPosition plays a seeded random game and returns its position back
// turns before the end.
func fuzzPosition(seed uint64, back int) engine.Position {
	rng := rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d))
	names := engine.StandardBoardNames
	rules := engine.Standard
	if seed&1 == 1 {
		rules = engine.Blitz
	}
	g := engine.NewGame(engine.NewPosition(engine.MustStandardBoard(names[rng.IntN(len(names))]), rules, int(seed>>1&1)))
	var buf []engine.Turn
	for i := 0; i < 300 && !g.Position().Result().Over; i++ {
		buf = g.Position().LegalTurns(buf[:0])
		if err := g.Play(buf[rng.IntN(len(buf))]); err != nil {
			panic(err)
		}
	}
	if back > g.Len() {
		back = g.Len()
	}
	return g.PositionAfter(g.Len() - back)
}

package arena

import (
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
)

// The engine at level 1 wins every game against a random player, on 37
// and 61 rings, with either colour. Node budgets, not time: the games are
// the same on every machine.
func TestLevel1BeatsRandom(t *testing.T) {
	for _, c := range []struct {
		board    string
		openings int
	}{{"37", 3}, {"61", 1}} {
		b := engine.MustStandardBoard(c.board)
		e := &Engine{Label: "level 1", Opt: search.Options{Level: 1}}
		s, err := Match(Openings(b, engine.Standard, c.openings, 21), e, &Random{Seed: 5}, func(game int, o Outcome, eFirst bool) {
			t.Logf("%s rings, game %d (engine first: %v): winner %d by %s in %d turns", c.board, game, eFirst, o.Winner, o.Reason, o.Turns)
		})
		if err != nil {
			t.Fatal(err)
		}
		if s.Wins != s.Games {
			t.Errorf("%s rings: level 1 against random: %s; want every game won", c.board, s)
		}
	}
}

// The Wilson interval: known values, and it holds the observed fraction.
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		s      Score
		lo, hi float64
	}{
		{Score{Games: 10, Wins: 10}, 0.722, 1},
		{Score{Games: 100, Wins: 50}, 0.404, 0.596},
		{Score{Games: 20, Wins: 15, Draws: 2, Losses: 3}, 0.584, 0.919},
	} {
		lo, hi := c.s.Wilson()
		if lo < c.lo-0.002 || lo > c.lo+0.002 || hi < c.hi-0.002 || hi > c.hi+0.002 {
			t.Errorf("%+v: Wilson %.3f–%.3f; want %.3f–%.3f", c.s, lo, hi, c.lo, c.hi)
		}
		if f := c.s.Fraction(); f < lo || f > hi {
			t.Errorf("%+v: %.3f outside %.3f–%.3f", c.s, f, lo, hi)
		}
	}
}

// Openings are fixed, quiet and legal.
func TestOpenings(t *testing.T) {
	b := engine.MustStandardBoard("48")
	a, c := Openings(b, engine.Standard, 5, 3), Openings(b, engine.Standard, 5, 3)
	for i := range a {
		if !a[i].Equal(c[i]) || a[i].HasCapture() || a[i].Result().Over || a[i].ToMove() != 0 || a[i].Rings() != b.Len()-2 {
			t.Errorf("opening %d: %s / %s", i, a[i], c[i])
		}
	}
}

// Dumbot plays legal turns and beats a random player.
func TestDumbotPlays(t *testing.T) {
	b := engine.MustStandardBoard("37")
	s, err := Match(Openings(b, engine.Standard, 1, 2), &Dumbot{Depth: 2, MaxNodes: 20000}, &Random{Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Wins < 1 {
		t.Errorf("dumbot against random: %s", s)
	}
}

// The UCT baseline plays legal turns to the end (PlayGame checks every
// turn), the same for its seed.
func TestUCTPlays(t *testing.T) {
	b := engine.MustStandardBoard("37")
	ops := Openings(b, engine.Standard, 2, 4)
	if _, err := Match(ops, &UCT{Iterations: 60, Seed: 3}, &Random{Seed: 2}, nil); err != nil {
		t.Fatal(err)
	}
	a, _ := PlayGame(ops[0], [2]Player{&UCT{Iterations: 30, Seed: 1}, &UCT{Iterations: 30, Seed: 2}})
	c, _ := PlayGame(ops[0], [2]Player{&UCT{Iterations: 30, Seed: 1}, &UCT{Iterations: 30, Seed: 2}})
	if len(a.Line) != len(c.Line) || a.Winner != c.Winner {
		t.Errorf("two games with the same seeds differ: %d turns, winner %d; %d turns, winner %d", len(a.Line), a.Winner, len(c.Line), c.Winner)
	}
}

package record

import (
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
)

// evidence counts, over real games, what docs/RULES.md cites for its
// decisions on the rulebook's open points.
type evidence struct {
	games int
	// Free rings: placements where a looser rule would have freed another
	// ring (two open sides apart, or a single open side), and how often
	// such a ring was removed.
	looserAvail, looserRemoved int
	// Captures: chains shorter than the longest available; chains that
	// land again on their start.
	shorter, loops int
	// Isolation: claims of a group at least as large as what is left;
	// placements onto a cut-off group that leave it in play.
	largestClaims, cutoffStays int
}

func gatherEvidence(t *testing.T, dir string) evidence {
	t.Helper()
	paths, err := samples.Records(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ev evidence
	for _, path := range paths {
		rec, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := rec.Replay()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		ev.games++
		g := rep.Game
		for i := 0; i < g.Len(); i++ {
			p := g.PositionAfter(i)
			turn, claimed := g.Turn(i)
			switch turn.Kind {
			case engine.Capture:
				longest := 0
				for _, c := range p.CaptureTurns() {
					longest = max(longest, c.Hops())
				}
				if turn.Hops() < longest {
					ev.shorter++
				}
				path := turn.Path()
				for _, c := range path[1:] {
					if c == path[0] {
						ev.loops++
					}
				}
			case engine.Place:
				ev.addPlacement(p, turn, claimed, g.PositionAfter(i+1))
			}
		}
	}
	return ev
}

func (ev *evidence) addPlacement(p engine.Position, turn engine.Turn, claimed []engine.Cell, next engine.Position) {
	b := p.Board()
	looser := false
	for c := engine.Cell(0); int(c) < b.Len(); c++ {
		if p.At(c) != engine.Vacant || c == turn.At {
			continue
		}
		if open, adjacent := openSides(p, c); open >= 1 && !adjacent {
			looser = true
			if c == turn.Remove {
				ev.looserRemoved++
			}
		}
	}
	if looser {
		ev.looserAvail++
	}
	// Claimed groups, each against the rings left after the turn.
	in := map[engine.Cell]bool{}
	for _, c := range claimed {
		in[c] = true
	}
	for _, group := range groups(b, func(c engine.Cell) bool { return in[c] }) {
		if len(group) >= next.Rings() && next.Rings() > 0 {
			ev.largestClaims++
		}
	}
	// A placement onto a group other than the largest that stays in play.
	gs := groups(b, func(c engine.Cell) bool { return p.At(c) != engine.NoRing })
	if len(gs) > 1 && !in[turn.At] {
		largest := 0
		for i := range gs {
			if len(gs[i]) > len(gs[largest]) {
				largest = i
			}
		}
		for i, group := range gs {
			for _, c := range group {
				if c == turn.At && i != largest {
					ev.cutoffStays++
				}
			}
		}
	}
}

// openSides counts the sides of c with no ring beside it, and says whether
// two of them are next to each other.
func openSides(p engine.Position, c engine.Cell) (open int, adjacent bool) {
	b := p.Board()
	var o [6]bool
	for d := 0; d < 6; d++ {
		n := b.CellAt(b.Coord(c).Neighbour(d))
		o[d] = n == engine.NoCell || p.At(n) == engine.NoRing
		if o[d] {
			open++
		}
	}
	for d := 0; d < 6; d++ {
		adjacent = adjacent || o[d] && o[(d+1)%6]
	}
	return open, adjacent
}

// groups splits the cells for which member is true into connected groups.
func groups(b *engine.Board, member func(engine.Cell) bool) [][]engine.Cell {
	seen := map[engine.Cell]bool{}
	var out [][]engine.Cell
	for c := engine.Cell(0); int(c) < b.Len(); c++ {
		if !member(c) || seen[c] {
			continue
		}
		seen[c] = true
		group, todo := []engine.Cell{}, []engine.Cell{c}
		for len(todo) > 0 {
			x := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			group = append(group, x)
			for _, n := range b.Neighbours(x) {
				if member(n) && !seen[n] {
					seen[n] = true
					todo = append(todo, n)
				}
			}
		}
		out = append(out, group)
	}
	return out
}

// The built-in games still show what docs/RULES.md cites them for: players
// never remove a ring that only a looser free-ring rule frees, they choose
// shorter chains and chains that loop, the largest group is claimed, and a
// cut-off group with a vacant ring stays in play.
func TestRulesEvidence(t *testing.T) {
	check := func(t *testing.T, ev evidence) {
		t.Logf("%+v", ev)
		if ev.looserAvail == 0 || ev.looserRemoved != 0 {
			t.Errorf("free rings: a looser rule frees another ring in %d placements and such a ring was removed %d times; RULES.md says often and never", ev.looserAvail, ev.looserRemoved)
		}
		if ev.shorter == 0 || ev.loops == 0 {
			t.Errorf("captures: %d shorter chains, %d loops; RULES.md cites both", ev.shorter, ev.loops)
		}
		if ev.largestClaims == 0 || ev.cutoffStays == 0 {
			t.Errorf("isolation: %d claims of the largest group, %d placements on a cut-off group left in play; RULES.md cites both", ev.largestClaims, ev.cutoffStays)
		}
	}
	t.Run("builtin", func(t *testing.T) {
		ev := gatherEvidence(t, samples.BuiltinDir())
		if ev.games != len(samples.BuiltinNames()) {
			t.Fatalf("replayed %d built-in games; want %d", ev.games, len(samples.BuiltinNames()))
		}
		check(t, ev)
	})
	t.Run("extended", func(t *testing.T) {
		dir := samples.ExtendedDir()
		if dir == "" {
			t.Skipf("no larger sample (set %s)", samples.EnvDir)
		}
		check(t, gatherEvidence(t, dir))
	})
}

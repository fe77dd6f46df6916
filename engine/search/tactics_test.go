package search

import (
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// A placement called quiet gives no capture and claims nothing, checked by
// playing it, on every position of the built-in games and of seeded
// random games on every board.
func TestQuietIsQuiet(t *testing.T) {
	var ps []engine.Position
	for _, g := range builtinGames(t) {
		for i := 0; i <= g.Len(); i++ {
			ps = append(ps, g.PositionAfter(i))
		}
	}
	for bi, name := range engine.StandardBoardNames {
		for seed := uint64(1); seed <= 4; seed++ {
			p := engine.NewPosition(engine.MustStandardBoard(name), engine.Standard, 0)
			rng := seed*7919 + uint64(bi)
			for !p.Result().Over {
				ps = append(ps, p)
				turns := p.LegalTurns(nil)
				rng = splitmix(rng)
				p = p.Apply(&turns[rng%uint64(len(turns))])
			}
		}
	}
	quiet, tactical := 0, 0
	for _, p := range ps {
		if p.Result().Over || p.HasCapture() {
			continue
		}
		g, st := geometryOf(p.Board()), setsOf(&p)
		me := p.ToMove()
		for _, tu := range p.LegalTurns(nil) {
			if tu.Kind != engine.Place {
				continue
			}
			if g.tactical(&st, &tu) {
				tactical++
				continue
			}
			quiet++
			q := p.Apply(&tu)
			want := p.Captures(me)
			if tu.From == engine.FromCaptures {
				want[tu.Color]-- // placed from the mover's own captures
			}
			if q.HasCapture() || q.Captures(me) != want || len(q.Claimed()) > 0 {
				t.Fatalf("%s: %s is called quiet but gives a capture or claims %v", p, engine.FormatTurn(p.Board(), tu), q.Claimed())
			}
		}
	}
	if quiet == 0 || tactical == 0 {
		t.Fatalf("%d quiet and %d tactical placements", quiet, tactical)
	}
	t.Logf("%d positions: %d quiet, %d tactical placements", len(ps), quiet, tactical)
}

// The per-position cache answers as geometry.tactical on every placement
// of the built-in games' positions.
func TestTacticalCache(t *testing.T) {
	n := 0
	for _, g := range builtinGames(t) {
		for i := 0; i <= g.Len(); i++ {
			p := g.PositionAfter(i)
			if p.Result().Over || p.HasCapture() {
				continue
			}
			geo, st := geometryOf(p.Board()), setsOf(&p)
			c := newTacticalCache(geo, st)
			for _, tu := range p.LegalTurns(nil) {
				if tu.Kind != engine.Place {
					continue
				}
				if got, want := c.tactical(&tu), geo.tactical(&st, &tu); got != want {
					t.Fatalf("%s: %s: cache says tactical=%v, geometry %v", p, engine.FormatTurn(p.Board(), tu), got, want)
				}
				n++
			}
		}
	}
	if n < 10000 {
		t.Fatalf("only %d placements", n)
	}
}

package journal

import (
	"fmt"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
)

// describe is a resumed game as text, every field Open fills.
func describe(g *Game) string {
	if g == nil {
		return "no game\n"
	}
	var b strings.Builder
	s := func(p *string) string {
		if p == nil {
			return "<nil>"
		}
		return fmt.Sprintf("%q", *p)
	}
	fmt.Fprintf(&b, "variant %s mode %s players %q first %d\n", g.Variant, g.Mode, g.Players, g.Game.Start().ToMove())
	fmt.Fprintf(&b, "seq %d t %d gameseq %d gamet %d control %q\n", g.Seq, g.T, g.GameSeq, g.GameT, g.Control)
	for i := 0; i < g.Game.Len(); i++ {
		tn, _ := g.Game.Turn(i)
		fmt.Fprintf(&b, "turn %d %s\n", i+1, engine.FormatTurn(g.Game.PositionAfter(i).Board(), tn))
	}
	fmt.Fprintf(&b, "missed %v answered %v\n", g.Missed, g.Answered)
	if g.Clock != nil {
		fmt.Fprintf(&b, "clock %+v\n", *g.Clock)
	} else {
		fmt.Fprintf(&b, "clock <nil>\n")
	}
	fmt.Fprintf(&b, "clocks %v (nil %v)\n", g.Clocks, g.Clocks == nil)
	if g.End != nil {
		w := "draw"
		if g.End.Winner != nil {
			w = fmt.Sprint(*g.End.Winner)
		}
		fmt.Fprintf(&b, "end %s %s %q\n", w, g.End.Reason, g.End.Note)
	}
	if g.Request != nil {
		fmt.Fprintf(&b, "request %+v\n", *g.Request)
	}
	if g.Engine != nil {
		fmt.Fprintf(&b, "engine %+v\n", *g.Engine)
	}
	fmt.Fprintf(&b, "naming %s %s\n", s(g.Naming.Event), s(g.Naming.Round))
	for _, n := range g.Notes {
		fmt.Fprintf(&b, "note at turn %d %q\n", n.Turn, n.Text)
	}
	return b.String()
}

// formatTurn is a turn of p in notation.
func formatTurn(p engine.Position, t engine.Turn) string { return engine.FormatTurn(p.Board(), t) }

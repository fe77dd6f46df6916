package display

import (
	"fmt"
	"io"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/record"
)

// Game draws rec's game g as text on w: the start, then every turn (its
// player, its notation and the rings it claims) and the position after
// it, each position with the pool and both players' captures.
func Game(w io.Writer, rec *record.Record, g *engine.Game) {
	fmt.Fprintf(w, "start (%s rings, %s moves first)\n", rec.Variant, rec.PlayerName(rec.First))
	if h := rec.Headers(); h != "" {
		fmt.Fprintln(w, h)
	}
	position(w, rec, g.Start())
	for i := 0; i < g.Len(); i++ {
		t, claimed := g.Turn(i)
		before := g.PositionAfter(i)
		b := before.Board()
		fmt.Fprintf(w, "\nturn %d (%s): %s", i+1, rec.PlayerName(before.ToMove()), engine.FormatTurn(b, t))
		if len(claimed) > 0 {
			labels := make([]string, len(claimed))
			for j, c := range claimed {
				labels[j] = b.Label(c)
			}
			fmt.Fprintf(w, ", claims %s", strings.Join(labels, " "))
		}
		fmt.Fprintln(w)
		position(w, rec, g.PositionAfter(i+1))
	}
}

// position draws p, then the pool and both players' captures.
func position(w io.Writer, rec *record.Record, p engine.Position) {
	io.WriteString(w, Board(p.Board(), p.Cells(), nil))
	fmt.Fprintf(w, "pool %s | %s %s | %s %s\n", record.CapturesText(p.Pool()),
		rec.PlayerName(0), record.CapturesText(p.Captures(0)), rec.PlayerName(1), record.CapturesText(p.Captures(1)))
	if r := p.Result(); r.Over {
		fmt.Fprintf(w, "game over: %s\n", r)
	}
}

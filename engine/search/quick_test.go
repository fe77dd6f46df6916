package search

import (
	"context"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
)

func TestQuickLook(t *testing.T) {
	for _, b := range []string{"37", "61"} {
		p := engine.NewPosition(engine.MustStandardBoard(b), engine.Standard, 0)
		for _, lv := range []int{1, 3, 5, 7} {
			t0 := time.Now()
			r := Search(context.Background(), p, Options{Level: lv, Info: func(i Info) {}})
			el := time.Since(t0)
			t.Logf("%s L%d: %s score %d depth %d nodes %d %v nps %.0f", b, lv, engine.FormatTurn(p.Board(), r.Move), r.Score, r.Depth, r.Nodes, el, float64(r.Nodes)/el.Seconds())
		}
	}
}

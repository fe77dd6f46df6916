package solve

import (
	"context"
	"fmt"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// Each of the analysis's answers in words.
func TestText(t *testing.T) {
	d5, err := engine.ParsePosition("37 w.oo/o.ooo/.ooooo/.oooooo/o.gooo/ooooo/oooo 1,3,9 2,0,0 2,4,1 0")
	if err != nil {
		t.Fatal(err)
	}
	start := engine.NewPosition(engine.MustStandardBoard("37"), engine.Standard, 0)
	over, err := engine.PlayLine(d5, "BE4-D2 E3xE5 WB1-C2")
	if err != nil {
		t.Fatal(err)
	}
	win := Solve(context.Background(), d5, Options{MaxTurns: 2})
	none := Solve(context.Background(), start, Options{MaxTurns: 1})
	for _, tt := range []struct {
		p        engine.Position
		r        Result
		maxTurns int
		want     string
	}{
		{d5, win, 2, "forced win for player 0 in 2 turns: BE4-D2 E3xE5 WB1-C2 (" + itoa(win.Nodes) + " positions, 9 ms)"},
		{start, none, 1, "no forced win for player 0 within 1 turn (" + itoa(none.Nodes) + " positions, 9 ms)"},
		{start, Result{Depth: 2, Nodes: 5}, 3, "out of time: no forced win for player 0 within 2 turns; 3 not finished (5 positions, 9 ms)"},
		{start, Result{Nodes: 5}, 3, "out of time before a whole turn was searched (5 positions, 9 ms)"},
		{over, Result{Complete: true}, 2, "the game is over: " + over.Result().String()},
	} {
		if got := tt.r.Text(tt.p, tt.maxTurns, 9); got != tt.want {
			t.Errorf("Text:\n got %s\nwant %s", got, tt.want)
		}
	}
}

func itoa(n int64) string { return fmt.Sprint(n) }

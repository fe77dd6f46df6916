package solve_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/solve"
)

// The rulebook's diagram 5: player 0 sacrifices a black marble to force a
// capture, then isolates two white marbles.
func ExampleSolve() {
	p, err := engine.ParsePosition("37 w.oo/o.ooo/.ooooo/.oooooo/o.gooo/ooooo/oooo 1,3,9 2,0,0 2,4,1 0")
	if err != nil {
		panic(err)
	}
	res := solve.Solve(context.Background(), p, solve.Options{MaxTurns: 3})
	var line []string
	for _, t := range res.Win.Line {
		line = append(line, engine.FormatTurn(p.Board(), t))
	}
	fmt.Printf("forced win for player %d in %d: %s\n", res.Win.Player, res.Win.Turns, strings.Join(line, " "))
	fmt.Println("no forced win within", res.Depth, "turn; complete:", res.Complete)
	// Output:
	// forced win for player 0 in 2: BE4-D2 E3xE5 WB1-C2
	// no forced win within 1 turn; complete: true
}

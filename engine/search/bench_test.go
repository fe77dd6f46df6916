package search

import (
	"context"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// benchPosition is the start of a board, or the position after turn n of
// the first built-in game on it.
func benchPosition(b *testing.B, board string, n int) engine.Position {
	b.Helper()
	if n == 0 {
		return engine.NewPosition(engine.MustStandardBoard(board), engine.Standard, 0)
	}
	for _, g := range builtinGames(b) {
		if g.Start().Board().Name() == board && g.Len() > n+2 && g.Start().Rules() == engine.Standard {
			return g.PositionAfter(n)
		}
	}
	b.Fatalf("no built-in %s-ring game longer than %d turns", board, n+2)
	return engine.Position{}
}

// BenchmarkSearch: nodes per second (positions played) of a whole search
// with a budget of 200,000 nodes, on the start and the middle of a game
// on 37 and 61 rings; ns/op is the search's time at that budget.
func BenchmarkSearch(b *testing.B) {
	for _, c := range []struct {
		name  string
		board string
		turn  int
	}{{"37-start", "37", 0}, {"37-mid", "37", 14}, {"61-start", "61", 0}, {"61-mid", "61", 20}} {
		p := benchPosition(b, c.board, c.turn)
		b.Run(c.name, func(b *testing.B) {
			var nodes int64
			for i := 0; i < b.N; i++ {
				r := Search(context.Background(), p, Options{MaxNodes: 200_000})
				nodes += r.Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkEvaluate is the static evaluation alone.
func BenchmarkEvaluate(b *testing.B) {
	p := benchPosition(b, "37", 14)
	for i := 0; i < b.N; i++ {
		_ = Evaluate(p)
	}
}

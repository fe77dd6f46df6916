package solve

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
)

// benchPositions are positions from the built-in sample games (the same on
// every machine): every fourth turn from the sixth, and the last four
// before each game's end, when a capture game or not.
func benchPositions(b *testing.B) []engine.Position {
	b.Helper()
	files, err := samples.Records(samples.BuiltinDir())
	if err != nil {
		b.Fatal(err)
	}
	var out []engine.Position
	for _, f := range files {
		rec, err := record.ReadFile(f)
		if err != nil {
			b.Fatalf("%s: %v", filepath.Base(f), err)
		}
		rep, err := rec.Replay()
		if err != nil {
			continue
		}
		g := rep.Game
		for i := 6; i < g.Len(); i++ {
			if i%4 == 2 || i >= g.Len()-4 {
				if p := g.PositionAfter(i); !p.Result().Over {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// BenchmarkSolve times proving or refuting a forced win within K own
// turns over the sample positions, and reports the median and the 95th
// percentile per position. K=3 is bounded at 2 s per position; "timeouts"
// counts the positions it did not finish.
func BenchmarkSolve(b *testing.B) {
	ps := benchPositions(b)
	for k := 1; k <= 3; k++ {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			times := make([]time.Duration, 0, len(ps)*b.N)
			var nodes int64
			incomplete := 0
			for i := 0; i < b.N; i++ {
				for _, p := range ps {
					ctx, cancel := context.WithTimeout(context.Background(), benchBudget)
					t0 := time.Now()
					res := Solve(ctx, p, Options{MaxTurns: k})
					times = append(times, time.Since(t0))
					cancel()
					nodes += res.Nodes
					if !res.Complete {
						incomplete++
					}
				}
			}
			slices.Sort(times)
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			b.ReportMetric(ms(times[len(times)/2]), "median-ms")
			b.ReportMetric(ms(times[len(times)*95/100]), "p95-ms")
			b.ReportMetric(ms(times[len(times)-1]), "max-ms")
			b.ReportMetric(float64(nodes)/float64(len(times)), "nodes/pos")
			b.ReportMetric(float64(incomplete)/float64(b.N), "timeouts")
			b.ReportMetric(float64(len(ps)), "positions")
		})
	}
}

func BenchmarkDiagram5(b *testing.B) {
	p := mustParse(b, diagram5)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if res := Solve(context.Background(), p, Options{MaxTurns: 2}); res.Win == nil {
			b.Fatal("no win")
		}
	}
}

// benchBudget bounds one position's search in BenchmarkSolve.
var benchBudget = 2 * time.Second

// BenchmarkSolveFixedWork searches within 3 turns, bounded to 30000
// positions each, over the sample positions: the same work on every
// machine and every run (unlike BenchmarkSolve's time budget), so ns/op
// compares builds and machines.
func BenchmarkSolveFixedWork(b *testing.B) {
	ps := benchPositions(b)
	var n int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range ps {
			n += Solve(context.Background(), p, Options{MaxTurns: 3, MaxNodes: 30000}).Nodes
		}
	}
	b.ReportMetric(float64(n)/float64(b.N), "nodes/op")
}

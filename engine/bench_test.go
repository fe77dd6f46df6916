package engine

import (
	"testing"
)

// midGame returns the first position at or after turn n of a seeded random
// game on board in which a capture is (or is not) compulsory.
func midGame(b testing.TB, board string, n int, capture bool) Position {
	for seed := uint64(42); seed < 142; seed++ {
		g := randomGame(MustStandardBoard(board), Standard, seed, 200, nil)
		for i := n; i < g.Len(); i++ {
			if p := g.PositionAfter(i); p.HasCapture() == capture {
				return p
			}
		}
	}
	b.Fatalf("no %s position with capture=%v after turn %d", board, capture, n)
	return Position{}
}

func BenchmarkLegalTurns(b *testing.B) {
	cases := []struct {
		name string
		p    Position
	}{
		{"start-37", NewPosition(MustStandardBoard("37"), Standard, 0)},
		{"place-37", midGame(b, "37", 10, false)},
		{"place-48", midGame(b, "48", 10, false)},
		{"place-61", midGame(b, "61", 10, false)},
		{"capture-48", midGame(b, "48", 10, true)},
		{"diagram3", mustParse(b, "37 oooo/ooooo/oooooo/wgobooo/oowooo/ooogo/oooo 4,6,9 0,0,0 0,0,0 0")},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			buf := c.p.LegalTurns(nil)
			n := len(buf)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				buf = c.p.LegalTurns(buf[:0])
			}
			b.ReportMetric(float64(n), "turns")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/turn")
		})
	}
}

// BenchmarkPlay is a checked turn: validation, placement or capture,
// isolation and the result.
func BenchmarkPlay(b *testing.B) {
	p := midGame(b, "48", 10, false)
	turns := p.LegalTurns(nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := p.Play(turns[i%len(turns)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyUndo plays a turn into a Game and takes it back.
func BenchmarkApplyUndo(b *testing.B) {
	p := midGame(b, "48", 10, false)
	turns := p.LegalTurns(nil)
	g := NewGame(p)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := g.Play(turns[i%len(turns)]); err != nil {
			b.Fatal(err)
		}
		if err := g.Undo(1); err != nil {
			b.Fatal(err)
		}
	}
}

package engine

import (
	"fmt"
	"testing"
)

// Perft counts are regression tests: one move is one whole turn.
func TestPerft(t *testing.T) {
	tests := []struct {
		board string
		rules *Rules
		depth int
		want  uint64
	}{
		{"37", Standard, 1, 1944},
		{"37", Standard, 2, 3277260},
		{"40", Standard, 1, 2223},
		{"43", Standard, 1, 2394},
		{"44", Standard, 1, 2580},
		{"48", Standard, 1, 2961},
		{"61", Standard, 1, 4320},
		{"37", Blitz, 1, 1944},
		// Cross-checked with the generator that wrote out every last-ply
		// turn (before CountTurns): 54 s for depth 3, 1.4 s after.
		{"61", Standard, 2, 17000496},
		{"48", Blitz, 2, 7824600},
		{"37", Standard, 3, 4114538424},
	}
	for _, tt := range tests {
		if tt.depth >= 3 && testing.Short() {
			continue
		}
		p := NewPosition(MustStandardBoard(tt.board), tt.rules, 0)
		if got := Perft(p, tt.depth); got != tt.want {
			t.Errorf("Perft(%s %s, %d) = %d; want %d", tt.board, tt.rules.Name, tt.depth, got, tt.want)
		}
	}
}

func BenchmarkPerft2(b *testing.B) {
	p := NewPosition(MustStandardBoard("37"), Standard, 0)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if Perft(p, 2) != 3277260 {
			b.Fatal("wrong count")
		}
	}
}

func BenchmarkPerft(b *testing.B) {
	for _, c := range []struct {
		board string
		depth int
		want  uint64
	}{{"37", 2, 3277260}, {"61", 2, 17000496}, {"37", 3, 4114538424}} {
		p := NewPosition(MustStandardBoard(c.board), Standard, 0)
		b.Run(fmt.Sprintf("%s-d%d", c.board, c.depth), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if Perft(p, c.depth) != c.want {
					b.Fatal("wrong count")
				}
			}
		})
	}
}

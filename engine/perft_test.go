package engine

import "testing"

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
	}
	for _, tt := range tests {
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

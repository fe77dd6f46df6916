package engine

import (
	"testing"
)

// FuzzParsePosition: reading any text never panics, and a position that
// reads back writes the same text and reads back equal.
func FuzzParsePosition(f *testing.F) {
	f.Add("37 oooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 6,8,10 0,0,0 0,0,0 0")
	f.Add("37 oooo/ooooo/oooooo/wgobooo/oowooo/ooogo/oooo 4,6,9 0,0,0 0,0,0 0")
	f.Add("37b wwwg/booog/boooog/bogooog/boooog/booog/bbbb 0,0,0 0,0,0 2,0,0 1 ~wwwg/booog/boooog/bogooog/boooog/booog/bbbb,0,0,0,2,0,0,1")
	f.Add("61 ooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooo 6,8,10 0,0,0 0,0,0 1")
	f.Add("48 ..... 6,8,10 0,0,0 0,0,0 1")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(s)
		if err != nil {
			return
		}
		text := p.String()
		q, err := ParsePosition(text)
		if err != nil {
			t.Fatalf("ParsePosition(%q) read, but its String %q does not: %v", s, text, err)
		}
		if !q.Equal(p) || q.String() != text {
			t.Fatalf("round trip: %q -> %q -> %q", s, text, q.String())
		}
		// Whatever was read, the rules hold on it.
		for _, turn := range p.LegalTurns(nil) {
			if err := p.Check(turn); err != nil {
				t.Fatalf("%s: generated %s fails Check: %v", text, FormatTurn(p.Board(), turn), err)
			}
		}
	})
}

// FuzzParseTurn: reading any notation never panics, and a turn that reads
// back formats to text that reads back the same.
func FuzzParseTurn(f *testing.F) {
	for _, s := range []string{"WD4-A1", "gc2", "*BE5-G1", "C3xE4xE6", "pass", "d1xd3xf3xf5", "W", "xx", "A1x"} {
		f.Add("48", s)
	}
	f.Fuzz(func(t *testing.T, board, s string) {
		b, err := StandardBoard(board)
		if err != nil {
			b = MustStandardBoard("37")
		}
		turn, err := ParseTurn(b, s)
		if err != nil {
			return
		}
		text := FormatTurn(b, turn)
		back, err := ParseTurn(b, text)
		if err != nil || back != turn {
			t.Fatalf("ParseTurn(%q) = %s, which reads back as %v, %v", s, text, back, err)
		}
	})
}

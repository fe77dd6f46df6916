package engine

import "fmt"

// Color is a marble colour.
type Color uint8

// The marble colours, in the order used everywhere (pool, captures, SGF).
const (
	White Color = iota
	Grey
	Black
)

// Colors lists the marble colours in order.
var Colors = [3]Color{White, Grey, Black}

var colorLetters = [3]byte{'w', 'g', 'b'}
var colorNames = [3]string{"white", "grey", "black"}

// Letter returns "w", "g" or "b".
func (c Color) Letter() string { return string(colorLetters[c]) }

// String returns "white", "grey" or "black".
func (c Color) String() string {
	if c > Black {
		return fmt.Sprintf("Color(%d)", uint8(c))
	}
	return colorNames[c]
}

// ParseColor reads "w", "g", "b", or a colour's full name, in any case.
func ParseColor(s string) (Color, error) {
	switch s {
	case "w", "W", "white", "White", "WHITE":
		return White, nil
	case "g", "G", "grey", "Grey", "GREY", "gray", "Gray":
		return Grey, nil
	case "b", "B", "black", "Black", "BLACK":
		return Black, nil
	}
	return 0, fmt.Errorf("engine: %q is not a marble colour (want w, g or b)", s)
}

// Rules are a variant's marble set and winning sets.
type Rules struct {
	// Name is "standard" or "blitz".
	Name string
	// Pool is the number of marbles of each colour at the start.
	Pool [3]int
	// Win is the number of marbles of one colour that wins.
	Win [3]int
	// WinEach is the number of each colour that wins together.
	WinEach int
}

var (
	// Standard is the rulebook's game: 6 white, 8 grey, 10 black; win with
	// 4 white, 5 grey, 6 black or 3 of each.
	Standard = &Rules{Name: "standard", Pool: [3]int{6, 8, 10}, Win: [3]int{4, 5, 6}, WinEach: 3}
	// Blitz is rulebook J: 5 white, 7 grey, 9 black; win with 3 white,
	// 4 grey, 5 black or 2 of each.
	Blitz = &Rules{Name: "blitz", Pool: [3]int{5, 7, 9}, Win: [3]int{3, 4, 5}, WinEach: 2}
)

// Wins reports whether a player holding caps has a winning set.
func (r *Rules) Wins(caps [3]int8) bool {
	each := true
	for c := range caps {
		if int(caps[c]) >= r.Win[c] {
			return true
		}
		if int(caps[c]) < r.WinEach {
			each = false
		}
	}
	return each
}

// Variant names a board and rules the way the contracts do: the ring count,
// with a "b" suffix for blitz, e.g. "37" or "37b".
func Variant(b *Board, r *Rules) string {
	if r == Blitz {
		return b.Name() + "b"
	}
	return b.Name()
}

// ParseVariant reads a variant name such as "48" or "37b" for a standard
// board.
func ParseVariant(s string) (*Board, *Rules, error) {
	r := Standard
	name := s
	if len(s) > 1 && s[len(s)-1] == 'b' {
		r, name = Blitz, s[:len(s)-1]
	}
	b, err := StandardBoard(name)
	if err != nil {
		return nil, nil, fmt.Errorf("engine: unknown variant %q (want a ring count such as 37, or 37b for blitz)", s)
	}
	return b, r, nil
}

package display

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/zertzboard/zertzboard/display/face"
)

// Status is what the status screen shows.
type Status struct {
	// ToMove is the player to move, 0 or 1, or -1 when no game is on.
	ToMove int
	// Players are the players' names; empty names read "P0" and "P1".
	Players [2]string
	// Captures are each player's captured marbles: white, grey, black.
	Captures [2][3]int
	// Line is a short status, e.g. "remove a free ring".
	Line string
	// Faults are sensor faults, most important first.
	Faults []string
	// Clock, if not nil, is the game clocks: the top line shows them
	// instead of whose turn it is (the mark on the players' lines says).
	Clock *Clock
}

// StatusLines lays the status out as five lines of at most columns
// characters (screen.Columns on the SSD1306).
func StatusLines(s Status, columns int) []string {
	name := func(p int) string {
		if s.Players[p] != "" {
			return s.Players[p]
		}
		return fmt.Sprintf("P%d", p)
	}
	var l []string
	switch {
	case s.Clock != nil:
		l = append(l, clockLine(*s.Clock, columns))
	case s.ToMove == 0, s.ToMove == 1:
		l = append(l, name(s.ToMove)+" to move")
	default:
		l = append(l, "no game")
	}
	for p := 0; p < 2; p++ {
		mark := " "
		if p == s.ToMove {
			mark = ">"
		}
		c := s.Captures[p]
		caps := fmt.Sprintf(" w%d g%d b%d", c[0], c[1], c[2])
		n := clip(face.Map(name(p)), max(columns-1-len(caps), 0))
		l = append(l, mark+n+strings.Repeat(" ", max(columns-1-len(caps)-utf8.RuneCountInString(n), 0))+caps)
	}
	l = append(l, s.Line)
	switch len(s.Faults) {
	case 0:
		l = append(l, "")
	case 1:
		l = append(l, "! "+s.Faults[0])
	default:
		l = append(l, fmt.Sprintf("!%d: %s", len(s.Faults), s.Faults[0]))
	}
	for i := range l {
		l[i] = clip(face.Map(l[i]), columns)
	}
	return l
}

// clip keeps the first n runes of s: the screen's font draws every rune
// in one cell.
func clip(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

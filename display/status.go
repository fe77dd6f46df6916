package display

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/zertzboard/zertzboard/display/face"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/referee"
)

// Status is what the status screen shows.
type Status struct {
	// ToMove is the player to move, 0 or 1, or -1 when no game is on.
	ToMove int
	// Players are the players' names; empty names read "P0" and "P1"
	// (in Lang).
	Players [2]string
	// Captures are each player's captured marbles: white, grey, black.
	Captures [2][3]int
	// Line is a short status, e.g. "remove a free ring", shown as it is
	// when Parts is empty.
	Line string
	// Parts are the referee's status messages (referee.Guidance.Parts);
	// the first is said in Lang, in its short form, instead of Line.
	Parts []referee.Message
	// Faults are sensor faults, most important first, already in Lang.
	Faults []string
	// Clock, if not nil, is the game clocks: the top line shows them
	// instead of whose turn it is (the mark on the players' lines says).
	Clock *Clock
	// Lang is the screen's language; "" is English.
	Lang i18n.Lang
}

// NameMax is how many letters of a name the screen's capture lines
// show: 18 columns less the mark and " w0 g0 b0".
const NameMax = 8

// StatusLines lays the status out as five lines of at most columns
// characters (screen.Columns on the SSD1306). Each rune is one column in
// the screen's font (display/face); what it cannot draw becomes '?'.
func StatusLines(s Status, columns int) []string {
	l := s.Lang
	if l == "" {
		l = i18n.EN
	}
	name := func(p int) string {
		if s.Players[p] != "" {
			return s.Players[p]
		}
		return l.T("guide.player", p)
	}
	var lines []string
	switch {
	case s.Clock != nil:
		lines = append(lines, clockLine(l, *s.Clock, columns))
	case s.ToMove == 0, s.ToMove == 1:
		// Clip the name, not the words around it.
		room := columns - utf8.RuneCountInString(l.T("screen.to-move", ""))
		lines = append(lines, l.T("screen.to-move", clip(face.Map(name(s.ToMove)), max(room, 1))))
	default:
		lines = append(lines, l.T("screen.no-game"))
	}
	for p := 0; p < 2; p++ {
		mark := " "
		if p == s.ToMove {
			mark = ">"
		}
		c := s.Captures[p]
		caps := " " + l.T("screen.captures", c[0], c[1], c[2])
		room := max(columns-1-utf8.RuneCountInString(caps), 0)
		n := clip(face.Map(name(p)), room)
		lines = append(lines, mark+n+strings.Repeat(" ", max(room-utf8.RuneCountInString(n), 0))+caps)
	}
	line := s.Line
	if len(s.Parts) > 0 {
		line = Speaker{Lang: l, Names: s.Players, Short: true, NameMax: NameMax}.Say(s.Parts[0])
	}
	lines = append(lines, line)
	switch len(s.Faults) {
	case 0:
		lines = append(lines, "")
	case 1:
		lines = append(lines, "! "+s.Faults[0])
	default:
		lines = append(lines, fmt.Sprintf("!%d %s", len(s.Faults), s.Faults[0]))
	}
	for i := range lines {
		lines[i] = clip(face.Map(lines[i]), columns)
	}
	return lines
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

// Package display turns the referee's guidance and the live state into
// what the players see: a colour per socket LED, the status screen's
// lines, and a terminal view for the simulator and replays. It is pure;
// the drivers in hardware/ do the writing.
//
// Layer: presentation. May import: base, game, services, presentation.
package display

import (
	"fmt"
	"image/color"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// Palette is the LED colour of each guidance role.
type Palette [referee.RoleMax + 1]color.NRGBA

// DefaultPalette is chosen to read at a glance on a dark table: cool for
// information, warm for what must happen, red for what is wrong.
var DefaultPalette = Palette{
	referee.RoleNone:           {0, 0, 0, 255},
	referee.RoleLastMove:       {40, 40, 40, 255},  // dim white
	referee.RoleFreeRing:       {0, 40, 120, 255},  // blue
	referee.RoleJumpTarget:     {0, 160, 40, 255},  // green
	referee.RoleMustCapture:    {255, 110, 0, 255}, // orange
	referee.RoleChainContinues: {255, 200, 0, 255}, // yellow
	referee.RoleTakeOff:        {150, 0, 200, 255}, // purple
	referee.RoleWrong:          {255, 0, 0, 255},   // red
	// The engine's turn, and hints: the marble's own colour where it
	// goes (grey as cyan, black as pink: an LED cannot show black), and
	// bright blue on the ring to remove.
	referee.RolePlaceWhite: {255, 255, 255, 255},
	referee.RolePlaceGrey:  {0, 200, 200, 255},
	referee.RolePlaceBlack: {255, 60, 160, 255},
	referee.RoleRemoveRing: {0, 0, 255, 255},
	// A socket whose sensor is dead or stuck: dim amber.
	referee.RoleSensorFault: {90, 50, 0, 255},
}

// LEDColors returns one colour per base socket, in base board order: the
// guidance of the game cell on the socket, and dark for sockets the game
// does not use. sockets maps each game cell to its base socket.
func LEDColors(dst []color.NRGBA, baseLen int, sockets []engine.Cell, g referee.Guidance, pal *Palette) []color.NRGBA {
	if pal == nil {
		pal = &DefaultPalette
	}
	dst = append(dst[:0], make([]color.NRGBA, baseLen)...)
	for i := range dst {
		dst[i] = pal[referee.RoleNone]
	}
	for c, h := range g.Hints {
		if c < len(sockets) && int(sockets[c]) < baseLen && sockets[c] >= 0 {
			dst[sockets[c]] = pal[h.Role]
		}
	}
	return dst
}

// ScreenStatus is what the status screen shows: whose turn it is, the
// captures, the referee's status line and any faults.
func ScreenStatus(s wire.State, g referee.Guidance, faults []string) Status {
	caps := func(c wire.Counts) [3]int { return [3]int{c.White, c.Grey, c.Black} }
	st := Status{ToMove: s.ToMove, Players: s.Players, Captures: [2][3]int{caps(s.Captures[0]), caps(s.Captures[1])}, Line: g.Status, Parts: g.Parts, Faults: faults}
	if s.Phase == engine.PhaseOver {
		st.ToMove = -1
	}
	if c := s.Clock; c.Remaining != nil {
		st.Clock = &Clock{Remaining: *c.Remaining, Running: -1, Paused: c.Paused}
		if c.Running != nil {
			st.Clock.Running = *c.Running
		}
	}
	return st
}

// marks are the brackets a terminal view puts around a cell by role.
var marks = [referee.RoleMax + 1][2]byte{
	referee.RoleNone:           {' ', ' '},
	referee.RoleLastMove:       {'\'', '\''},
	referee.RoleFreeRing:       {'(', ')'},
	referee.RoleJumpTarget:     {'>', '<'},
	referee.RoleMustCapture:    {'<', '>'},
	referee.RoleChainContinues: {'*', '*'},
	referee.RoleTakeOff:        {'{', '}'},
	referee.RoleWrong:          {'!', '!'},
	referee.RolePlaceWhite:     {'+', 'w'},
	referee.RolePlaceGrey:      {'+', 'g'},
	referee.RolePlaceBlack:     {'+', 'b'},
	referee.RoleRemoveRing:     {'-', '-'},
	referee.RoleSensorFault:    {'?', '?'},
}

// Board draws a board as a hex grid in ASCII. Cells are placed by their
// doubled coordinates: column x at text column 4x, and y counting
// half-rows upwards, one text line each, so that the six neighbours of a
// cell sit around it as on the real board. Each cell shows its frame-log
// letter (o vacant ring, w g b a marble, . a ring removed); hints, if
// given, bracket cells by role (see Legend). Column letters run along the
// bottom.
func Board(b *engine.Board, cells string, hints []referee.Hint) string {
	minY, maxY := 1<<30, -1<<30
	for c := 0; c < b.Len(); c++ {
		y := b.Coord(engine.Cell(c)).Y
		minY, maxY = min(minY, y), max(maxY, y)
	}
	cols := b.Columns()
	var sb strings.Builder
	for y := maxY; y >= minY; y-- {
		line := []byte(strings.Repeat(" ", 4*cols))
		for x := 0; x < cols; x++ {
			c := b.CellAt(engine.Coord{X: x, Y: y})
			if c == engine.NoCell {
				continue
			}
			line[4*x+2] = cells[c]
			if int(c) < len(hints) && hints[c].Role != referee.RoleNone {
				m := marks[hints[c].Role]
				line[4*x+1], line[4*x+3] = m[0], m[1]
			}
		}
		sb.WriteString(strings.TrimRight("  "+string(line), " "))
		sb.WriteByte('\n')
	}
	letters := make([]byte, 0, 4*cols+2)
	for x := 0; x < cols; x++ {
		letters = append(letters, ' ', ' ', ' ', ' ')
		letters[4*x+2] = byte('A' + x)
	}
	sb.WriteString("  " + strings.TrimRight(string(letters), " ") + "\n")
	return sb.String()
}

// Legend explains the brackets of Board.
const Legend = "(o) free ring  <w> must capture  >o< jump target  *w* chain continues  {w} take off  !o! wrong  'w' last move  +o g place grey here  -o- remove"

// Terminal renders the whole live view: the board with guidance, the
// pool, the captures and the status line.
func Terminal(s wire.State, b *engine.Board, g referee.Guidance) string {
	return TerminalIn(i18n.EN, s, b, g)
}

// TerminalIn is Terminal in language l: the status line said from the
// guidance's messages (Status when it has none, e.g. a notice).
func TerminalIn(l i18n.Lang, s wire.State, b *engine.Board, g referee.Guidance) string {
	var sb strings.Builder
	sb.WriteString(Board(b, s.Cells, g.Hints))
	name := func(i int) string {
		if s.Players[i] != "" {
			return s.Players[i]
		}
		return l.T("guide.player", i)
	}
	caps := func(c wire.Counts) string { return l.T("term.counts", c.White, c.Grey, c.Black) }
	fmt.Fprintf(&sb, "%s | %s %s | %s %s\n", l.T("term.pool", caps(s.Pool)), name(0), caps(s.Captures[0]), name(1), caps(s.Captures[1]))
	status := g.Status
	if l != i18n.EN && len(g.Parts) > 0 {
		status = Speaker{Lang: l, Names: s.Players}.SayAll(g.Parts)
	}
	fmt.Fprintf(&sb, "%s · %s\n", l.T("term.turn", s.Turn), status)
	if c := s.Clock; c.Remaining != nil {
		st := ScreenStatus(s, g, nil)
		fmt.Fprintf(&sb, "%s %s  %s\n", l.T("term.clock"), c.Control, clockLine(l, *st.Clock, 24))
	}
	return sb.String()
}

package display

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/zertzboard/zertzboard/i18n"
)

// Clock is the game clocks on the status screen.
type Clock struct {
	Remaining [2]int64 // milliseconds
	Running   int      // the player whose clock runs, or -1
	Paused    bool
}

// clockPausedShort stands for the pause (the catalogue's
// "screen.clock-paused") when both clocks are past an hour.
const clockPausedShort = "||"

// ClockText is a clock's time as the screen shows it: m:ss, or h:mm:ss
// from an hour on; the seconds are rounded up, so 0:00 means the flag
// fell.
func ClockText(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	s := (ms + 999) / 1000
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// clockLine lays both clocks out on one line: player 0's on the left,
// player 1's on the right, an arrow to the running one between (or the
// pause).
func clockLine(l i18n.Lang, c Clock, columns int) string {
	left, right := ClockText(c.Remaining[0]), ClockText(c.Remaining[1])
	width := utf8.RuneCountInString // PAUSE may be Cyrillic
	mid := " "
	switch {
	case c.Paused:
		mid = l.T("screen.clock-paused")
	case c.Running == 0:
		mid = "<"
	case c.Running == 1:
		mid = ">"
	}
	gap := columns - width(left) - width(right) - width(mid)
	if gap < 2 && c.Paused {
		mid = clockPausedShort
		gap = columns - width(left) - width(right) - width(mid)
	}
	if gap < 1 || gap < 2 && !c.Paused {
		mid, gap = "", columns-width(left)-width(right)
	}
	if gap < 1 {
		gap = 1
	}
	return left + strings.Repeat(" ", gap/2) + mid + strings.Repeat(" ", gap-gap/2) + right
}

package view

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/scoreboard/stream"
	"github.com/zertzboard/zertzboard/wire"
)

// maxClockMS bounds a shown time (a base of at most 6 h plus added time);
// a larger or negative one from a broken board is shown clipped.
const maxClockMS = 100 * 3600 * 1000

// timed reports whether the view has clocks to show.
func (v Board) timed() bool {
	return v.Clock != nil && v.Clock.Remaining != nil && v.Clock.Control != "none"
}

// runningClock is the player whose clock the page counts down, or -1:
// none while paused, over, offline (the board's clocks stop), its hall
// unreachable (the clocks run on the board, unseen) or untimed.
func (v Board) runningClock() int {
	if !v.timed() || v.Clock.Running == nil || v.Clock.Paused || v.State == nil || v.State.Phase == engine.PhaseOver || v.Status == "offline" || v.Status == StatusUnreachable {
		return -1
	}
	if p := *v.Clock.Running; p == 0 || p == 1 {
		return p
	}
	return -1
}

// RenderClock writes player p's clock: its time when the state was
// published, and, for the running clock, data-running, which the page's
// script counts down from the moment the view arrived (less its age, see
// stream.Hub.Serve). The same format as the script's (app.js fmtClock).
func RenderClock(b *stream.Builder, v Board, p int, key string) {
	if !v.timed() {
		return
	}
	ms := min(max(v.Clock.Remaining[p], 0), maxClockMS)
	cls := "clock"
	running := v.runningClock() == p
	switch {
	case running:
		cls += " running"
	case v.Clock.Paused && v.State.Phase != engine.PhaseOver:
		cls += " paused"
	}
	if ms == 0 {
		cls += " flag"
	}
	if running {
		b.Open("span", "class", cls, "data-ms", strconv.FormatInt(ms, 10), "data-running", "", "data-k", key)
	} else {
		b.Open("span", "class", cls, "data-ms", strconv.FormatInt(ms, 10), "data-k", key)
	}
	b.WriteString(FmtClock(ms))
	b.Close()
}

// FmtClock shows a time as h:mm:ss, m:ss, or under ten seconds m:ss.t,
// always rounded down (a clock never shows time the player does not have).
func FmtClock(ms int64) string {
	s := ms / 1000
	switch {
	case ms >= 3600*1000:
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	case ms >= 10*1000:
		return fmt.Sprintf("%d:%02d", s/60, s%60)
	}
	return fmt.Sprintf("0:%02d.%d", s, ms%1000/100)
}

// controlText names a time control for the header: "sudden 25m",
// "fischer 20m+10s"; "" for none.
func controlText(l i18n.Lang, c *wire.Clock) string {
	if c == nil || c.Control == "" || c.Control == "none" {
		return ""
	}
	kind, rest, _ := strings.Cut(c.Control, ":")
	switch kind {
	case "sudden":
		return l.T("page.control-sudden", rest)
	case "fischer":
		return l.T("page.control-fischer", rest)
	}
	return kind + " " + rest
}

// renderClockBanners writes the arbiter's pause, and the arbiter's note on
// a result.
func renderClockBanners(b *stream.Builder, v Board) {
	if v.Clock != nil && v.Clock.Paused && v.State.Phase != engine.PhaseOver {
		fmt.Fprintf(b, `<div class="banner paused">%s</div>`, Esc(v.Lang.T("page.clocks-paused")))
	}
	if v.State.Phase == engine.PhaseOver && v.Note != "" {
		fmt.Fprintf(b, `<div class="banner note">%s</div>`, Esc(v.Lang.T("page.arbiter-note", v.Note)))
	}
}

// EndText is the result of a finished game, with the off-board endings
// (time, resignation, adjudication, draw) said in words.
func EndText(l i18n.Lang, s *wire.State) string {
	name := func() string { return PlayerName(l, s, *s.Winner) }
	switch s.Result {
	case engine.ReasonTime:
		if s.Winner == nil {
			return l.T("page.draw-flag")
		}
		return l.T("page.wins-on-time", name())
	case engine.ReasonResignation:
		if s.Winner != nil {
			return l.T("page.wins-resigned", name(), PlayerName(l, s, 1-*s.Winner))
		}
	case engine.ReasonAdjudication:
		if s.Winner != nil {
			return l.T("page.wins-adjudication", name())
		}
	case engine.ReasonDraw:
		return l.T("page.draw")
	}
	return ResultText(l, s)
}

// runningSpan matches a running clock as renderClock writes it.
var runningSpan = regexp.MustCompile(`<span class="([^"]*)" data-ms="(\d+)" data-running="" data-k="([^"]*)">[^<]*</span>`)

// AgedClocks is a view with its running clocks ageMS further on: a page
// served from a cached view shows the time as it is now, even before its
// script runs (and to a snapshot without scripts).
func AgedClocks(h string, ageMS int64) string {
	if ageMS <= 0 || !strings.Contains(h, `data-running=""`) {
		return h
	}
	return runningSpan.ReplaceAllStringFunc(h, func(m string) string {
		sm := runningSpan.FindStringSubmatch(m)
		ms, _ := strconv.ParseInt(sm[2], 10, 64)
		ms = max(ms-ageMS, 0)
		cls := sm[1]
		if ms == 0 && !strings.Contains(cls, "flag") {
			cls += " flag"
		}
		return fmt.Sprintf(`<span class="%s" data-ms="%d" data-running="" data-k="%s">%s</span>`, cls, ms, sm[3], FmtClock(ms))
	})
}

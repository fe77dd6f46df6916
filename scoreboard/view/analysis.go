package view

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/scoreboard/stream"
	"github.com/zertzboard/zertzboard/wire"
)

// The forced-win analysis (wire.State.Analysis): a banner that says who
// can force a win and how fast, with the line, and the line drawn on the
// board as numbered arrows. Nothing is shown once the game is over.

// analysisShown is the analysis to show, or nil.
func analysisShown(s *wire.State) *wire.Analysis {
	if s == nil || s.Analysis == nil || s.Phase == engine.PhaseOver {
		return nil
	}
	return s.Analysis
}

// renderAnalysisBanner writes "Forced win for NAME in K" with the line, or
// the small "no forced win within K" indicator, and the engine's
// evaluation.
func renderAnalysisBanner(b *stream.Builder, l i18n.Lang, s *wire.State) {
	a := analysisShown(s)
	if a == nil {
		return
	}
	renderEvalBar(b, l, s, a)
	if w := a.ForcedWin; w != nil {
		fmt.Fprintf(b, `<div class="banner analysis win" data-forced-player="%d" data-forced-turns="%d"><b>%s</b>`,
			w.Player, w.Turns, Esc(l.N("page.forced-win", w.Turns, PlayerName(l, s, w.Player), w.Turns)))
		b.WriteString(` <span class="aline">`)
		for i, m := range w.Line {
			cls := "step attacker"
			if i%2 == 1 {
				cls = "step defender"
			}
			fmt.Fprintf(b, `<span class="%s"><small>%d</small>%s</span>`, cls, i+1, Esc(m))
		}
		b.WriteString(`</span></div>`)
		return
	}
	if a.Depth < 1 {
		return // not even one turn searched: nothing to say
	}
	fmt.Fprintf(b, `<div class="banner analysis none" data-depth="%d">%s</div>`, a.Depth, Esc(l.N("page.no-forced-win", a.Depth, a.Depth)))
}

// renderEvalBar writes the engine's evaluation (live.Analysis.WinProb) as
// a bar, player 0's share from the left, with both chances in per cent
// and the engine's best turn. It is always in the view; pages show it
// only on request (?eval=1 puts "eval" on the body; style.css), so that
// one view serves every viewer.
func renderEvalBar(b *stream.Builder, l i18n.Lang, s *wire.State, a *wire.Analysis) {
	if a.WinProb == nil {
		return
	}
	p0 := int(math.Round(1000 * max(0, min(1, a.WinProb[0]))))
	fmt.Fprintf(b, `<div class="evalbox" data-p0="%d" data-best="%s">`, p0, Esc(a.BestTurn))
	fmt.Fprintf(b, `<svg class="evalbar" viewBox="0 0 1000 10" preserveAspectRatio="none" aria-hidden="true"><rect class="ev0" width="%d" height="10"/><rect class="ev1" x="%d" width="%d" height="10"/></svg>`,
		p0, p0, 1000-p0)
	pct0 := (p0 + 5) / 10
	fmt.Fprintf(b, `<span class="evtext">%s`, Esc(l.T("page.eval", PlayerName(l, s, 0), pct0, PlayerName(l, s, 1), 100-pct0)))
	if a.BestTurn != "" {
		fmt.Fprintf(b, ` · %s`, Esc(l.T("page.best-turn", a.BestTurn)))
	}
	b.WriteString(`</span></div>`)
}

// analysisArrows draws a forced win's line: a capture as an arrow along
// its path, a placement as a numbered marble of its colour with an arrow
// to the ring it removes. The attacker's turns are drawn in one colour,
// the defender's in another. pos maps labels to SVG coordinates.
func analysisArrows(s *wire.State, pos map[string][2]float64) string {
	a := analysisShown(s)
	if a == nil || a.ForcedWin == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<g class="analysis-line">`)
	for i, m := range a.ForcedWin.Line {
		side := "attacker"
		if i%2 == 1 {
			side = "defender"
		}
		step := i + 1
		kind, colour, cells := parseNotation(m)
		var pts [][2]float64
		for _, c := range cells {
			p, ok := pos[c]
			if !ok {
				pts = nil
				break
			}
			pts = append(pts, p)
		}
		switch {
		case kind == "capture" && len(pts) > 1:
			// Stop short of the landing marble, as the last move does.
			ps := append([][2]float64(nil), pts...)
			k := len(ps) - 1
			if dx, dy := ps[k][0]-ps[k-1][0], ps[k][1]-ps[k-1][1]; math.Hypot(dx, dy) > 0 {
				cut := (MarbleRadius + 2) / math.Hypot(dx, dy)
				ps[k] = [2]float64{ps[k][0] - dx*cut, ps[k][1] - dy*cut}
			}
			var xy []string
			for _, p := range ps {
				xy = append(xy, num(p[0])+","+num(p[1]))
			}
			fmt.Fprintf(&b, `<polyline class="aarrow %s" data-step="%d" points="%s" marker-end="url(#zb-arrow-%s)"/>`, side, step, strings.Join(xy, " "), side)
			stepBadge(&b, side, step, pts[0])
		case kind == "place" && len(pts) >= 1:
			at := pts[0]
			if len(pts) == 2 { // the removed ring
				rm := pts[1]
				dx, dy := rm[0]-at[0], rm[1]-at[1]
				if d := math.Hypot(dx, dy); d > 0 {
					from := (MarbleRadius + 2) / d
					to := (RingRadius + 4) / d
					fmt.Fprintf(&b, `<line class="aarrow remove %s" data-step="%d" x1="%s" y1="%s" x2="%s" y2="%s" marker-end="url(#zb-arrow-%s)"/>`,
						side, step, num(at[0]+dx*from), num(at[1]+dy*from), num(rm[0]-dx*to), num(rm[1]-dy*to), side)
				}
				fmt.Fprintf(&b, `<path class="aremove %s" data-step="%d" d="M%s %sl12 12m0 -12l-12 12"/>`, side, step, num(rm[0]-6), num(rm[1]-6))
			}
			fmt.Fprintf(&b, `<circle class="aplace %s %s" data-step="%d" cx="%s" cy="%s" r="%s"/>`, side, colour, step, num(at[0]), num(at[1]), num(MarbleRadius-3))
			stepBadge(&b, side, step, at)
		}
	}
	b.WriteString(`</g>`)
	return b.String()
}

// stepBadge numbers a step of the line beside its first cell.
func stepBadge(b *strings.Builder, side string, step int, p [2]float64) {
	x, y := p[0]-RingRadius*0.8, p[1]-RingRadius*0.8
	fmt.Fprintf(b, `<circle class="abadge %s" cx="%s" cy="%s" r="9"/><text class="astep" x="%s" y="%s">%d</text>`,
		side, num(x), num(y), num(x), num(y+4), step)
}

// parseNotation reads the project's notation without the engine: the kind
// ("place", "capture" or "pass"), a placement's colour ("w", "g", "b")
// and the cells, upper case: a placement's ring and the ring removed, or
// a capture's path. A placement starts with '*' or a colour letter and a
// cell (two letters); a capture with a cell (a letter and a digit).
func parseNotation(m string) (kind, colour string, cells []string) {
	m = strings.ToUpper(strings.TrimSpace(m))
	switch {
	case m == "PASS":
		return "pass", "", nil
	case len(m) < 2:
		return "", "", nil
	case m[0] == '*' || m[1] >= 'A' && m[1] <= 'Z':
		m = strings.TrimPrefix(m, "*")
		return "place", strings.ToLower(m[:1]), cellLabel.FindAllString(m[1:], 2)
	}
	return "capture", "", cellLabel.FindAllString(m, MaxLineCells)
}

// cellLabel is a cell's label: column letter, row number.
var cellLabel = regexp.MustCompile(`[A-Z][0-9]+`)

// MaxLineCells bounds the cells read from one turn of a line (a capture
// chain has at most 25).
const MaxLineCells = 32

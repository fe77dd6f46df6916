package scoreboard

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// renderConsole renders the console's board list: every board with its
// players, turn, clocks and alerts. seq is the observer's version.
func (s *Server) renderConsole() (string, uint64) {
	o := s.obs
	o.mu.Lock()
	defer o.mu.Unlock()
	now := o.now()
	ids := make([]string, 0, len(o.boards))
	for id := range o.boards {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="hall" data-boards="%d">`, len(ids))
	if len(ids) == 0 {
		b.WriteString(`<p class="wait">No boards yet. Waiting for the broker…</p>`)
	} else {
		b.WriteString(`<table class="boards"><thead><tr><th>Board</th><th>Players</th><th>Game</th><th>Clocks</th><th>Alerts</th><th>Actions</th></tr></thead><tbody>`)
		for _, id := range ids {
			renderConsoleRow(&b, o.boards[id], now)
		}
		b.WriteString(`</tbody></table>`)
	}
	b.WriteString(`</div>`)
	return b.String(), o.version
}

func renderConsoleRow(b *strings.Builder, ob *opBoard, now time.Time) {
	status := ob.status
	if status == "" {
		status = "unknown"
	}
	st := ob.state
	var alerts []string
	alert := func(class, text string) {
		alerts = append(alerts, fmt.Sprintf(`<span class="alert %s">%s</span>`, class, esc(text)))
	}
	if status == "offline" {
		alert("offline", "board offline")
	}
	if !ob.illegalSince.IsZero() {
		held := now.Sub(ob.illegalSince)
		if held > illegalAlert {
			alert("illegal-long", fmt.Sprintf("illegal board for %d s: %s", int(held.Seconds()), ob.illegal))
		} else {
			alert("illegal", "illegal board: "+ob.illegal)
		}
	}
	if ob.touchMove != "" {
		alert("touch-move", "touch-move "+ob.touchMove)
	}
	if st != nil && len(st.Missed) > 0 && st.Missed[len(st.Missed)-1] == st.Turn && st.Phase != "over" {
		alert("missed", fmt.Sprintf("missed capture at turn %d", st.Turn))
	} else if ob.missed {
		alert("missed", "missed capture")
	}
	if ob.fault != "" {
		alert("fault", ob.fault)
	}
	if st != nil && st.Takeback != nil && st.Phase != "over" {
		alert("takeback", fmt.Sprintf("take-back requested by %s (turn %d)", opName(st, st.Takeback.By), st.Takeback.Turn))
	}
	paused := st != nil && st.Clock != nil && st.Clock.Paused
	if paused {
		alert("paused", "paused by the arbiter")
	}
	cls := "brow " + status
	if len(alerts) > 0 {
		cls += " alerting"
	}
	phase, seq := "", uint64(0)
	if st != nil {
		phase, seq = st.Phase, st.Seq
	}
	fmt.Fprintf(b, `<tr class="%s" data-board="%s" data-seq="%d" data-phase="%s" data-paused="%t" data-takeback="%t">`,
		esc(cls), esc(ob.id), seq, esc(phase), paused, st != nil && st.Takeback != nil && st.Phase != "over")
	fmt.Fprintf(b, `<td class="bid"><a href="/board/%s">%s</a> <span class="conn %s">%s</span></td>`, esc(ob.id), esc(ob.id), esc(status), esc(status))
	if st == nil {
		b.WriteString(`<td colspan="3" class="wait">no game yet</td>`)
	} else {
		fmt.Fprintf(b, `<td class="players"><span class="p0">%s</span> – <span class="p1">%s</span></td>`, esc(opName(st, 0)), esc(opName(st, 1)))
		var game string
		switch st.Phase {
		case "over":
			game = opResult(st)
		case "capture":
			game = fmt.Sprintf("turn %d · %s must capture", st.Turn+1, opName(st, st.ToMove))
		default:
			game = fmt.Sprintf("turn %d · %s to move", st.Turn+1, opName(st, st.ToMove))
		}
		fmt.Fprintf(b, `<td class="game">%s <span class="variant">%s · %s</span></td>`, esc(game), esc(st.Variant), esc(st.Mode))
		renderConsoleClocks(b, st)
	}
	b.WriteString(`<td class="alerts">`)
	b.WriteString(strings.Join(alerts, " "))
	b.WriteString(`</td><td class="acts">`)
	if st != nil && st.Phase != "over" {
		if paused {
			b.WriteString(`<button type="button" data-act="resume">Resume</button>`)
		} else {
			b.WriteString(`<button type="button" data-act="pause">Pause</button>`)
		}
		if st.Takeback != nil {
			b.WriteString(`<button type="button" data-act="takeback-accept">Accept take-back</button><button type="button" data-act="takeback-refuse">Refuse take-back</button>`)
		}
	}
	b.WriteString(`<button type="button" data-pick="1">More…</button></td></tr>`)
}

// renderConsoleClocks writes both clocks; the page counts the running one
// down from data-ms, from the moment the view arrived.
func renderConsoleClocks(b *strings.Builder, st *opState) {
	c := st.Clock
	if c == nil || c.RemainingMS == nil {
		control := "none"
		if c != nil && c.Control != "" {
			control = c.Control
		}
		fmt.Fprintf(b, `<td class="clocks none">%s</td>`, esc(control))
		return
	}
	b.WriteString(`<td class="clocks">`)
	for p := 0; p < 2; p++ {
		running := c.Running != nil && *c.Running == p && !c.Paused && st.Phase != "over"
		ms := c.RemainingMS[p]
		cls := "clock"
		if running {
			cls += " running"
		}
		if ms <= 0 {
			cls += " flag"
		}
		fmt.Fprintf(b, `<span class="%s" data-player="%d" data-ms="%d" data-running="%t">%s</span>`, cls, p, ms, running, fmtClock(ms))
	}
	fmt.Fprintf(b, ` <span class="control">%s</span></td>`, esc(c.Control))
}

func opName(s *opState, p int) string {
	if p < 0 || p > 1 {
		return "?"
	}
	n := strings.TrimSpace(s.Players[p])
	if n == "" || strings.EqualFold(n, strings.TrimSpace(s.Players[1-p])) {
		return fmt.Sprintf("Player %d", p+1)
	}
	return n
}

func opResult(s *opState) string {
	g := &GameResult{Players: s.Players, Winner: s.Winner, Reason: s.Result}
	t := gameResultText(g)
	if s.ResultNote != "" {
		t += " — " + s.ResultNote
	}
	return t
}

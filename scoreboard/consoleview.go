package scoreboard

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/scoreboard/view"
)

// renderConsole renders the console's board list: every board with its
// players, turn, clocks and alerts. seq is the observer's version.
func (s *Server) renderConsole(l i18n.Lang) (string, uint64) {
	unreachable := s.unreachableBoards() // before the observer's lock: never both
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
		fmt.Fprintf(&b, `<p class="wait">%s</p>`, view.Esc(l.T("console.no-boards")))
	} else {
		fmt.Fprintf(&b, `<table class="boards"><thead><tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr></thead><tbody>`,
			view.Esc(l.T("console.col-board")), view.Esc(l.T("console.col-players")), view.Esc(l.T("console.col-game")),
			view.Esc(l.T("console.col-clocks")), view.Esc(l.T("console.col-alerts")), view.Esc(l.T("console.col-actions")))
		for _, id := range ids {
			renderConsoleRow(&b, o.boards[id], now, l, unreachable[id])
		}
		b.WriteString(`</tbody></table>`)
	}
	b.WriteString(`</div>`)
	return b.String(), o.version
}

func renderConsoleRow(b *strings.Builder, ob *opBoard, now time.Time, l i18n.Lang, unreachable bool) {
	status := ob.status
	if status == "" {
		status = "unknown"
	}
	if unreachable {
		status = StatusUnreachable
	}
	st := ob.state
	alerts, paused, q := consoleAlerts(ob, st, status, now, l)
	cls := "brow " + status
	if len(alerts) > 0 {
		cls += " alerting"
	}
	phase, seq := "", uint64(0)
	if st != nil {
		phase, seq = string(st.Phase), st.Seq
	}
	fmt.Fprintf(b, `<tr class="%s" data-board="%s" data-seq="%d" data-phase="%s" data-paused="%t" data-takeback="%t">`,
		view.Esc(cls), view.Esc(ob.id), seq, view.Esc(phase), paused, st != nil && st.Takeback != nil && st.Phase != engine.PhaseOver)
	fmt.Fprintf(b, `<td class="bid"><a href="/board/%s">%s</a> <span class="conn %s">%s</span></td>`, view.Esc(ob.id), view.Esc(ob.id), view.Esc(status), view.Esc(l.T(statusKey[status])))
	if st == nil {
		fmt.Fprintf(b, `<td colspan="3" class="wait">%s</td>`, view.Esc(l.T("console.no-game")))
	} else {
		fmt.Fprintf(b, `<td class="players"><span class="p0">%s</span> – <span class="p1">%s</span></td>`, view.Esc(opName(st, 0, l)), view.Esc(opName(st, 1, l)))
		var game string
		switch st.Phase {
		case engine.PhaseOver:
			game = opResult(st, l)
		case engine.PhaseCapture:
			game = l.T("console.must-capture", st.Turn+1, opName(st, st.ToMove, l))
		default:
			game = l.T("console.to-move", st.Turn+1, opName(st, st.ToMove, l))
		}
		fmt.Fprintf(b, `<td class="game">%s <span class="variant">%s · %s</span>`, view.Esc(game), view.Esc(st.Variant), view.Esc(string(st.Mode)))
		renderConsoleNotes(b, ob, l)
		b.WriteString(`</td>`)
		renderConsoleClocks(b, st)
	}
	b.WriteString(`<td class="alerts">`)
	b.WriteString(strings.Join(alerts, " "))
	b.WriteString(`</td><td class="acts">`)
	renderConsoleActs(b, st, paused, q, l)
	fmt.Fprintf(b, `<button type="button" data-pick="1">%s</button></td></tr>`, view.Esc(l.T("console.b-more")))
}

// maxConsoleNotes is how many of a game's notes the console shows: the
// latest, the others counted.
const maxConsoleNotes = 5

// renderConsoleNotes writes the arbiter's notes given on the board's game
// (its record's, when the record is the state's game): the latest
// maxConsoleNotes, newest last, and how many earlier ones are not shown.
// Nothing for a game without notes.
func renderConsoleNotes(b *strings.Builder, ob *opBoard, l i18n.Lang) {
	r, st := ob.rec, ob.state
	if r == nil || st == nil || len(r.notes) == 0 {
		return
	}
	if r.GameID != "" && st.GameID != "" && r.GameID != st.GameID {
		return // the record of the game before: this one's is on its way
	}
	fmt.Fprintf(b, `<ul class="notes" aria-label="%s" data-notes="%d">`, view.Esc(l.T("console.arbiter-notes")), r.noteCount)
	for _, n := range r.notes {
		fmt.Fprintf(b, `<li>%s</li>`, view.Esc(noteText(l, n.Turn, n.Text)))
	}
	if k := r.noteCount - len(r.notes); k > 0 {
		fmt.Fprintf(b, `<li class="earlier">%s</li>`, view.Esc(l.N("console.notes-earlier", k, k)))
	}
	b.WriteString(`</ul>`)
}

// noteText is one of the arbiter's notes in words: "after turn 12: TEXT",
// or "before the first turn: TEXT" for turn 0. The text comes from the
// LAN: its control characters become spaces and it is clipped to a
// note's bound (record.MaxNote); the caller escapes the whole.
func noteText(l i18n.Lang, turn int, text string) string {
	text = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, text)
	text = view.ClipText(strings.TrimSpace(text), record.MaxNote)
	if turn <= 0 {
		return l.T("console.note-before", text)
	}
	return l.T("console.note-after", turn, text)
}

// consoleAlerts are the alerts of a board's console row, as HTML: the
// connection, an illegal board and for how long, touch-move, a missed
// turn, a fault, a take-back asked, the clocks paused, dead sensors and
// an open question. It also says whether the clocks are paused and which
// question is open.
func consoleAlerts(ob *opBoard, st *opState, status string, now time.Time, l i18n.Lang) (alerts []string, paused bool, q *opQuestion) {
	alert := func(class, text string) {
		alerts = append(alerts, fmt.Sprintf(`<span class="alert %s">%s</span>`, class, view.Esc(text)))
	}
	switch status {
	case "offline":
		alert("offline", l.T("console.a-offline"))
	case StatusUnreachable:
		alert("offline", l.T("console.a-unreachable"))
	case "online":
		if ob.noCommands {
			alert("offline", l.T("console.a-no-commands"))
		}
	}
	if !ob.illegalSince.IsZero() {
		held := now.Sub(ob.illegalSince)
		if held > illegalAlert {
			alert("illegal-long", l.T("console.a-illegal-long", int(held.Seconds()), ob.illegal))
		} else {
			alert("illegal", l.T("console.a-illegal", ob.illegal))
		}
	}
	if ob.touchMove != "" {
		alert("touch-move", l.T("console.a-touch-move", ob.touchMove))
	}
	if st != nil && len(st.Missed) > 0 && st.Missed[len(st.Missed)-1] == st.Turn && st.Phase != engine.PhaseOver {
		alert("missed", l.T("console.a-missed-turn", st.Turn))
	} else if ob.missed {
		alert("missed", l.T("console.a-missed"))
	}
	if ob.fault != "" {
		alert("fault", ob.fault)
	}
	if st != nil && st.Takeback != nil && st.Phase != engine.PhaseOver {
		alert("takeback", l.T("console.a-takeback", opName(st, st.Takeback.By, l), st.Takeback.Turn))
	}
	paused = st != nil && st.Clock != nil && st.Clock.Paused
	if paused {
		alert("paused", l.T("console.a-paused"))
	}
	if st != nil && len(st.DeadCells) > 0 {
		alert("dead", l.T("console.a-dead", strings.Join(st.DeadCells, ", ")))
	}
	q = openQuestion(st)
	if q != nil {
		alert("question", l.T("console.a-question", q.Turn))
	}
	return alerts, paused, q
}

// renderConsoleActs writes the buttons of a board's console row for
// what the game in progress allows: pause or resume, a take-back's
// answer, and one button per option of the open question q.
func renderConsoleActs(b *strings.Builder, st *opState, paused bool, q *opQuestion, l i18n.Lang) {
	if st != nil && st.Phase != engine.PhaseOver {
		if paused {
			fmt.Fprintf(b, `<button type="button" data-act="resume">%s</button>`, view.Esc(l.T("console.b-resume")))
		} else {
			fmt.Fprintf(b, `<button type="button" data-act="pause">%s</button>`, view.Esc(l.T("console.b-pause")))
		}
		if st.Takeback != nil {
			fmt.Fprintf(b, `<button type="button" data-act="takeback-accept">%s</button><button type="button" data-act="takeback-refuse">%s</button>`,
				view.Esc(l.T("console.b-accept")), view.Esc(l.T("console.b-refuse")))
		}
	}
	if q != nil {
		// One button per option: the arbiter answers the referee.
		for i, o := range q.Options {
			label := o
			switch {
			case q.About == "colour" && q.Cell != "":
				label = q.Cell + " " + colourWord(o, l)
			case q.About == "cell" && o == "other":
				// None of the sockets offered: the next ones
				// (referee.OtherRing).
				label = l.T("console.marble-elsewhere")
			case o == "other":
				// None of the lines offered: the next ones.
				label = l.T("console.other-lines")
			case q.About == "cell":
				// The socket the missed marble is on.
				label = l.T("console.marble-on", o)
			}
			fmt.Fprintf(b, `<button type="button" class="answer" data-act="answer" data-question="%d" data-option="%d">%s</button>`, q.ID, i, view.Esc(label))
		}
	}
}

// renderConsoleClocks writes both clocks; the page counts the running one
// down from data-ms, from the moment the view arrived.
func renderConsoleClocks(b *strings.Builder, st *opState) {
	c := st.Clock
	if c == nil || c.Remaining == nil {
		control := "none"
		if c != nil && c.Control != "" {
			control = c.Control
		}
		fmt.Fprintf(b, `<td class="clocks none">%s</td>`, view.Esc(control))
		return
	}
	b.WriteString(`<td class="clocks">`)
	for p := 0; p < 2; p++ {
		running := c.Running != nil && *c.Running == p && !c.Paused && st.Phase != engine.PhaseOver
		ms := max(c.Remaining[p], 0)
		cls := "clock"
		if running {
			cls += " running"
		}
		if ms <= 0 {
			cls += " flag"
		}
		fmt.Fprintf(b, `<span class="%s" data-player="%d" data-ms="%d" data-running="%t">%s</span>`, cls, p, ms, running, view.FmtClock(ms))
	}
	fmt.Fprintf(b, ` <span class="control">%s</span></td>`, view.Esc(c.Control))
}

// openQuestion is the board's open question, if it is one the console can
// offer (bounded, as the state's decoder does not bound it).
func openQuestion(st *opState) *opQuestion {
	if st == nil || st.Question == nil || st.Question.ID < 1 || len(st.Question.Options) == 0 || len(st.Question.Options) > 16 {
		return nil
	}
	for _, o := range st.Question.Options {
		if len(o) > 200 {
			return nil
		}
	}
	return st.Question
}

// colourWord says a marble colour letter in language l.
func colourWord(letter string, l i18n.Lang) string {
	if len(letter) == 1 {
		if name, ok := view.ColourName[letter[0]]; ok {
			return l.T("colour." + name)
		}
	}
	return letter
}

// statusKey names a board's connection status.
var statusKey = map[string]string{"online": "console.online", "offline": "console.offline", "unknown": "console.unknown", StatusUnreachable: "console.unreachable"}

func opName(s *opState, p int, l i18n.Lang) string {
	return nameOf(s.Players, p, l)
}

// nameOf is what the console and the results call player p: the name, or
// "Player N" without one or when both have the same.
func nameOf(players [2]string, p int, l i18n.Lang) string {
	if p < 0 || p > 1 {
		return "?"
	}
	n := strings.TrimSpace(players[p])
	if n == "" || strings.EqualFold(n, strings.TrimSpace(players[1-p])) {
		return l.T("console.player-n", p)
	}
	return n
}

func opResult(s *opState, l i18n.Lang) string {
	g := &GameResult{Players: s.Players, Winner: s.Winner, Reason: s.Result}
	t := gameResultText(g, l)
	if s.ResultNote != "" {
		t += " — " + s.ResultNote
	}
	return t
}

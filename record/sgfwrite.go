package record

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/zertzboard/zertzboard/engine"
)

// sgfSetups is the inverse of sgfVariants: the SU[] Boardspace uses.
var sgfSetups = map[string]string{
	"37": "Zertz",
	"48": "Zertz+11",
	"61": "Zertz+24",
}

// WriteSGF writes rec as a Boardspace SGF record in the VV[2] style: one
// node per UI action, with sequence numbers and a Done after every turn,
// so that Boardspace's viewer and ReadSGF can both read it. Boardspace has
// only the standard 37-, 48- and 61-ring games, no pass and no missed
// capture, so other variants and such records are refused.
func WriteSGF(w io.Writer, rec *Record) error {
	su, ok := sgfSetups[rec.Variant]
	if !ok {
		return fmt.Errorf("record: Boardspace SGF has no variant %q (only 37, 48 and 61 rings, standard marbles)", rec.Variant)
	}
	b, _, err := rec.Board()
	if err != nil {
		return err
	}
	if rec.First != 0 && rec.First != 1 {
		return fmt.Errorf("record: first player is %d; want 0 or 1", rec.First)
	}
	if len(rec.MissedCaptures) > 0 {
		return fmt.Errorf("record: turn %d is a placement over a compulsory capture, which Boardspace SGF cannot record; write JSON", rec.MissedCaptures[0])
	}
	if err := checkNotes(rec.Notes, len(rec.Turns)); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	// Each turn's notes go on the node that ends it (its Done), those
	// before the first turn on the Start node: a viewer shows them with
	// the position they were given at.
	comments := make([]string, len(rec.Turns)+1)
	for i := 0; i < len(rec.Notes); {
		j := i
		for j < len(rec.Notes) && rec.Notes[j].Turn == rec.Notes[i].Turn {
			j++
		}
		comments[rec.Notes[i].Turn] = sgfComment(rec.Notes[i:j])
		i = j
	}
	sw := &sgfWriter{w: bufio.NewWriter(w), b: b}
	sw.root(rec, su, comments[0])
	// Boardspace's TM on a player's node is the time they have used so
	// far, in milliseconds; P0[time …] at the end is each player's total.
	var used [2]int64
	timed := rec.Clock != nil && len(rec.Clock.Turns) == len(rec.Turns)
	for i, t := range rec.Turns {
		player := rec.First ^ (i & 1)
		sw.tm = -1
		if timed {
			used[player] += rec.Clock.Turns[i].UsedMS
			sw.tm = used[player]
		}
		if err := sw.turn(player, t, comments[i+1]); err != nil {
			return fmt.Errorf("record: turn %d: %w", i+1, err)
		}
	}
	sw.tm = -1
	switch rec.Stop.Kind {
	case Resign:
		sw.action(rec.Stop.Player, "Resign")
		sw.action(rec.Stop.Player, "Done")
	case WinOnTime:
		sw.action(rec.Stop.Player, "WinOnTime")
	}
	fmt.Fprintf(sw.w, ";\nP0[time %s ]\nP1[time %s ]\n)\n", sgfTime(used[0]), sgfTime(used[1]))
	return sw.w.Flush()
}

// sgfTime writes a time as Boardspace's P0[time …] does: H:MM:SS.
func sgfTime(ms int64) string {
	s := ms / 1000
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

// sgfTimeControl is Boardspace's TC[] for a time control's text: None,
// Fixed BASE or PlusTime BASE INC, in milliseconds; "" if unknown.
func sgfTimeControl(control string) string {
	kind, rest, _ := strings.Cut(control, ":")
	ms := func(s string) (int64, bool) {
		d, err := time.ParseDuration(s)
		return d.Milliseconds(), err == nil
	}
	switch kind {
	case "none":
		return "None"
	case "sudden":
		if b, ok := ms(rest); ok {
			return fmt.Sprintf("Fixed %d", b)
		}
	case "fischer":
		base, inc, _ := strings.Cut(rest, "+")
		b, ok1 := ms(base)
		i, ok2 := ms(inc)
		if ok1 && ok2 {
			return fmt.Sprintf("PlusTime %d %d", b, i)
		}
	}
	return ""
}

type sgfWriter struct {
	w   *bufio.Writer
	b   *engine.Board
	seq int
	tm  int64 // TM[] for the turn's Done node; -1 for none
}

func (sw *sgfWriter) root(rec *Record, su, comment string) {
	fmt.Fprintf(sw.w, "(;\nGM[22] VV[2]\nSU[%s]\n", su)
	if rec.Clock != nil {
		if tc := sgfTimeControl(rec.Clock.Control); tc != "" {
			fmt.Fprintf(sw.w, "TC[%s]\n", tc)
		}
	}
	for _, p := range []struct{ id, v string }{{"DT", rec.Date}, {"GN", SGFName(rec)}, {"RE", SGFResult(rec)}, {"EV", rec.Event}, {"RO", rec.Round}} {
		if p.v != "" {
			fmt.Fprintf(sw.w, "%s[%s]\n", p.id, sgfEscape(p.v))
		}
	}
	for i, name := range rec.Players {
		fmt.Fprintf(sw.w, "P%d[id \"%s\"]\n", i, sgfEscape(name))
	}
	sw.node(rec.First, fmt.Sprintf("Start P%d", rec.First), -1, comment)
}

// action writes one move node with the next sequence number.
func (sw *sgfWriter) action(player int, cmd string) { sw.node(player, cmd, -1, "") }

// node writes a move node with the next sequence number, and TM[tm] when
// tm is not negative and the comment C[comment] when it is not "".
func (sw *sgfWriter) node(player int, cmd string, tm int64, comment string) {
	fmt.Fprintf(sw.w, "; P%d[%d %s]", player, sw.seq, cmd)
	if tm >= 0 {
		fmt.Fprintf(sw.w, "TM[%d]", tm)
	}
	if comment != "" {
		fmt.Fprintf(sw.w, "C[%s]", sgfEscape(comment))
	}
	sw.w.WriteByte('\n')
	sw.seq++
}

// turn writes the UI actions that make up t, then Done with the turn's
// comment.
func (sw *sgfWriter) turn(player int, t engine.Turn, comment string) error {
	switch t.Kind {
	case engine.Place:
		rack := 2
		if t.From == engine.FromCaptures {
			rack = player
		}
		sw.action(player, fmt.Sprintf("RtoB %d %d %s", rack, t.Color, sw.cell(t.At)))
		if t.Remove != engine.NoCell {
			sw.action(player, "R- "+sw.cell(t.Remove))
		}
	case engine.Capture:
		path := t.Path()
		for i := 0; i+1 < len(path); i++ {
			sw.action(player, fmt.Sprintf("BtoB %s %s", sw.cell(path[i]), sw.cell(path[i+1])))
		}
	default:
		return fmt.Errorf("a %s cannot be written as Boardspace SGF", t.Kind)
	}
	sw.node(player, "Done", sw.tm, comment)
	return nil
}

// SGFResult is the record's RE[]: its ResultText when it has one, else
// the result in Boardspace's words, "Game won by NAME" (NAME the winner's
// name, or P0 or P1 when unnamed), for a win on the board, a resignation
// or a win on time; "Game won by NAME (adjudication)" and "Draw…" for the
// arbiter's results; "" when the game is unfinished or breaks a rule.
func SGFResult(rec *Record) string {
	if rec.ResultText != "" {
		return rec.ResultText
	}
	if s := stopText(rec); s != "" {
		return s
	}
	rep, err := rec.Replay()
	if err != nil {
		return ""
	}
	switch rep.Result.Outcome {
	case Win, Resigned, Timeout:
		if w := rep.Result.Winner; w == 0 || w == 1 {
			return "Game won by " + nameOrP(rec, w)
		}
	case Draw:
		return "Draw"
	}
	return ""
}

// SGFName is the record's GN[]: its Name when it has one, else the
// players' names joined as Boardspace's early records do, "P0-P1"
// ("" when neither is known).
func SGFName(rec *Record) string {
	if rec.Name != "" {
		return rec.Name
	}
	if rec.Players == [2]string{} {
		return ""
	}
	return nameOrP(rec, 0) + "-" + nameOrP(rec, 1)
}

// nameOrP is player p's name, or P0 or P1 when the record has none.
func nameOrP(rec *Record, p int) string {
	if rec.Players[p] != "" {
		return rec.Players[p]
	}
	return fmt.Sprintf("P%d", p)
}

// stopText is RE[] for the ends Boardspace's actions cannot say: an
// adjudication and the draws (Resign and WinOnTime are actions).
func stopText(rec *Record) string {
	s := ""
	switch rec.Stop.Kind {
	case Adjudication:
		s = "Game won by " + nameOrP(rec, rec.Stop.Player) + " (adjudication)"
	case DrawDeclared:
		s = "Draw"
	case DrawOnTime:
		s = "Draw (flag fall, the opponent could not win)"
	}
	if s != "" && rec.Stop.Note != "" {
		s += ": " + rec.Stop.Note
	}
	return s
}

// cell writes a cell as Boardspace does: column and row apart, "D 4".
func (sw *sgfWriter) cell(c engine.Cell) string {
	l := sw.b.Label(c)
	return l[:1] + " " + l[1:]
}

// sgfEscape escapes the two characters that are special inside a value.
func sgfEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `]`, `\]`).Replace(s)
}

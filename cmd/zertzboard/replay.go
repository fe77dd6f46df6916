package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/zertzboard/zertzboard/display"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/record"
)

func init() {
	register(command{name: "replay", summary: "replay game records (Boardspace SGF, zertzboard JSON) and check every turn", run: runReplay})
}

const replayAbout = `
Replays game records turn by turn through the rules engine and reports, per
file, the variant, the number of turns, how the game ended, the winner and
both players' captures. Records may be Boardspace SGF (37, 48 or 61 rings)
or the project's JSON record format; the format is detected from the
content, not the file name.

Records are read the way Boardspace accepts them, with a warning (on
standard error, and in --json) for what the rules do not use: a turn left
incomplete when a player resigned or won on time is dropped, a resignation
recorded twice counts once, and turns recorded after the game ended on the
board are ignored (the result stands). --strict makes the first and the
last of those errors. A result the record states in Boardspace's words
("Game won by NAME", RE[]) that its turns contradict is a warning too.

Exit status: 0 if every record is legal (warnings included); 1 if any
record breaks a rule or cannot be read (a record that cannot be read is not
a legal record); 2 for bad flags or no files. For an illegal turn the
message names the file, the 1-based turn number, the player, the move and
the rule it breaks:

  x.sgf: turn 12 (player 1) WD4-A1: illegal: ring A1 is not free: no two adjacent sides are open [ring-not-free]

With --json, each file gives one JSON object on one line of standard output:

  {"file": "x.sgf", "variant": "37", "turns": 41, "winner": 0, "result": "win",
   "captures": [{"white": 1, "grey": 5, "black": 2}, {"white": 0, "grey": 1, "black": 3}],
   "error": null, "warnings": []}

  variant   ring count, "b" suffix for blitz; null if the file cannot be read
  turns     turns replayed legally
  winner    0 or 1 (P0, P1), or null
  result    win, draw, resigned, timeout or unfinished (of the legal turns);
            null if the file cannot be read
  captures  each player's captures after the last legal turn, isolation included
  error     null, or why the record is illegal or unreadable
  warnings  what was tolerated, in words (see above); [] for none
  result_text, date, name, event, round
            the record's own headers (SGF RE, DT, GN, EV, RO), when it has them

Without --json, the line ends with the record's own headers, when it has
them: the result it states (SGF RE), the event, the round, the game's name
and date.

Examples:
  zertzboard replay game.sgf
  zertzboard replay --json games/*.sgf > results.jsonl
  zertzboard replay --strict archive/*.sgf
  zertzboard replay --show game.json`

func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("replay", "[--json] [--show] [--strict] FILE…", replayAbout, stderr)
	asJSON := fs.Bool("json", false, "print one JSON object per file, one per line")
	strict := fs.Bool("strict", false, "turns after the end of the game and a turn left incomplete at a resignation are errors, not warnings")
	show := fs.Bool("show", false, "draw the board after every turn (on standard error with --json)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "zertzboard replay: no record files given")
		fs.Usage()
		return exitUsage
	}
	var board io.Writer
	if *show {
		board = stdout
		if *asJSON {
			board = stderr // keep standard output one JSON object per line
		}
	}
	code := exitOK
	for _, path := range fs.Args() {
		o := replayFile(path, board, record.ReplayOptions{Strict: *strict})
		if o.err != nil {
			code = exitIllegal
			fmt.Fprintf(stderr, "%s: %s\n", path, o.errText())
		}
		for _, w := range o.warnings() {
			fmt.Fprintf(stderr, "%s: warning: %s\n", path, w)
		}
		if *asJSON {
			writeReplayJSON(stdout, o)
		} else {
			fmt.Fprintln(stdout, o.summary())
		}
	}
	return code
}

// replayOutcome is what replaying one file found.
type replayOutcome struct {
	file string
	rec  *record.Record
	rep  *record.Replay // nil when the file could not be read
	err  error          // a read error or a *record.TurnError
}

// replayFile reads and replays one record, drawing every position on
// board when it is not nil.
func replayFile(path string, board io.Writer, opt record.ReplayOptions) replayOutcome {
	o := replayOutcome{file: path}
	o.rec, o.err = record.ReadFile(path)
	if o.err != nil {
		return o
	}
	o.rep, o.err = o.rec.ReplayWith(opt)
	if board != nil && o.rep != nil {
		showGame(board, o.rec, o.rep.Game)
	}
	return o
}

// warnings are what the replay tolerated.
func (o replayOutcome) warnings() []string {
	if o.rep == nil {
		return nil
	}
	return o.rep.Warnings
}

// errText is the error without the package prefix when the record itself
// is at fault: the contract's "turn N (player P) MOVE: illegal: …".
func (o replayOutcome) errText() string {
	var te *record.TurnError
	if errors.As(o.err, &te) {
		return te.Message()
	}
	return o.err.Error()
}

// replayJSON is the contract's object; field order is the contract's.
type replayJSON struct {
	File     string          `json:"file"`
	Variant  *string         `json:"variant"`
	Turns    int             `json:"turns"`
	Winner   *int            `json:"winner"`
	Result   *record.Outcome `json:"result"`
	Captures [2]capturesObj  `json:"captures"`
	Error    *string         `json:"error"`
	Warnings []string        `json:"warnings"`
	// The record's headers, as written (SGF RE, DT, GN, EV, RO), when
	// it has them.
	ResultText string `json:"result_text,omitempty"`
	Date       string `json:"date,omitempty"`
	Name       string `json:"name,omitempty"`
	Event      string `json:"event,omitempty"`
	Round      string `json:"round,omitempty"`
}

type capturesObj struct {
	White int `json:"white"`
	Grey  int `json:"grey"`
	Black int `json:"black"`
}

func writeReplayJSON(w io.Writer, o replayOutcome) {
	// An unreadable file has no result: null, not "unfinished".
	j := replayJSON{File: o.file, Warnings: append([]string{}, o.warnings()...)}
	if o.rec != nil {
		v := o.rec.Variant
		j.Variant = &v
		j.ResultText, j.Date, j.Name, j.Event, j.Round = o.rec.ResultText, o.rec.Date, o.rec.Name, o.rec.Event, o.rec.Round
	}
	if o.rep != nil {
		p := o.rep.Game.Position()
		j.Turns = o.rep.Game.Len()
		res := o.rep.Result.Outcome
		j.Result = &res
		if w := o.rep.Result.Winner; w >= 0 {
			j.Winner = &w
		}
		for i := range j.Captures {
			c := p.Captures(i)
			j.Captures[i] = capturesObj{White: c[engine.White], Grey: c[engine.Grey], Black: c[engine.Black]}
		}
	}
	if o.err != nil {
		s := o.errText()
		j.Error = &s
	}
	data, err := json.Marshal(j)
	if err != nil {
		panic(err) // plain strings and ints always marshal
	}
	fmt.Fprintf(w, "%s\n", data)
}

// summary is the one-line human report for a file.
func (o replayOutcome) summary() string {
	if o.rep == nil {
		return fmt.Sprintf("%s: unreadable", o.file)
	}
	p := o.rep.Game.Position()
	res := o.rep.Result
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %s rings, %s, ", o.file, o.rec.Variant, plural(o.rep.Game.Len(), "turn"))
	if o.err != nil {
		sb.WriteString("illegal")
	} else {
		sb.WriteString(string(res.Outcome))
		if res.Reason != "" {
			fmt.Fprintf(&sb, " (%s)", res.Reason)
		}
		if res.Winner >= 0 {
			fmt.Fprintf(&sb, ", winner %s", playerName(o.rec, res.Winner))
		}
	}
	fmt.Fprintf(&sb, "; captures %s %s, %s %s", playerName(o.rec, 0), capsText(p.Captures(0)), playerName(o.rec, 1), capsText(p.Captures(1)))
	if h := headers(o.rec); h != "" {
		sb.WriteString("; " + h)
	}
	return sb.String()
}

// headers are the record's own headers in words: the result it states,
// the event and round, the game's name and date; "" when it has none.
func headers(rec *record.Record) string {
	var parts []string
	for _, h := range []struct{ label, v string }{
		{"recorded result", rec.ResultText}, {"event", rec.Event}, {"round", rec.Round}, {"game", rec.Name}, {"date", rec.Date},
	} {
		if v := strings.TrimSpace(h.v); v != "" {
			parts = append(parts, fmt.Sprintf("%s %q", h.label, v))
		}
	}
	return strings.Join(parts, ", ")
}

// playerName is "P0 name", or just "P0" when the record has no name.
func playerName(rec *record.Record, i int) string {
	if rec.Players[i] == "" {
		return fmt.Sprintf("P%d", i)
	}
	return fmt.Sprintf("P%d %s", i, rec.Players[i])
}

func capsText(c [3]int) string {
	return fmt.Sprintf("%dw %dg %db", c[engine.White], c[engine.Grey], c[engine.Black])
}

// showGame draws the start and the position after every turn.
func showGame(w io.Writer, rec *record.Record, g *engine.Game) {
	fmt.Fprintf(w, "start (%s rings, %s moves first)\n", rec.Variant, playerName(rec, rec.First))
	if h := headers(rec); h != "" {
		fmt.Fprintln(w, h)
	}
	showPosition(w, rec, g.Start())
	for i := 0; i < g.Len(); i++ {
		t, claimed := g.Turn(i)
		before := g.PositionAfter(i)
		b := before.Board()
		fmt.Fprintf(w, "\nturn %d (%s): %s", i+1, playerName(rec, before.ToMove()), engine.FormatTurn(b, t))
		if len(claimed) > 0 {
			labels := make([]string, len(claimed))
			for j, c := range claimed {
				labels[j] = b.Label(c)
			}
			fmt.Fprintf(w, ", claims %s", strings.Join(labels, " "))
		}
		fmt.Fprintln(w)
		showPosition(w, rec, g.PositionAfter(i+1))
	}
}

// showPosition draws p, then the pool and both players' captures.
func showPosition(w io.Writer, rec *record.Record, p engine.Position) {
	io.WriteString(w, display.Board(p.Board(), p.Cells(), nil))
	fmt.Fprintf(w, "pool %s | %s %s | %s %s\n", capsText(p.Pool()),
		playerName(rec, 0), capsText(p.Captures(0)), playerName(rec, 1), capsText(p.Captures(1)))
	if r := p.Result(); r.Over {
		fmt.Fprintf(w, "game over: %s\n", r)
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

package main

import (
	"encoding/json"
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
		f := record.CheckFile(path, record.ReplayOptions{Strict: *strict})
		if board != nil && f.Replay != nil {
			showGame(board, f.Record, f.Replay.Game)
		}
		if f.Err != nil {
			code = exitIllegal
			fmt.Fprintf(stderr, "%s: %s\n", path, f.ErrText())
		}
		for _, w := range f.Warnings() {
			fmt.Fprintf(stderr, "%s: warning: %s\n", path, w)
		}
		if *asJSON {
			data, err := json.Marshal(f)
			if err != nil {
				panic(err) // plain strings and ints always marshal
			}
			fmt.Fprintf(stdout, "%s\n", data)
		} else {
			fmt.Fprintln(stdout, f.Summary())
		}
	}
	return code
}

// showGame draws the start and the position after every turn.
func showGame(w io.Writer, rec *record.Record, g *engine.Game) {
	fmt.Fprintf(w, "start (%s rings, %s moves first)\n", rec.Variant, rec.PlayerName(rec.First))
	if h := rec.Headers(); h != "" {
		fmt.Fprintln(w, h)
	}
	showPosition(w, rec, g.Start())
	for i := 0; i < g.Len(); i++ {
		t, claimed := g.Turn(i)
		before := g.PositionAfter(i)
		b := before.Board()
		fmt.Fprintf(w, "\nturn %d (%s): %s", i+1, rec.PlayerName(before.ToMove()), engine.FormatTurn(b, t))
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
	fmt.Fprintf(w, "pool %s | %s %s | %s %s\n", record.CapturesText(p.Pool()),
		rec.PlayerName(0), record.CapturesText(p.Captures(0)), rec.PlayerName(1), record.CapturesText(p.Captures(1)))
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

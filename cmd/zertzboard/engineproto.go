package main

import (
	"fmt"
	"io"
	"os"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
	"github.com/zertzboard/zertzboard/engine/search/proto"
)

func init() {
	register(command{name: "engine", summary: "the engine on a line protocol (standard input and output), for GUIs and match runners", run: runEngine})
}

// stdin is the engine protocol's input; tests replace it.
var stdin io.Reader = os.Stdin

const engineAbout = `
Speaks a line protocol on standard input and output, like a chess engine's
UCI, for GUIs and match runners. One command a line:

  isready                          answered by "readyok"
  position startpos [VARIANT] [moves M1 M2 …]
                                   a board's start (VARIANT: 37, 48, 61,
                                   37b for blitz, …; default --board), then
                                   these turns in notation
  position text TEXT [moves M1 …]  a position's text form, then these turns
  go [level L | nodes N | ms T | infinite] [seed S]
                                   search the position; without a budget,
                                   --level. Prints "info" lines, then
                                   "bestmove M"
  stop                             end the search now: its best turn so far
                                   is printed as "bestmove"
  quit                             end the search and exit

Replies:
  info depth D score S win_prob P nodes N ms T pv M1 M2 …
                                   after each completed depth (score and
                                   win_prob for the player to move)
  bestmove M                       the turn to play; "bestmove none" when
                                   the game is over
  error TEXT                       a line that could not be obeyed, and why;
                                   the engine carries on

A "position" or "go" during a search waits for its bestmove first (and ends
an infinite search), so commands can be piped in; only "stop" and "quit"
cut a bounded search short. At the end of the input the engine waits for a
running search (ends an infinite one) and exits 0.

Example:
  printf 'position startpos 37 moves WD4-A1\ngo level 4\n' | zertzboard engine`

func runEngine(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("engine", "[--board B] [--level L]", engineAbout, stderr)
	board := fs.String("board", "37", "the variant of \"position startpos\" without one: 37, 40, 43, 44, 48 or 61, with b for blitz (37b)")
	level := fs.Int("level", search.DefaultLevel, fmt.Sprintf("the level of \"go\" without a budget, 1 to %d", search.MaxLevel))
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "zertzboard engine: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	if *level < 1 || *level > search.MaxLevel {
		return fail("--level %d: want 1 to %d", *level, search.MaxLevel)
	}
	if _, _, err := engine.ParseVariant(*board); err != nil {
		return fail("--board %s: %s", *board, errText(err))
	}
	s, err := proto.New(stdout, *board, *level)
	if err != nil {
		return fail("%s", errText(err))
	}
	s.Serve(stdin)
	return exitOK
}

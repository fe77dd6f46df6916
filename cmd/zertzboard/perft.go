package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/record"
)

func init() {
	register(command{Name: "perft", Summary: "count the leaves of the game tree (a rules-engine check)", Run: runPerft})
}

func runPerft(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("perft", "--board 37|40|43|44|48|61 [--blitz] [--from FILE --turns N] --depth D", helpText("perft"), stderr)
	board := fs.String("board", "37", "the board: 37, 40, 43, 44, 48 or 61 rings")
	blitz := fs.Bool("blitz", false, "blitz rules: 5 white, 7 grey and 9 black marbles")
	from := fs.String("from", "", "start after the first --turns turns of this record (SGF or JSON) instead of the start")
	turns := fs.Int("turns", 0, "with --from: how many of the record's turns to play first")
	depth := fs.Int("depth", 0, "how many turns deep to count (required, 1 or more)")
	verbose := fs.Bool("time", false, "also print the time each depth took")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "zertzboard perft: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if *depth < 1 {
		fmt.Fprintln(stderr, "zertzboard perft: --depth is required and must be 1 or more")
		return exitUsage
	}
	start, err := perftStart(fs, *board, *blitz, *from, *turns)
	if err != nil {
		fmt.Fprintf(stderr, "zertzboard perft: %s\n", errText(err))
		return exitUsage
	}
	for d := 1; d <= *depth; d++ {
		t0 := time.Now()
		n := engine.Perft(start, d)
		if *verbose {
			fmt.Fprintf(stdout, "depth %d: %d (%s)\n", d, n, time.Since(t0).Round(time.Microsecond))
		} else {
			fmt.Fprintf(stdout, "depth %d: %d\n", d, n)
		}
	}
	return exitOK
}

// perftStart returns the position to count from: a board's start, or a
// position reached in a record.
func perftStart(fs *flag.FlagSet, board string, blitz bool, from string, turns int) (engine.Position, error) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if from == "" {
		if set["turns"] {
			return engine.Position{}, fmt.Errorf("--turns needs --from FILE")
		}
		b, err := engine.StandardBoard(board)
		if err != nil {
			return engine.Position{}, err
		}
		rules := engine.Standard
		if blitz {
			rules = engine.Blitz
		}
		return engine.NewPosition(b, rules, 0), nil
	}
	rec, err := record.ReadFile(from)
	if err != nil {
		return engine.Position{}, err
	}
	if set["board"] || set["blitz"] {
		if want := boardVariant(board, blitz); want != rec.Variant {
			return engine.Position{}, fmt.Errorf("%s is a %s game, not %s", from, rec.Variant, want)
		}
	}
	if turns < 0 || turns > len(rec.Turns) {
		return engine.Position{}, fmt.Errorf("--turns %d: want 0 to %d: %s has %s", turns, len(rec.Turns), from, plural(len(rec.Turns), "turn"))
	}
	rec.Turns = rec.Turns[:turns]
	rep, err := rec.Replay()
	if err != nil {
		return engine.Position{}, fmt.Errorf("%s: %s", from, errText(err))
	}
	return rep.Game.Position(), nil
}

func boardVariant(board string, blitz bool) string {
	if blitz {
		return board + "b"
	}
	return board
}

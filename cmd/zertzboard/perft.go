package main

import (
	"fmt"
	"io"
	"time"

	"github.com/zertzboard/zertzboard/engine"
)

func init() {
	register(command{Name: "perft", Summary: "count the leaves of the game tree (a rules-engine check)", Run: runPerft})
}

func runPerft(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("perft", "--board 37|40|43|44|48|61 [--blitz] [--from FILE --turns N] --depth D", helpText("perft"), stderr)
	pos := definePosition(fs, "start after the first --turns turns of this record (SGF or JSON) instead of the start", "", false)
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
	start, err := pos.resolve()
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

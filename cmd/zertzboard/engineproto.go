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
	register(command{Name: "engine", Summary: "the engine on a line protocol (standard input and output), for GUIs and match runners", Run: runEngine})
}

// stdin is the engine protocol's input; tests replace it.
var stdin io.Reader = os.Stdin

func runEngine(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("engine", "[--board B] [--level L]", helpText("engine"), stderr)
	board := fs.String("board", "37", "the variant of \"position startpos\" without one: 37, 40, 43, 44, 48 or 61, with b for blitz (37b)")
	level := fs.Int("level", search.DefaultLevel, fmt.Sprintf("the level of \"go\" without a budget, 1 to %d", search.MaxLevel))
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	fail := prog.Failer("engine", stderr)
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

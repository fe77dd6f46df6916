package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/zertzboard/zertzboard/display"
	"github.com/zertzboard/zertzboard/record"
)

func init() {
	register(command{Name: "replay", Summary: "replay game records (Boardspace SGF, zertzboard JSON) and check every turn", Run: runReplay})
}

func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("replay", "[--json] [--show] [--strict] FILE…", helpText("replay"), stderr)
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
			display.Game(board, f.Record, f.Replay.Game)
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

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

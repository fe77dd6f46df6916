package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/zertzboard/zertzboard/engine/solve"
)

func init() {
	register(command{Name: "analyze", Summary: "look for a forced win: can the player to move win whatever the opponent does?", Run: runAnalyze})
}

// maxMS bounds a --ms time budget: an hour.
const maxMS = 3_600_000

// exitIncomplete: the budget ran out before the question was answered.
const exitIncomplete = 3

func runAnalyze(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("analyze", "--board B [--blitz] [--from FILE --turns N | --position TEXT] [--max-turns K] [--ms BUDGET] [--nodes N] [--json]", helpText("analyze"), stderr)
	pos := definePosition(fs, "analyse the position after the first --turns turns of this record (SGF or JSON)", "analyse this position, in the engine's text form (see the engine package)", false)
	maxTurns := fs.Int("max-turns", 2, fmt.Sprintf("K: look for wins within this many of the mover's own turns (1 to %d)", solve.MaxTurns))
	ms := fs.Int64("ms", 10000, fmt.Sprintf("time budget in milliseconds, 1 to %d (an hour); --nodes bounds the work instead", maxMS))
	nodes := fs.Int64("nodes", 0, "stop after about this many positions (0: no limit); unlike --ms, the same on every machine")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	fail := prog.Failer("analyze", stderr)
	switch {
	case fs.NArg() > 0:
		return fail("unexpected argument %q", fs.Arg(0))
	case *maxTurns < 1 || *maxTurns > solve.MaxTurns:
		return fail("--max-turns %d: want 1 to %d", *maxTurns, solve.MaxTurns)
	case *ms < 1 || *ms > maxMS:
		return fail("--ms %d: want 1 to %d milliseconds (an hour)", *ms, maxMS)
	case *nodes < 0:
		return fail("--nodes %d: want 0 (no limit) or more", *nodes)
	case *pos.position != "" && *pos.from != "":
		return fail("give --from or --position, not both")
	}
	start, err := pos.resolve()
	if err != nil {
		return fail("%s", errText(err))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*ms)*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	res := solve.Solve(ctx, start, solve.Options{MaxTurns: *maxTurns, MaxNodes: *nodes})
	took := time.Since(t0).Milliseconds()
	if *asJSON {
		out, _ := json.Marshal(res.Report(start.Board(), took))
		fmt.Fprintf(stdout, "%s\n", out)
	} else {
		fmt.Fprintln(stdout, res.Text(start, *maxTurns, took))
	}
	if !res.Complete {
		return exitIncomplete
	}
	return exitOK
}

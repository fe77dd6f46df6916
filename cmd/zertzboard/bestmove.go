package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/zertzboard/zertzboard/engine/search"
)

func init() {
	register(command{Name: "bestmove", Summary: "the engine's turn for the player to move, with its score and line", Run: runBestmove})
}

func runBestmove(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bestmove", "--board B [--blitz] [--moves \"M1 M2 …\" | --from FILE --turns N | --position TEXT] [--ms T | --nodes N | --level L] [--seed S] [--json]", helpText("bestmove"), stderr)
	pos := definePosition(fs, "search the position after the first --turns turns of this record (SGF or JSON)", "search this position, in the engine's text form (see the engine package)", true)
	ms := fs.Int64("ms", 0, "time budget in milliseconds (depends on the machine)")
	nodes := fs.Int64("nodes", 0, "node budget: stop after about this many positions (the same on every machine)")
	level := fs.Int("level", 0, fmt.Sprintf("strength 1 to %d, a node budget (default %d when no budget is given)", search.MaxLevel, search.DefaultLevel))
	seed := fs.Uint64("seed", 0, "chooses between equally scored turns; the same seed and budget give the same turn")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	fail := prog.Failer("bestmove", stderr)
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	budgets := 0
	for _, b := range []string{"ms", "nodes", "level"} {
		if set[b] {
			budgets++
		}
	}
	switch {
	case fs.NArg() > 0:
		return fail("unexpected argument %q (quote --moves: --moves \"WD4-A1 GC3-G1\")", fs.Arg(0))
	case budgets > 1:
		return fail("give one budget: --ms, --nodes or --level")
	case set["ms"] && (*ms < 1 || *ms > maxMS):
		return fail("--ms %d: want 1 to %d milliseconds (an hour)", *ms, maxMS)
	case set["nodes"] && *nodes <= 0:
		return fail("--nodes %d: want 1 or more", *nodes)
	case set["level"] && (*level < 1 || *level > search.MaxLevel):
		return fail("--level %d: want 1 to %d", *level, search.MaxLevel)
	case *pos.position != "" && *pos.from != "", *pos.position != "" && *pos.moves != "", *pos.from != "" && *pos.moves != "":
		return fail("give one of --moves, --from and --position")
	}
	start, err := pos.resolve()
	if err != nil {
		return fail("%s", errText(err))
	}
	if r := start.Result(); r.Over {
		fmt.Fprintf(stderr, "zertzboard bestmove: the game is over (%s): there is no turn to play\n", r)
		return exitIllegal
	}
	opt := search.Options{MaxNodes: *nodes, Level: *level, Seed: *seed}
	ctx := context.Background()
	if *ms > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(*ms)*time.Millisecond)
		defer cancel()
	}
	t0 := time.Now()
	res := search.Search(ctx, start, opt)
	out := res.Report(start.Board(), time.Since(t0).Milliseconds())
	if *asJSON {
		b, _ := json.Marshal(out)
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		fmt.Fprintln(stdout, out.Move)
	}
	return exitOK
}

package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/framelog"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	settlepkg "github.com/zertzboard/zertzboard/settle"
)

func init() {
	register(command{Name: "referee", Summary: "referee a recorded frame log and print its events", Run: runReferee})
}

func runReferee(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("referee", "--board B [--blitz] [--first 0|1] [--mode casual|tournament] --frames FILE [--record OUT]", helpText("referee"), stderr)
	board := fs.String("board", "", "the board: 37, 40, 43, 44, 48 or 61 rings (required)")
	blitz := fs.Bool("blitz", false, "blitz rules: 5 white, 7 grey and 9 black marbles")
	first := fs.Int("first", 0, "the player who moves first, 0 or 1")
	modeName := fs.String("mode", "casual", "casual or tournament")
	frames := fs.String("frames", "", `the frame log to referee ("-" for standard input) (required)`)
	out := fs.String("record", "", "write the game seen to this file (.sgf for SGF, else JSON)")
	settle := fs.Int64("settle", referee.DefaultSettleMS, "milliseconds an observation must hold before it counts (30 to 2000)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	fail := prog.Failer("referee", stderr)
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	if *board == "" || *frames == "" {
		return fail("--board and --frames are required (see --help)")
	}
	if settlepkg.Check(*settle) != nil {
		return fail("--settle %d: want %d to %d ms", *settle, settlepkg.MinMS, settlepkg.MaxMS)
	}
	b, err := engine.StandardBoard(*board)
	if err != nil {
		return fail("--board: %s", errText(err))
	}
	rules := engine.Standard
	if *blitz {
		rules = engine.Blitz
	}
	mode, err := referee.ParseMode(*modeName)
	if err != nil {
		return fail("--mode %q: want casual or tournament", *modeName)
	}
	if *first != 0 && *first != 1 {
		return fail("--first %d: want 0 or 1", *first)
	}
	ref, err := referee.New(referee.Config{Board: b, Rules: rules, First: *first, Mode: mode, SettleMS: *settle})
	if err != nil {
		return fail("%v", err)
	}
	in, name := io.Reader(os.Stdin), "standard input"
	if *frames != "-" {
		f, err := os.Open(*frames)
		if err != nil {
			return fail("--frames: %v", err)
		}
		defer f.Close()
		in, name = f, *frames
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	var torn *framelog.TornError
	err = ref.ObserveLog(in, name, func(e referee.Event) error { return enc.Encode(e) })
	w.Flush()
	var mismatch *referee.BoardMismatchError
	switch {
	case errors.As(err, &mismatch):
		return fail("%s (is --board right?)", errText(err))
	case err != nil && !(errors.As(err, &torn) && torn.Frames > 0):
		// The good frames before a torn last line are refereed and their
		// events printed; the error follows, after the record is saved.
		return fail("%s", errText(err))
	}
	if *out != "" {
		if err := record.WriteFile(*out, record.FromGame(ref.Game(), ref.MissedCaptures())); err != nil {
			return fail("%v", err)
		}
	}
	if torn != nil {
		return fail("%s", tornText(torn, *out))
	}
	return exitOK
}

// tornText says that the frame log's last line is cut short, how many
// frames before it were refereed and, when out is not "", that out has
// the game seen up to it.
func tornText(torn *framelog.TornError, out string) string {
	saved := ""
	if out != "" {
		saved = "; " + out + " has the game seen up to it"
	}
	refereed := fmt.Sprintf("the %d frames before it were refereed", torn.Frames)
	if torn.Frames == 1 {
		refereed = "the frame before it was refereed"
	}
	return fmt.Sprintf("%s:%d: the last line is cut short (%v): %s%s", torn.Name, torn.Line, torn.Err, refereed, saved)
}

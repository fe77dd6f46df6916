package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/record"
)

// positionFlags are the flags perft, bestmove and analyze share to name
// the position they start from: a board's start (--board, --blitz), the
// position after --turns turns of a record (--from), one in the engine's
// text form (--position) or the board's start after some turns (--moves).
type positionFlags struct {
	fs                           *flag.FlagSet
	board, from, position, moves *string
	blitz                        *bool
	turns                        *int
}

// definePosition defines the flags on fs: fromUsage is --from's usage;
// --position is defined when positionUsage is not "", and --moves when
// moves is true.
func definePosition(fs *flag.FlagSet, fromUsage, positionUsage string, moves bool) *positionFlags {
	p := &positionFlags{fs: fs, position: new(string), moves: new(string)}
	p.board = fs.String("board", "37", "the board: 37, 40, 43, 44, 48 or 61 rings")
	p.blitz = fs.Bool("blitz", false, "blitz rules: 5 white, 7 grey and 9 black marbles")
	p.from = fs.String("from", "", fromUsage)
	p.turns = fs.Int("turns", 0, "with --from: how many of the record's turns to play first")
	if positionUsage != "" {
		fs.StringVar(p.position, "position", "", positionUsage)
	}
	if moves {
		fs.StringVar(p.moves, "moves", "", "play these turns (notation, space-separated) from the board's start first")
	}
	return p
}

// resolve returns the position the flags name, once the flags are parsed.
func (p *positionFlags) resolve() (engine.Position, error) {
	set := map[string]bool{}
	p.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case *p.position != "":
		return engine.ParsePosition(*p.position)
	case *p.from != "":
		variant := ""
		if set["board"] || set["blitz"] {
			variant = record.Variant(*p.board, *p.blitz)
		}
		pos, err := record.ReadPosition(*p.from, variant, *p.turns)
		if te := (*record.TurnsOutOfRange)(nil); errors.As(err, &te) {
			return pos, fmt.Errorf("--turns %d: want 0 to %d: %s has %s", te.Turns, te.Have, te.Path, plural(te.Have, "turn"))
		}
		return pos, err
	case set["turns"]:
		return engine.Position{}, fmt.Errorf("--turns needs --from FILE")
	}
	b, err := engine.StandardBoard(*p.board)
	if err != nil {
		return engine.Position{}, err
	}
	rules := engine.Standard
	if *p.blitz {
		rules = engine.Blitz
	}
	start := engine.NewPosition(b, rules, 0)
	if *p.moves != "" {
		return engine.PlayLine(start, *p.moves)
	}
	return start, nil
}

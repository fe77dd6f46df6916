package record

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
)

// FromGame is the record of a game played through the engine: its
// variant, first player and turns, and missed, the turns (1-based) that
// were placements played over a compulsory capture (Game.PlayOverCapture;
// see Record.MissedCaptures). The record replays to g. The caller adds
// what the game does not know: the players, the clock, how it stopped.
func FromGame(g *engine.Game, missed []int) *Record {
	start := g.Start()
	rec := &Record{Variant: start.Variant(), First: start.ToMove(), MissedCaptures: missed}
	if g.Len() > 0 {
		rec.Turns = make([]engine.Turn, 0, g.Len())
	}
	for i := 0; i < g.Len(); i++ {
		t, _ := g.Turn(i)
		rec.Turns = append(rec.Turns, t)
	}
	return rec
}

// WriteFile writes rec to path: Boardspace SGF if the name ends in .sgf
// (in any case), else the JSON record. It writes a temporary file beside
// path, syncs it and renames it, so that a crash never leaves half a
// record.
func WriteFile(path string, rec *Record) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".record-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if strings.HasSuffix(strings.ToLower(path), ".sgf") {
		err = WriteSGF(tmp, rec)
	} else {
		err = WriteJSON(tmp, rec)
	}
	if err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

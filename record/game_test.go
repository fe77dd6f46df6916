package record

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// FromGame's record replays to the game it was made from, a placement
// played over a compulsory capture included, and WriteFile writes it in
// the format its name asks for, readable back.
func TestFromGameReplaysToTheGame(t *testing.T) {
	b := engine.MustStandardBoard("37")
	g := engine.NewGame(engine.NewPosition(b, engine.Standard, 1))
	for i, m := range []string{"WD4-A1", "GE4-G4"} {
		if err := g.Play(mustParse(t, b, m)); err != nil {
			t.Fatalf("turn %d %s: %v", i+1, m, err)
		}
	}
	// Turn 3 ignores the capture turn 2 offered.
	over := mustParse(t, b, "BA4-A3")
	if err := g.Play(over); err == nil {
		t.Fatal("BA4-A3 played over a compulsory capture; the test needs a position with one")
	}
	if err := g.PlayOverCapture(over); err != nil {
		t.Fatal(err)
	}
	rec := FromGame(g, []int{3})
	if rec.Variant != "37" || rec.First != 1 || len(rec.Turns) != 3 || !reflect.DeepEqual(rec.MissedCaptures, []int{3}) {
		t.Fatalf("FromGame = variant %q, first %d, %d turns, missed %v; want 37, 1, 3 turns, [3]", rec.Variant, rec.First, len(rec.Turns), rec.MissedCaptures)
	}
	rep, err := rec.Replay()
	if err != nil {
		t.Fatalf("the record FromGame made does not replay: %v", err)
	}
	if got, want := rep.Game.Position().String(), g.Position().String(); got != want {
		t.Errorf("replayed to %s; the game is at %s", got, want)
	}
	if empty := FromGame(engine.NewGame(engine.NewPosition(engine.MustStandardBoard("48"), engine.Blitz, 0)), nil); empty.Variant != "48b" || len(empty.Turns) != 0 {
		t.Errorf("FromGame of a new 48b game = %q with %d turns", empty.Variant, len(empty.Turns))
	}

	dir := t.TempDir()
	rec.MissedCaptures = nil // SGF cannot say it
	rec.Turns = rec.Turns[:2]
	for _, name := range []string{"game.json", "game.SGF"} {
		path := filepath.Join(dir, name)
		if err := WriteFile(path, rec); err != nil {
			t.Fatalf("WriteFile %s: %v", name, err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Detect(data)
		if err != nil || (f == SGF) != (name == "game.SGF") {
			t.Errorf("%s was written as %v (%v)", name, f, err)
		}
		back, err := ReadFile(path)
		if err != nil || !reflect.DeepEqual(back.Turns, rec.Turns) {
			t.Errorf("%s read back: %v, %v", name, back, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("WriteFile left %d files in the directory; want the 2 records, no temporary file", len(ents))
	}
	if err := WriteFile(filepath.Join(dir, "no", "such", "dir.json"), rec); err == nil {
		t.Error("WriteFile into a missing directory: no error")
	}
}

func mustParse(t *testing.T, b *engine.Board, s string) engine.Turn {
	t.Helper()
	turn, err := engine.ParseTurn(b, s)
	if err != nil {
		t.Fatal(err)
	}
	return turn
}

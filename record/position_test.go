package record

import (
	"errors"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

func TestReadPosition(t *testing.T) {
	const opening = "testdata/opening.json" // 6 turns of a 37-ring game
	start, err := engine.StandardBoard("37")
	if err != nil {
		t.Fatal(err)
	}
	want, err := engine.PlayLine(engine.NewPosition(start, engine.Standard, 0), "WD4-D1 BE2-B5 GE5-C6")
	if err != nil {
		t.Fatal(err)
	}
	for _, variant := range []string{"", "37"} {
		got, err := ReadPosition(opening, variant, 3)
		if err != nil || got.String() != want.String() {
			t.Errorf("variant %q: position after 3 turns:\n%v, %v; want\n%v", variant, got, err, want)
		}
	}
	if _, err := ReadPosition(opening, "37b", 3); err == nil || !strings.Contains(err.Error(), opening+" is a 37 game, not 37b") {
		t.Errorf("a 37 game read as blitz: %v", err)
	}
	for _, n := range []int{-1, 7} {
		var te *TurnsOutOfRange
		if _, err := ReadPosition(opening, "", n); !errors.As(err, &te) || te.Turns != n || te.Have != 6 || te.Path != opening {
			t.Errorf("turns %d of 6: %v; want a *TurnsOutOfRange", n, err)
		}
	}
	if _, err := ReadPosition("testdata/illegal-ring-not-free.sgf", "", 2); err == nil || !strings.HasPrefix(err.Error(), "record: testdata/illegal-ring-not-free.sgf: turn 2") {
		t.Errorf("an illegal turn: %v; want the file and the turn named once", err)
	}
	if _, err := ReadPosition("testdata/no-such-file", "", 0); err == nil || !strings.Contains(err.Error(), "no-such-file") {
		t.Errorf("a missing file: %v", err)
	}
}

func TestVariant(t *testing.T) {
	if Variant("48", false) != "48" || Variant("37", true) != "37b" {
		t.Errorf("Variant: %q %q", Variant("48", false), Variant("37", true))
	}
}

package record

import (
	"fmt"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
)

// TurnsOutOfRange is ReadPosition's error when the record has fewer turns
// than asked (or a negative count was asked).
type TurnsOutOfRange struct {
	Path  string
	Turns int // the turns asked
	Have  int // the record's turns
}

func (e *TurnsOutOfRange) Error() string {
	return fmt.Sprintf("record: %s has %d turns; want 0 to %d, not %d", e.Path, e.Have, e.Have, e.Turns)
}

// ReadPosition reads the record in file path and returns the position
// after its first turns turns. When variant is not "" (a board's rings,
// "b" after them for blitz: "48", "37b"), the record must be a game of
// that variant. A turns outside the record is a *TurnsOutOfRange; a turn
// that breaks the rules an error naming path and the turn.
func ReadPosition(path, variant string, turns int) (engine.Position, error) {
	rec, err := ReadFile(path)
	if err != nil {
		return engine.Position{}, err
	}
	if variant != "" && variant != rec.Variant {
		return engine.Position{}, fmt.Errorf("record: %s is a %s game, not %s", path, rec.Variant, variant)
	}
	if turns < 0 || turns > len(rec.Turns) {
		return engine.Position{}, &TurnsOutOfRange{Path: path, Turns: turns, Have: len(rec.Turns)}
	}
	rec.Turns = rec.Turns[:turns]
	rep, err := rec.Replay()
	if err != nil {
		msg := err.Error()
		for _, p := range []string{"record: ", "engine: "} {
			msg = strings.TrimPrefix(msg, p)
		}
		return engine.Position{}, fmt.Errorf("record: %s: %s", path, msg)
	}
	return rep.Game.Position(), nil
}

// Variant is the variant word of a board of rings rings ("37", "48"),
// with "b" after it for blitz rules: a Record's Variant.
func Variant(rings string, blitz bool) string {
	if blitz {
		return rings + "b"
	}
	return rings
}

package record

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// Every way a game ends off the board, and the turns' times, survive a
// JSON round trip.
func TestJSONEndsAndClock(t *testing.T) {
	rem := func(a, b int64) *[2]int64 { return &[2]int64{a, b} }
	for _, stop := range []Stop{
		{Kind: Resign, Player: 1}, {Kind: WinOnTime, Player: 0, Note: "flag"}, {Kind: Adjudication, Player: 1, Note: "won ending"},
		{Kind: DrawDeclared, Note: "agreed"}, {Kind: DrawOnTime},
	} {
		rec := &Record{Variant: "37", Players: [2]string{"a", "b"}, Stop: stop}
		var err error
		rec.Turns, err = parseTurns("37", "WD4-A1", "BE2-G1")
		if err != nil {
			t.Fatal(err)
		}
		rec.Clock = &Clock{Control: "fischer:1m+5s", Turns: []TurnTime{{3000, rem(62000, 60000)}, {4000, rem(62000, 61000)}}}
		var buf bytes.Buffer
		if err := WriteJSON(&buf, rec); err != nil {
			t.Fatal(err)
		}
		if stop.Kind.HasPlayer() != strings.Contains(buf.String(), `"player"`) {
			t.Errorf("%s: player written: %s", stop.Kind, buf.String())
		}
		back, err := ReadJSON(&buf)
		if err != nil {
			t.Fatalf("%s: %v", stop.Kind, err)
		}
		if back.Stop != stop || !reflect.DeepEqual(back.Clock, rec.Clock) {
			t.Errorf("round trip: %+v %+v; want %+v %+v", back.Stop, back.Clock, stop, rec.Clock)
		}
	}
}

func TestJSONRefusesBadEnds(t *testing.T) {
	base := `{"format":"zertzboard-record","version":1,"variant":"37","first":0,"players":["",""],"turns":["WD4-A1"],`
	for _, tail := range []string{
		`"end":{"kind":"draw","player":0}}`,
		`"end":{"kind":"adjudication"}}`,
		`"end":{"kind":"bored","player":0}}`,
		`"end":{"kind":"resign","player":2}}`,
		`"end":{"kind":"draw","note":"` + strings.Repeat("x", 201) + `"}}`,
		`"clock":{"control":"none","turns":[{"used_ms":1},{"used_ms":2}]}}`,
		`"clock":{"control":"none","turns":[{"used_ms":-1}]}}`,
	} {
		if _, err := ReadJSON(strings.NewReader(base + tail)); err == nil {
			t.Errorf("ReadJSON accepted %s", tail)
		}
	}
	rec, err := ReadJSON(strings.NewReader(base + `"clock":{"control":"none","turns":[{"used_ms":7,"remaining_ms":null}]}}`))
	if err != nil || rec.Clock.Turns[0].UsedMS != 7 || rec.Clock.Turns[0].Remaining != nil {
		t.Errorf("clock without a control: %+v, %v", rec, err)
	}
}

func parseTurns(variant string, turns ...string) ([]engine.Turn, error) {
	b, _, err := engine.ParseVariant(variant)
	if err != nil {
		return nil, err
	}
	var out []engine.Turn
	for _, s := range turns {
		t, err := engine.ParseTurn(b, s)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

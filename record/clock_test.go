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

// Boardspace's SGF carries the time control (TC), each player's time used
// so far (TM, on the Done of their turns) and the totals (P0[time …]);
// the ends without an action are written in RE. The turns read back.
func TestSGFTimes(t *testing.T) {
	turns, err := parseTurns("37", "WD4-A1", "BE2-G1", "GC3-A2")
	if err != nil {
		t.Fatal(err)
	}
	rem := &[2]int64{0, 0}
	rec := &Record{Variant: "37", Players: [2]string{"ann", "bob"}, Turns: turns,
		Clock: &Clock{Control: "fischer:20m+10s", Turns: []TurnTime{{65000, rem}, {3000, rem}, {3_600_500, rem}}},
		Stop:  Stop{Kind: Adjudication, Player: 1, Note: "won ending"}}
	var buf bytes.Buffer
	if err := WriteSGF(&buf, rec); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"TC[PlusTime 1200000 10000]", "]TM[65000]", "]TM[3000]", "]TM[3665500]", "P0[time 1:01:05 ]", "P1[time 0:00:03 ]",
		"RE[Game won by bob (adjudication): won ending]"} {
		if !strings.Contains(out, want) {
			t.Errorf("SGF lacks %s:\n%s", want, out)
		}
	}
	back, err := ReadSGF(strings.NewReader(out))
	if err != nil || len(back.Turns) != 3 || back.ResultText != "Game won by bob (adjudication): won ending" {
		t.Fatalf("read back: %+v, %v", back, err)
	}
	for ctl, want := range map[string]string{"none": "None", "sudden:25m": "Fixed 1500000", "fischer:1h30m+30s": "PlusTime 5400000 30000", "bad": ""} {
		if got := sgfTimeControl(ctl); got != want {
			t.Errorf("sgfTimeControl(%q) = %q; want %q", ctl, got, want)
		}
	}
}

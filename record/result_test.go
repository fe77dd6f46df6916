package record

import (
	"bytes"
	"strings"
	"testing"
)

// TestSGFCarriesResult: WriteSGF writes the result, the date, the game's
// name, the event and the round in Boardspace's conventions, and ReadSGF
// reads them back; the replay of what was read back has the same result.
func TestSGFCarriesResult(t *testing.T) {
	turns, err := parseTurns("37", "WD4-A1", "BE2-G1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		stop    Stop
		players [2]string
		re      string // "" for no RE[] at all
		gn      string
		outcome Outcome
		winner  int
	}{
		{Stop{Kind: Resign, Player: 0}, [2]string{"ann", "bob"}, "Game won by bob", "ann-bob", Resigned, 1},
		{Stop{Kind: WinOnTime, Player: 0}, [2]string{"ann", "bob"}, "Game won by ann", "ann-bob", Timeout, 0},
		{Stop{Kind: Resign, Player: 1}, [2]string{"ann", ""}, "Game won by ann", "ann-P1", Resigned, 0},
		{Stop{Kind: Adjudication, Player: 1}, [2]string{"", "bob"}, "Game won by bob (adjudication)", "P0-bob", Adjudicated, 1},
		{Stop{Kind: DrawDeclared, Note: "agreed"}, [2]string{"ann", "bob"}, "Draw: agreed", "ann-bob", Draw, -1},
		{Stop{}, [2]string{"ann", "bob"}, "", "ann-bob", Unfinished, -1},
		{Stop{}, [2]string{}, "", "", Unfinished, -1},
	} {
		rec := &Record{Variant: "37", Players: tc.players, Turns: turns, Stop: tc.stop,
			Date: "Thu Nov 26 14:22:33 UTC 2026", Event: "Open de Paris", Round: "3 (final)"}
		var buf bytes.Buffer
		if err := WriteSGF(&buf, rec); err != nil {
			t.Fatal(err)
		}
		sgf := buf.String()
		name := string(tc.stop.Kind) + "/" + tc.re
		want := []string{"DT[Thu Nov 26 14:22:33 UTC 2026]", "EV[Open de Paris]", "RO[3 (final)]"}
		if tc.re != "" {
			want = append(want, "RE["+tc.re+"]")
		} else if strings.Contains(sgf, "RE[") {
			t.Errorf("%s: an unfinished game has an RE[]:\n%s", name, sgf)
		}
		if tc.gn != "" {
			want = append(want, "GN["+tc.gn+"]")
		} else if strings.Contains(sgf, "GN[") {
			t.Errorf("%s: a game without players has a GN[]:\n%s", name, sgf)
		}
		for _, w := range want {
			if !strings.Contains(sgf, w) {
				t.Errorf("%s: the SGF lacks %s:\n%s", name, w, sgf)
			}
		}
		back, err := ReadSGF(strings.NewReader(sgf))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if back.ResultText != tc.re || back.Name != tc.gn || back.Date != rec.Date || back.Event != rec.Event || back.Round != rec.Round {
			t.Errorf("%s: read back RE %q GN %q DT %q EV %q RO %q", name, back.ResultText, back.Name, back.Date, back.Event, back.Round)
		}
		if tc.stop.Kind == Adjudication || tc.stop.Kind == DrawDeclared {
			continue // Boardspace SGF has no action for the arbiter's results: RE[] is all there is
		}
		rep, err := back.Replay()
		if err != nil {
			t.Fatalf("%s: replay: %v", name, err)
		}
		if rep.Result.Outcome != tc.outcome || rep.Result.Winner != tc.winner {
			t.Errorf("%s: replayed result %+v; want %s, winner %d", name, rep.Result, tc.outcome, tc.winner)
		}
		// A second round trip changes nothing: RE[] is kept, not made again.
		var again bytes.Buffer
		if err := WriteSGF(&again, back); err != nil || again.String() != sgf {
			t.Errorf("%s: writing what was read back: %v\n%s\nwant\n%s", name, err, again.String(), sgf)
		}
	}
}

// TestJSONCarriesEvent: the JSON record keeps the event and the round.
func TestJSONCarriesEvent(t *testing.T) {
	rec := &Record{Variant: "48", Event: "Zürich Open", Round: "2"}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, rec); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"event": "Zürich Open"`) || !strings.Contains(buf.String(), `"round": "2"`) {
		t.Errorf("the JSON lacks the event or round:\n%s", buf.String())
	}
	back, err := ReadJSON(&buf)
	if err != nil || back.Event != rec.Event || back.Round != rec.Round {
		t.Errorf("read back: %+v, %v", back, err)
	}
}

// A result the record states that its turns contradict is a warning;
// one they agree with, or one in another language, is not.
func TestStatedResultChecked(t *testing.T) {
	turns, err := parseTurns("37", "WD4-A1", "BE2-G1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		re      string
		players [2]string
		warn    bool
	}{
		{"Game won by bob", [2]string{"ann", "bob"}, false},
		{"Game won by ann", [2]string{"ann", "bob"}, true},
		{"Game won by P0 (adjudication)", [2]string{"", ""}, true},
		{"Game won by P1", [2]string{"", ""}, false},
		{"Partie gagnée par ann", [2]string{"ann", "bob"}, false},
		{"Game won by ann", [2]string{"ann", "ann"}, false}, // cannot tell which
	} {
		rec := &Record{Variant: "37", Players: tc.players, Turns: turns, Stop: Stop{Kind: Resign, Player: 0}, ResultText: tc.re}
		rep, err := rec.Replay()
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, w := range rep.Warnings {
			if strings.Contains(w, "the record says "+`"`+tc.re+`"`) && strings.Contains(w, "player 1 (resigned)") {
				got = true
			}
		}
		if got != tc.warn || !tc.warn && len(rep.Warnings) > 0 {
			t.Errorf("RE %q with players %q: warnings %q; want a contradiction warning: %v", tc.re, tc.players, rep.Warnings, tc.warn)
		}
	}
}

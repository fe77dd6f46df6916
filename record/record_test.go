package record

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
)

// TestReplayIllegal replays the deliberately illegal record: turn 2
// removes D3, an inner ring with all six neighbours, so it is not free.
func TestReplayIllegal(t *testing.T) {
	rec, err := ReadFile("testdata/illegal-ring-not-free.sgf")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := rec.Replay()
	var te *TurnError
	if !errors.As(err, &te) {
		t.Fatalf("Replay error = %v; want a *TurnError", err)
	}
	if te.Turn != 2 || te.Player != 1 || te.Move != "BE2-D3" || te.Rule != engine.RuleRingNotFree {
		t.Errorf("TurnError = turn %d, player %d, %s, %s; want turn 2, player 1, BE2-D3, %s", te.Turn, te.Player, te.Move, te.Rule, engine.RuleRingNotFree)
	}
	if !errors.Is(err, engine.ErrIllegal) {
		t.Errorf("errors.Is(%v, engine.ErrIllegal) = false", err)
	}
	const want = "record: turn 2 (player 1) BE2-D3: illegal: ring D3 is not free: no two adjacent sides are open [ring-not-free]"
	if err.Error() != want {
		t.Errorf("Error() = %q; want %q", err, want)
	}
	if rep == nil || rep.Game.Len() != 1 || rep.Result.Outcome != Unfinished {
		t.Errorf("Replay kept %v; want the one legal turn, unfinished", rep)
	}
}

// TestReplayResult checks how the outcome is decided.
func TestReplayResult(t *testing.T) {
	opening, err := ReadFile("testdata/opening.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		stop Stop
		want Result
	}{
		{Stop{}, Result{Outcome: Unfinished, Winner: -1}},
		{Stop{Kind: Resign, Player: 0}, Result{Outcome: Resigned, Winner: 1}},
		{Stop{Kind: Resign, Player: 1}, Result{Outcome: Resigned, Winner: 0}},
		{Stop{Kind: WinOnTime, Player: 1}, Result{Outcome: Timeout, Winner: 1}},
		{Stop{Kind: Adjudication, Player: 0}, Result{Outcome: Adjudicated, Winner: 0}},
		{Stop{Kind: DrawDeclared}, Result{Outcome: Draw, Winner: -1}},
		{Stop{Kind: DrawOnTime}, Result{Outcome: Draw, Winner: -1}},
	}
	for _, tt := range tests {
		rec := *opening
		rec.Stop = tt.stop
		rep, err := rec.Replay()
		if err != nil {
			t.Fatal(err)
		}
		if rep.Result != tt.want {
			t.Errorf("Stop %+v: Result = %+v; want %+v", tt.stop, rep.Result, tt.want)
		}
	}
}

// TestReplayBoardWinsOverStop: a game won on the board stays won, even if
// the record then says the winner resigned.
func TestReplayBoardWinsOverStop(t *testing.T) {
	// shoto (P0) wins by filling the board.
	rec := readSample(t, samples.Path("001_Z-shoto-Dumbot-2005-01-17-2004.sgf"))
	rec.Stop = Stop{Kind: Resign, Player: 0}
	rep, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if want := (Result{Outcome: Win, Winner: 0, Reason: engine.ReasonFullBoard}); rep.Result != want {
		t.Errorf("Result = %+v; want %+v", rep.Result, want)
	}
	// One more turn after the end is ignored with a warning (Boardspace
	// accepts such records); the result stands.
	rec.Turns = append(rec.Turns, rec.Turns[len(rec.Turns)-1])
	rep, err = rec.Replay()
	if err != nil || rep.Result.Outcome != Win || rep.Game.Len() != len(rec.Turns)-1 || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "after the game ended") {
		t.Errorf("turn after the end: %v, %+v, %d turns, warnings %q", err, rep.Result, rep.Game.Len(), rep.Warnings)
	}
	// Strict, it is illegal, by the game-over rule.
	_, err = rec.ReplayWith(ReplayOptions{Strict: true})
	var te *TurnError
	if !errors.As(err, &te) || te.Rule != engine.RuleGameOver || te.Turn != len(rec.Turns) {
		t.Errorf("strict, turn after the end: %v; want a game-over TurnError at turn %d", err, len(rec.Turns))
	}
}

// Record endings Boardspace accepts: an incomplete last turn before a
// resignation or a time win, a duplicated resignation.
func TestTolerantEndings(t *testing.T) {
	tests := []struct {
		name    string
		sgf     string
		turns   int
		outcome Outcome
		warn    string // "" for none
	}{
		{"R- then Resign", game(";P0[1 RtoB 2 0 D 4];P0[2 R- A 1];P0[3 Done];P1[4 R- A 4];P1[5 Resign]"), 1, Resigned, "a ring removed, no marble placed"},
		{"placement with no removal then Resign", game(";P0[1 RtoB 2 0 D 4];P0[2 R- A 1];P0[3 Done];P1[4 RtoB 2 1 E 4];P1[5 Resign]"), 1, Resigned, "still under way when the game stopped"},
		{"placement with no removal then WinOnTime", game(";P0[1 RtoB 2 0 D 4];P0[2 R- A 1];P0[3 Done];P1[4 RtoB 2 1 E 4];P0[5 WinOnTime]"), 1, Timeout, "still under way"},
		{"duplicated Resign", game(";P0[1 RtoB 2 0 D 4];P0[2 R- A 1];P0[3 Done];P1[4 Resign];P1[5 Resign]"), 1, Resigned, ""},
		{"complete turn then Resign", game(";P0[1 RtoB 2 0 D 4];P0[2 R- A 1];P1[3 RtoB 2 1 E 4];P1[4 R- G 4];P1[5 Resign]"), 2, Resigned, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := ReadSGF(strings.NewReader(tt.sgf))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := rec.Replay()
			if err != nil || rep.Game.Len() != tt.turns || rep.Result.Outcome != tt.outcome {
				t.Fatalf("Replay: %v, %d turns, %+v; want %d turns, %s", err, rep.Game.Len(), rep.Result, tt.turns, tt.outcome)
			}
			switch {
			case tt.warn == "" && len(rep.Warnings) != 0:
				t.Errorf("warnings %q; want none", rep.Warnings)
			case tt.warn != "" && (len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], tt.warn)):
				t.Errorf("warnings %q; want one with %q", rep.Warnings, tt.warn)
			}
		})
	}
}

func TestReadJSONErrors(t *testing.T) {
	tests := []struct{ name, json, want string }{
		{"syntax", "{\n\"format\": \"zertzboard-record\",\n\"version\": 1,,\n}", "record: JSON line 3"},
		{"type", `{"format": "zertzboard-record", "version": "one"}`, "not a record"},
		{"format", `{"format": "pgn", "version": 1}`, `"pgn": format is not "zertzboard-record"`},
		{"version", `{"format": "zertzboard-record", "version": 2, "variant": "37"}`, `"2": version 2 is not supported`},
		{"variant", `{"format": "zertzboard-record", "version": 1, "variant": "36"}`, `"36": bad variant`},
		{"first", `{"format": "zertzboard-record", "version": 1, "variant": "37", "first": 2}`, "first must be 0 or 1"},
		{"turn", `{"format": "zertzboard-record", "version": 1, "variant": "37", "turns": ["WD4-A1", "WZ9"]}`, `"WZ9": turn 2`},
		{"end", `{"format": "zertzboard-record", "version": 1, "variant": "37", "end": {"kind": "quit", "player": 0}}`, `"quit": end kind`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadJSON(strings.NewReader(tt.json))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadJSON(%q) = %v; want an error containing %q", tt.json, err, tt.want)
			}
		})
	}
}

// TestReadDetects checks format detection by content, not name.
func TestReadDetects(t *testing.T) {
	sgf := "\xef\xbb\xbf\n  (;GM[22]SU[Zertz];P0[0 Start P1])"
	rec, err := Read(strings.NewReader(sgf))
	if err != nil || rec.First != 1 || rec.Variant != "37" {
		t.Errorf("Read(SGF with BOM) = %+v, %v", rec, err)
	}
	json := "\n {\"format\": \"zertzboard-record\", \"version\": 1, \"variant\": \"37b\", \"first\": 1, \"turns\": [\"pass\"]}"
	rec, err = Read(strings.NewReader(json))
	if err != nil || rec.First != 1 || rec.Variant != "37b" || len(rec.Turns) != 1 || rec.Turns[0].Kind != engine.Pass {
		t.Errorf("Read(JSON) = %+v, %v", rec, err)
	}
	for _, bad := range []string{"", "   ", "GM[22]"} {
		if _, err := Read(strings.NewReader(bad)); err == nil || !strings.HasPrefix(err.Error(), "record: ") {
			t.Errorf("Read(%q) = %v; want a record: error", bad, err)
		}
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "none.sgf")); err == nil || !strings.Contains(err.Error(), "none.sgf") {
		t.Errorf("ReadFile(missing) = %v; want an error naming the file", err)
	}
}

// TestWriteJSONShape pins the format's field names, which the package doc
// documents.
func TestWriteJSONShape(t *testing.T) {
	rec, err := ReadFile("testdata/opening.json")
	if err != nil {
		t.Fatal(err)
	}
	rec.Stop = Stop{Kind: Resign, Player: 1}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, rec); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"format": "zertzboard-record"`, `"version": 1`, `"variant": "37"`, `"first": 0`,
		`"players": [`, `"turns": [`, `"WD4-D1"`, `"E2xG2"`, `"end": {`, `"kind": "resign"`, `"player": 1`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("WriteJSON output lacks %s:\n%s", want, buf.String())
		}
	}
}

// A tournament record keeps placements made over a compulsory capture;
// replay accepts exactly those turns and no others.
func TestMissedCapturesReplay(t *testing.T) {
	// Turn 2 (GE3-A2... placed next to D4) gives player 0 a capture; turn 3
	// ignores it.
	const doc = `{"format":"zertzboard-record","version":1,"variant":"37","first":0,"players":["a","b"],
		"turns":["WD4-A1","GE4-G4","BA4-A3"],"missed_captures":[3]}`
	rec, err := ReadJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Replay(); err != nil {
		t.Fatalf("Replay with turn 3 marked missed: %v", err)
	}
	rec.MissedCaptures = nil
	_, err = rec.Replay()
	var te *TurnError
	if !errors.As(err, &te) || te.Turn != 3 || te.Rule != engine.RuleCaptureCompulsory {
		t.Fatalf("Replay without the mark = %v; want turn 3 breaking the compulsory capture", err)
	}
	rec.MissedCaptures = []int{3}
	var out bytes.Buffer
	if err := WriteJSON(&out, rec); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(&out)
	if err != nil || !reflect.DeepEqual(back.MissedCaptures, []int{3}) {
		t.Fatalf("round trip: %v, %v", back, err)
	}
	if err := WriteSGF(&out, rec); err == nil || !strings.Contains(err.Error(), "compulsory capture") {
		t.Errorf("WriteSGF = %v; want a refusal", err)
	}
	bad := strings.Replace(doc, "[3]", "[9]", 1)
	if _, err := ReadJSON(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "turn 9") {
		t.Errorf("missed_captures naming turn 9 of 3: %v", err)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
)

const (
	testdata   = "../../record/testdata"
	illegalSGF = testdata + "/illegal-ring-not-free.sgf"
	openingRec = testdata + "/opening.json"
)

// sampleDir holds the built-in Boardspace games.
var sampleDir = samples.BuiltinDir()

// replayLine is the contract's --json object, decoded loosely enough to see
// nulls.
type replayLine struct {
	File     string           `json:"file"`
	Variant  *string          `json:"variant"`
	Turns    int              `json:"turns"`
	Winner   *int             `json:"winner"`
	Result   *string          `json:"result"`
	Captures []map[string]int `json:"captures"`
	Error    *string          `json:"error"`
	Warnings []string         `json:"warnings"`
}

// runReplayJSON runs "zertzboard replay --json files…" and decodes its lines.
func runReplayJSON(t *testing.T, files ...string) (lines []replayLine, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(append([]string{"replay", "--json"}, files...), &out, &errOut)
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if l == "" {
			continue
		}
		var rl replayLine
		if err := json.Unmarshal([]byte(l), &rl); err != nil {
			t.Fatalf("stdout line %q is not JSON: %v", l, err)
		}
		lines = append(lines, rl)
	}
	if len(lines) != len(files) {
		t.Fatalf("replay --json printed %d lines for %d files:\n%s", len(lines), len(files), out.String())
	}
	return lines, errOut.String(), code
}

func TestReplayIllegalRecord(t *testing.T) {
	lines, stderr, code := runReplayJSON(t, illegalSGF)
	if code != exitIllegal {
		t.Errorf("exit code = %d; want %d", code, exitIllegal)
	}
	// Turn 2 removes D3, an inner ring of the opening board: it has all six
	// neighbours, so it is not free.
	const msg = "turn 2 (player 1) BE2-D3: illegal: ring D3 is not free: no two adjacent sides are open [ring-not-free]"
	if want := illegalSGF + ": " + msg + "\n"; stderr != want {
		t.Errorf("stderr = %q; want %q", stderr, want)
	}
	l := lines[0]
	if l.Error == nil || *l.Error != msg {
		t.Errorf("error = %v; want %q", l.Error, msg)
	}
	if l.Turns != 1 || l.Winner != nil || deref(l.Result) != "unfinished" {
		t.Errorf("turns, winner, result = %d, %v, %v; want 1, null, unfinished", l.Turns, l.Winner, deref(l.Result))
	}
}

func TestReplayJSONRecord(t *testing.T) {
	lines, stderr, code := runReplayJSON(t, openingRec)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit code %d, stderr %q; want 0 and nothing", code, stderr)
	}
	l := lines[0]
	// Turn 6 is Dumbot's E2xG2, which jumps the black marble shoto put on F2.
	want := replayLine{
		File: openingRec, Variant: ptr("37"), Turns: 6, Result: ptr("unfinished"), Warnings: []string{},
		Captures: []map[string]int{{"white": 0, "grey": 0, "black": 0}, {"white": 0, "grey": 0, "black": 1}},
	}
	if !reflect.DeepEqual(l, want) {
		t.Errorf("replay --json = %+v; want %+v", l, want)
	}
}

func ptr[T any](v T) *T { return &v }

// TestReplayJSONKeyOrder checks the contract's field order, which tools
// reading the lines as text may rely on.
func TestReplayJSONKeyOrder(t *testing.T) {
	var out bytes.Buffer
	run([]string{"replay", "--json", openingRec}, &out, &bytes.Buffer{})
	dec := json.NewDecoder(&out)
	var keys []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			continue
		case json.Delim('}'), json.Delim(']'):
			depth--
			continue
		}
		if s, ok := tok.(string); ok && depth == 1 {
			keys = append(keys, s)
			// Keys and values alternate: skip the value whole.
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := []string{"file", "variant", "turns", "winner", "result", "captures", "error", "warnings"}
	// The record's own headers (ext) may follow, in this order, each only
	// when the record has it.
	ext := []string{"result_text", "date", "name", "event", "round"}
	if len(keys) < len(want) || !reflect.DeepEqual(keys[:len(want)], want) {
		t.Fatalf("keys = %q; want %q first", keys, want)
	}
	rest := keys[len(want):]
	for _, k := range ext {
		if len(rest) > 0 && rest[0] == k {
			rest = rest[1:]
		}
	}
	if len(rest) > 0 {
		t.Errorf("keys = %q: %q are not the headers %q in order", keys, rest, ext)
	}
}

// TestReplaySamples checks real games against MANIFEST.tsv's columns.
func TestReplaySamples(t *testing.T) {
	cases := []struct {
		file    string
		turns   int
		winner  int
		result  string
		variant string
	}{
		// rule_winner "P0 shoto", ended_by win, 39 turns.
		{"001_Z-shoto-Dumbot-2005-01-17-2004.sgf", 39, 0, "win", "37"},
		// RE "Game won by SmartBot" (P1); Carl2134 resigned; 18 turns.
		{"199_Z-Carl2134-SmartBot-2017-07-27-0654.sgf", 18, 1, "resigned", "37"},
		// RE "Game won by t1M0t8yk" (P1) on time; 19 turns on 48 rings.
		{"056_T_Z11-yavaleks-t1M0t8yk-2022-11-09-2039.sgf", 19, 1, "timeout", "48"},
		// Zertz+24, rule_winner "P1 preve", 16 turns.
		{"034_T_Z24-Raccoons-preve-2022-12-23-1715.sgf", 16, 1, "win", "61"},
	}
	var files []string
	for _, c := range cases {
		files = append(files, filepath.Join(sampleDir, c.file))
	}
	lines, stderr, code := runReplayJSON(t, files...)
	if code != exitOK {
		t.Errorf("exit code = %d; want 0 (stderr %q)", code, stderr)
	}
	for i, c := range cases {
		l := lines[i]
		if l.Turns != c.turns || l.Winner == nil || *l.Winner != c.winner || deref(l.Result) != c.result || l.Variant == nil || *l.Variant != c.variant || l.Error != nil {
			t.Errorf("%s: got turns %d, winner %v, result %q, variant %v, error %v; want %d, %d, %q, %q, null",
				c.file, l.Turns, deref(l.Winner), deref(l.Result), deref(l.Variant), deref(l.Error), c.turns, c.winner, c.result, c.variant)
		}
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestReplayUnreadable(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.sgf")
	if err := os.WriteFile(garbage, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	badCmd := filepath.Join(dir, "bad.sgf")
	if err := os.WriteFile(badCmd, []byte("(;GM[22]VV[2]SU[Zertz]\n;P0[1 RtoB 2 7 D 4])"), 0o644); err != nil {
		t.Fatal(err)
	}
	variant := filepath.Join(dir, "xx.sgf")
	if err := os.WriteFile(variant, []byte("(;GM[22]VV[2]SU[Zertz+xx])"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.sgf")
	lines, stderr, code := runReplayJSON(t, garbage, badCmd, variant, missing, openingRec)
	if code != exitIllegal {
		t.Errorf("exit code = %d; want %d", code, exitIllegal)
	}
	for i, want := range []string{`"hello" does not start`, `"1 RtoB 2 7 D 4": colour 7`, `"SU[Zertz+xx]": unsupported variant`, "no such file"} {
		l := lines[i]
		if l.Error == nil || !strings.Contains(*l.Error, want) {
			t.Errorf("%s: error = %v; want it to contain %q", l.File, deref(l.Error), want)
		}
		// Unreadable is not unfinished: no result at all.
		if l.Variant != nil || l.Winner != nil || l.Result != nil {
			t.Errorf("%s: variant %v, winner %v, result %v; want null, null, null", l.File, deref(l.Variant), deref(l.Winner), deref(l.Result))
		}
		if !strings.Contains(stderr, l.File+": ") {
			t.Errorf("stderr does not name %s:\n%s", l.File, stderr)
		}
	}
	if lines[4].Error != nil {
		t.Errorf("a readable record after unreadable ones: error %q", *lines[4].Error)
	}
}

func TestReplayUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"replay"}, &out, &errOut); code != exitUsage {
		t.Errorf("replay with no files: exit %d; want %d", code, exitUsage)
	}
	errOut.Reset()
	if code := run([]string{"replay", "--help"}, &out, &errOut); code != exitOK {
		t.Errorf("replay --help: exit %d; want 0", code)
	}
	for _, want := range []string{"Usage: zertzboard replay [--json] [--show] [--strict] FILE…", "Exit status", "-json", "-show", "-strict", "warnings", "Examples:"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("replay --help does not mention %q:\n%s", want, errOut.String())
		}
	}
	if code := run([]string{"replay", "--bogus", openingRec}, &out, &errOut); code != exitUsage {
		t.Errorf("replay --bogus: exit %d; want %d", code, exitUsage)
	}
}

func TestReplayHumanAndShow(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"replay", "--show", openingRec}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	s := out.String()
	for _, want := range []string{
		"start (37 rings, P0 shoto moves first)",
		"turn 1 (P0 shoto): WD4-D1",
		"turn 6 (P1 Dumbot): E2xG2",
		"pool 5w 7g 7b | P0 shoto 0w 0g 0b | P1 Dumbot 0w 0g 1b",
		openingRec + ": 37 rings, 6 turns, unfinished; captures P0 shoto 0w 0g 0b, P1 Dumbot 0w 0g 1b",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("replay --show output lacks %q:\n%s", want, s)
		}
	}
}

// Record endings Boardspace accepts replay with warnings (exit 0), and
// --strict makes turns after the end errors.
func TestReplayWarnings(t *testing.T) {
	dir := t.TempDir()
	root := "(;GM[22]VV[2]SU[Zertz]P0[id \"ann\"]P1[id \"bob\"]\n"
	resign := filepath.Join(dir, "resign.sgf")
	os.WriteFile(resign, []byte(root+";P0[1 RtoB 2 0 D 4];P0[2 R- A 1];P0[3 Done];P1[4 R- A 4];P1[5 Resign];P1[6 Resign])"), 0o644)
	lines, stderr, code := runReplayJSON(t, resign)
	if code != exitOK || len(lines) != 1 {
		t.Fatalf("exit %d, %d lines; want 0 and one line\n%s", code, len(lines), stderr)
	}
	l := lines[0]
	if l.Turns != 1 || deref(l.Result) != "resigned" || l.Winner == nil || *l.Winner != 0 || l.Error != nil || len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "dropped") {
		t.Errorf("resign.sgf: %+v, warnings %q", l, l.Warnings)
	}
	if !strings.Contains(stderr, resign+": warning: ") {
		t.Errorf("stderr does not warn:\n%s", stderr)
	}
	// A won game with a turn recorded after the end.
	won := filepath.Join(sampleDir, "001_Z-shoto-Dumbot-2005-01-17-2004.sgf")
	rec, err := record.ReadFile(won)
	if err != nil {
		t.Skipf("sample %s: %v", won, err)
	}
	rec.Turns = append(rec.Turns, rec.Turns[len(rec.Turns)-1])
	after := filepath.Join(dir, "after.json")
	f, _ := os.Create(after)
	record.WriteJSON(f, rec)
	f.Close()
	lines, _, code = runReplayJSON(t, after)
	if code != exitOK || deref(lines[0].Result) != "win" || len(lines[0].Warnings) != 1 || lines[0].Turns != len(rec.Turns)-1 {
		t.Errorf("after.json: exit %d, %+v, warnings %q", code, lines[0], lines[0].Warnings)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"replay", "--strict", after}, &out, &errOut); code != exitIllegal || !strings.Contains(errOut.String(), "[game-over]") {
		t.Errorf("--strict: exit %d, %s", code, errOut.String())
	}
}

// TestReplayReadsResultBack: a game written as SGF carries its result;
// replay reads it back (the headers in the summary and in --json) and
// replays to the same result as the record it was written from.
func TestReplayReadsResultBack(t *testing.T) {
	rec, err := record.ReadFile(openingRec)
	if err != nil {
		t.Fatal(err)
	}
	rec.Stop = record.Stop{Kind: record.Resign, Player: 0}
	rec.Event, rec.Round, rec.Date = "Club Open", "4", "Thu Nov 26 14:22:33 UTC 2026"
	dir := t.TempDir()
	js, sgf := filepath.Join(dir, "g.json"), filepath.Join(dir, "g.sgf")
	var jbuf, sbuf bytes.Buffer
	if err := record.WriteJSON(&jbuf, rec); err != nil {
		t.Fatal(err)
	}
	if err := record.WriteSGF(&sbuf, rec); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(js, jbuf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sgf, sbuf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	winner := rec.Players[1]
	lines, stderr, code := runReplayJSON(t, js, sgf)
	if code != exitOK || len(lines) != 2 {
		t.Fatalf("exit %d, %d lines: %s", code, len(lines), stderr)
	}
	for _, l := range lines {
		if l.Result == nil || *l.Result != "resigned" || l.Winner == nil || *l.Winner != 1 || l.Turns != lines[0].Turns {
			t.Errorf("%s: result %v winner %v turns %d; want resigned, 1, %d", l.File, l.Result, l.Winner, l.Turns, lines[0].Turns)
		}
	}
	var headers struct {
		ResultText string `json:"result_text"`
		Event      string `json:"event"`
		Round      string `json:"round"`
		Date       string `json:"date"`
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"replay", "--json", sgf}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if err := json.Unmarshal(out.Bytes(), &headers); err != nil {
		t.Fatal(err)
	}
	if headers.ResultText != "Game won by "+winner || headers.Event != "Club Open" || headers.Round != "4" || headers.Date != rec.Date {
		t.Errorf("the SGF's headers in --json: %+v\n%s", headers, out.String())
	}
	out.Reset()
	if code := run([]string{"replay", sgf}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if want := `recorded result "Game won by ` + winner + `", event "Club Open", round "4"`; !strings.Contains(out.String(), want) {
		t.Errorf("the summary lacks %s:\n%s", want, out.String())
	}
}

// zertzboard replay reads every end a board writes into its JSON record.
func TestReplayReadsBoardEnds(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		end    string
		result string
		winner *int
	}{
		{`{"kind":"resign","player":1}`, "resigned", ptr(0)},
		{`{"kind":"win-on-time","player":1,"note":"flag"}`, "timeout", ptr(1)},
		{`{"kind":"adjudication","player":0,"note":"won ending"}`, "adjudicated", ptr(0)},
		{`{"kind":"draw","note":"agreed"}`, "draw", nil},
		{`{"kind":"draw-on-time"}`, "draw", nil},
	} {
		path := filepath.Join(dir, "r.json")
		data := `{"format":"zertzboard-record","version":1,"variant":"37","first":0,"players":["a","b"],"turns":["WD4-A1","BE2-G1"],` +
			`"end":` + tc.end + `,"clock":{"control":"sudden:5m","turns":[{"used_ms":1000,"remaining_ms":[299000,300000]},{"used_ms":2000,"remaining_ms":[299000,298000]}]}}`
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		lines, stderr, code := runReplayJSON(t, path)
		l := lines[0]
		if code != exitOK || deref(l.Result) != tc.result || (l.Winner == nil) != (tc.winner == nil) || l.Winner != nil && *l.Winner != *tc.winner {
			t.Errorf("end %s: exit %d %s, result %v winner %v; want %s %v", tc.end, code, stderr, deref(l.Result), l.Winner, tc.result, tc.winner)
		}
	}
}

package record

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The per-file report of "zertzboard replay" is a contract: its words and
// its JSON object, field order included, for an illegal record, a legal
// one and files that cannot be read.
func TestFileReport(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.sgf")
	if err := os.WriteFile(junk, []byte("junk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const none = `"captures":[{"white":0,"grey":0,"black":0},{"white":0,"grey":0,"black":0}]`
	for _, tt := range []struct {
		path, summary, json, errText string
	}{{
		"testdata/illegal-ring-not-free.sgf",
		`testdata/illegal-ring-not-free.sgf: 37 rings, 1 turn, illegal; captures P0 alice 0w 0g 0b, P1 bob 0w 0g 0b; game "deliberately illegal: turn 2 removes an inner ring"`,
		`{"file":"testdata/illegal-ring-not-free.sgf","variant":"37","turns":1,"winner":null,"result":"unfinished",` + none + `,"error":"turn 2 (player 1) BE2-D3: illegal: ring D3 is not free: no two adjacent sides are open [ring-not-free]","warnings":[],"name":"deliberately illegal: turn 2 removes an inner ring"}`,
		"turn 2 (player 1) BE2-D3: illegal: ring D3 is not free: no two adjacent sides are open [ring-not-free]",
	}, {
		"testdata/opening.json",
		`testdata/opening.json: 37 rings, 6 turns, unfinished; captures P0 shoto 0w 0g 0b, P1 Dumbot 0w 0g 1b; game "the first six turns of Boardspace game shoto-Dumbot (2005-01-17)"`,
		`{"file":"testdata/opening.json","variant":"37","turns":6,"winner":null,"result":"unfinished","captures":[{"white":0,"grey":0,"black":0},{"white":0,"grey":0,"black":1}],"error":null,"warnings":[],"name":"the first six turns of Boardspace game shoto-Dumbot (2005-01-17)"}`,
		"",
	}, {
		junk,
		junk + ": unreadable",
		`{"file":` + quote(junk) + `,"variant":null,"turns":0,"winner":null,"result":null,` + none + `,"error":"record: \"junk\" does not start an SGF (\"(;\") or JSON (\"{\") record","warnings":[]}`,
		`record: "junk" does not start an SGF ("(;") or JSON ("{") record`,
	}, {
		"testdata/missing.sgf",
		"testdata/missing.sgf: unreadable",
		`{"file":"testdata/missing.sgf","variant":null,"turns":0,"winner":null,"result":null,` + none + `,"error":"record: open testdata/missing.sgf: no such file or directory","warnings":[]}`,
		"record: open testdata/missing.sgf: no such file or directory",
	}} {
		f := CheckFile(tt.path, ReplayOptions{})
		if got := f.Summary(); got != tt.summary {
			t.Errorf("Summary:\n got %s\nwant %s", got, tt.summary)
		}
		data, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != tt.json {
			t.Errorf("JSON:\n got %s\nwant %s", data, tt.json)
		}
		if (f.Err != nil) != (tt.errText != "") || f.Err != nil && f.ErrText() != tt.errText {
			t.Errorf("%s: error %v; want %q", tt.path, f.Err, tt.errText)
		}
	}
}

// A winner and the record's headers are in the summary; a stated result
// the turns contradict is a warning in both forms.
func TestFileReportWinnerAndHeaders(t *testing.T) {
	rec, err := ReadFile("testdata/opening.json")
	if err != nil {
		t.Fatal(err)
	}
	rec.Stop = Stop{Kind: Resign, Player: 1}
	rec.Event, rec.Round, rec.Date, rec.ResultText = "club", "2", "2025-10-29", "Game won by Dumbot"
	path := filepath.Join(t.TempDir(), "g.json")
	if err := WriteFile(path, rec); err != nil {
		t.Fatal(err)
	}
	f := CheckFile(path, ReplayOptions{})
	want := path + `: 37 rings, 6 turns, resigned, winner P0 shoto; captures P0 shoto 0w 0g 0b, P1 Dumbot 0w 0g 1b; recorded result "Game won by Dumbot", event "club", round "2", game "the first six turns of Boardspace game shoto-Dumbot (2005-01-17)", date "2025-10-29"`
	if got := f.Summary(); got != want {
		t.Errorf("Summary:\n got %s\nwant %s", got, want)
	}
	data, _ := json.Marshal(f)
	if !strings.Contains(string(data), `"winner":0,"result":"resigned"`) || len(f.Warnings()) == 0 || !strings.Contains(string(data), `"warnings":["`) {
		t.Errorf("JSON %s (warnings %q): want winner 0, resigned, and the contradicted result as a warning", data, f.Warnings())
	}
	rec.Players[1] = ""
	if got := rec.PlayerName(1); got != "P1" {
		t.Errorf("PlayerName of a player without a name = %q; want P1", got)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

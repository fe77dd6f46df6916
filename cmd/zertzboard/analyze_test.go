package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
)

const diagram5Text = "37 w.oo/o.ooo/.ooooo/.oooooo/o.gooo/ooooo/oooo 1,3,9 2,0,0 2,4,1 0"

func TestAnalyzeCommand(t *testing.T) {
	tests := []struct {
		args []string
		code int
		out  string // a part of stdout
		err  string // a part of stderr
	}{
		{[]string{"--position", diagram5Text}, exitOK, "forced win for player 0 in 2 turns: BE4-D2 E3xE5 WB1-C2 (", ""},
		{[]string{"--position", diagram5Text, "--max-turns", "1"}, exitOK, "no forced win for player 0 within 1 turn (", ""},
		{[]string{"--board", "48", "--max-turns", "2"}, exitOK, "no forced win for player 0 within 2 turns", ""},
		{[]string{"--board", "37", "--max-turns", "3", "--nodes", "3000"}, exitIncomplete, "out of time: no forced win for player 0 within 2 turns; 3 not finished", ""},
		{[]string{"--max-turns", "0"}, exitUsage, "", "--max-turns 0: want 1 to 8"},
		{[]string{"--ms", "-1"}, exitUsage, "", "--ms -1: want 1 to 3600000 milliseconds"},
		// 0 was "no limit", which left a search running with no output.
		{[]string{"--ms", "0"}, exitUsage, "", "zertzboard analyze: --ms 0: want 1 to 3600000 milliseconds (an hour)"},
		{[]string{"--ms", "3600001"}, exitUsage, "", "--ms 3600001: want 1 to 3600000"},
		// An illegal first turn: the record's turns, in good grammar, and
		// the illegal turn without a package prefix.
		{[]string{"--from", illegalFirst(t), "--turns", "5"}, exitUsage, "", "first.sgf has 1 turn\n"},
		{[]string{"--from", illegalFirst(t), "--turns", "1"}, exitUsage, "", "first.sgf: turn 1 (player 0) WD4-D4: illegal"},
		{[]string{"--position", "37 oooo"}, exitUsage, "", "bad position"},
		{[]string{"--position", diagram5Text, "--from", "x.sgf"}, exitUsage, "", "not both"},
		{[]string{"--from", filepath.Join(sampleDir, "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf"), "--turns", "999"}, exitUsage, "", "--turns 999"},
		{[]string{"extra"}, exitUsage, "", `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(append([]string{"analyze"}, tt.args...), &out, &errOut)
			if code != tt.code || !strings.Contains(out.String(), tt.out) || !strings.Contains(errOut.String(), tt.err) {
				t.Errorf("analyze %v: exit %d, stdout %q, stderr %q; want exit %d, stdout containing %q, stderr containing %q",
					tt.args, code, out.String(), errOut.String(), tt.code, tt.out, tt.err)
			}
			for _, bad := range []string{" 1 turns", ": record: ", ": engine: "} {
				if strings.Contains(errOut.String(), bad) {
					t.Errorf("analyze %v: %q has %q", tt.args, errOut.String(), bad)
				}
			}
		})
	}
}

// analyzeJSON is the contract's object, decoded strictly.
type analyzeJSON struct {
	ForcedWin *struct {
		Player int      `json:"player"`
		Turns  int      `json:"turns"`
		Line   []string `json:"line"`
	} `json:"forced_win"`
	Complete *bool  `json:"complete"`
	Nodes    *int64 `json:"nodes"`
	MS       *int64 `json:"ms"`
}

func analyzeJSONRun(t *testing.T, args ...string) (analyzeJSON, map[string]json.RawMessage, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"analyze", "--json"}, args...), &out, &errOut)
	var a analyzeJSON
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		t.Fatalf("analyze --json %v: %v\n%s%s", args, err, out.String(), errOut.String())
	}
	if err := json.Unmarshal(out.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if strings.Count(out.String(), "\n") != 1 {
		t.Errorf("analyze --json %v printed %q; want one line", args, out.String())
	}
	return a, raw, code
}

// TestAnalyzeJSON: the contract's fields, exactly; a sample game one turn
// before its winning capture turn reports a forced win in 1 for the winner
// whose line wins.
func TestAnalyzeJSON(t *testing.T) {
	a, raw, code := analyzeJSONRun(t, "--position", diagram5Text)
	if code != exitOK || a.ForcedWin == nil || a.ForcedWin.Player != 0 || a.ForcedWin.Turns != 2 ||
		strings.Join(a.ForcedWin.Line, " ") != "BE4-D2 E3xE5 WB1-C2" || a.Complete == nil || !*a.Complete || a.Nodes == nil || *a.Nodes <= 0 || a.MS == nil {
		t.Errorf("diagram 5: exit %d, %+v", code, a)
	}
	var keys []string
	for k := range raw {
		keys = append(keys, k)
	}
	if len(raw) != 4 || raw["forced_win"] == nil || raw["complete"] == nil || raw["nodes"] == nil || raw["ms"] == nil {
		t.Errorf("keys %v; want forced_win, complete, nodes, ms", keys)
	}
	a, raw, code = analyzeJSONRun(t, "--board", "37", "--max-turns", "1")
	if code != exitOK || a.ForcedWin != nil || string(raw["forced_win"]) != "null" || !*a.Complete {
		t.Errorf("the start: exit %d, %+v, forced_win %s; want null, complete", code, a, raw["forced_win"])
	}
	a, _, code = analyzeJSONRun(t, "--board", "37", "--max-turns", "3", "--nodes", "2000")
	if code != exitIncomplete || a.ForcedWin != nil || *a.Complete {
		t.Errorf("bounded by nodes: exit %d, %+v; want incomplete", code, a)
	}

	files, err := samples.Records(samples.BuiltinDir())
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		rec, err := record.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := rec.Replay()
		if err != nil || rep.Result.Reason != engine.ReasonCaptures {
			continue
		}
		n := rep.Game.Len()
		a, _, code := analyzeJSONRun(t, "--from", f, "--turns", strconv.Itoa(n-1), "--max-turns", "2")
		if code != exitOK || a.ForcedWin == nil || a.ForcedWin.Player != rep.Result.Winner || a.ForcedWin.Turns != 1 || len(a.ForcedWin.Line) != 1 {
			t.Errorf("%s before turn %d: exit %d, %+v; want a forced win in 1 for player %d", filepath.Base(f), n, code, a, rep.Result.Winner)
			continue
		}
		p := rep.Game.PositionAfter(n - 1)
		turn, err := engine.ParseTurn(p.Board(), a.ForcedWin.Line[0])
		if err != nil {
			t.Fatal(err)
		}
		q, err := p.Play(turn)
		if r := q.Result(); err != nil || !r.Over || r.Winner != rep.Result.Winner {
			t.Errorf("%s: %s does not win: %v, %v", filepath.Base(f), a.ForcedWin.Line[0], err, r)
		}
		checked++
	}
	if checked < 3 {
		t.Errorf("only %d built-in games end in a win by captures", checked)
	}
}

// illegalFirst is a record of one turn, illegal.
func illegalFirst(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "first.sgf")
	if err := os.WriteFile(p, []byte("(;GM[22]VV[2]SU[Zertz];P0[0 Start P0];P0[1 RtoB 2 0 D 4];P0[2 R- D 4];P0[3 Done])"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

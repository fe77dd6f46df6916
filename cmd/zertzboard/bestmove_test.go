package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
)

func TestBestmoveCommand(t *testing.T) {
	game := filepath.Join(sampleDir, "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf")
	tests := []struct {
		args []string
		code int
		out  string // a part of stdout
		err  string // a part of stderr
	}{
		{[]string{"--position", diagram5Text, "--nodes", "20000"}, exitOK, "BE4-D2\n", ""},
		{[]string{"--board", "48", "--level", "1"}, exitOK, "", ""},
		{[]string{"--moves", "WD4-A1 GC3-G1", "--nodes", "3000", "--json"}, exitOK, `"pv":[`, ""},
		{[]string{"--from", game, "--turns", "10", "--nodes", "3000"}, exitOK, "", ""},
		{[]string{"--moves", "WD4-A1 WD4-A2"}, exitUsage, "", "move 2, WD4-A2: ring D4 already holds a marble"},
		{[]string{"--moves", "WD4-A1 zz"}, exitUsage, "", `move 2, zz: cannot read turn "zz"`},
		{[]string{"--level", "11"}, exitUsage, "", "--level 11: want 1 to 10"},
		{[]string{"--level", "0"}, exitUsage, "", "--level 0: want 1 to 10"},
		{[]string{"--nodes", "-5"}, exitUsage, "", "--nodes -5: want 1 or more"},
		{[]string{"--ms", "0"}, exitUsage, "", "--ms 0: want 1 to 3600000 milliseconds (an hour)"},
		{[]string{"--ms", "10", "--nodes", "5"}, exitUsage, "", "give one budget"},
		{[]string{"--moves", "WD4-A1", "--position", diagram5Text}, exitUsage, "", "give one of --moves, --from and --position"},
		{[]string{"--turns", "3"}, exitUsage, "", "--turns needs --from FILE"},
		{[]string{"--board", "99"}, exitUsage, "", `unknown board "99"`},
		{[]string{"--position", "37 oooo"}, exitUsage, "", "bad position"},
		{[]string{"WD4-A1"}, exitUsage, "", `unexpected argument "WD4-A1"`},
		{[]string{"--from", game, "--turns", "999"}, exitUsage, "", "--turns 999"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(append([]string{"bestmove"}, tt.args...), &out, &errOut)
			if code != tt.code || !strings.Contains(out.String(), tt.out) || !strings.Contains(errOut.String(), tt.err) {
				t.Errorf("bestmove %v: exit %d, stdout %q, stderr %q; want exit %d, stdout containing %q, stderr containing %q",
					tt.args, code, out.String(), errOut.String(), tt.code, tt.out, tt.err)
			}
		})
	}
}

// bestmoveRun runs bestmove --json and decodes its object strictly.
func bestmoveRun(t *testing.T, args ...string) (search.Report, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"bestmove", "--json"}, args...), &out, &errOut)
	var got search.Report
	if code == exitOK {
		text := out.String()
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("bestmove %v: %v in %q", args, err, out.String())
		}
		var fields map[string]json.RawMessage
		raw := bytes.TrimSpace([]byte(strings.SplitN(text+"\n", "\n", 2)[0]))
		if err := json.Unmarshal(raw, &fields); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"move", "score", "win_prob", "depth", "nodes", "ms", "pv"} {
			if _, ok := fields[k]; !ok {
				t.Fatalf("bestmove --json: no %q in %s", k, raw)
			}
		}
	}
	return got, code
}

// On every position of the built-in games, bestmove's turn is legal (and
// its line too), and the game's end is an error naming it.
func TestBestmoveLegalOnEveryBuiltinPosition(t *testing.T) {
	files, err := samples.Records(samples.BuiltinDir())
	if err != nil {
		t.Fatal(err)
	}
	positions := 0
	for fi, f := range files {
		rec, err := record.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := rec.Replay()
		if err != nil {
			continue
		}
		g := rep.Game
		for i := 0; i <= g.Len(); i++ {
			p := g.PositionAfter(i)
			if testing.Short() && i%3 != fi%3 && !p.Result().Over {
				continue
			}
			args := []string{"--position", p.String(), "--nodes", "600", "--seed", "3"}
			if p.Result().Over {
				var out, errOut bytes.Buffer
				if code := run(append([]string{"bestmove"}, args...), &out, &errOut); code != exitIllegal || !strings.Contains(errOut.String(), "the game is over") {
					t.Errorf("%s, finished: exit %d, %q %q; want exit 1 saying the game is over", filepath.Base(f), code, out.String(), errOut.String())
				}
				continue
			}
			got, code := bestmoveRun(t, args...)
			if code != exitOK {
				t.Fatalf("%s after %d turns: exit %d", filepath.Base(f), i, code)
			}
			tu, err := engine.ParseTurn(p.Board(), got.Move)
			if err != nil {
				t.Fatalf("%s after %d turns: %v", filepath.Base(f), i, err)
			}
			if _, err := p.Play(tu); err != nil {
				t.Fatalf("%s after %d turns (%s): bestmove %s is illegal: %v", filepath.Base(f), i, p, got.Move, err)
			}
			if len(got.PV) == 0 || got.PV[0] != got.Move || got.WinProb < 0 || got.WinProb > 1 || got.Nodes <= 0 {
				t.Fatalf("%s after %d turns: %+v", filepath.Base(f), i, got)
			}
			positions++
		}
	}
	if positions < 300 {
		t.Fatalf("only %d positions", positions)
	}
}

// The same seed and node budget give the same answer (ms aside).
func TestBestmoveDeterministic(t *testing.T) {
	for _, args := range [][]string{
		{"--board", "61", "--nodes", "8000", "--seed", "9"},
		{"--moves", "WD4-A1 GC3-G1 BE4-A4", "--level", "2", "--seed", "1"},
	} {
		a, _ := bestmoveRun(t, args...)
		b, _ := bestmoveRun(t, args...)
		a.MS, b.MS = 0, 0
		if a.Move != b.Move || a.Score != b.Score || a.Nodes != b.Nodes || strings.Join(a.PV, " ") != strings.Join(b.PV, " ") {
			t.Errorf("bestmove %v twice: %+v, then %+v", args, a, b)
		}
	}
}

func engineSessionRun(t *testing.T, input string, args ...string) []string {
	t.Helper()
	old := stdin
	stdin = strings.NewReader(input)
	defer func() { stdin = old }()
	var out, errOut bytes.Buffer
	if code := run(append([]string{"engine"}, args...), &out, &errOut); code != exitOK {
		t.Fatalf("engine %v: exit %d, %s", args, code, errOut.String())
	}
	return strings.Split(strings.TrimSpace(out.String()), "\n")
}

// The engine command serves the protocol (package engine/search/proto,
// tested there) on standard input and output: --board is the variant of
// "position startpos" without one, --level the level of "go" without a
// budget; bad flags exit 2.
func TestEngineCommand(t *testing.T) {
	lines := engineSessionRun(t, "isready\nposition startpos\ngo\nposition startpos 37 moves WD4-A2 WD4-A1\nquit\n", "--board", "48", "--level", "1")
	var best []string
	for _, l := range lines {
		if m, ok := strings.CutPrefix(l, "bestmove "); ok {
			best = append(best, m)
		}
	}
	b := engine.MustStandardBoard("48")
	if len(best) != 1 || lines[0] != "readyok" {
		t.Fatalf("output %q; want readyok and one bestmove", lines)
	}
	if _, err := engine.NewPosition(b, engine.Standard, 0).Play(mustTurn(t, b, best[0])); err != nil {
		t.Errorf("bestmove %s on 48 rings: %v", best[0], err)
	}
	if last := lines[len(lines)-1]; last != "error position: move 2, WD4-A1: ring D4 already holds a marble (ring-not-vacant)" {
		t.Errorf("last line %q; want the illegal second move named", last)
	}
	for _, args := range [][]string{{"--level", "0"}, {"--level", "11"}, {"--board", "36"}, {"extra"}} {
		var out, errOut bytes.Buffer
		if code := run(append([]string{"engine"}, args...), &out, &errOut); code != exitUsage || !strings.HasPrefix(errOut.String(), "zertzboard engine: ") {
			t.Errorf("engine %v: exit %d, %q; want 2 and the error", args, code, errOut.String())
		}
	}
}

func mustTurn(t *testing.T, b *engine.Board, s string) engine.Turn {
	t.Helper()
	tu, err := engine.ParseTurn(b, s)
	if err != nil {
		t.Fatal(err)
	}
	return tu
}

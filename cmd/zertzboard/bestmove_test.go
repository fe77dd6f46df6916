package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
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
func bestmoveRun(t *testing.T, args ...string) (bestmoveJSON, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"bestmove", "--json"}, args...), &out, &errOut)
	var got bestmoveJSON
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

func TestEngineProtocol(t *testing.T) {
	lines := engineSessionRun(t, strings.Join([]string{
		"isready",
		"position text " + diagram5Text,
		"go nodes 20000",
		"position startpos 61 moves WD4-A1",
		"go level 1 seed 4",
		"bogus",
		"position startpos 37 moves WD4-A1 WD4-A2",
		"go nodes 0",
		"go level 2 ms 5",
		"position text 37 oooo",
		"go infinite",
	}, "\n"))
	var best, infos, errs []string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "bestmove "):
			best = append(best, strings.TrimPrefix(l, "bestmove "))
		case strings.HasPrefix(l, "info "):
			infos = append(infos, l)
			f := strings.Fields(l)
			if len(f) < 13 || f[1] != "depth" || f[3] != "score" || f[5] != "win_prob" || f[7] != "nodes" || f[9] != "ms" || f[11] != "pv" {
				t.Errorf("info line %q: want info depth D score S win_prob P nodes N ms T pv …", l)
			}
		case strings.HasPrefix(l, "error "):
			errs = append(errs, l)
		case l == "readyok":
		default:
			t.Errorf("unexpected line %q", l)
		}
	}
	if lines[0] != "readyok" {
		t.Errorf("first line %q; want readyok", lines[0])
	}
	// diagram 5's win, a turn on 61 rings, and the infinite search ended by
	// the end of the input (on the 61-ring position: the bad ones were
	// refused).
	if len(best) != 3 || best[0] != "BE4-D2" {
		t.Fatalf("bestmoves %q; want 3, the first BE4-D2 (all output: %q)", best, lines)
	}
	b := engine.MustStandardBoard("61")
	p := engine.NewPosition(b, engine.Standard, 0).MustPlay(mustTurn(t, b, "WD4-A1"))
	for _, m := range best[1:] {
		if _, err := p.Play(mustTurn(t, b, m)); err != nil {
			t.Errorf("bestmove %s on 61 rings after WD4-A1: %v", m, err)
		}
	}
	wantErrs := []string{`unknown command "bogus"`, "move 2, WD4-A2", `nodes "0"`, "give one budget", "position text"}
	if len(errs) != len(wantErrs) {
		t.Fatalf("errors %q; want %d", errs, len(wantErrs))
	}
	for i, w := range wantErrs {
		if !strings.Contains(errs[i], w) {
			t.Errorf("error %d: %q; want it to contain %q", i, errs[i], w)
		}
	}
	if len(infos) < 2 {
		t.Errorf("info lines %q; want at least one per search that finished a depth", infos)
	}
	// A finished game has no turn.
	over := engineSessionRun(t, "position text 37 w.oo/o.ooo/.ooooo/.oooooo/o.gooo/ooooo/oooo 1,3,9 2,0,0 2,4,1 0 moves BE4-D2 E3xE5 WB1-C2\ngo\nquit\nisready\n")
	if len(over) != 1 || over[0] != "bestmove none" {
		t.Errorf("after the win: %q; want bestmove none, and nothing after quit", over)
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

// "stop" ends a search that would run for minutes (without it the test
// would wait for it), and its best turn so far is the bestmove; "quit"
// ends an infinite search and the session.
func TestEngineStop(t *testing.T) {
	var got []string
	for _, l := range engineSessionRun(t, "position startpos 61\ngo nodes 900000000\nstop\nisready\ngo infinite\nquit\n") {
		if !strings.HasPrefix(l, "info ") {
			got = append(got, l)
		}
	}
	if len(got) != 3 || !strings.HasPrefix(got[0], "bestmove ") || got[1] != "readyok" || !strings.HasPrefix(got[2], "bestmove ") {
		t.Fatalf("output %q; want a bestmove, readyok and a bestmove (info lines aside)", got)
	}
}

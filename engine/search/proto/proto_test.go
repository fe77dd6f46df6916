package proto

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
)

// diagram5Text is the rulebook's diagram 5: white to move wins with BE4-D2.
const diagram5Text = "37 w.oo/o.ooo/.ooooo/.oooooo/o.gooo/ooooo/oooo 1,3,9 2,0,0 2,4,1 0"

// serve runs a session over input to its end and returns its reply lines.
func serve(t *testing.T, input, variant string, level int) []string {
	t.Helper()
	var out bytes.Buffer
	s, err := New(&out, variant, level)
	if err != nil {
		t.Fatal(err)
	}
	s.Serve(strings.NewReader(input))
	return strings.Split(strings.TrimSpace(out.String()), "\n")
}

func TestProtocol(t *testing.T) {
	lines := serve(t, strings.Join([]string{
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
	}, "\n"), "37", search.DefaultLevel)
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
	p, err := engine.PlayLine(engine.NewPosition(engine.MustStandardBoard("61"), engine.Standard, 0), "WD4-A1")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range best[1:] {
		if _, err := engine.PlayLine(p, m); err != nil {
			t.Errorf("bestmove %s on 61 rings after WD4-A1: %v", m, err)
		}
	}
	wantErrs := []string{
		`error unknown command "bogus"`,
		"error position: move 2, WD4-A2: ring D4 already holds a marble (ring-not-vacant)",
		`error go: nodes "0": want a positive whole number`,
		"error go: give one budget",
		"error position text",
	}
	if len(errs) != len(wantErrs) {
		t.Fatalf("errors %q; want %d", errs, len(wantErrs))
	}
	for i, w := range wantErrs {
		if !strings.HasPrefix(errs[i], w) {
			t.Errorf("error %d: %q; want it to start %q", i, errs[i], w)
		}
	}
	if len(infos) < 2 {
		t.Errorf("info lines %q; want at least one per search that finished a depth", infos)
	}
	// A finished game has no turn.
	over := serve(t, "position text "+diagram5Text+" moves BE4-D2 E3xE5 WB1-C2\ngo\nquit\nisready\n", "37", 1)
	if len(over) != 1 || over[0] != "bestmove none" {
		t.Errorf("after the win: %q; want bestmove none, and nothing after quit", over)
	}
}

// "stop" ends a search that would run for minutes (without it the test
// would wait for it), and its best turn so far is the bestmove; "quit"
// ends an infinite search and the session.
func TestStop(t *testing.T) {
	var got []string
	for _, l := range serve(t, "position startpos 61\ngo nodes 900000000\nstop\nisready\ngo infinite\nquit\n", "37", 1) {
		if !strings.HasPrefix(l, "info ") {
			got = append(got, l)
		}
	}
	if len(got) != 3 || !strings.HasPrefix(got[0], "bestmove ") || got[1] != "readyok" || !strings.HasPrefix(got[2], "bestmove ") {
		t.Fatalf("output %q; want a bestmove, readyok and a bestmove (info lines aside)", got)
	}
}

// The session's variant is "position startpos" without one and the
// position before any; its level is "go" without a budget.
func TestDefaults(t *testing.T) {
	lines := serve(t, "go\nposition startpos\ngo\n", "48b", 1)
	b, r, err := engine.ParseVariant("48b")
	if err != nil {
		t.Fatal(err)
	}
	start := engine.NewPosition(b, r, 0)
	var best []string
	for _, l := range lines {
		if m, ok := strings.CutPrefix(l, "bestmove "); ok {
			best = append(best, m)
		} else if f := strings.Fields(l); len(f) > 2 && f[0] == "info" && f[1] == "depth" && f[2] > "9" {
			t.Errorf("%q: level 1 searched deeper than it should", l)
		}
	}
	if len(best) != 2 {
		t.Fatalf("output %q; want two bestmoves", lines)
	}
	for _, m := range best {
		if _, err := engine.PlayLine(start, m); err != nil {
			t.Errorf("bestmove %s is not a legal first turn on 48b: %v", m, err)
		}
	}
	for _, bad := range []struct {
		variant string
		level   int
	}{{"36", 1}, {"37", 0}, {"37", search.MaxLevel + 1}} {
		if _, err := New(&bytes.Buffer{}, bad.variant, bad.level); err == nil {
			t.Errorf("New(%q, %d): no error", bad.variant, bad.level)
		}
	}
}

// A line longer than MaxLine ends the session with an error, not a hang
// or an unbounded buffer.
func TestLongLine(t *testing.T) {
	lines := serve(t, "isready\n"+strings.Repeat("x", MaxLine+1)+"\nisready\n", "37", 1)
	if len(lines) != 2 || lines[0] != "readyok" || !strings.HasPrefix(lines[1], "error reading the input") {
		t.Errorf("output %q; want readyok, then the read error", lines)
	}
}

package main

import (
	"bytes"
	"strings"
	"testing"
)

// Every command teaches: --help prints the synopsis, what it does and an
// example, and exits 0.
func TestEveryCommandHasHelp(t *testing.T) {
	if len(commands) == 0 {
		t.Fatal("no commands registered")
	}
	for name := range commands {
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run([]string{name, "--help"}, &stdout, &stderr)
			text := stdout.String() + stderr.String()
			if code != exitOK || !strings.Contains(text, "Usage: zertzboard "+name) || !strings.Contains(text, "zertzboard "+name+" ") || !strings.Contains(text, "Example") {
				t.Errorf("%s --help: exit %d, text:\n%s", name, code, text)
			}
		})
	}
}

// Every help file belongs to a command, and its text is what the
// command's --help prints above the flags.
func TestHelpFilesBelongToCommands(t *testing.T) {
	files, err := helpFiles.ReadDir("help")
	if err != nil || len(files) == 0 {
		t.Fatalf("help files: %v, %d", err, len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(f.Name(), ".txt")
		if _, ok := commands[name]; !ok {
			t.Errorf("help/%s is the help of no command", f.Name())
			continue
		}
		var stdout, stderr bytes.Buffer
		run([]string{name, "--help"}, &stdout, &stderr)
		if text := strings.TrimSpace(helpText(name)); !strings.Contains(stderr.String(), "\n\n"+text+"\n") {
			t.Errorf("%s --help does not print help/%s:\n%s", name, f.Name(), stderr.String())
		}
	}
}

func TestUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(nil, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "replay") || stdout.Len() != 0 {
		t.Errorf("no arguments: exit %d, stdout %q, stderr %q; want the usage on stderr and exit 2", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	if code := run([]string{"help"}, &stdout, &stderr); code != exitOK || !strings.Contains(stdout.String(), "replay") {
		t.Errorf("help: exit %d, %q", code, stdout.String())
	}
	// The command list is one column: every summary starts at the same
	// place, the longest names (check-wiring, scoreboard) included.
	col := -1
	for _, line := range strings.Split(stdout.String(), "\n") {
		name, ok := strings.CutPrefix(line, "  ")
		if !ok || strings.HasPrefix(name, " ") {
			continue
		}
		word, _, _ := strings.Cut(name, " ")
		if _, isCmd := commands[word]; !isCmd {
			continue
		}
		rest := strings.TrimLeft(name[len(word):], " ")
		at := len(line) - len(rest)
		if len(name[len(word):])-len(rest) < 2 {
			t.Errorf("command %s: its summary is not at least two spaces away: %q", word, line)
		}
		if col >= 0 && at != col {
			t.Errorf("command %s: summary at column %d; the others at %d: %q", word, at, col, line)
		}
		col = at
	}
	if col < 0 {
		t.Error("no command lines in the usage")
	}
	stdout.Reset()
	if code := run([]string{"frobnicate"}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), `unknown command "frobnicate"`) {
		t.Errorf("unknown command: exit %d, %q", code, stderr.String())
	}
	stdout.Reset()
	if code := run([]string{"help", "perft"}, &stdout, &stderr); code != exitOK || !strings.Contains(stderr.String(), "Usage: zertzboard perft") {
		t.Errorf("help perft: exit %d, %q", code, stderr.String())
	}
}

// A board ID is checked before anything starts.
func TestSimRefusesBadBoardID(t *testing.T) {
	for _, id := range []string{"a b", "a/b", strings.Repeat("x", 65)} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"sim", "--board-id", id}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "--board-id: bad board ID") {
			t.Errorf("sim --board-id %q: exit %d, %q", id, code, stderr.String())
		}
	}
}

// The scan rate is checked before anything starts: 50 to 200 Hz.
func TestSimRefusesBadScanRate(t *testing.T) {
	for _, hz := range []string{"49", "201", "0"} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"sim", "--scan-hz", hz}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "--scan-hz "+hz+": want 50 to 200") {
			t.Errorf("sim --scan-hz %s: exit %d, %q", hz, code, stderr.String())
		}
	}
}

// Each error carries the command's prefix once, and no package's prefix
// repeating it or the flag ("referee: referee:", "--pi: pi:").
func TestErrorsHaveOnePrefix(t *testing.T) {
	for _, args := range [][]string{
		{"referee", "--board", "37", "--mode", "strict", "--frames", "x"},
		{"referee", "--board", "99", "--frames", "x"},
		{"sim", "--mode", "strict"},
		{"sim", "--language", "pt"},
		{"sim", "--time-control", "x"},
		{"sim", "--game", "/nonexistent/game.sgf"},
		{"scoreboard", "--broker", "xx"},
		{"check-wiring", "--pi", "zz", "x.wiring"},
		{"engine", "--board", "99"},
		{"bestmove", "--moves", "ZZ"},
		{"perft", "--board", "99", "--depth", "1"},
		{"analyze", "--position", "37 oooo"},
		{"selftest", "--sim", "--board", "99"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		msg := strings.TrimSpace(stderr.String())
		prefix := "zertzboard " + args[0] + ": "
		if code != exitUsage || !strings.HasPrefix(msg, prefix) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q first", args, code, msg, prefix)
			continue
		}
		words := strings.Fields(strings.TrimPrefix(msg, "zertzboard "))
		for i := 1; i < len(words); i++ {
			a, b := strings.TrimLeft(words[i-1], "-"), strings.TrimLeft(words[i], "-")
			if strings.HasSuffix(a, ":") && a == b {
				t.Errorf("%v: %q says %s twice", args, msg, a)
			}
		}
		for _, pkg := range prog.ErrPrefixes {
			if strings.Contains(msg, ": "+pkg) {
				t.Errorf("%v: %q has the package prefix %q after the command's", args, msg, pkg)
			}
		}
	}
}

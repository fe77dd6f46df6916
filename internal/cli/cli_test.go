package cli

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"
)

// testProgram has two commands: "echo" prints its arguments, "flags" has
// one flag and the help text of help/flags.txt.
func testProgram() *Program {
	p := &Program{
		Name: "prog", About: "prog does things.",
		Version:     func() string { return "prog 1.0" },
		Help:        fstest.MapFS{"flags.txt": {Data: []byte("Does flags.\n\nExample:\n  prog flags -n 3\n")}},
		ErrPrefixes: []string{"pkg: "},
	}
	p.Register(Command{Name: "echo", Summary: "print the arguments", Run: func(args []string, stdout, _ io.Writer) int {
		io.WriteString(stdout, strings.Join(args, " "))
		return 7
	}})
	p.Register(Command{Name: "longer-name", Summary: "a long name", Run: func([]string, io.Writer, io.Writer) int { return 0 }})
	p.Register(Command{Name: "flags", Summary: "one flag", Run: func(args []string, _, stderr io.Writer) int {
		fs := p.FlagSet("flags", "[-n N]", p.HelpText("flags"), stderr)
		fs.Int("n", 1, "how many")
		if code, ok := ParseFlags(fs, args); !ok {
			return code
		}
		return ExitOK
	}})
	return p
}

func TestDispatch(t *testing.T) {
	for _, tc := range []struct {
		args           []string
		code           int
		stdout, stderr string // substrings; "" must be empty
	}{
		{nil, ExitUsage, "", "prog: no command given\nprog does things."},
		{[]string{"help"}, ExitOK, "Commands:\n  echo         print the arguments\n  flags        one flag\n  longer-name  a long name\n", ""},
		{[]string{"--help"}, ExitOK, "Run \"prog COMMAND --help\"", ""},
		{[]string{"help", "flags"}, ExitOK, "", "Usage: prog flags [-n N]\n\nDoes flags.\n\nExample:\n  prog flags -n 3\n\nFlags:\n  -n int"},
		{[]string{"--version"}, ExitOK, "prog 1.0\n", ""},
		{[]string{"nope"}, ExitUsage, "", "prog: unknown command \"nope\"\n\nprog does things."},
		{[]string{"echo", "a", "b"}, 7, "a b", ""},
		{[]string{"flags", "-n", "2"}, ExitOK, "", ""},
		{[]string{"flags", "--bogus"}, ExitUsage, "", "flag provided but not defined: -bogus"},
		{[]string{"flags", "-n", "x"}, ExitUsage, "", "invalid value \"x\" for flag -n"},
	} {
		var stdout, stderr bytes.Buffer
		code := testProgram().Run(tc.args, &stdout, &stderr)
		if code != tc.code {
			t.Errorf("%q: exit %d; want %d", tc.args, code, tc.code)
		}
		for _, s := range []struct{ got, want, name string }{{stdout.String(), tc.stdout, "stdout"}, {stderr.String(), tc.stderr, "stderr"}} {
			if (s.want == "" && s.got != "") || !strings.Contains(s.got, s.want) {
				t.Errorf("%q: %s %q; want %q", tc.args, s.name, s.got, s.want)
			}
		}
	}
}

func TestHelpTextMissingPanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "no help text for echo") {
			t.Errorf("recovered %v; want a panic naming echo", r)
		}
	}()
	testProgram().HelpText("echo")
}

func TestErrText(t *testing.T) {
	p := testProgram()
	for in, want := range map[string]string{"pkg: bad": "bad", "other: bad": "other: bad", "x pkg: y": "x pkg: y"} {
		if got := p.ErrText(errors.New(in)); got != want {
			t.Errorf("ErrText(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestLogger(t *testing.T) {
	for _, tc := range []struct {
		level          slog.Level
		verbose, json  bool
		debug, info    bool
		startsWithJSON bool
	}{
		{slog.LevelInfo, false, false, false, true, false},
		{slog.LevelInfo, true, false, true, true, false},
		{slog.LevelWarn, false, false, false, false, false},
		{slog.LevelWarn, true, true, true, true, true},
	} {
		var b bytes.Buffer
		log := Logger(&b, tc.level, tc.verbose, tc.json)
		log.Debug("dbg")
		log.Info("inf")
		s := b.String()
		if strings.Contains(s, "dbg") != tc.debug || strings.Contains(s, "inf") != tc.info || (tc.json && !strings.HasPrefix(s, "{")) || (!tc.json && strings.HasPrefix(s, "{")) {
			t.Errorf("Logger(%v, verbose %t, json %t) wrote %q", tc.level, tc.verbose, tc.json, s)
		}
	}
}

func TestFailer(t *testing.T) {
	var b bytes.Buffer
	if code := testProgram().Failer("echo", &b)("--n %d: want %s", 3, "more"); code != ExitUsage || b.String() != "prog echo: --n 3: want more\n" {
		t.Errorf("Failer: exit %d, %q", code, b.String())
	}
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConsoleFlags: the console's and results' flags refuse bad values
// with the reason, and --help teaches them.
func TestConsoleFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"sim", "--operator", "arbiter"}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "--operator \"arbiter\": want USER:PASSWORD") {
		t.Errorf("sim --operator without a password: exit %d, %q", code, errb.String())
	}
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := run([]string{"scoreboard", "--results", file, "--http", "127.0.0.1:0"}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), file) {
		t.Errorf("scoreboard --results on a file: exit %d, %q; want %d naming it", code, errb.String(), exitUsage)
	}
	errb.Reset()
	run([]string{"scoreboard", "--help"}, &out, &errb)
	for _, want := range []string{"/console", "/results.zip", "--results", "--console"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("scoreboard --help lacks %q", want)
		}
	}
	errb.Reset()
	run([]string{"sim", "--help"}, &out, &errb)
	for _, want := range []string{"--operator USER:PASSWORD", "/console", "--results"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("sim --help lacks %q", want)
		}
	}
}

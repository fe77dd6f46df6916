package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxCommandLines bounds the command's own code (its non-test Go files):
// it reads flags and files into the packages' configurations, calls them
// and prints what they return. A command that outgrows it is doing a
// package's work (docs/ARCHITECTURE.md, "Where a change goes").
const maxCommandLines = 1000

func TestCommandStaysThin(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += bytes.Count(b, []byte("\n"))
	}
	if total == 0 {
		t.Fatal("found no Go files to count")
	}
	if total > maxCommandLines {
		t.Errorf("cmd/zertzboard has %d non-test lines, more than %d: move the work into the package the command calls", total, maxCommandLines)
	}
	t.Logf("cmd/zertzboard: %d non-test lines of at most %d", total, maxCommandLines)
}

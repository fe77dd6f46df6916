package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestScoreboardUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"scoreboard", "extra"}, &out, &errb); code != exitUsage {
		t.Errorf("an extra argument: exit %d; want %d", code, exitUsage)
	}
	errb.Reset()
	if code := run([]string{"scoreboard", "--broker", "http://x", "--http", "127.0.0.1:0"}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "scheme") {
		t.Errorf("a bad broker URL: exit %d, %q; want %d and the reason", code, errb.String(), exitUsage)
	}
}

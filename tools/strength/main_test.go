package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// A short match prints the score and interval for each board and in all;
// bad players are refused with exit 2.
func TestMatch(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"--a", "nodes:3000", "--b", "random", "--board", "37,61b", "--openings", "1", "--jobs", "2", "-v"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	text := out.String()
	for _, re := range []string{
		`(?m)^37 rings: nodes:3000 against random: \+2 =0 -0 of 2: 100\.0% \(95% Wilson interval 34\.2%–100\.0%\), Elo \+Inf`,
		`(?m)^61b rings: nodes:3000 against random: \+2 =0 -0 of 2`,
		`(?m)^all boards: nodes:3000 against random: \+4 =0 -0 of 4`,
		`(?m)^opening 1, a moves second: a wins \(`,
		`(?m)^37 rings: .*per turn: a [0-9.]+ ms, b [0-9.]+ ms\)$`,
	} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("output lacks %s:\n%s", re, text)
		}
	}
	for _, bad := range []string{"level:11", "dumbot:x", "nodes:-1", "chess", "kartoved:0", "kartoved:3:x", "holtz:0", "holtz:"} {
		out.Reset()
		errOut.Reset()
		if code := run([]string{"--a", bad}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), bad) {
			t.Errorf("--a %s: exit %d, %q", bad, code, errOut.String())
		}
	}
}

// The Kartoved-like and Holtz-like baselines play whole matches through
// the command.
func TestBaselinesPlay(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"--a", "kartoved:3:3000", "--b", "holtz:3000", "--board", "37", "--openings", "1"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !regexp.MustCompile(`(?m)^37 rings: kartoved:3:3000 against holtz:3000: [+]\d+ =\d+ -\d+ of 2`).MatchString(out.String()) {
		t.Errorf("output: %s", out.String())
	}
}

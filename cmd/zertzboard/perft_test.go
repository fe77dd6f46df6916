package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestPerftCommand(t *testing.T) {
	tests := []struct {
		args []string
		code int
		out  string // stdout, exactly
		err  string // a part of stderr
	}{
		{[]string{"--board", "37", "--depth", "2"}, exitOK, "depth 1: 1944\ndepth 2: 3277260\n", ""},
		{[]string{"--board", "61", "--depth", "1"}, exitOK, "depth 1: 4320\n", ""},
		{[]string{"--board", "37", "--blitz", "--depth", "1"}, exitOK, "depth 1: 1944\n", ""},
		// 032 is a 48-ring game; after 10 turns there are 40 rings, 3
		// marbles and 18 free rings: 3 colours × (37 × 18 − 18) = 1944.
		{[]string{"--from", sampleDir + "/032_Z11-ddyer-pmolz-2023-11-27-2100.sgf", "--turns", "10", "--depth", "1"}, exitOK, "depth 1: 1944\n", ""},
		{[]string{"--from", sampleDir + "/032_Z11-ddyer-pmolz-2023-11-27-2100.sgf", "--board", "37", "--turns", "1", "--depth", "1"}, exitUsage, "", "is a 48 game, not 37"},
		{[]string{"--from", sampleDir + "/032_Z11-ddyer-pmolz-2023-11-27-2100.sgf", "--turns", "999", "--depth", "1"}, exitUsage, "", "--turns 999"},
		{[]string{"--turns", "3", "--depth", "1"}, exitUsage, "", "--turns needs --from"},
		{[]string{"--board", "38", "--depth", "1"}, exitUsage, "", `unknown board "38"`},
		{[]string{"--board", "37"}, exitUsage, "", "--depth is required"},
		{[]string{"--help"}, exitOK, "", "Examples:"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(append([]string{"perft"}, tt.args...), &out, &errOut)
			if code != tt.code || out.String() != tt.out || !strings.Contains(errOut.String(), tt.err) {
				t.Errorf("perft %v: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr containing %q",
					tt.args, code, out.String(), errOut.String(), tt.code, tt.out, tt.err)
			}
		})
	}
}

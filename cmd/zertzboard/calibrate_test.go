package main

import (
	"bufio"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/rig"
	"github.com/zertzboard/zertzboard/sensors/classify"
)

func TestCalibrateSimWritesAUsableFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cal.json")
	code, stdout, stderr := runCmd("calibrate", "--sim", "--out", out)
	if code != exitOK {
		t.Fatalf("calibrate --sim = %d: %s", code, stderr)
	}
	for _, want := range []string{"step 1: take every ring off the base.", "step 2: put a ring on every socket.", "white marbles on rings", "black marbles on rings", "wrote " + out} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	cal, err := classify.Load(out, wiring.Reference().Base)
	if err != nil {
		t.Fatal(err)
	}
	if len(cal.Sockets) != 61 || cal.Bits != 12 {
		t.Errorf("calibration has %d sockets, %d bits", len(cal.Sockets), cal.Bits)
	}
	// The file drives selftest.
	if code, stdout, _ := runCmd("selftest", "--sim", "--calibration", out, "--no-led-walk"); code != exitOK || !strings.Contains(stdout, "no faults") {
		t.Errorf("selftest with the written calibration = %d:\n%s", code, stdout)
	}
}

func TestLineInputEOF(t *testing.T) {
	in := &rig.Lines{R: bufio.NewReader(strings.NewReader("\n"))}
	if err := in.Wait(); err != nil {
		t.Fatalf("first Enter: %v", err)
	}
	if err := in.Wait(); err == nil || !strings.Contains(err.Error(), "input closed") {
		t.Errorf("Wait at EOF = %v; want input closed", err)
	}
}

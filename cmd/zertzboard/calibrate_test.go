package main

import (
	"bufio"
	"os"
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
	// 61 sockets, 10 black marbles a round: the last round has one.
	for _, want := range []string{"step 1: take every ring off the base.", "step 2: put a ring on every socket.", "white marbles on rings", "black marbles on rings",
		"put 1 black marble on a ring over a socket still to measure (1 left: ", "wrote " + out} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(stdout, " 1 black marbles") || strings.Contains(stdout, " 1 white marbles") || strings.Contains(stdout, " 1 grey marbles") {
		t.Errorf("output has a singular count with a plural noun:\n%s", stdout)
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

// A calibration measured with the 12-bit MCP3208 is refused on a wiring
// with a 10-bit MCP3008: its counts mean other fields.
func TestCalibrationFromAnotherADCIsRefused(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "cal.json")
	if code, _, stderr := runCmd("calibrate", "--sim", "--frames", "10", "--out", out); code != exitOK {
		t.Fatalf("calibrate --sim = %d: %s", code, stderr)
	}
	src := strings.Replace(string(wiring.ReferenceText()), "chip = mcp3208", "chip = mcp3008", 1)
	wpath := filepath.Join(dir, "mcp3008.wiring")
	if err := os.WriteFile(wpath, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd("selftest", "--sim", "--wiring", wpath, "--calibration", out, "--no-led-walk", "--frames", "10")
	if code != exitFault || !strings.Contains(stderr, "measured with a 12-bit ADC and this wiring has a 10-bit one") {
		t.Errorf("selftest with a 12-bit calibration on an MCP3008 = %d, %q; want it refused", code, stderr)
	}
}

// Without --out, calibrate --sim writes into a new temporary directory,
// never the current one, and says where.
func TestCalibrateSimDefaultOut(t *testing.T) {
	code, stdout, stderr := runCmd("calibrate", "--sim", "--frames", "10")
	if code != exitOK {
		t.Fatalf("calibrate --sim = %d: %s", code, stderr)
	}
	i := strings.Index(stdout, "wrote ")
	if i < 0 {
		t.Fatalf("no \"wrote\" line:\n%s", stdout)
	}
	path := strings.SplitN(stdout[i+len("wrote "):], ":", 2)[0]
	defer os.RemoveAll(filepath.Dir(path))
	if !strings.HasPrefix(path, os.TempDir()) || filepath.Base(path) != "calibration.json" {
		t.Errorf("calibrate --sim wrote %q; want a file in a new directory under %s", path, os.TempDir())
	}
	if _, err := os.Stat("calibration.json"); err == nil {
		t.Error("calibrate --sim wrote calibration.json into the current directory")
	}
}

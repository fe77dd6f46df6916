package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"
)

func runCmd(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestSelftestSimHealthy(t *testing.T) {
	code, out, errs := runCmd("selftest", "--sim")
	if code != exitOK {
		t.Fatalf("selftest --sim = %d; stderr %s\nstdout %s", code, errs, out)
	}
	for _, want := range []string{
		"LED walk: 61 LEDs in chain order; the decoded chain matched the wiring order",
		"\nD4     adc0 ", // a row per socket
		"no faults",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The table's classes match the simulated position.
	for lab, class := range map[string]string{"D4": "w", "E5": "g", "F4": "b", "A1": "o"} {
		found := false
		for _, line := range strings.Split(out, "\n") {
			f := strings.Fields(line)
			if len(f) == 8 && f[0] == lab {
				found = true
				if f[7] != class {
					t.Errorf("socket %s classified %s; want %s", lab, f[7], class)
				}
			}
		}
		if !found {
			t.Errorf("no row for %s", lab)
		}
	}
}

func TestSelftestSimFaults(t *testing.T) {
	code, out, _ := runCmd("selftest", "--sim", "--sim-dead", "A3", "--sim-drift", "E5", "--no-led-walk")
	if code != exitFault {
		t.Errorf("selftest with faults = %d; want %d", code, exitFault)
	}
	for _, want := range []string{"2 fault(s):", "A3: saturated", "E5: drifting"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSelftestUsage(t *testing.T) {
	if code, _, errs := runCmd("selftest", "--help"); code != exitOK || !strings.Contains(errs, "Usage: zertzboard selftest") {
		t.Errorf("selftest --help = %d, %q", code, errs)
	}
	if code, _, _ := runCmd("selftest", "--sim-dead", "A3"); code != exitUsage {
		t.Errorf("--sim-dead without --sim = %d; want %d", code, exitUsage)
	}
	if code, _, _ := runCmd("selftest", "--sim", "--sim-dead", "Z9"); code != exitUsage {
		t.Errorf("--sim-dead Z9 = %d; want %d", code, exitUsage)
	}
	if code, _, _ := runCmd("selftest", "--bogus"); code != exitUsage {
		t.Errorf("--bogus = %d; want %d", code, exitUsage)
	}
}

// On a machine without the board's SPI bus, both commands must fail with
// a message that says what is missing and how to fix it, not panic.
func TestNoHardwareFailsClearly(t *testing.T) {
	if _, err := host.Init(); err == nil {
		if p, err := spireg.Open("SPI0.0"); err == nil {
			p.Close()
			t.Skip("this machine has SPI0.0")
		}
	}
	for _, c := range []string{"selftest", "calibrate"} {
		code, _, errs := runCmd(c, "--out", "/dev/null")
		if c == "selftest" {
			code, _, errs = runCmd(c)
		}
		if code != exitFault || !strings.Contains(errs, "not found") || !strings.Contains(errs, "--sim") {
			t.Errorf("%s without hardware = %d, %q; want exit 1, not found and --sim", c, code, errs)
		}
		// Named, the model is checked, then the bus is missing.
		code, _, errs = runCmd(c, "--pi", "4b", "--out", "/dev/null")
		if c == "selftest" {
			code, _, errs = runCmd(c, "--pi", "4b")
		}
		if code != exitFault || !strings.Contains(errs, "SPI bus SPI1.0 not found") || !strings.Contains(errs, "dtoverlay=spi1-1cs") || !strings.Contains(errs, "--sim") {
			t.Errorf("%s --pi 4b without hardware = %d, %q; want exit 1 naming SPI1.0, its overlay and --sim", c, code, errs)
		}
	}
}

func TestSelftestSimRecordsFrames(t *testing.T) {
	dir := t.TempDir()
	frames, raw, png := dir+"/s.frames.jsonl", dir+"/s.raw.jsonl", dir+"/screen.png"
	code, out, errs := runCmd("selftest", "--sim", "--no-led-walk", "--frames", "20", "--board", "37",
		"--record", frames, "--raw", raw, "--screen-png", png)
	if code != exitOK {
		t.Fatalf("selftest = %d: %s\n%s", code, errs, out)
	}
	b, err := os.ReadFile(frames)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 20 {
		t.Fatalf("%d frame lines; want 20", len(lines))
	}
	// The base's D4 (white) is the 37 board's C3, cell 11 in board order;
	// E5 (grey) is D4, cell 18; F4 (black) is E3, cell 24.
	want := []byte(strings.Repeat("o", 37))
	want[11], want[18], want[24] = 'w', 'g', 'b'
	if wantLine := `{"t":0,"cells":"` + string(want) + `"}`; lines[0] != wantLine {
		t.Errorf("first frame\n%s\nwant\n%s", lines[0], wantLine)
	}
	if st, err := os.Stat(raw); err != nil || st.Size() == 0 {
		t.Errorf("raw log: %v", err)
	}
	if st, err := os.Stat(png); err != nil || st.Size() == 0 {
		t.Errorf("screen PNG: %v", err)
	}
}

// TestSelftestWhileTheEngineThinks: selftest --sim --pi MODEL
// --engine-thinking --json reports no overrun on any Pi model while the
// engine searches beside the scan.
func TestSelftestWhileTheEngineThinks(t *testing.T) {
	for _, m := range []string{"zero", "zero2w", "3b", "4b", "5"} {
		var out, errOut bytes.Buffer
		code := run([]string{"selftest", "--sim", "--pi", m, "--engine-thinking", "--json"}, &out, &errOut)
		var got struct {
			Overruns *int `json:"overruns"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.Overruns == nil {
			t.Fatalf("%s: %v: %q %s", m, err, out.String(), errOut.String())
		}
		if code != exitOK || *got.Overruns != 0 {
			t.Errorf("%s: exit %d, %d overruns with the engine thinking: %s", m, code, *got.Overruns, out.String())
		}
	}
}

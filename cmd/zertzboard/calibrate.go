package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/zertzboard/zertzboard/config"
	"github.com/zertzboard/zertzboard/rig"
)

func init() {
	register(command{Name: "calibrate", Summary: "measure every socket's sensor bands, step by step, and write the calibration file", Run: runCalibrate})
}

// calibrateInput is where calibrate reads the operator's Enter presses;
// tests replace it.
var calibrateInput io.Reader = os.Stdin

func runCalibrate(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("calibrate", "[--sim] [--pi MODEL] [--wiring FILE] [--out FILE] [--frames N]", helpText("calibrate"), stderr)
	var rf rigFlags
	rf.register(fs, 100)
	outPath := fs.String("out", "", "calibration `file` to write (default: "+config.Defaults.Calibration+", where run reads it; with --sim, a new temporary directory)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 || rf.frames < 2 {
		fmt.Fprintln(stderr, "zertzboard calibrate: takes no arguments, and --frames must be at least 2")
		return exitUsage
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "zertzboard calibrate: %v\n", err)
		return exitFault
	}
	o, err := rf.Options()
	if err != nil {
		fmt.Fprintf(stderr, "zertzboard calibrate: %v\n", err)
		return exitUsage
	}
	r, err := openRig(o)
	if err != nil {
		return fail(err)
	}
	defer r.Close()
	var op rig.Operator = rig.Auto{}
	if r.Sim == nil {
		op = &rig.Lines{R: bufio.NewReader(calibrateInput)}
	}
	cal, err := r.Calibrate(rig.CalibrateOpts{Frames: rf.frames, Operator: op, Out: stdout})
	if err != nil {
		return fail(err)
	}
	path := *outPath
	if path == "" && rf.Sim {
		dir, err := os.MkdirTemp("", "zertzboard-calibrate-")
		if err != nil {
			return fail(err)
		}
		path = filepath.Join(dir, "calibration.json")
	} else if path == "" {
		path = config.Defaults.Calibration
	}
	if err := cal.WriteFile(path); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d sockets, %d-bit, hysteresis %d\n", path, len(cal.Sockets), cal.Bits, cal.Hysteresis)
	return exitOK
}

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
	register(command{name: "calibrate", summary: "measure every socket's sensor bands, step by step, and write the calibration file", run: runCalibrate})
}

// calibrateInput is where calibrate reads the operator's Enter presses;
// tests replace it.
var calibrateInput io.Reader = os.Stdin

const calibrateAbout = `
Measures each socket's Hall sensor with nothing on it, with a vacant ring,
and with a ring holding each marble colour, and writes the per-socket bands
that the classifier uses (format: firmware-config/README.md).

It guides you:
  1. take every ring off the base;
  2. put a ring on every socket;
  3. for white, then grey, then black: put the set's marbles (6 white,
     8 grey, 10 black) on rings, press Enter, move them to sockets not yet
     measured, and repeat until every socket is done. The sockets still to
     do are listed each time. A round counts only as many marbles as it
     asked for, the sockets that moved most: a neighbour's field cannot
     pass for a marble. The rings left vacant beside the marbles are
     measured again, so the vacant band covers that crosstalk.

Press Enter after each step. With --sim the simulator does the steps itself
and, without --out, writes into a new temporary directory, which it names.
The wiring is checked against the Pi first (see check-wiring).

Exit status: 0 when the file was written, 1 on hardware errors or when two
classes read too alike on some socket, 2 on bad flags.

Examples:
  zertzboard calibrate --out /var/lib/zertzboard/calibration.json
  zertzboard calibrate --sim --pi zero --out /tmp/calibration.json
`

func runCalibrate(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("calibrate", "[--sim] [--pi MODEL] [--wiring FILE] [--out FILE] [--frames N]", calibrateAbout, stderr)
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
	o, err := rf.options()
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
	if path == "" && rf.sim {
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

package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/zertzboard/zertzboard/analyst"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/open"
	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/rig"
	"github.com/zertzboard/zertzboard/sim"
)

func init() {
	register(command{Name: "selftest", Summary: "walk the LEDs, show every socket's live reading and class, list sensor faults", Run: runSelftest})
}

// rigFlags are the flags that selftest and calibrate share.
type rigFlags struct {
	rig.Choice
	frames int
}

func (f *rigFlags) register(fs *flag.FlagSet, frames int) {
	fs.BoolVar(&f.Sim, "sim", false, "use the simulated hardware instead of the Pi's buses")
	fs.StringVar(&f.WiringFile, "wiring", "", "wiring `file` (default: the built-in reference 61-socket wiring, firmware-config/reference-61.wiring)")
	fs.IntVar(&f.frames, "frames", frames, "scans per measurement")
	fs.StringVar(&f.Model, "pi", "", "the Raspberry Pi `model`: "+pi.Names()+" (default: this Pi; with --sim, "+sim.DefaultModel.Name+")")
	fs.IntVar(&f.BufSiz, "bufsiz", 0, "spidev's buffer size in `bytes` (cmdline.txt spidev.bufsiz; default 4096)")
}

// openRig opens the rig, and on a machine without the board's buses says
// that the simulator exists.
func openRig(o rig.Options) (*rig.Rig, error) {
	r, err := rig.Open(o)
	if errors.Is(err, open.ErrNotFound) {
		err = fmt.Errorf("%w\n(no board hardware here? run with --sim to use the simulator)", err)
	}
	return r, err
}

// selftestFlags are selftest's own flags.
type selftestFlags struct {
	rigFlags
	calibration, record, raw, board, screenPNG string
	faults                                     rig.SimFaults
	noWalk, json, thinking                     bool
}

func runSelftest(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("selftest", "[--sim] [--pi MODEL] [--json] [--engine-thinking] [--wiring FILE] [--calibration FILE] [--frames N]", helpText("selftest"), stderr)
	var f selftestFlags
	f.register(fs, 400)
	fs.StringVar(&f.calibration, "calibration", "", "calibration `file` written by zertzboard calibrate")
	fs.StringVar(&f.faults.Dead, "sim-dead", "", "with --sim, the `socket` whose sensor is dead (reads 0)")
	fs.StringVar(&f.faults.Drift, "sim-drift", "", "with --sim, the `socket` whose sensor drifts upwards")
	fs.BoolVar(&f.noWalk, "no-led-walk", false, "skip the LED walk")
	fs.StringVar(&f.record, "record", "", "write the classified frames to this frame-log `file` (*.frames.jsonl)")
	fs.StringVar(&f.raw, "raw", "", "write the raw counts to this `file` (*.raw.jsonl)")
	fs.StringVar(&f.board, "board", "61", "game `board` for --record: 37, 40, 43, 44, 48 or 61, mounted on the base as the wiring says")
	fs.StringVar(&f.screenPNG, "screen-png", "", "with --sim, save the status screen to this PNG `file`")
	fs.BoolVar(&f.json, "json", false, "print only the scan timing as one JSON object (model, rate_hz, scan_ms_mean, scan_ms_max, overruns, ioctls_per_scan)")
	fs.BoolVar(&f.thinking, "engine-thinking", false, "scan while the engine searches (level 10 on 61 rings) on its background thread, as in a game against it")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	usageErr := prog.Failer("selftest", stderr)
	if fs.NArg() > 0 || f.frames < 2 {
		return usageErr("takes no arguments, and --frames must be at least 2")
	}
	if (f.faults != rig.SimFaults{} || f.screenPNG != "") && !f.Sim {
		return usageErr("--sim-dead, --sim-drift and --screen-png need --sim")
	}
	game, err := engine.StandardBoard(f.board)
	if err != nil {
		return usageErr("--board: %s", errText(err))
	}
	o, err := f.Options()
	if err != nil {
		return usageErr("%v", err)
	}
	return selftest(&f, o, game, stdout, stderr)
}

// selftest runs the selftest the flags ask for on the rig o names and
// prints its report.
func selftest(f *selftestFlags, o rig.Options, game *engine.Board, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "zertzboard selftest: %v\n", err)
		var le *rig.LabelError
		if errors.As(err, &le) {
			return exitUsage
		}
		return exitFault
	}
	r, err := openRig(o)
	if err != nil {
		return fail(err)
	}
	defer r.Close()
	to := rig.SelftestOpts{Frames: f.frames, WalkLEDs: !f.noWalk && !f.json, Out: stdout}
	if f.json {
		to.Out = io.Discard
	}
	run := rig.SelftestRun{SelftestOpts: to, Record: f.record, Raw: f.raw, Board: game, Calibration: f.calibration, Faults: f.faults, ScreenPNG: f.screenPNG}
	if f.thinking {
		run.Busy = analyst.Busy
	}
	res, err := r.RunSelftest(run)
	if err != nil {
		return fail(err)
	}
	if f.json {
		json.NewEncoder(stdout).Encode(res.Timing())
		if res.Stats.Overruns > 0 || !res.OK() {
			return exitFault
		}
		return exitOK
	}
	res.WriteText(stdout)
	if !res.OK() {
		return exitFault
	}
	return exitOK
}

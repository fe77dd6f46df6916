package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/zertzboard/zertzboard/analyst"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
	"github.com/zertzboard/zertzboard/hardware/open"
	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/internal/background"
	"github.com/zertzboard/zertzboard/rig"
	"github.com/zertzboard/zertzboard/sensors/capture"
	"github.com/zertzboard/zertzboard/sensors/classify"
	"github.com/zertzboard/zertzboard/sim"
)

func init() {
	register(command{name: "selftest", summary: "walk the LEDs, show every socket's live reading and class, list sensor faults", run: runSelftest})
}

// exitFault is selftest's and calibrate's exit code for faulty or missing
// hardware.
const exitFault = 1

// rigFlags are the flags that selftest and calibrate share.
type rigFlags struct {
	sim    bool
	wiring string
	frames int
	pi     string
	bufsiz int
}

func (f *rigFlags) register(fs *flag.FlagSet, frames int) {
	fs.BoolVar(&f.sim, "sim", false, "use the simulated hardware instead of the Pi's buses")
	fs.StringVar(&f.wiring, "wiring", "", "wiring `file` (default: the built-in reference 61-socket wiring, firmware-config/reference-61.wiring)")
	fs.IntVar(&f.frames, "frames", frames, "scans per measurement")
	fs.StringVar(&f.pi, "pi", "", "the Raspberry Pi `model`: "+pi.Names()+" (default: this Pi; with --sim, "+sim.DefaultModel.Name+")")
	fs.IntVar(&f.bufsiz, "bufsiz", 0, "spidev's buffer size in `bytes` (cmdline.txt spidev.bufsiz; default 4096)")
}

// options turns the flags into rig options.
func (f *rigFlags) options() (rig.Options, error) {
	o := rig.Options{Sim: f.sim, Check: pi.CheckOpts{BufSiz: f.bufsiz}}
	if f.wiring != "" {
		w, err := wiring.Load(f.wiring)
		if err != nil {
			return o, err
		}
		o.Wiring = w
	}
	if f.pi != "" {
		m, err := pi.ByName(f.pi)
		if err != nil {
			return o, err
		}
		o.Model = m
		o.Timing = f.sim
	}
	return o, nil
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

func runSelftest(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("selftest", "[--sim] [--pi MODEL] [--json] [--engine-thinking] [--wiring FILE] [--calibration FILE] [--frames N]", helpText("selftest"), stderr)
	var rf rigFlags
	rf.register(fs, 400)
	calPath := fs.String("calibration", "", "calibration `file` written by zertzboard calibrate")
	dead := fs.String("sim-dead", "", "with --sim, the `socket` whose sensor is dead (reads 0)")
	drift := fs.String("sim-drift", "", "with --sim, the `socket` whose sensor drifts upwards")
	noWalk := fs.Bool("no-led-walk", false, "skip the LED walk")
	recPath := fs.String("record", "", "write the classified frames to this frame-log `file` (*.frames.jsonl)")
	rawPath := fs.String("raw", "", "write the raw counts to this `file` (*.raw.jsonl)")
	boardName := fs.String("board", "61", "game `board` for --record: 37, 40, 43, 44, 48 or 61, mounted on the base as the wiring says")
	pngPath := fs.String("screen-png", "", "with --sim, save the status screen to this PNG `file`")
	asJSON := fs.Bool("json", false, "print only the scan timing as one JSON object (model, rate_hz, scan_ms_mean, scan_ms_max, overruns, ioctls_per_scan)")
	thinking := fs.Bool("engine-thinking", false, "scan while the engine searches (level 10 on 61 rings) on its background thread, as in a game against it")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 || rf.frames < 2 {
		fmt.Fprintln(stderr, "zertzboard selftest: takes no arguments, and --frames must be at least 2")
		return exitUsage
	}
	if (*dead != "" || *drift != "" || *pngPath != "") && !rf.sim {
		fmt.Fprintln(stderr, "zertzboard selftest: --sim-dead, --sim-drift and --screen-png need --sim")
		return exitUsage
	}
	game, err := engine.StandardBoard(*boardName)
	if err != nil {
		fmt.Fprintf(stderr, "zertzboard selftest: --board: %s\n", errText(err))
		return exitUsage
	}
	o, err := rf.options()
	if err != nil {
		fmt.Fprintf(stderr, "zertzboard selftest: %v\n", err)
		return exitUsage
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "zertzboard selftest: %v\n", err)
		return exitFault
	}
	r, err := openRig(o)
	if err != nil {
		return fail(err)
	}
	defer r.Close()
	to := rig.SelftestOpts{Frames: rf.frames, WalkLEDs: !*noWalk && !*asJSON, Out: stdout}
	if *asJSON {
		to.Out = io.Discard
	}
	if *recPath != "" || *rawPath != "" {
		rec, closeFiles, err := openRecorder(r.Devices.Wiring, game, *recPath, *rawPath)
		if err != nil {
			return fail(err)
		}
		defer closeFiles()
		to.Recorder = rec
	}
	fmt.Fprintln(to.Out, r.Title())
	if *calPath != "" {
		if to.Calibration, err = classify.Load(*calPath, r.Devices.Wiring.Base); err != nil {
			return fail(err)
		}
	}
	if r.Sim != nil {
		if to.Calibration == nil {
			fmt.Fprintln(to.Out, "calibrating the simulator in memory...")
			if to.Calibration, err = r.Calibrate(rig.CalibrateOpts{Frames: rf.frames/4 + 10}); err != nil {
				return fail(err)
			}
		}
		cells := [2]engine.Cell{engine.NoCell, engine.NoCell}
		for i, label := range []string{*dead, *drift} {
			if label == "" {
				continue
			}
			if cells[i], err = r.Devices.Wiring.Base.ParseCell(label); err != nil {
				fmt.Fprintf(stderr, "zertzboard selftest: %v\n", err)
				return exitUsage
			}
		}
		r.BreakSensors(to.Calibration, cells[0], cells[1], rf.frames)
	}
	if *thinking {
		defer thinkInBackground(to.Out)()
	}
	res, err := r.Selftest(to)
	if err != nil {
		return fail(err)
	}
	if *pngPath != "" && r.Sim.Screen != nil {
		if err := r.Sim.Screen.SavePNG(*pngPath); err != nil {
			return fail(err)
		}
	}
	if *asJSON {
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

// openRecorder records the selftest's frames, mounted as game on the
// wiring's base, to the frame log at frames and the raw counts at raw ("":
// not written).
func openRecorder(w *wiring.Wiring, game *engine.Board, frames, raw string) (*capture.Recorder, func(), error) {
	m, err := w.Mount(game)
	if err != nil {
		return nil, nil, err
	}
	files := make([]io.Writer, 2)
	var opened []*os.File
	closeAll := func() {
		for _, f := range opened {
			f.Close()
		}
	}
	for i, p := range []string{frames, raw} {
		if p == "" {
			continue
		}
		f, err := os.Create(p)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		opened = append(opened, f)
		files[i] = f
	}
	if files[0] == nil {
		files[0] = io.Discard
	}
	return capture.NewRecorder(m, files[0], files[1]), closeAll, nil
}

// thinkInBackground starts the engine searching (level 10 on 61 rings) on
// its background thread, as in a game against it, and returns once the
// thread runs; the function it returns stops it.
func thinkInBackground(out io.Writer) (stop func()) {
	opp := &analyst.Opponent{}
	p := engine.NewPosition(engine.MustStandardBoard("61"), engine.Standard, 0)
	opp.Think(p, search.Options{Level: search.MaxLevel}, func(engine.Position, search.Result) {})
	for len(background.Running()) == 0 {
		runtime.Gosched() // until the search's thread has started
	}
	fmt.Fprintln(out, "the engine is thinking on its background thread while the scan is measured")
	return opp.Close
}

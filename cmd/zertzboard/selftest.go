package main

import (
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"os"
	"sort"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/clock"
	"github.com/zertzboard/zertzboard/hardware/open"
	"github.com/zertzboard/zertzboard/hardware/screen"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/sensors/classify"
	"github.com/zertzboard/zertzboard/sensors/health"
	"github.com/zertzboard/zertzboard/sensors/record"
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
}

func (f *rigFlags) register(fs *flag.FlagSet, frames int) {
	fs.BoolVar(&f.sim, "sim", false, "use the simulated hardware instead of the Pi's buses")
	fs.StringVar(&f.wiring, "wiring", "", "wiring `file` (default: the built-in reference 61-socket wiring, firmware-config/reference-61.wiring)")
	fs.IntVar(&f.frames, "frames", frames, "scans per measurement (200 a second)")
}

// rig is the open hardware, real or simulated.
type rig struct {
	*open.Rig
	hw  *sim.Hardware // nil on real hardware
	clk clock.Clock

	// Scan timing of the last measure, bus and settle time included (on
	// the simulator only the settle waits take fake time).
	scanMean, scanMax time.Duration
	overruns          int
}

// open opens the hardware, or with --sim a simulated base in the given
// state. A fake clock makes the simulation instant.
func (f *rigFlags) open(simCells string) (*rig, error) {
	w := wiring.Reference()
	if f.wiring != "" {
		var err error
		if w, err = wiring.Load(f.wiring); err != nil {
			return nil, err
		}
	}
	if !f.sim {
		buses, err := open.Host()
		if err != nil {
			return nil, err
		}
		r, err := open.Open(w, buses, nil)
		if err != nil {
			if errors.Is(err, open.ErrNotFound) {
				err = fmt.Errorf("%w\n(no board hardware here? run with --sim to use the simulator)", err)
			}
			return nil, err
		}
		return &rig{Rig: r, clk: clock.Real{}}, nil
	}
	board := sim.NewBoard(w.Base, nil)
	if simCells != "" {
		if err := board.SetCells(simCells); err != nil {
			return nil, err
		}
	}
	return openSimRig(w, board)
}

// openSimRig opens virtual hardware around board on a fake clock, so that
// scans take no real time.
func openSimRig(w *wiring.Wiring, board *sim.Board) (*rig, error) {
	hw, err := sim.New(w, board)
	if err != nil {
		return nil, err
	}
	clk := clock.NewFake(time.Unix(0, 0))
	r, err := open.Open(w, hw, &open.Opts{Clock: clk})
	if err != nil {
		return nil, err
	}
	return &rig{Rig: r, hw: hw, clk: clk}, nil
}

// measure scans frames times at the scan rate and returns each socket's
// readings, calling each (when not nil) with every frame.
func (r *rig) measure(frames int, each func(raw []uint16)) ([][]uint16, error) {
	n := r.Scanner.Len()
	out := make([][]uint16, n)
	raw := make([]uint16, n)
	var total time.Duration
	r.scanMax, r.overruns = 0, 0
	for f := 0; f < frames; f++ {
		if f > 0 {
			r.clk.Sleep(r.Scanner.Period())
		}
		t0 := r.clk.Now()
		if err := r.Scanner.ScanOnce(raw); err != nil {
			return nil, err
		}
		d := r.clk.Now().Sub(t0)
		total += d
		r.scanMax = max(r.scanMax, d)
		if d > r.Scanner.Period() {
			r.overruns++
		}
		for s, v := range raw {
			out[s] = append(out[s], v)
		}
		if each != nil {
			each(raw)
		}
	}
	r.scanMean = total / time.Duration(max(frames, 1))
	return out, nil
}

const selftestAbout = `
Checks the board's hardware: lights each socket's LED in chain order, then
scans every sensor and prints one line per socket with its wiring, its
reading (mean, min, max) and, given a calibration, its class. Sensor faults
(saturated, stuck, noisy, drifting, unreadable) are listed at the end.

With --sim it runs on the simulator: rings on every socket, a white marble
on D4, grey on E5 and black on F4, calibrated in memory unless
--calibration is given. --sim-dead and --sim-drift break a sensor to show
what a fault looks like.

Exit status: 0 when no fault is found, 1 on faults or missing hardware, 2
on bad flags.

Examples:
  zertzboard selftest --calibration /var/lib/zertzboard/calibration.json
  zertzboard selftest --sim --sim-dead A3 --sim-drift E5 --screen-png screen.png
  zertzboard selftest --sim --board 37 --record seen.frames.jsonl --raw seen.raw.jsonl
`

func runSelftest(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("selftest", "[--sim] [--wiring FILE] [--calibration FILE] [--frames N]", selftestAbout, stderr)
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
		fmt.Fprintf(stderr, "zertzboard selftest: --board: %v\n", err)
		return exitUsage
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "zertzboard selftest: %v\n", err)
		return exitFault
	}
	r, err := rf.open("")
	if err != nil {
		return fail(err)
	}
	defer r.Close()
	w := r.Wiring
	var rec *record.Recorder
	if *recPath != "" || *rawPath != "" {
		m, err := w.Mount(game)
		if err != nil {
			return fail(err)
		}
		files := make([]io.Writer, 2)
		for i, p := range []string{*recPath, *rawPath} {
			if p == "" {
				continue
			}
			f, err := os.Create(p)
			if err != nil {
				return fail(err)
			}
			defer f.Close()
			files[i] = f
		}
		frames := files[0]
		if frames == nil {
			frames = io.Discard
		}
		rec = record.NewRecorder(m, frames, files[1])
	}
	mode := "hardware"
	if r.hw != nil {
		mode = "simulator"
	}
	fmt.Fprintf(stdout, "selftest on the %s, wiring %s: %d sockets, %d ADC(s)\n", mode, w.File, w.Base.Len(), len(w.ADCs))

	var cal *classify.Calibration
	if *calPath != "" {
		if cal, err = classify.Load(*calPath, w.Base); err != nil {
			return fail(err)
		}
	} else if r.hw != nil {
		fmt.Fprintln(stdout, "calibrating the simulator in memory...")
		if cal, err = calibrate(r, rf.frames/4+10, nopInput{}, io.Discard); err != nil {
			return fail(err)
		}
	}
	if r.hw != nil {
		setupSelftestBoard(r.hw.Board)
		for _, s := range []struct {
			label string
			f     func(engine.Cell)
		}{{*dead, func(c engine.Cell) { r.hw.Board.Kill(c, 0) }}, {*drift, func(c engine.Cell) { r.hw.Board.Drift(c, 0.5) }}} {
			if s.label == "" {
				continue
			}
			c, err := w.Base.ParseCell(s.label)
			if err != nil {
				fmt.Fprintf(stderr, "zertzboard selftest: %v\n", err)
				return exitUsage
			}
			s.f(c)
		}
	}

	if r.LEDs != nil && !*noWalk {
		if err := walkLEDs(r, stdout); err != nil {
			return fail(err)
		}
	}

	// Without a calibration every reading is unreadable; health still
	// catches saturated, stuck and noisy sensors.
	c := cal
	if c == nil {
		c = &classify.Calibration{Base: w.Base, Bits: r.Bits(), Sockets: make([]classify.Bands, w.Base.Len())}
		for s := range c.Sockets {
			for k := range c.Sockets[s] {
				c.Sockets[s][k] = classify.Band{Lo: 1} // empty: Lo > Hi
			}
		}
	}
	cls := classify.New(c)
	mon := health.New(c, &health.Opts{Window: min(rf.frames, health.DefaultOpts.Window), RailMargin: health.DefaultOpts.RailMargin,
		NoiseLimit: health.DefaultOpts.NoiseLimit, DriftFraction: health.DefaultOpts.DriftFraction, UnreadableWindows: health.DefaultOpts.UnreadableWindows})
	got := make([]engine.Content, w.Base.Len())
	var recErr error
	readings, err := r.measure(rf.frames, func(raw []uint16) {
		_ = cls.Classify(got, raw)
		mon.Observe(raw, got)
		if rec != nil && recErr == nil {
			recErr = rec.Record(r.clk.Now(), raw, got)
		}
	})
	if err != nil {
		return fail(err)
	}
	if rec != nil {
		if recErr == nil {
			recErr = rec.Flush()
		}
		if recErr != nil {
			return fail(recErr)
		}
	}
	fmt.Fprintf(stdout, "scanned %d frames: scan time mean %v, max %v, period %v, overruns %d\n\n",
		rf.frames, r.scanMean, r.scanMax, r.Scanner.Period(), r.overruns)
	fmt.Fprintf(stdout, "%-6s %-6s %3s %4s %6s %6s %6s  %s\n", "socket", "adc", "ch", "mux", "mean", "min", "max", "class")
	for s := range readings {
		so := w.Sockets[s]
		mux := "-"
		if so.MuxAddr != wiring.NoMux {
			mux = fmt.Sprint(so.MuxAddr)
		}
		mean, lo, hi := stats(readings[s])
		class := "-"
		if cal != nil {
			class = string(got[s])
		}
		fmt.Fprintf(stdout, "%-6s %-6s %3d %4s %6.0f %6d %6d  %s\n", w.Base.Label(engine.Cell(s)), w.ADCs[so.ADC].Name, so.Channel, mux, mean, lo, hi, class)
	}
	faults := mon.Faults()
	if err := showSelftest(r, faults, *pngPath); err != nil {
		return fail(err)
	}
	fmt.Fprintln(stdout)
	if len(faults) == 0 {
		fmt.Fprintln(stdout, "no faults")
		return exitOK
	}
	fmt.Fprintf(stdout, "%d fault(s):\n", len(faults))
	for _, f := range faults {
		fmt.Fprintf(stdout, "  %s\n", f)
	}
	return exitFault
}

// showSelftest puts the verdict on the status screen, and with --sim
// optionally saves it as a PNG.
func showSelftest(r *rig, faults []health.Fault, pngPath string) error {
	if r.Screen == nil {
		return nil
	}
	st := screen.Status{ToMove: -1, Line: "selftest: ok"}
	if len(faults) > 0 {
		st.Line = fmt.Sprintf("selftest failed: %d", len(faults))
		for _, f := range faults {
			st.Faults = append(st.Faults, f.Label+" "+f.Kind.String())
		}
	}
	if err := r.Screen.Show(st); err != nil {
		return err
	}
	if pngPath != "" && r.hw != nil && r.hw.Screen != nil {
		return r.hw.Screen.SavePNG(pngPath)
	}
	return nil
}

// setupSelftestBoard is the simulated position selftest shows.
func setupSelftestBoard(b *sim.Board) {
	b.SetAll(engine.Vacant)
	for lab, c := range map[string]engine.Content{"D4": engine.WhiteMarble, "E5": engine.GreyMarble, "F4": engine.BlackMarble} {
		cell, _ := b.Base().ParseCell(lab)
		b.Set(cell, c)
	}
}

// walkLEDs lights each LED in chain order. On the simulator it also checks
// that the decoded chain shows exactly that LED.
func walkLEDs(r *rig, stdout io.Writer) error {
	w := r.Wiring
	step := 40 * time.Millisecond
	for i, s := range w.LEDs.Order {
		r.LEDs.SetAll(color.NRGBA{})
		r.LEDs.Set(int(s), color.NRGBA{R: 255, G: 255, B: 255, A: 255})
		if err := r.LEDs.Show(); err != nil {
			return err
		}
		if r.hw != nil {
			for j, c := range r.hw.LEDs.Colors() {
				if lit := c.R != 0; lit != (j == i) {
					return fmt.Errorf("LED walk: lighting socket %s (LED %d) lit LED %d=%t on the chain", w.Base.Label(s), i, j, lit)
				}
			}
		}
		r.clk.Sleep(step)
	}
	r.LEDs.SetAll(color.NRGBA{})
	if err := r.LEDs.Show(); err != nil {
		return err
	}
	checked := ""
	if r.hw != nil {
		checked = "; the decoded chain matched the wiring order"
	}
	fmt.Fprintf(stdout, "LED walk: %d LEDs in chain order%s\n", len(w.LEDs.Order), checked)
	return nil
}

func stats(v []uint16) (mean float64, lo, hi uint16) {
	s := append([]uint16(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	for _, x := range s {
		mean += float64(x)
	}
	return mean / float64(len(s)), s[0], s[len(s)-1]
}

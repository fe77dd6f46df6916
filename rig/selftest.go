package rig

import (
	"fmt"
	"image/color"
	"io"
	"time"

	"github.com/zertzboard/zertzboard/display"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/hardware/screen"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/sensors/capture"
	"github.com/zertzboard/zertzboard/sensors/classify"
	"github.com/zertzboard/zertzboard/sensors/health"
)

// SelftestOpts tunes Selftest.
type SelftestOpts struct {
	// Frames is the number of scans.
	Frames int
	// Calibration gives the classes; nil means none (health still finds
	// saturated, stuck and noisy sensors).
	Calibration *classify.Calibration
	// WalkLEDs lights each LED in chain order first.
	WalkLEDs bool
	// Recorder, when not nil, records every frame.
	Recorder *capture.Recorder
	// Out gets progress lines.
	Out io.Writer
}

// SelftestResult is what Selftest saw: selftest's report, printed in
// words by WriteText or as the scan timing by Timing.
type SelftestResult struct {
	// Readings has every socket's readings, base order.
	Readings [][]uint16
	// Classes are the last frame's classes; nil without a calibration.
	Classes []engine.Content
	Faults  []health.Fault
	Stats   Stats
	// Wiring and Model are the rig's: the sockets' labels, ADCs,
	// channels and mux addresses, and the Pi.
	Wiring *wiring.Wiring
	Model  *pi.Model
}

// Title is selftest's first line: what runs (hardware or simulator), on
// which Pi, and the wiring.
func (r *Rig) Title() string {
	mode := "hardware"
	if r.Sim != nil {
		mode = "simulator"
	}
	w := r.Devices.Wiring
	return fmt.Sprintf("selftest on the %s (%s), wiring %s: %d sockets, %d ADC(s)", mode, r.Report.Model.Title, w.File, w.Base.Len(), len(w.ADCs))
}

// SimFaults names the simulated sensors a selftest breaks, by socket
// label; "" breaks none.
type SimFaults struct {
	// Dead reads 0.
	Dead string
	// Drift drifts upwards, ending 95 % of the way to its class's band
	// edge after the selftest's frames, so that the last health window
	// sees the drift while it still reads its class.
	Drift string
}

// LabelError is a socket label that is not one of the base's.
type LabelError struct{ Err error }

func (e *LabelError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *LabelError) Unwrap() error { return e.Err }

// PrepareSim readies the simulator for a selftest with o: calibrated in
// memory unless o.Calibration is set (saying so on o.Out), the selftest
// position placed (PlaceSelftestPosition), and the sensors f names
// broken.
func (r *Rig) PrepareSim(o *SelftestOpts, f SimFaults) error {
	if o.Calibration == nil {
		if o.Out != nil {
			fmt.Fprintln(o.Out, "calibrating the simulator in memory...")
		}
		cal, err := r.Calibrate(CalibrateOpts{Frames: o.Frames/4 + 10})
		if err != nil {
			return err
		}
		o.Calibration = cal
	}
	r.PlaceSelftestPosition()
	b := r.Sim.Board
	for i, label := range []string{f.Dead, f.Drift} {
		if label == "" {
			continue
		}
		c, err := b.Base().ParseCell(label)
		if err != nil {
			return &LabelError{err}
		}
		if i == 0 {
			b.Kill(c, 0)
			continue
		}
		room := o.Calibration.Sockets[c][classify.Index(b.Cells()[c])].Room(true)
		b.Drift(c, 0.95*float64(room)/float64(o.Frames))
	}
	return nil
}

// PlaceSelftestPosition puts the simulator's selftest position on the
// base: rings everywhere, a white marble on D4, grey on E5, black on F4.
func (r *Rig) PlaceSelftestPosition() {
	b := r.Sim.Board
	b.SetAll(engine.Vacant)
	for lab, c := range map[string]engine.Content{"D4": engine.WhiteMarble, "E5": engine.GreyMarble, "F4": engine.BlackMarble} {
		cell, _ := b.Base().ParseCell(lab)
		b.Set(cell, c)
	}
}

// Selftest walks the LEDs, scans, classifies and watches the sensors'
// health, and shows the verdict on the screen.
func (r *Rig) Selftest(o SelftestOpts) (*SelftestResult, error) {
	if o.Out == nil {
		o.Out = io.Discard
	}
	w := r.Devices.Wiring
	res := &SelftestResult{Wiring: w, Model: r.Report.Model}
	cal := o.Calibration
	if cal != nil {
		if err := r.CheckCalibration(cal); err != nil {
			return nil, err
		}
	}
	if r.Devices.LEDs != nil && o.WalkLEDs {
		if err := r.walkLEDs(o.Out); err != nil {
			return nil, err
		}
	}
	// Without a calibration every reading is unreadable; health still
	// catches saturated, stuck and noisy sensors.
	c := cal
	if c == nil {
		c = &classify.Calibration{Base: w.Base, Bits: r.Devices.Bits(), Sockets: make([]classify.Bands, w.Base.Len())}
		for s := range c.Sockets {
			for k := range c.Sockets[s] {
				c.Sockets[s][k] = classify.Band{Lo: 1} // empty: Lo > Hi
			}
		}
	}
	cls := classify.New(c)
	ho := health.OptsFor(c.Bits)
	ho.Window = min(o.Frames, ho.Window)
	mon := health.New(c, &ho)
	got := make([]engine.Content, w.Base.Len())
	var recErr error
	readings, err := r.Measure(o.Frames, func(raw []uint16) {
		_ = cls.Classify(got, raw)
		mon.Observe(raw, got)
		if o.Recorder != nil && recErr == nil {
			recErr = o.Recorder.Record(r.Clock.Now(), raw, got)
		}
	})
	if err != nil {
		return nil, err
	}
	if o.Recorder != nil {
		if recErr == nil {
			recErr = o.Recorder.Flush()
		}
		if recErr != nil {
			return nil, recErr
		}
	}
	res.Readings, res.Faults, res.Stats = readings, mon.Faults(), r.Stats
	if cal != nil {
		res.Classes = got
	}
	if err := r.showVerdict(res.Faults); err != nil {
		return nil, err
	}
	return res, nil
}

// showVerdict puts the verdict on the status screen.
func (r *Rig) showVerdict(faults []health.Fault) error {
	if r.Devices.Screen == nil {
		return nil
	}
	st := display.Status{ToMove: -1, Line: "selftest: ok"}
	if len(faults) > 0 {
		st.Line = fmt.Sprintf("selftest failed: %d", len(faults))
		for _, f := range faults {
			st.Faults = append(st.Faults, f.Label+" "+f.Kind.String())
		}
	}
	return r.Devices.Screen.Show(display.StatusLines(st, screen.Columns))
}

// walkLEDs lights each LED in chain order. On the simulator it also checks
// that the decoded chain shows exactly that LED.
func (r *Rig) walkLEDs(out io.Writer) error {
	w := r.Devices.Wiring
	step := 40 * time.Millisecond
	for i, s := range w.LEDs.Order {
		r.Devices.LEDs.SetAll(color.NRGBA{})
		r.Devices.LEDs.Set(int(s), color.NRGBA{R: 255, G: 255, B: 255, A: 255})
		if err := r.Devices.LEDs.Show(); err != nil {
			return err
		}
		if r.Sim != nil {
			for j, c := range r.Sim.LEDs.Colors() {
				if lit := c.R != 0; lit != (j == i) {
					return fmt.Errorf("LED walk: lighting socket %s (LED %d) lit LED %d=%t on the chain", w.Base.Label(s), i, j, lit)
				}
			}
		}
		r.Clock.Sleep(step)
	}
	r.Devices.LEDs.SetAll(color.NRGBA{})
	if err := r.Devices.LEDs.Show(); err != nil {
		return err
	}
	checked := ""
	if r.Sim != nil {
		checked = "; the decoded chain matched the wiring order"
	}
	fmt.Fprintf(out, "LED walk: %d LEDs in chain order%s\n", len(w.LEDs.Order), checked)
	return nil
}

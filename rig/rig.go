// Package rig opens a board's hardware for the commands that work on it
// directly (calibrate, selftest, run, sim): the Raspberry Pi's buses, after
// the wiring is checked against the Pi model (hardware/pi), or the
// simulator on a fake clock with that model's timing. It also holds the
// calibration procedure, which guides a person (or the simulator) through
// placing the pieces, and the selftest, whose result is the report the
// selftest command prints (WriteText, and Timing for --json). Rig keeps
// the opened devices in a field of their own, Devices (package
// hardware/open), beside the simulator and the clock.
//
// Layer: rig. May import: base, game, drivers, sensors, presentation,
// config, simulator, rig.
package rig

import (
	"errors"
	"fmt"
	"time"

	"periph.io/x/conn/v3/physic"

	"github.com/zertzboard/zertzboard/hardware/open"
	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/hardware/timebase"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/sensors/classify"
	"github.com/zertzboard/zertzboard/sim"
)

// Options says what to open.
type Options struct {
	// Wiring is the wiring file; nil means the reference wiring.
	Wiring *wiring.Wiring
	// Model is the Pi. On hardware nil means the one this is
	// (/proc/device-tree/model); in simulation, sim.DefaultModel.
	Model *pi.Model
	// Check tunes the wiring check (spidev bufsiz, a fixed rate).
	Check pi.CheckOpts
	// Sim opens the simulator instead of the Pi's buses, around Board
	// (nil: an empty base with sim.DefaultBoardOpts), on a fake clock.
	Sim   bool
	Board *sim.Board
	// Timing charges the model's bus, GPIO and wake-up costs to the
	// simulator's clock, so that scans take the time they would on it.
	Timing bool
	// Seed makes the simulated latencies reproducible.
	Seed uint64
	// NoPackets: the simulated ADCs lack TxPackets, so every conversion
	// is its own ioctl (for comparison with the batched scan).
	NoPackets bool
}

// Rig is the open hardware, real or simulated.
type Rig struct {
	// Devices are the board's opened devices: the wiring, the ADCs and
	// mux, the scanner, and the LEDs, screen and buttons when wired.
	Devices *open.Rig
	// Sim is the virtual hardware; nil on a Pi.
	Sim   *sim.Hardware
	Clock timebase.Clock
	// Report is the wiring check: the Pi, the config.txt lines, the scan
	// rate chosen.
	Report *pi.Report

	timing bool
	// Stats of the last Measure.
	Stats Stats
}

// Stats is the scan timing of a Measure: bus, GPIO and settle time, and
// in simulation with Timing, the model's costs.
type Stats struct {
	Frames   int
	ScanMean time.Duration
	ScanMax  time.Duration
	Overruns int
	// LateMax is the longest from a tick to the end of its scan: the
	// wake-up latency and the scan.
	LateMax       time.Duration
	IoctlsPerScan float64
	Rate          physic.Frequency
	Period        time.Duration
}

// Open checks the wiring against the Pi model and opens it. On a Pi the
// check runs before any bus is opened: a wiring the kernel would refuse
// fails with the file and line, not with a bus error.
func Open(o Options) (*Rig, error) {
	w := o.Wiring
	if w == nil {
		w = wiring.Reference()
	}
	m := o.Model
	if m == nil {
		if o.Sim {
			m = sim.DefaultModel
		} else {
			var err error
			if m, err = pi.Detect(); err != nil {
				return nil, fmt.Errorf("%w: %w", open.ErrNotFound, err)
			}
		}
	}
	rep, err := pi.Check(w, m, &o.Check)
	if err != nil {
		return nil, err
	}
	if !o.Sim {
		buses, err := open.Host()
		if err != nil {
			return nil, err
		}
		r, err := open.Open(w, buses, &open.Opts{Rate: rep.Rate})
		if err != nil {
			return nil, err
		}
		return &Rig{Devices: r, Clock: timebase.Real{}, Report: rep}, nil
	}
	b := o.Board
	if b == nil {
		b = sim.NewBoard(w.Base, nil)
	}
	clk := timebase.NewFake(time.Unix(0, 0))
	so := &sim.Opts{Model: m, Seed: o.Seed, NoPackets: o.NoPackets}
	if o.Timing {
		so.Clock = clk
	}
	hw, err := sim.NewWith(w, b, so)
	if err != nil {
		return nil, err
	}
	r, err := open.Open(w, hw, &open.Opts{Clock: clk, Rate: rep.Rate})
	if err != nil {
		return nil, err
	}
	return &Rig{Devices: r, Sim: hw, Clock: clk, Report: rep, timing: o.Timing}, nil
}

// Close closes the devices.
func (r *Rig) Close() error { return r.Devices.Close() }

// Measure scans frames times at the scan rate, each scan starting at its
// tick (plus, in simulation with Timing, the model's wake-up latency), and
// returns each socket's readings, calling each (when not nil) with every
// frame. Stats says how long the scans took.
func (r *Rig) Measure(frames int, each func(raw []uint16)) ([][]uint16, error) {
	n := r.Devices.Scanner.Len()
	out := make([][]uint16, n)
	raw := make([]uint16, n)
	period := r.Devices.Scanner.Period()
	st := Stats{Frames: frames, Rate: r.Report.Rate, Period: period}
	var total time.Duration
	ioctls0 := 0
	if r.Sim != nil {
		ioctls0 = r.Sim.Timing.Ioctls()
	}
	start := r.Clock.Now()
	for f := 0; f < frames; f++ {
		tick := start.Add(time.Duration(f) * period)
		if now := r.Clock.Now(); now.Before(tick) {
			r.Clock.Sleep(tick.Sub(now))
		}
		if r.timing {
			r.Clock.Sleep(r.Sim.Timing.Wake())
		}
		t0 := r.Clock.Now()
		if err := r.Devices.Scanner.ScanOnce(raw); err != nil {
			return nil, err
		}
		end := r.Clock.Now()
		d := end.Sub(t0)
		total += d
		st.ScanMax = max(st.ScanMax, d)
		st.LateMax = max(st.LateMax, end.Sub(tick))
		if end.Sub(tick) > period {
			st.Overruns++
		}
		for s, v := range raw {
			out[s] = append(out[s], v)
		}
		if each != nil {
			each(raw)
		}
	}
	if frames > 0 {
		st.ScanMean = total / time.Duration(frames)
		if r.Sim != nil {
			st.IoctlsPerScan = float64(r.Sim.Timing.Ioctls()-ioctls0) / float64(frames)
		}
	}
	r.Stats = st
	return out, nil
}

// ErrCalibrationADC means a calibration was measured with an ADC of
// another resolution than the one wired.
var ErrCalibrationADC = errors.New("rig: the calibration is for another ADC")

// CheckCalibration refuses a calibration measured with another ADC: its
// counts would mean other fields.
func (r *Rig) CheckCalibration(cal *classify.Calibration) error {
	if cal.Bits != r.Devices.Bits() {
		return fmt.Errorf("%w: it was measured with a %d-bit ADC and this wiring has a %d-bit one; calibrate again", ErrCalibrationADC, cal.Bits, r.Devices.Bits())
	}
	return nil
}

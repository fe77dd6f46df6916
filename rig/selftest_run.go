package rig

import (
	"fmt"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/sensors/capture"
	"github.com/zertzboard/zertzboard/sensors/classify"
)

// SelftestRun is a whole selftest as the command asks for it: Selftest's
// options plus the files and the simulator's settings it names.
type SelftestRun struct {
	SelftestOpts
	// Record and Raw, when not "", are the frame-log and raw-count files
	// to write; Board is the game board mounted on the base for them.
	Record, Raw string
	Board       *engine.Board
	// Calibration, when not "", is the calibration file to classify with.
	Calibration string
	// Faults are the simulator's faulty sensors; ScreenPNG, when not "",
	// is where the simulator's status screen is saved after the run.
	Faults    SimFaults
	ScreenPNG string
	// Busy, when not nil, is started before the scan is measured and its
	// result called after: the engine thinking on its background thread,
	// as in a game against it.
	Busy func() (stop func())
}

// RunSelftest runs s on r: it opens the files, prints the title, loads the
// calibration, prepares the simulator, measures and saves the screen.
func (r *Rig) RunSelftest(s SelftestRun) (*SelftestResult, error) {
	o := s.SelftestOpts
	if s.Record != "" || s.Raw != "" {
		m, err := r.Devices.Wiring.Mount(s.Board)
		if err != nil {
			return nil, err
		}
		files, err := capture.Create(m, s.Record, s.Raw)
		if err != nil {
			return nil, err
		}
		defer files.Close()
		o.Recorder = files.Recorder
	}
	fmt.Fprintln(o.Out, r.Title())
	if s.Calibration != "" {
		var err error
		if o.Calibration, err = classify.Load(s.Calibration, r.Devices.Wiring.Base); err != nil {
			return nil, err
		}
	}
	if r.Sim != nil {
		if err := r.PrepareSim(&o, s.Faults); err != nil {
			return nil, err
		}
	}
	if s.Busy != nil {
		defer s.Busy()()
		fmt.Fprintln(o.Out, "the engine is thinking on its background thread while the scan is measured")
	}
	res, err := r.Selftest(o)
	if err != nil {
		return nil, err
	}
	if s.ScreenPNG != "" && r.Sim != nil && r.Sim.Screen != nil {
		if err := r.Sim.Screen.SavePNG(s.ScreenPNG); err != nil {
			return nil, err
		}
	}
	return res, nil
}

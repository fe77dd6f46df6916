// Package pipeline is the sensing half of the data path in one loop: scan
// every socket, classify, watch sensor health, project the base onto the
// game board, and optionally record. It hands each frame, in the game
// board's order and the frame-log alphabet, to the next stage (settle and
// referee), with its timestamp.
//
// Everything in the loop reuses its buffers, so a frame costs no
// allocation; only a health window that finds faults allocates their
// descriptions.
//
// Layer: sensors. May import: base, game, drivers, sensors.
package pipeline

import (
	"context"
	"fmt"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/scan"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/sensors/capture"
	"github.com/zertzboard/zertzboard/sensors/classify"
	"github.com/zertzboard/zertzboard/sensors/health"
)

// Opts configures a Pipeline.
type Opts struct {
	// Mount places the game board on the base. Required.
	Mount *wiring.Mount
	// Calibration gives the bands. Required.
	Calibration *classify.Calibration
	// Health tunes the fault checks; nil means health.DefaultOpts.
	Health *health.Opts
	// Recorder, when not nil, records every frame.
	Recorder *capture.Recorder
}

// Frame is one classified scan. Its slices are reused by the next frame.
type Frame struct {
	Seq uint64
	T   time.Time
	// Cells is the game board, in its board order, in the frame-log
	// alphabet (. o w g b ?).
	Cells []byte
	// Base is every socket's class, base order.
	Base []engine.Content
	// Raw is every socket's count, base order.
	Raw []uint16
	// Scan is the scan's duration and Overruns the missed ticks so far.
	Scan     time.Duration
	Overruns uint64
	// Faults is set when a health window closed on this frame: the current
	// faults (empty when all is well). It is nil on other frames.
	Faults []health.Fault
}

// Pipeline runs the sensing loop. It is not safe for concurrent use.
type Pipeline struct {
	s   *scan.Scanner
	o   Opts
	cls *classify.Classifier
	mon *health.Monitor
	f   Frame
	// stuck marks the sockets whose readings the health monitor found
	// stuck (not moving by one count: a dead sensor or ADC input). Their
	// cells read '?' until they move again, so the referee goes on
	// without them (package settle's dead sensors) instead of trusting
	// a reading that no longer follows the board.
	stuck []bool
}

// New checks that the scanner, calibration and mount agree on the base.
func New(s *scan.Scanner, o *Opts) (*Pipeline, error) {
	if o == nil || o.Mount == nil || o.Calibration == nil {
		return nil, fmt.Errorf("pipeline: a mount and a calibration are required")
	}
	n := s.Len()
	if len(o.Calibration.Sockets) != n || o.Mount.Base.Len() != n {
		return nil, fmt.Errorf("pipeline: the scanner reads %d sockets, the calibration has %d, the mount's base %d",
			n, len(o.Calibration.Sockets), o.Mount.Base.Len())
	}
	if o.Mount.Base != o.Calibration.Base {
		return nil, fmt.Errorf("pipeline: calibrated on a %s base, mounted on a %s base", o.Calibration.Base.Name(), o.Mount.Base.Name())
	}
	p := &Pipeline{s: s, o: *o, cls: classify.New(o.Calibration), mon: health.New(o.Calibration, o.Health)}
	p.f.Base = make([]engine.Content, n)
	p.stuck = make([]bool, n)
	p.f.Cells = make([]byte, 0, o.Mount.Game.Len())
	return p, nil
}

// Run scans until ctx is done, fn fails, or fn returns scan.ErrStop
// (which ends Run with nil).
func (p *Pipeline) Run(ctx context.Context, fn func(*Frame) error) error {
	return p.s.Run(ctx, func(sf *scan.Frame) error {
		f, err := p.Process(sf.T, sf.Raw)
		if err != nil {
			return err
		}
		f.Seq, f.Scan, f.Overruns = sf.Seq, sf.Duration, sf.Overruns
		return fn(f)
	})
}

// Process runs one frame of raw counts, scanned at t, through the
// pipeline. Run uses it; so can a replay of a raw log.
func (p *Pipeline) Process(t time.Time, raw []uint16) (*Frame, error) {
	f := &p.f
	f.T, f.Raw, f.Faults = t, raw, nil
	if err := p.cls.Classify(f.Base, raw); err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	if p.mon.Observe(raw, f.Base) {
		f.Faults = p.mon.Faults()
		if f.Faults == nil {
			f.Faults = []health.Fault{}
		}
		clear(p.stuck)
		for _, ft := range f.Faults {
			if ft.Kind&health.Stuck != 0 && int(ft.Socket) >= 0 && int(ft.Socket) < len(p.stuck) {
				p.stuck[ft.Socket] = true
			}
		}
	}
	for s, stuck := range p.stuck {
		if stuck {
			f.Base[s] = engine.Unreadable
		}
	}
	f.Cells = p.o.Mount.Project(f.Cells, f.Base)
	if p.o.Recorder != nil {
		if err := p.o.Recorder.Record(t, raw, f.Base); err != nil {
			return nil, fmt.Errorf("pipeline: %w", err)
		}
	}
	return f, nil
}

// Track lets each socket's baseline follow slow drift where the referee
// confirms the board: confirmed is the official class per base socket
// (engine.Unreadable where nothing is confirmed), applied to the frame
// last processed (classify.Classifier.Track). It does not allocate.
func (p *Pipeline) Track(confirmed []engine.Content) {
	if p.f.Raw != nil && len(confirmed) == len(p.f.Raw) {
		p.cls.Track(p.f.Raw, confirmed)
	}
}

// AdoptBaselines takes over the sensors' tracked baselines from the
// pipeline this one replaces (classify.Classifier.AdoptBaselines). Call it
// from the goroutine that runs both.
func (p *Pipeline) AdoptBaselines(from *Pipeline) { p.cls.AdoptBaselines(from.cls) }

// Flush flushes the recorder, if any.
func (p *Pipeline) Flush() error {
	if p.o.Recorder == nil {
		return nil
	}
	return p.o.Recorder.Flush()
}

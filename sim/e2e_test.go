package sim_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/open"
	"github.com/zertzboard/zertzboard/hardware/scan"
	"github.com/zertzboard/zertzboard/hardware/timebase"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/sensors/classify"
	"github.com/zertzboard/zertzboard/sensors/health"
	"github.com/zertzboard/zertzboard/sim"
)

// rig is the real driver stack over the virtual hardware of the reference
// wiring: virtual board → virtual MCP3208 → mcp3x08 driver, hc4067 driver
// on virtual select pins → scanner.
func rig(t *testing.T) (*sim.Board, *open.Rig) {
	t.Helper()
	w, err := wiring.Load("../firmware-config/reference-61.wiring")
	if err != nil {
		t.Fatal(err)
	}
	board := sim.NewBoard(w.Base, &sim.DefaultBoardOpts)
	hw, err := sim.New(w, board)
	if err != nil {
		t.Fatal(err)
	}
	r, err := open.Open(w, hw, &open.Opts{Clock: timebase.NewFake(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return board, r
}

func calibrate(t *testing.T, board *sim.Board, r *open.Rig) *classify.Calibration {
	t.Helper()
	cal, err := board.Calibrate(r.Scanner.ScanOnce, r.Bits(), 40)
	if err != nil {
		t.Fatal(err)
	}
	return cal
}

func TestEndToEndEveryClassOnEverySocket(t *testing.T) {
	board, r := rig(t)
	cal := calibrate(t, board, r)
	base := board.Base()
	n := base.Len()
	raw := make([]uint16, n)
	got := make([]engine.Content, n)
	check := func(name string, want string) {
		t.Helper()
		if err := board.SetCells(want); err != nil {
			t.Fatal(err)
		}
		cls := classify.New(cal)
		for f := 0; f < 20; f++ {
			if err := r.Scanner.ScanOnce(raw); err != nil {
				t.Fatal(err)
			}
			if err := cls.Classify(got, raw); err != nil {
				t.Fatal(err)
			}
			for s := range got {
				if got[s] != engine.Content(want[s]) {
					t.Fatalf("%s, frame %d: socket %s holds %c but classified %c (raw %d, bands %v)",
						name, f, base.Label(engine.Cell(s)), want[s], got[s], raw[s], cal.Sockets[s])
				}
			}
		}
	}
	// Five rotations put every class on every socket, each next to a mix
	// of the other classes.
	for k := 0; k < classify.NumClasses; k++ {
		var b strings.Builder
		for s := 0; s < n; s++ {
			b.WriteByte(byte(classify.Classes[(s+k)%classify.NumClasses]))
		}
		check("rotation", b.String())
	}
	// Random boards, and the worst crosstalk: a socket ringed by black.
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 20; i++ {
		var b strings.Builder
		for s := 0; s < n; s++ {
			b.WriteByte(byte(classify.Classes[rng.IntN(classify.NumClasses)]))
		}
		check("random", b.String())
	}
	e5, _ := base.ParseCell("E5")
	for _, c := range classify.Classes {
		cells := []byte(strings.Repeat(".", n))
		for _, nb := range base.Neighbours(e5) {
			cells[nb] = 'b'
		}
		cells[e5] = byte(c)
		check("ringed by black", string(cells))
	}
}

func TestEndToEndDeadAndDriftingSensors(t *testing.T) {
	board, r := rig(t)
	cal := calibrate(t, board, r)
	base := board.Base()
	n := base.Len()
	if err := board.SetCells(strings.Repeat("o", n)); err != nil {
		t.Fatal(err)
	}
	dead, _ := base.ParseCell("A3")
	drifting, _ := base.ParseCell("E5")
	noisy, _ := base.ParseCell("I2")
	board.Kill(dead, 0)
	board.Drift(drifting, 0.1) // slow, as a warming sensor: reported while still readable
	board.Noisy(noisy, 30)
	cls := classify.New(cal)
	mon := health.New(cal, nil)
	raw := make([]uint16, n)
	got := make([]engine.Content, n)
	sawDrift := -1
	for f := 0; f < 3000 && sawDrift < 0; f++ {
		if err := r.Scanner.ScanOnce(raw); err != nil {
			t.Fatal(err)
		}
		if err := cls.Classify(got, raw); err != nil {
			t.Fatal(err)
		}
		if mon.Observe(raw, got) {
			for _, fl := range mon.Faults() {
				if fl.Socket == drifting && fl.Kind == health.Drifting {
					sawDrift = f
					if got[drifting] != engine.Vacant {
						t.Errorf("drift reported only after the socket became unreadable (%c)", got[drifting])
					}
				}
			}
		}
	}
	if sawDrift < 0 {
		t.Fatal("drifting sensor E5 never reported")
	}
	faults := mon.Faults()
	kinds := map[engine.Cell]health.Kind{}
	for _, f := range faults {
		kinds[f.Socket] |= f.Kind
		t.Log(f)
	}
	if kinds[dead] != health.Saturated {
		t.Errorf("dead sensor A3 reported as %v; want saturated", kinds[dead])
	}
	if kinds[drifting] != health.Drifting {
		t.Errorf("drifting sensor E5 reported as %v; want drifting", kinds[drifting])
	}
	if kinds[noisy]&health.Noisy == 0 {
		t.Errorf("noisy sensor I2 reported as %v; want noisy", kinds[noisy])
	}
	if len(kinds) != 3 {
		t.Errorf("faults on healthy sockets: %v", faults)
	}
}

// The scan loop over the real stack: each scan pays the 16 mux settle
// times (10 µs each in the reference wiring) on the injected clock.
func TestEndToEndScanLoop(t *testing.T) {
	w, err := wiring.Load("../firmware-config/reference-61.wiring")
	if err != nil {
		t.Fatal(err)
	}
	board := sim.NewBoard(w.Base, nil)
	board.SetAll(engine.Vacant)
	hw, err := sim.New(w, board)
	if err != nil {
		t.Fatal(err)
	}
	clk := timebase.NewFake(time.Unix(0, 0))
	r, err := open.Open(w, hw, &open.Opts{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frames := make(chan scan.Frame, 1)
	done := make(chan error, 1)
	go func() {
		done <- r.Scanner.Run(ctx, func(f *scan.Frame) error {
			frames <- *f
			if f.Seq == 9 {
				return scan.ErrStop
			}
			return nil
		})
	}()
	// Advance one period at a time and wait for its scan before the next,
	// so the fake clock never moves during a scan (the scan's own settle
	// waits move it, which is what the duration measures). The first
	// advance may come before the scanner's ticker exists: then try again.
	var got []scan.Frame
	for len(got) < 10 {
		clk.Advance(r.Scanner.Period())
		select {
		case f := <-frames:
			got = append(got, f)
		case <-time.After(200 * time.Millisecond):
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, f := range got {
		if f.Duration != 16*10*time.Microsecond || f.Overruns != 0 {
			t.Errorf("frame %d: duration %v, overruns %d; want 160µs, 0", f.Seq, f.Duration, f.Overruns)
		}
	}
	// A scan starts at its tick or, when the previous scan's settle waits
	// moved the fake clock past it, that much later.
	if d := got[1].T.Sub(got[0].T); d < 5*time.Millisecond || d > 5*time.Millisecond+got[0].Duration {
		t.Errorf("frames %v apart; want 5ms (+ at most one scan, %v)", d, got[0].Duration)
	}
}

package rig

import (
	"bufio"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/sensors/classify"
	"github.com/zertzboard/zertzboard/sim"
)

func openSim(t testing.TB, o *sim.BoardOpts, model string, timing bool) *Rig {
	t.Helper()
	w := wiring.Reference()
	m, err := pi.ByName(model)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(Options{Wiring: w, Sim: true, Board: sim.NewBoard(w.Base, o), Model: m, Timing: timing})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestCalibrateStrongNeighbours: with neighbours' fields leaking in at 3 %,
// a vacant ring beside two black marbles moves by about 63 counts, past the
// old 10 σ / 1.5 % "marble" threshold. Calibration must still take only
// the placed marbles as marbles: every black band sits at a black reading,
// and the board reads back correctly with marbles side by side.
func TestCalibrateStrongNeighbours(t *testing.T) {
	o := sim.DefaultBoardOpts
	o.Crosstalk = 0.02
	o.Noise, o.Spread = 1, 20
	r := openSim(t, &o, "4b", false)
	cal, err := r.Calibrate(CalibrateOpts{Frames: 20})
	if err != nil {
		t.Fatal(err)
	}
	b := r.Sim.Board
	for s := range cal.Sockets {
		bl := cal.Sockets[s][classify.Index(engine.BlackMarble)]
		if math.Abs(float64(bl.Ref)-sim.DefaultLevels[4]) > 150 {
			t.Errorf("socket %s: black reference %d; want near %.0f (a neighbour taken for a marble?)", cal.Base.Label(engine.Cell(s)), bl.Ref, sim.DefaultLevels[4])
		}
	}
	// A line of mixed marbles with vacant rings between and beside.
	b.SetAll(engine.Vacant)
	want := make([]engine.Content, cal.Base.Len())
	for i := range want {
		want[i] = engine.Vacant
	}
	for i, lab := range []string{"D4", "D5", "E5", "C3"} {
		c, _ := cal.Base.ParseCell(lab)
		m := []engine.Content{engine.BlackMarble, engine.WhiteMarble, engine.GreyMarble, engine.BlackMarble}[i]
		b.Set(c, m)
		want[c] = m
	}
	cls := classify.New(cal)
	raw := make([]uint16, cal.Base.Len())
	got := make([]engine.Content, cal.Base.Len())
	for f := 0; f < 5; f++ {
		if err := r.Devices.Scanner.ScanOnce(raw); err != nil {
			t.Fatal(err)
		}
		if err := cls.Classify(got, raw); err != nil {
			t.Fatal(err)
		}
	}
	for s := range want {
		if got[s] != want[s] {
			t.Errorf("socket %s reads %c; want %c", cal.Base.Label(engine.Cell(s)), got[s], want[s])
		}
	}
}

func TestCheckCalibrationRefusesAnotherADC(t *testing.T) {
	r := openSim(t, nil, "4b", false)
	cal := &classify.Calibration{Base: r.Devices.Wiring.Base, Bits: 10}
	if err := r.CheckCalibration(cal); !errors.Is(err, ErrCalibrationADC) || !strings.Contains(err.Error(), "10-bit") || !strings.Contains(err.Error(), "12-bit") {
		t.Errorf("CheckCalibration(10-bit) on a 12-bit wiring = %v; want ErrCalibrationADC naming both", err)
	}
	cal.Bits = 12
	if err := r.CheckCalibration(cal); err != nil {
		t.Errorf("CheckCalibration(12-bit) = %v", err)
	}
}

// TestMeasureOnEachModel: the reference wiring at the rate the check chose
// never overruns on any model, in 16 ioctls a scan.
func TestMeasureOnEachModel(t *testing.T) {
	for _, m := range pi.Models {
		t.Run(m.Name, func(t *testing.T) {
			r := openSim(t, nil, m.Name, true)
			if _, err := r.Measure(200, nil); err != nil {
				t.Fatal(err)
			}
			st := r.Stats
			if st.Overruns != 0 || st.IoctlsPerScan != 16 || st.Rate < 100 {
				t.Errorf("%s: %+v; want no overruns, 16 ioctls a scan, at least 100 Hz", m.Name, st)
			}
			if st.ScanMean <= 0 || st.ScanMean > st.Period/2 {
				t.Errorf("%s: scan %s for a %s period", m.Name, st.ScanMean, st.Period)
			}
		})
	}
}

func TestLinesEOF(t *testing.T) {
	in := &Lines{R: bufio.NewReader(strings.NewReader("\n"))}
	if err := in.Wait(); err != nil {
		t.Fatalf("first Enter: %v", err)
	}
	if err := in.Wait(); err == nil || !strings.Contains(err.Error(), "input closed") {
		t.Errorf("Wait at EOF = %v; want input closed", err)
	}
}

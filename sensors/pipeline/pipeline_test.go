package pipeline_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/open"
	"github.com/zertzboard/zertzboard/hardware/scan"
	"github.com/zertzboard/zertzboard/hardware/timebase"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/sensors/capture"
	"github.com/zertzboard/zertzboard/sensors/classify"
	"github.com/zertzboard/zertzboard/sensors/health"
	"github.com/zertzboard/zertzboard/sensors/pipeline"
	"github.com/zertzboard/zertzboard/sim"
)

// setup opens the reference wiring on the simulator and calibrates it.
func setup(t testing.TB) (*sim.Board, *open.Rig, *timebase.Fake, *classify.Calibration) {
	w := wiring.Reference()
	board := sim.NewBoard(w.Base, nil)
	hw, err := sim.New(w, board)
	if err != nil {
		t.Fatal(err)
	}
	clk := timebase.NewFake(time.Unix(0, 0))
	r, err := open.Open(w, hw, &open.Opts{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	cal, err := board.Calibrate(r.Scanner.ScanOnce, r.Bits(), 30)
	if err != nil {
		t.Fatal(err)
	}
	return board, r, clk, cal
}

func TestPipelineRun(t *testing.T) {
	board, r, clk, cal := setup(t)
	defer r.Close()
	game := engine.MustStandardBoard("37")
	m, err := r.Wiring.Mount(game)
	if err != nil {
		t.Fatal(err)
	}
	// Rings on the 37 board's cells, a black marble on its D4.
	board.SetAll(engine.NoRing)
	d4, _ := game.ParseCell("D4")
	for c, s := range m.Sockets {
		board.Set(s, engine.Vacant)
		if engine.Cell(c) == d4 {
			board.Set(s, engine.BlackMarble)
		}
	}
	var log bytes.Buffer
	p, err := pipeline.New(r.Scanner, &pipeline.Opts{Mount: m, Calibration: cal, Health: &health.Opts{Window: 5, RailMargin: 8, NoiseLimit: 24, DriftFraction: 0.6, UnreadableWindows: 3}, Recorder: capture.NewRecorder(m, &log, nil)})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Repeat("o", int(d4)) + "b" + strings.Repeat("o", game.Len()-int(d4)-1)
	frames := make(chan string, 1)
	faults := make(chan []health.Fault, 10)
	done := make(chan error, 1)
	go func() {
		done <- p.Run(context.Background(), func(f *pipeline.Frame) error {
			if f.Faults != nil {
				faults <- f.Faults
			}
			frames <- string(f.Cells)
			if f.Seq == 9 {
				return scan.ErrStop
			}
			return nil
		})
	}()
	n := 0
	for n < 10 {
		clk.Advance(time.Millisecond)
		select {
		case got := <-frames:
			n++
			if got != want {
				t.Errorf("frame %d cells %q; want %q", n, got, want)
			}
		case <-time.After(time.Millisecond):
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(faults) != 2 {
		t.Errorf("%d health windows closed in 10 frames of 5; want 2", len(faults))
	}
	for len(faults) > 0 {
		if f := <-faults; len(f) != 0 {
			t.Errorf("faults on a healthy board: %v", f)
		}
	}
	if err := p.Flush(); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(log.String(), "\n"); lines != 10 {
		t.Errorf("recorded %d frames; want 10", lines)
	}
}

func TestNewRejectsMismatches(t *testing.T) {
	_, r, _, cal := setup(t)
	defer r.Close()
	m, _ := r.Wiring.Mount(engine.MustStandardBoard("37"))
	if _, err := pipeline.New(r.Scanner, &pipeline.Opts{Mount: m}); err == nil {
		t.Error("no calibration: want an error")
	}
	small := &classify.Calibration{Base: cal.Base, Bits: 12, Sockets: cal.Sockets[:37]}
	if _, err := pipeline.New(r.Scanner, &pipeline.Opts{Mount: m, Calibration: small}); err == nil {
		t.Error("a 37-socket calibration for 61 sockets: want an error")
	}
}

// BenchmarkProcess61 is the per-frame cost above the scan: classify,
// health, projection onto the game board.
func BenchmarkProcess61(b *testing.B) {
	board, r, _, cal := setup(b)
	defer r.Close()
	board.SetAll(engine.Vacant)
	m, _ := r.Wiring.Mount(engine.MustStandardBoard("61"))
	p, err := pipeline.New(r.Scanner, &pipeline.Opts{Mount: m, Calibration: cal})
	if err != nil {
		b.Fatal(err)
	}
	raw := make([]uint16, 61)
	if err := r.Scanner.ScanOnce(raw); err != nil {
		b.Fatal(err)
	}
	t0 := time.Unix(0, 0)
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		k++
		raw[k%61] ^= 1
		if _, err := p.Process(t0, raw); err != nil {
			b.Fatal(err)
		}
	}
}

// A socket whose reading stops moving (a dead sensor or ADC input) reads
// '?' once the health monitor finds it stuck, so the referee goes on
// without it; it reads again as soon as it moves.
func TestStuckSocketReadsUnknown(t *testing.T) {
	board, r, _, cal := setup(t)
	defer r.Close()
	board.SetAll(engine.Vacant)
	game := engine.MustStandardBoard("61")
	m, _ := r.Wiring.Mount(game)
	p, err := pipeline.New(r.Scanner, &pipeline.Opts{Mount: m, Calibration: cal, Health: &health.Opts{Window: 5, RailMargin: 8, NoiseLimit: 24, DriftFraction: 0.6, UnreadableWindows: 3, StuckWindows: 2}})
	if err != nil {
		t.Fatal(err)
	}
	d4, _ := game.ParseCell("D4")
	sock := m.Sockets[d4]
	raw := make([]uint16, game.Len())
	t0 := time.Unix(0, 0)
	var cells string
	frozen := -1
	for i := 0; i < 40; i++ {
		if err := r.Scanner.ScanOnce(raw); err != nil {
			t.Fatal(err)
		}
		if frozen < 0 {
			frozen = int(raw[sock])
		}
		raw[sock] = uint16(frozen) // stuck at its first reading
		f, err := p.Process(t0.Add(time.Duration(i)*5*time.Millisecond), raw)
		if err != nil {
			t.Fatal(err)
		}
		cells = string(f.Cells)
	}
	if cells[d4] != '?' || strings.Count(cells, "?") != 1 {
		t.Fatalf("a stuck D4 reads %q; want '?' there and nowhere else", cells[d4])
	}
	for i := 40; i < 60; i++ {
		if err := r.Scanner.ScanOnce(raw); err != nil {
			t.Fatal(err)
		}
		f, err := p.Process(t0.Add(time.Duration(i)*5*time.Millisecond), raw)
		if err != nil {
			t.Fatal(err)
		}
		cells = string(f.Cells)
	}
	if strings.Contains(cells, "?") {
		t.Errorf("D4 moving again still reads %q", cells)
	}
}

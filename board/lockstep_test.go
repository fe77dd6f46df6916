package board

import (
	"context"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/buttons"
	"github.com/zertzboard/zertzboard/hardware/open"
	"github.com/zertzboard/zertzboard/hardware/timebase"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/sim"
	"github.com/zertzboard/zertzboard/sim/players"
	"github.com/zertzboard/zertzboard/wire"
)

// TestLockstepGame runs a board on the lockstep clock: a participant plays
// a real 48-ring game onto the virtual base, frame by frame at the
// generator's times, then presses new game on the buttons. Every frame
// the referee takes is one scan period after the one before (no scan is
// skipped or doubled, whatever the machine's load), the game is refereed
// into the record, the press is read by the buttons in lockstep, and the
// LEDs were drawn by the loop and are dark after it.
func TestLockstepGame(t *testing.T) {
	rec, err := record.ReadFile(samples.Path("032_Z11-ddyer-pmolz-2023-11-27-2100.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	w := wiring.Reference()
	board := sim.NewBoard(w.Base, nil)
	hw, err := sim.New(w, board)
	if err != nil {
		t.Fatal(err)
	}
	ls := timebase.NewLockstep(time.Unix(0, 0))
	rig, err := open.Open(w, hw, &open.Opts{Clock: ls})
	if err != nil {
		t.Fatal(err)
	}
	defer rig.Close()
	cal := calibrateSim(t, rig, board)
	start, _ := rec.Start()
	m, err := w.Mount(start.Board())
	if err != nil {
		t.Fatal(err)
	}
	place := func(cells []byte) {
		for c, s := range m.Sockets {
			if cells[c] != '?' {
				board.Set(s, engine.Content(cells[c]))
			}
		}
	}
	board.SetAll(engine.NoRing)
	place([]byte(start.Cells()))

	period := rig.Scanner.Period().Milliseconds()
	var frames, badGaps int
	last := int64(-1)
	var pressed []buttons.Event
	n, err := New(Options{BoardID: "t", Variant: rec.Variant, First: rec.First, Rig: rig, Calibration: cal, Lockstep: ls,
		OnFrame: func(ms int64, _ []byte) {
			if last >= 0 && ms-last != period {
				badGaps++
			}
			last = ms
			frames++
		},
		OnButton: func(e buttons.Event) { pressed = append(pressed, e) }})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var played error
	var ended wire.State
	ls.Go(func(p *timebase.Participant) {
		defer cancel()
		opt := players.DefaultOptions
		opt.Seed = 2
		t0 := p.Now()
		_, played = players.Play(start, rec.Turns, opt, func(ms int64, cells []byte) error {
			if err := p.Sleep(t0.Add(time.Duration(ms) * time.Millisecond).Sub(p.Now())); err != nil {
				return err
			}
			place(cells)
			return nil
		})
		if played != nil {
			return
		}
		ended = n.Controller().State()
		// New game, held down until the buttons have seen it.
		pin := hw.Pin(w.Buttons.NewGame)
		pin.Out(gpio.Low)
		for len(pressed) == 0 {
			if played = p.Next(); played != nil {
				return
			}
		}
		pin.Out(gpio.High)
	})
	if err := n.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if played != nil {
		t.Fatal(played)
	}
	if frames == 0 || badGaps != 0 {
		t.Errorf("%d frames, %d not one scan period (%d ms) after the one before", frames, badGaps, period)
	}
	if ended.Turn != len(rec.Turns) || ended.Phase != "over" {
		t.Fatalf("refereed %d turns of %d; phase %s; moves %v", ended.Turn, len(rec.Turns), ended.Phase, ended.Moves)
	}
	st := n.Controller().State()
	if len(pressed) != 1 || pressed[0].Button != buttons.NewGame {
		t.Fatalf("presses %v; want one new game", pressed)
	}
	// The press started a new game.
	if st.Turn != 0 || st.Seq == 0 {
		t.Errorf("after the new-game press: turn %d, seq %d", st.Turn, st.Seq)
	}
	ledsShownThenDark(t, hw)
}

// BenchmarkLockstepScan is one scan period of a board on the lockstep
// clock with a participant that waits for every step (the simulated
// players' cheapest turn): the players stepped, the virtual base read
// through the drivers, classified, refereed, the buttons read. ns/op is
// the wall time one scan period of virtual time costs; x-realtime is how
// many times faster than the wall clock a board at 200 Hz runs.
func BenchmarkLockstepScan(b *testing.B) {
	w := wiring.Reference()
	board := sim.NewBoard(w.Base, nil)
	hw, err := sim.New(w, board)
	if err != nil {
		b.Fatal(err)
	}
	ls := timebase.NewLockstep(time.Unix(0, 0))
	rig, err := open.Open(w, hw, &open.Opts{Clock: ls})
	if err != nil {
		b.Fatal(err)
	}
	defer rig.Close()
	cal, err := board.Calibrate(rig.Scanner.ScanOnce, rig.Bits(), 40)
	if err != nil {
		b.Fatal(err)
	}
	m, err := w.Mount(engine.MustStandardBoard("37"))
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range m.Sockets {
		board.Set(s, engine.Vacant)
	}
	n, err := New(Options{BoardID: "b", Variant: "37", Rig: rig, Calibration: cal, Lockstep: ls})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	steps := b.N
	ls.Go(func(p *timebase.Participant) {
		defer cancel()
		for i := 0; i < steps; i++ {
			if p.Next() != nil {
				return
			}
		}
	})
	b.ResetTimer()
	start := time.Now()
	if err := n.Run(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(time.Duration(b.N)*rig.Scanner.Period())/float64(time.Since(start)), "x-realtime")
}

package board

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/hardware/scan"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// stallPub blocks the goroutine that publishes, once armed, until
// released: what an fsync of the journal on a busy SD card (hundreds of
// ms) or a stuck network write does to the goroutine that commits.
type stallPub struct {
	mu      sync.Mutex
	armed   bool
	stalled chan struct{} // closed when the stall begins
	release chan struct{}
}

func (p *stallPub) stall() {
	p.mu.Lock()
	armed := p.armed
	p.armed = false
	p.mu.Unlock()
	if armed {
		close(p.stalled)
		<-p.release
	}
}
func (p *stallPub) State(wire.State)      { p.stall() }
func (p *stallPub) Move(wire.MoveMessage) { p.stall() }
func (p *stallPub) Event(referee.Event)   { p.stall() }
func (p *stallPub) Record([]byte)         {}

// TestStallCostsNoScan: while the referee's goroutine is stuck for an SD
// card's fsync stall (the Pi timing model's 500 ms on a Zero: 100 scans
// at 200 Hz) in what follows a commit (journal fsync, MQTT), the scan
// goroutine scans every tick, with no overrun; once the stall ends, the
// referee catches up on every frame, in order.
func TestStallCostsNoScan(t *testing.T) {
	// No buttons: their poll ticker would share the scan's period.
	src := string(wiring.ReferenceText())
	src = src[:strings.Index(src, "[buttons]")] + src[strings.Index(src, "[mount]"):]
	w, err := wiring.Parse("nobuttons.wiring", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	hw, rig, clk, cal := simRig(t, w)
	board := hw.Board
	m, err := w.Mount(engine.MustStandardBoard("37"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range m.Sockets {
		board.Set(s, engine.Vacant)
	}
	p := &stallPub{stalled: make(chan struct{}), release: make(chan struct{})}
	var mu sync.Mutex
	var refereed []int64
	n, err := New(Options{BoardID: "s", Variant: "37", Rig: rig, Calibration: cal, Publisher: p,
		OnFrame: func(ms int64, _ []byte) { mu.Lock(); refereed = append(refereed, ms); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	scans := make(chan *scan.Frame, 1)
	n.onScan = func(f *scan.Frame) { scans <- &scan.Frame{Seq: f.Seq, T: f.T, Overruns: f.Overruns} }
	p.mu.Lock()
	p.armed = true
	p.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	clk.WaitTicker(rig.Scanner.Period())
	guard := time.After(10 * time.Second) // a deadlock guard, not a timing
	// next moves the clock to the next tick (a scan's own bus and settle
	// time counts towards it) and waits for that scan.
	tick := clk.Now().Add(rig.Scanner.Period())
	next := func() *scan.Frame {
		clk.Advance(tick.Sub(clk.Now()))
		tick = tick.Add(rig.Scanner.Period())
		select {
		case f := <-scans:
			return f
		case err := <-done:
			t.Fatalf("Run returned %v", err)
		case <-guard:
			buf := make([]byte, 1<<20)
			t.Log(string(buf[:runtime.Stack(buf, true)]))
			t.Fatal("no scan: the scan goroutine is blocked")
		}
		return nil
	}
	// The empty 37 board held still past the settle time confirms every
	// game socket's class to the sensors' baseline tracking.
	for i := 0; i < 40; i++ {
		next()
	}
	waitFrames := func(k int) {
		for {
			mu.Lock()
			got := len(refereed)
			mu.Unlock()
			if got >= k {
				return
			}
			next()
		}
	}
	waitFrames(40)
	c := n.confirmed.Load()
	if c == nil {
		t.Fatal("a still board in the official position is not confirmed")
	}
	confirmedVacant := 0
	for _, k := range *c {
		if k == engine.Vacant {
			confirmedVacant++
		}
	}
	if confirmedVacant != 37 {
		t.Errorf("%d sockets confirmed vacant; want the 37 board's 37", confirmedVacant)
	}
	// A white marble on the centre: after the settle time the referee
	// publishes the pending turn, and the publisher stalls.
	d4, _ := w.Base.ParseCell("D4")
	board.Set(d4, engine.WhiteMarble)
	for stalled := false; !stalled; {
		next()
		select {
		case <-p.stalled:
			stalled = true
		default:
		}
	}
	zero, err := pi.ByName("zero")
	if err != nil {
		t.Fatal(err)
	}
	stall := int(zero.Timing.FsyncStall / rig.Scanner.Period())
	if stall != 100 {
		t.Fatalf("the stall is %d scans; want 100", stall)
	}
	before := next()
	var last *scan.Frame
	for i := 0; i < stall; i++ {
		last = next()
	}
	if last.Overruns != before.Overruns {
		t.Errorf("%d overruns during the stall; want 0", last.Overruns-before.Overruns)
	}
	close(p.release)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n.confirmed.Load() != nil {
		t.Error("a board with a marble the referee has not committed is still confirmed")
	}
	mu.Lock()
	defer mu.Unlock()
	if got, want := len(refereed), int(last.Seq)+1; got != want {
		t.Errorf("the referee saw %d frames; the scan made %d", got, want)
	}
	for i := 1; i < len(refereed); i++ {
		if refereed[i] < refereed[i-1] {
			t.Fatalf("frame %d at %d ms after one at %d ms", i, refereed[i], refereed[i-1])
		}
	}
}

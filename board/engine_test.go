package board

import (
	"context"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/controller"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/buttons"
	"github.com/zertzboard/zertzboard/hardware/scan"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/internal/background"
	"github.com/zertzboard/zertzboard/wire"
)

// TestScanGoesOnWhileTheEngineThinks: the engine moves first on 61 rings
// at level 10 (seconds of search); meanwhile every scan is taken and
// refereed: the search holds nothing the scan or the referee need, and
// runs on its background thread.
func TestScanGoesOnWhileTheEngineThinks(t *testing.T) {
	w := wiring.Reference()
	_, rig, clk, cal := simRig(t, w)
	var refereed atomic.Int64
	n, err := New(Options{BoardID: "e", Variant: "61", First: 0, Rig: rig, Calibration: cal,
		Play:    &controller.Play{Engine: 0, Level: 10},
		OnFrame: func(int64, []byte) { refereed.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if st := n.Controller().State(); st.Play == nil || !st.Play.Thinking {
		t.Fatalf("the engine is not thinking on its first turn: %+v", st.Play)
	}
	scans := make(chan uint64, 1)
	n.onScan = func(f *scan.Frame) { scans <- f.Seq }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	defer func() { cancel(); <-done }()
	clk.WaitTicker(rig.Scanner.Period())
	// next moves the fake clock on until the next scan has been taken: a
	// scan's own bus time moves the clock too, so it keeps stepping
	// rather than aim at one tick.
	next := func() {
		for {
			clk.Advance(rig.Scanner.Period() / 4)
			for i := 0; i < 64; i++ {
				select {
				case <-scans:
					return
				case err := <-done:
					t.Fatalf("Run returned %v", err)
				default:
					runtime.Gosched()
				}
			}
		}
	}
	const scansWanted = 200
	for i := 0; i < scansWanted; i++ {
		next()
	}
	for refereed.Load() < scansWanted-1 {
		next()
	}
	// The search's thread enters background work once it runs, which a
	// busy machine may delay: scan on until it has, while the engine
	// still thinks.
	for scans := scansWanted; ; scans++ {
		st := n.Controller().State()
		if st.Play == nil || !st.Play.Thinking {
			if len(background.Running()) == 0 {
				t.Fatalf("the engine's search ended after %d scans without being counted as background work", scans)
			}
			t.Fatalf("the engine finished its level-10 search within %d scans; the test shows nothing", scans)
		}
		if len(background.Running()) > 0 {
			return
		}
		next()
	}
}

// statePub hands every published state to a channel.
type statePub struct {
	pub
	states chan wire.State
}

func (p *statePub) State(s wire.State) {
	select {
	case p.states <- s:
	default:
	}
}

// TestHintButton: against the engine, confirm (nothing to confirm) asks
// for a hint: the engine's suggestion for the person, lit.
func TestHintButton(t *testing.T) {
	w := wiring.Reference()
	_, rig, _, cal := simRig(t, w)
	p := &statePub{states: make(chan wire.State, 64)}
	n, err := New(Options{BoardID: "h", Variant: "37", First: 0, Rig: rig, Calibration: cal, Publisher: p,
		Play: &controller.Play{Engine: 1, Level: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	n.button(buttons.Event{Button: buttons.Confirm, T: time.Unix(0, 0)})
	var hint string
	for hint == "" {
		if s := <-p.states; s.Play != nil {
			hint = s.Play.Hint
		}
	}
	b := n.Controller().Board()
	turn, err := engine.ParseTurn(b, hint)
	if err != nil || !engine.NewPosition(b, engine.Standard, 0).Legal(turn) {
		t.Fatalf("hint %q is not a legal first turn: %v", hint, err)
	}
	if st := n.Controller().State(); !strings.HasPrefix(st.Status, "Hint: "+hint) {
		t.Errorf("status %q; want the hint", st.Status)
	}
}

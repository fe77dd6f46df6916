package analyst

import (
	"sync"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/wire"
)

const diagram5 = "37 w.oo/o.ooo/.ooooo/.oooooo/o.gooo/ooooo/oooo 1,3,9 2,0,0 2,4,1 0"

type calls struct {
	mu  sync.Mutex
	got []wire.Analysis
	pos []engine.Position
	ch  chan struct{}
}

func (c *calls) done(p engine.Position, a wire.Analysis) {
	c.mu.Lock()
	c.got = append(c.got, a)
	c.pos = append(c.pos, p)
	c.mu.Unlock()
	c.ch <- struct{}{}
}

// TestNextPositionCancels: a search that cannot finish (eight turns deep
// from the start, no budget to speak of) is cancelled by the next
// position and never reported; the next one is.
func TestNextPositionCancels(t *testing.T) {
	c := &calls{ch: make(chan struct{}, 4)}
	a := New(Options{MaxTurns: 8, Budget: time.Hour}, c.done)
	start := engine.NewPosition(engine.MustStandardBoard("37"), engine.Standard, 0)
	a.Analyze(start)
	d5, err := engine.ParsePosition(diagram5)
	if err != nil {
		t.Fatal(err)
	}
	a.Analyze(d5)
	<-c.ch
	a.Close()
	if len(c.got) != 1 || !c.pos[0].Equal(d5) {
		t.Fatalf("%d analyses reported; want only diagram 5's", len(c.got))
	}
	w := c.got[0].ForcedWin
	if w == nil || w.Player != 0 || w.Turns != 2 || !c.got[0].Complete || c.got[0].MaxTurns != 8 {
		t.Errorf("diagram 5: %+v; want a forced win for player 0 in 2", c.got[0])
	}
}

// TestBudgetReported: a search stopped by its bound is still reported,
// incomplete, with the depth it finished.
func TestBudgetReported(t *testing.T) {
	c := &calls{ch: make(chan struct{}, 4)}
	a := New(Options{MaxTurns: 3, Budget: time.Hour, MaxNodes: 3000}, c.done)
	defer a.Close()
	a.Analyze(engine.NewPosition(engine.MustStandardBoard("37"), engine.Standard, 0))
	<-c.ch
	got := c.got[0]
	if got.ForcedWin != nil || got.Complete || got.Depth != 2 || got.MaxTurns != 3 || got.Nodes < 3000 {
		t.Errorf("bounded search: %+v; want no win, incomplete, depth 2 of 3", got)
	}
}

func TestDefaultsAndOver(t *testing.T) {
	a := New(Options{}, func(engine.Position, wire.Analysis) { t.Error("a finished game was analysed") })
	if a.Options() != DefaultOptions {
		t.Errorf("Options() = %+v; want the defaults %+v", a.Options(), DefaultOptions)
	}
	p, err := engine.ParsePosition("37 ..../...../....../..wg.../..o.../...../.... 5,7,10 0,0,0 0,0,0 1")
	if err != nil {
		t.Fatal(err)
	}
	turn, _ := engine.ParseTurn(p.Board(), "BE3")
	a.Analyze(p.MustPlay(turn))
	a.Close()
	a.Analyze(p) // after Close: ignored
}

// TestEvaluation: the engine's evaluation comes with the analysis: a
// proven win gives its player 1, a position without one two chances that
// add up to 1 and a legal best turn; off, neither.
func TestEvaluation(t *testing.T) {
	d5, err := engine.ParsePosition(diagram5)
	if err != nil {
		t.Fatal(err)
	}
	start := engine.NewPosition(engine.MustStandardBoard("37"), engine.Standard, 1)
	for _, c := range []struct {
		p     engine.Position
		level int
		check func(a wire.Analysis) bool
	}{
		{d5, 0, func(a wire.Analysis) bool {
			return a.WinProb != nil && *a.WinProb == [2]float64{1, 0} && a.BestTurn == "BE4-D2"
		}},
		{start, 2, func(a wire.Analysis) bool {
			if a.WinProb == nil || a.EvalDepth < 1 {
				return false
			}
			wp := *a.WinProb
			turn, err := engine.ParseTurn(start.Board(), a.BestTurn)
			return err == nil && start.Legal(turn) && wp[0] > 0 && wp[1] > 0 && wp[0]+wp[1] > 0.999 && wp[0]+wp[1] < 1.001
		}},
		{start, -1, func(a wire.Analysis) bool { return a.WinProb == nil && a.BestTurn == "" }},
	} {
		calls := &calls{ch: make(chan struct{}, 1)}
		a := New(Options{Budget: time.Hour, EvalLevel: c.level}, calls.done)
		a.Analyze(c.p)
		<-calls.ch
		a.Close()
		if got := calls.got[0]; !c.check(got) {
			t.Errorf("%s, level %d: win_prob %v, best turn %q, depth %d", c.p, c.level, got.WinProb, got.BestTurn, got.EvalDepth)
		}
	}
}

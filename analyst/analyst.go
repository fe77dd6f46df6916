// Package analyst runs the forced-win search (engine/solve) on the live
// game, then the engine's search (engine/search) for an evaluation (each
// player's chance to win) and the best turn: each new position on its own
// goroutine, cancelled as soon as the next position is committed, so the
// frame loop never waits for it. Both searches share the position's
// budget. On Linux they run on a thread of the lowest priority, so they
// never take a core from the frame loop either.
//
// Layer: services. May import: base, game, services.
package analyst

import (
	"context"
	"sync"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
	"github.com/zertzboard/zertzboard/engine/solve"
	"github.com/zertzboard/zertzboard/wire"
)

// Options set up the analysis.
type Options struct {
	// MaxTurns is K: look for wins within so many of the mover's own
	// turns (1 to solve.MaxTurns; 0 means DefaultOptions').
	MaxTurns int
	// Budget bounds one position's search (0 means DefaultOptions').
	Budget time.Duration
	// MaxNodes, if not 0, bounds it too: the same on every machine.
	MaxNodes int64
	// EvalLevel is the engine search's level (1 to search.MaxLevel, a
	// node budget) for the evaluation and the best turn; 0 means
	// DefaultOptions', negative turns the evaluation off (the forced-win
	// search still runs). It stops at Budget too, whichever comes first.
	EvalLevel int
	// InTournament analyses tournament games too. Off, a game in
	// tournament mode (the players must not see the analysis) is not
	// analysed, whatever mode a resumed journal brings.
	InTournament bool
}

// DefaultOptions: within 2 own turns (a few ms at the 95th percentile of
// the sample games' positions on a desktop core, under 100 ms at worst;
// see the solve benchmarks), and up to 1 s for positions that need it.
//
// The evaluation at level 5 (100,000 nodes) takes some 40 ms on a desktop
// core (BenchmarkSearch in engine/search) and stops at the budget on a
// slower Pi.
var DefaultOptions = Options{MaxTurns: 2, Budget: time.Second, EvalLevel: 5}

// Analyst searches one position at a time.
type Analyst struct {
	opt    Options
	done   func(p engine.Position, a wire.Analysis)
	mu     sync.Mutex
	cancel context.CancelFunc
	closed bool
	wg     sync.WaitGroup
}

// New makes an analyst that calls done with each finished analysis, from
// its own goroutine. done is not called for a search that was cancelled.
func New(opt Options, done func(p engine.Position, a wire.Analysis)) *Analyst {
	if opt.MaxTurns <= 0 {
		opt.MaxTurns = DefaultOptions.MaxTurns
	}
	opt.MaxTurns = min(opt.MaxTurns, solve.MaxTurns)
	if opt.Budget <= 0 {
		opt.Budget = DefaultOptions.Budget
	}
	if opt.EvalLevel == 0 {
		opt.EvalLevel = DefaultOptions.EvalLevel
	}
	opt.EvalLevel = min(opt.EvalLevel, search.MaxLevel)
	return &Analyst{opt: opt, done: done}
}

// Options returns the options in use.
func (a *Analyst) Options() Options { return a.opt }

// Analyze cancels the search under way, if any, and starts one on p. It
// returns at once. A finished game is not searched.
func (a *Analyst) Analyze(p engine.Position) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cancel != nil {
		a.cancel()
		a.cancel = nil
	}
	if a.closed || p.Result().Over {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), a.opt.Budget)
	a.cancel = cancel
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		defer cancel()
		defer backgroundWork()()
		t0 := time.Now()
		res := solve.Solve(ctx, p, solve.Options{MaxTurns: a.opt.MaxTurns, MaxNodes: a.opt.MaxNodes})
		an := wire.Analysis{Report: res.Report(p.Board(), time.Since(t0).Milliseconds()), MaxTurns: a.opt.MaxTurns, Depth: res.Depth}
		if a.opt.EvalLevel > 0 {
			evaluate(ctx, p, res, a.opt.EvalLevel, &an)
		}
		// A search cut short by the next position is of no use; one cut
		// short by its budget still says how deep it got.
		if ctx.Err() == context.Canceled {
			return
		}
		a.done(p, an)
	}()
}

// Close cancels the search under way and waits for its goroutine. Call it
// without holding any lock that done takes.
func (a *Analyst) Close() {
	a.mu.Lock()
	a.closed = true
	if a.cancel != nil {
		a.cancel()
		a.cancel = nil
	}
	a.mu.Unlock()
	a.wg.Wait()
}

// evaluate fills in the evaluation: from a proven forced win when there is
// one, else from the engine's search within what is left of the budget.
// A search that did not finish one depth says nothing.
func evaluate(ctx context.Context, p engine.Position, res solve.Result, level int, an *wire.Analysis) {
	b := p.Board()
	if w := res.Win; w != nil {
		var wp [2]float64
		wp[w.Player] = 1
		an.WinProb, an.BestTurn, an.EvalDepth = &wp, engine.FormatTurn(b, w.Line[0]), len(w.Line)
		return
	}
	r := search.Search(ctx, p, search.Options{Level: level, SolveTurns: -1})
	if r.Depth < 1 || r.Move.Kind == 0 {
		return
	}
	me := p.ToMove()
	var wp [2]float64
	wp[me] = r.WinProb
	wp[1-me] = float64(1000-search.WinPermille(r.Score)) / 1000
	an.WinProb, an.BestTurn, an.EvalDepth, an.EvalScore = &wp, engine.FormatTurn(b, r.Move), r.Depth, r.Score
}

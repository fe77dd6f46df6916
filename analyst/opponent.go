package analyst

import (
	"context"
	"sync"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
)

// Opponent searches the engine's turns (and hints) for play against the
// engine on the board: one search at a time, each on its own OS thread at
// the lowest priority (nice 19 on Linux), so the scan and the referee
// never wait for it or lose a core to it. It holds no lock while it
// searches, and calls done without any of its own.
type Opponent struct {
	mu     sync.Mutex
	cancel context.CancelFunc
	closed bool
	wg     sync.WaitGroup
}

// Think cancels the search under way, if any, and searches p with opt on
// its own goroutine; done gets the result unless the search was
// cancelled (by the next Think, Stop or Close). A finished game is not
// searched. With a node budget (a level) the search is deterministic: the
// same position, level and seed give the same turn on every machine.
func (o *Opponent) Think(p engine.Position, opt search.Options, done func(p engine.Position, r search.Result)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.stop()
	if o.closed || p.Result().Over {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	o.cancel = cancel
	o.wg.Add(1)
	go func() {
		defer o.wg.Done()
		defer cancel()
		defer backgroundWork()()
		r := search.Search(ctx, p, opt)
		if ctx.Err() != nil || r.Move.Kind == 0 {
			return
		}
		done(p, r)
	}()
}

// Stop cancels the search under way, if any.
func (o *Opponent) Stop() {
	o.mu.Lock()
	o.stop()
	o.mu.Unlock()
}

func (o *Opponent) stop() {
	if o.cancel != nil {
		o.cancel()
		o.cancel = nil
	}
}

// Close cancels the search under way and waits for its goroutine. Call it
// without holding any lock that done takes.
func (o *Opponent) Close() {
	o.mu.Lock()
	o.closed = true
	o.stop()
	o.mu.Unlock()
	o.wg.Wait()
}

package table

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/zertzboard/zertzboard/board"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/sim/players"
)

// play moves the pieces as the players' generator (sim/players) says. A
// board the generator holds for the referee to see (twice the settle time
// or more) is held until the scan has seen it settled; the pace in
// between follows the wall clock, scaled by the speed, restarted after
// each such wait, so a slow machine stretches the game but never skips
// what must be seen.
func (t *Table) play(ctx context.Context, m *wiring.Mount, from engine.Position, turns []engine.Turn, seed uint64) error {
	opt := PlayerOptions(seed, t.speed, t.settleMS, t.stallEvery)
	base := t.playedBase
	opt.Begin = func(i int) { t.begun.Store(int64(base + i + 1)) }
	if t.vs != nil {
		// Claimed rings come off with their turn: the engine's hand
		// starts from the official board.
		opt.Lag = 0
	}
	h := t.hands
	start := h.Now()
	last, lastAt, prevMS := "", int64(0), int64(-1)
	_, err := players.Play(from, turns, opt, func(ms int64, cells []byte) error {
		if gap := ms - prevMS; t.stallEvery > 0 && t.hw != nil && prevMS >= 0 && gap > opt.ScanMS {
			// The generator dropped the frames of a stall: the board's
			// scan stalls as long, from when the stall began, while the
			// hands go on (the scan then misses what they did).
			if err := h.Sleep(ctx, start.Add(t.wall(prevMS)).Sub(h.Now())); err != nil {
				return err
			}
			t.hw.Timing.Stall(t.wall(gap), t.virtual)
		}
		prevMS = ms
		if string(cells) == last {
			return nil
		}
		if err := h.Sleep(ctx, start.Add(t.wall(ms)).Sub(h.Now())); err != nil {
			return err
		}
		waited, err := t.awaitTable(ctx)
		if err != nil {
			return err
		}
		start = start.Add(waited)
		if ms-lastAt >= 2*opt.SettleMS-opt.ScanMS && last != "" && strings.IndexByte(last, '?') < 0 {
			// The board the generator held: wait until the referee saw it.
			if err := t.seen.await(ctx, h, last, t.settleMS, t.stepTimeout()); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				t.log.Warn("the scan did not see a board the players held; going on", "err", err)
			}
			start = h.Now().Add(-t.wall(ms))
		}
		last, lastAt = string(cells), ms
		t.place(m, cells)
		return nil
	})
	return err
}

// PlayerOptions is how the simulated players move the pieces at a speed:
// the generator's options (sim/players), its time running speed times
// faster than the wall clock (wall ms = generator ms / speed), every
// board meant to be seen held for the settle time in wall time, and the
// scan stalling about every stallEvery of wall time (0: never).
func PlayerOptions(seed uint64, speed float64, settleMS int64, stallEvery time.Duration) players.Options {
	opt := players.DefaultOptions
	opt.Seed, opt.Speed = seed, speed
	opt.SettleMS = int64(float64(settleMS) * speed)
	opt.HopMS = int64(float64(referee.DefaultHopMS) * speed)
	if stallEvery > 0 {
		// In wall-clock time, as a starved Pi stalls: the generator's
		// time runs speed times faster.
		opt.Stalls = float64(opt.ScanMS) / (float64(stallEvery.Milliseconds()) * speed)
		opt.StallMS = int64(600 * speed)
	}
	return opt
}

// awaitTable keeps the players' hands off the board while the arbiter has
// paused the game, as players at a table do, and stops them when the
// game has ended off the board. The pause does not count against the
// generator's pace: the hands go on where they stopped.
func (t *Table) awaitTable(ctx context.Context) (waited time.Duration, err error) {
	if t.arbiter == nil {
		return 0, nil
	}
	paused, over := t.arbiter()
	if over {
		return 0, errEndedOffBoard
	}
	if !paused {
		return 0, nil
	}
	t.log.Info("the arbiter paused the game; the players wait")
	from := t.hands.Now()
	for paused && !over {
		if err := t.hands.Frame(ctx, 50*time.Millisecond); err != nil {
			return t.hands.Now().Sub(from), err
		}
		paused, over = t.arbiter()
	}
	if over {
		return t.hands.Now().Sub(from), errEndedOffBoard
	}
	t.log.Info("the game resumes")
	return t.hands.Now().Sub(from), nil
}

// wall is the wall-clock time of generator time ms.
func (t *Table) wall(ms int64) time.Duration {
	return time.Duration(float64(ms) * float64(time.Millisecond) / t.speed)
}

// awaitEnd waits until the referee has committed the whole game.
func (t *Table) awaitEnd(ctx context.Context, n *board.Node, turns int) error {
	deadline := t.hands.Now().Add(t.stepTimeout() + 10*time.Second)
	for t.hands.Now().Before(deadline) {
		// The whole game, or an end off the board (a flag fall, the
		// arbiter) before it; and no question left that the players
		// mean to answer (e.g. the colour of the last turn's marble).
		st := n.Controller().State()
		q, asking := n.Controller().Asking()
		if asking && (t.hw == nil || int64(q.ID) == t.leftOpen.Load()) {
			asking = false // nobody to answer it, or the players leave it open
		}
		if (st.Turn >= turns || st.Phase == engine.PhaseOver) && !asking {
			t.log.Info("the game is over; stopping", "turns", st.Turn, "result", st.Result)
			return nil
		}
		if err := t.hands.Frame(ctx, 50*time.Millisecond); err != nil {
			return err
		}
	}
	if q, asking := n.Controller().Asking(); asking {
		return fmt.Errorf("the referee saw %d turns of %d, and asks %q", n.Controller().State().Turn, turns, q.Text)
	}
	return fmt.Errorf("the referee saw %d turns of %d", n.Controller().State().Turn, turns)
}

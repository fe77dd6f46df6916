package table

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	timebase "github.com/zertzboard/zertzboard/hardware/timebase"
	"github.com/zertzboard/zertzboard/settle"
)

// hands is the simulated players' time, for the goroutine that holds it:
// the wall clock (wallHands), or a participant of the lockstep clock
// (stepHands: sim --virtual), on which the board's scan loop steps the
// players between its scans.
type hands interface {
	Now() time.Time
	// Sleep waits d (not at all for d ≤ 0), or until ctx is done.
	Sleep(ctx context.Context, d time.Duration) error
	// Frame waits until the scan has taken another frame, at most d.
	Frame(ctx context.Context, d time.Duration) error
	// Go runs f on a goroutine of its own, with hands of its own.
	Go(f func(hands))
}

// wallHands is the wall clock: the players keep a human pace in real
// time while the board scans on its own.
type wallHands struct{ seen *frameWatch }

func (wallHands) Now() time.Time                                     { return time.Now() }
func (wallHands) Sleep(ctx context.Context, d time.Duration) error   { return sleepCtx(ctx, d) }
func (h wallHands) Frame(ctx context.Context, d time.Duration) error { return h.seen.wait(ctx, d) }
func (h wallHands) Go(f func(hands))                                 { go f(h) }

// stepHands is a participant of the lockstep clock: its waits end at one
// of the scan loop's steps, and while it acts nothing else runs.
type stepHands struct{ p *timebase.Participant }

func (h stepHands) Now() time.Time { return h.p.Now() }

func (h stepHands) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	return stepped(ctx, h.p.Sleep(d))
}

// Frame waits for the next step: the scan loop has referee'd the frame
// before it.
func (h stepHands) Frame(ctx context.Context, _ time.Duration) error {
	return stepped(ctx, h.p.Next())
}

func (h stepHands) Go(f func(hands)) {
	h.p.Go(func(q *timebase.Participant) { f(stepHands{q}) })
}

// stepped is a lockstep wait's outcome for the players: a closed clock
// (the board stopped) ends them as a cancelled ctx does.
func stepped(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if errors.Is(err, timebase.ErrClosed) {
		return context.Canceled
	}
	return err
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// frameWatch follows the frames the scan classifies (the board's
// OnFrame), so the simulated players can wait until a board has been seen
// settled.
type frameWatch struct {
	mu    sync.Mutex
	cells []byte
	since int64 // scan time the frames first showed cells
	last  int64 // scan time of the latest frame
	prev  int64 // scan time of the frame before it
	n     int   // frames that showed cells
	tick  chan struct{}
}

func newFrameWatch() *frameWatch { return &frameWatch{tick: make(chan struct{}, 1)} }

// frame is board.Options.OnFrame: it runs on the scan goroutine, before the
// controller sees the frame, and must be quick.
func (w *frameWatch) frame(ms int64, cells []byte) {
	w.mu.Lock()
	if string(cells) != string(w.cells) {
		w.cells = append(w.cells[:0], cells...)
		w.since, w.n = ms, 0
	}
	w.prev, w.last = w.last, ms
	w.n++
	w.mu.Unlock()
	select {
	case w.tick <- struct{}{}:
	default:
	}
}

// settled reports whether the scan has shown cells long enough for the
// settle stage to count them (the settle time and settle.MinScans frames,
// the stage's own rule) and one frame more, so the controller has
// refereed the frame that settled them.
func (w *frameWatch) settled(cells string, settleMS int64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.cells) == cells && w.n > settle.MinScans && w.prev-w.since >= settleMS
}

// await waits until the scan has shown cells settled (see settled), or
// until the timeout passes.
func (w *frameWatch) await(ctx context.Context, h hands, cells string, settleMS int64, timeout time.Duration) error {
	deadline := h.Now().Add(timeout)
	for !w.settled(cells, settleMS) {
		left := deadline.Sub(h.Now())
		if left <= 0 {
			return fmt.Errorf("the board was not seen settled within %s", timeout)
		}
		if err := h.Frame(ctx, min(left, 100*time.Millisecond)); err != nil {
			return err
		}
	}
	return nil
}

// wait returns at the next frame, after d, or when ctx is done.
func (w *frameWatch) wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-w.tick:
	case <-t.C:
	}
	return nil
}

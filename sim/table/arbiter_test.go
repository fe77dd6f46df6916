package table

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
)

// TestPlayersHonourTheArbiter: while the arbiter has paused the game the
// simulated players keep their hands off the board, and a game ended off
// the board stops them.
func TestPlayersHonourTheArbiter(t *testing.T) {
	var paused, over atomic.Bool
	asked := make(chan struct{}, 64)
	seen := newFrameWatch()
	p := &Table{log: slog.New(slog.DiscardHandler), seen: seen, hands: wallHands{seen}, arbiter: func() (bool, bool) {
		select {
		case asked <- struct{}{}:
		default:
		}
		return paused.Load(), over.Load()
	}}
	ctx := context.Background()

	if _, err := p.awaitTable(ctx); err != nil {
		t.Fatalf("a game on: %v", err)
	}
	<-asked

	// Paused: awaitTable must not return until the arbiter resumes.
	paused.Store(true)
	done := make(chan error, 1)
	go func() {
		_, err := p.awaitTable(ctx)
		done <- err
	}()
	for i := 0; i < 3; i++ { // the players look at the table three times and still wait
		select {
		case <-asked:
		case err := <-done:
			t.Fatalf("the players went on while paused (err %v)", err)
		}
	}
	paused.Store(false)
	p.seen.frame(1, []byte("o")) // a frame wakes them
	if err := <-done; err != nil {
		t.Fatalf("after resume: %v", err)
	}

	// Paused, then the arbiter declares a result: the players stop.
	paused.Store(true)
	go func() {
		_, err := p.awaitTable(ctx)
		done <- err
	}()
	<-asked
	over.Store(true)
	p.seen.frame(2, []byte("o"))
	if err := <-done; !errors.Is(err, errEndedOffBoard) {
		t.Fatalf("a game ended during a pause: %v; want errEndedOffBoard", err)
	}
	paused.Store(false)
	if _, err := p.awaitTable(ctx); !errors.Is(err, errEndedOffBoard) {
		t.Fatalf("a game ended off the board: %v; want errEndedOffBoard", err)
	}

	// Cancelled while paused: the context's error.
	paused.Store(true)
	over.Store(false)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := p.awaitTable(cctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

package broker

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// drained publishes n messages from a board, waits until the broker has
// taken them all, closes the broker and returns how many a connected
// viewer received. The viewer is slower than the board, so its write queue
// is sized for the whole burst: with the default limit (64) the broker
// rightly disconnects a viewer that falls that far behind, which is a
// different test (TestStuckSubscriberDisconnected).
func drained(t *testing.T, drain time.Duration, n int) int64 {
	b := startBroker(t, Config{DrainTimeout: drain, Limits: Limits{MaxQueued: 2 * n, MaxInflight: uint16(2 * n)}})
	url := "tcp://" + b.TCPAddr()
	viewer := mustConnect(t, url, "tv", "tv-secret")
	var got atomic.Int64
	all := make(chan struct{}) // closed at the n-th message
	tok := viewer.Subscribe("zertz/b1/state", 1, func(_ paho.Client, m paho.Message) {
		time.Sleep(200 * time.Microsecond) // a viewer slower than the board
		if got.Add(1) == int64(n) {
			close(all)
		}
	})
	if !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	board := mustConnect(t, url, "board1", "board-secret")
	payload := strings.Repeat("x", 2000)
	for i := 0; i < n; i++ {
		if tok := board.Publish("zertz/b1/state", 1, false, fmt.Sprint(i, payload)); !tok.WaitTimeout(wait) || tok.Error() != nil {
			t.Fatalf("publish %d: %v", i, tok.Error())
		}
	}
	roundTrip(t, board)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	// Whatever reached the viewer's socket is read by now or never.
	select {
	case <-all:
	case <-time.After(wait):
	}
	return got.Load()
}

// TestCloseDrainsToSubscribers: messages the broker accepted before Close
// reach a connected subscriber, even a slow one (the board's last state
// and record at the end of a game).
func TestCloseDrainsToSubscribers(t *testing.T) {
	const n = 200
	if got := drained(t, DefaultDrainTimeout, n); got != n {
		t.Errorf("the viewer received %d of %d messages before Close", got, n)
	}
}

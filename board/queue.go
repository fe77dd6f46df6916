package board

import (
	"bytes"
	"sync"
	"time"

	"github.com/zertzboard/zertzboard/sensors/health"
)

// queueFrames is how many frames the referee may fall behind the scan
// before frames are dropped: 5 s at 200 Hz, longer than any SD card's
// fsync stall (firmware-config/README.md, "Pi timing model").
const queueFrames = 1024

// queued is one scanned frame waiting for the referee.
type queued struct {
	ms     int64
	gen    uint64 // the node's mount generation when scanned
	t      time.Time
	cells  []byte
	faults []health.Fault // nil unless the faults changed on this frame
}

// frameQueue hands frames from the scan goroutine to the referee
// goroutine, which journals (fsync) and publishes. Push never blocks and,
// once the ring's buffers have grown to the board, never allocates; so a
// journal or network stall costs the scan nothing.
type frameQueue struct {
	mu      sync.Mutex
	ring    []queued
	head, n int
	dropped uint64
	ready   chan struct{}
}

func newFrameQueue(size, cells int) *frameQueue {
	q := &frameQueue{ring: make([]queued, size), ready: make(chan struct{}, 1)}
	for i := range q.ring {
		q.ring[i].cells = make([]byte, 0, cells)
	}
	return q
}

// push queues a copy of cells. When the ring is full, a frame equal to
// the newest queued one is dropped (the board held still, and the
// referee will see it still at the next change); otherwise the oldest is.
func (q *frameQueue) push(ms int64, gen uint64, t time.Time, cells []byte, faults []health.Fault) {
	q.mu.Lock()
	if q.n == len(q.ring) {
		newest := &q.ring[(q.head+q.n-1)%len(q.ring)]
		q.dropped++
		if faults == nil && bytes.Equal(newest.cells, cells) {
			q.mu.Unlock()
			q.poke()
			return
		}
		q.head = (q.head + 1) % len(q.ring)
		q.n--
	}
	e := &q.ring[(q.head+q.n)%len(q.ring)]
	e.ms, e.gen, e.t, e.faults = ms, gen, t, faults
	e.cells = append(e.cells[:0], cells...)
	q.n++
	q.mu.Unlock()
	q.poke()
}

func (q *frameQueue) poke() {
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// pop hands the oldest frame to fn, outside the lock, and reports false
// when the queue is empty. fn must not keep e.cells.
func (q *frameQueue) pop(fn func(e queued)) bool {
	q.mu.Lock()
	if q.n == 0 {
		q.mu.Unlock()
		return false
	}
	i := q.head
	e := q.ring[i]
	// The slot lends its buffer to fn; a push into the slot meanwhile (a
	// full ring) gets a new one.
	q.ring[i].cells = nil
	q.head = (q.head + 1) % len(q.ring)
	q.n--
	q.mu.Unlock()
	fn(e)
	q.mu.Lock()
	if q.ring[i].cells == nil {
		q.ring[i].cells = e.cells[:0]
	}
	q.mu.Unlock()
	return true
}

// Dropped counts frames dropped because the referee fell behind.
func (q *frameQueue) Dropped() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.dropped
}

// Package timebase is the time source of the hardware layer: real on the Pi,
// a manual fake in tests and the simulator.
//
// Drivers take a Clock instead of calling time.Sleep or time.NewTicker, so
// that tests run instantly and deterministically (the idea of tailscale's
// tstime).
//
// Layer: drivers. May import: base, game, drivers.
package timebase

import (
	"runtime"
	"sync"
	"time"
)

// Clock tells the time, waits and ticks.
type Clock interface {
	Now() time.Time
	// Sleep blocks for d. Drivers use it for settle times of microseconds.
	Sleep(d time.Duration)
	// NewTicker is time.NewTicker.
	NewTicker(d time.Duration) Ticker
}

// Ticker is the part of time.Ticker that we use.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// Real is the wall clock.
type Real struct{}

// Now is time.Now.
func (Real) Now() time.Time { return time.Now() }

// spinBelow is the longest wait that Real.Sleep spins for instead of
// sleeping. time.Sleep on Linux oversleeps short waits by 50 µs or more
// (timer slack and scheduling), which would turn the 16 mux settle waits
// of 10 µs in a scan into over a millisecond.
const spinBelow = 200 * time.Microsecond

// Sleep waits for d: by spinning, yielding to other goroutines, when d is
// a few microseconds, and with time.Sleep otherwise.
func (Real) Sleep(d time.Duration) {
	if d >= spinBelow {
		time.Sleep(d)
		return
	}
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		runtime.Gosched()
	}
}

// NewTicker is time.NewTicker.
func (Real) NewTicker(d time.Duration) Ticker { return realTicker{time.NewTicker(d)} }

type realTicker struct{ t *time.Ticker }

func (r realTicker) C() <-chan time.Time { return r.t.C }
func (r realTicker) Stop()               { r.t.Stop() }

// Fake is a manual clock. Time only moves with Advance or Sleep, so a test
// decides exactly when a ticker fires. It is safe for concurrent use.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	tickers []*fakeTicker
	slept   time.Duration
	added   chan struct{} // closed and replaced when a ticker is made
}

// NewFake returns a fake clock set to start.
func NewFake(start time.Time) *Fake { return &Fake{now: start, added: make(chan struct{})} }

// WaitTicker blocks until a running ticker of period d exists, so that a
// test advances the clock only once the loop it drives is waiting on it.
func (f *Fake) WaitTicker(d time.Duration) {
	for {
		f.mu.Lock()
		for _, t := range f.tickers {
			if t.period == d && !t.stopped {
				f.mu.Unlock()
				return
			}
		}
		added := f.added
		f.mu.Unlock()
		<-added
	}
}

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Sleep advances the fake time by d without blocking, firing tickers on the
// way, and adds d to Slept.
func (f *Fake) Sleep(d time.Duration) {
	f.mu.Lock()
	f.slept += d
	f.mu.Unlock()
	f.Advance(d)
}

// Slept is the total time passed to Sleep.
func (f *Fake) Slept() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.slept
}

// Advance moves the time forward by d and fires every ticker whose period
// has elapsed. Like time.Ticker, a ticker whose reader is behind drops ticks.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
	for _, t := range f.tickers {
		if t.stopped {
			continue
		}
		for !t.next.After(f.now) {
			select {
			case t.c <- t.next:
			default:
			}
			t.next = t.next.Add(t.period)
		}
	}
}

// Tick moves the time forward by d like Advance, but hands each tick due
// to its ticker's reader rather than dropping it: it waits until the
// reader has room for the tick, that is until the reader took the tick
// before it. A test that drives a loop with Tick therefore knows the loop
// took every tick but the last, with no sleep and no poll. Tick returns
// early, dropping the rest, for a ticker that is stopped meanwhile.
func (f *Fake) Tick(d time.Duration) {
	type due struct {
		t  *fakeTicker
		at time.Time
	}
	var send []due
	f.mu.Lock()
	f.now = f.now.Add(d)
	for _, t := range f.tickers {
		for !t.stopped && !t.next.After(f.now) {
			send = append(send, due{t, t.next})
			t.next = t.next.Add(t.period)
		}
	}
	f.mu.Unlock()
	for _, s := range send {
		select {
		case s.t.c <- s.at:
		case <-s.t.stop:
		}
	}
}

// NewTicker returns a ticker that fires when Advance passes its period.
func (f *Fake) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic("clock: non-positive ticker period")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &fakeTicker{f: f, c: make(chan time.Time, 1), stop: make(chan struct{}), period: d, next: f.now.Add(d)}
	f.tickers = append(f.tickers, t)
	if f.added != nil {
		close(f.added)
	}
	f.added = make(chan struct{})
	return t
}

type fakeTicker struct {
	f       *Fake
	c       chan time.Time
	stop    chan struct{} // closed by Stop, for Tick
	period  time.Duration
	next    time.Time
	stopped bool
}

func (t *fakeTicker) C() <-chan time.Time { return t.c }

func (t *fakeTicker) Stop() {
	t.f.mu.Lock()
	defer t.f.mu.Unlock()
	if !t.stopped {
		close(t.stop)
	}
	t.stopped = true
}

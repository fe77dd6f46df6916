package timebase

import (
	"errors"
	"sync"
	"time"
)

// Lockstep is virtual time for a whole simulated system, as fast as the
// CPU allows and the same on every run.
//
// One goroutine, the driver, moves the time forward with Step (the
// simulated board's scan loop, once per scan). The goroutines that take
// part (Participants, e.g. the simulated players) run one at a time, each
// from the moment Step wakes it until it waits on the clock again (Sleep
// or Next) or returns; Step returns only then. So no participant ever
// runs beside the driver or beside another participant, time never moves
// while one is working, and the scheduler's timing cannot change a run.
//
// Now, Sleep and NewTicker make it a Clock for the drivers the driver
// goroutine calls (a multiplexer's settle wait advances the time, as
// Fake's does). A participant waits with its own Participant's methods,
// never with Lockstep.Sleep, and never on anything else that only the
// driver or another participant could release: that would stop the run.
type Lockstep struct {
	fake   *Fake
	mu     sync.Mutex
	parts  []*Participant // in the order they joined
	yield  chan struct{}  // a participant hands the turn back to Step
	closed chan struct{}
	once   sync.Once
}

// ErrClosed is what a participant's wait returns once the clock is
// closed: the driver has stopped.
var ErrClosed = errors.New("clock: the lockstep clock is closed")

// NewLockstep returns a lockstep clock set to start.
func NewLockstep(start time.Time) *Lockstep {
	return &Lockstep{fake: NewFake(start), yield: make(chan struct{}), closed: make(chan struct{})}
}

// Now returns the virtual time.
func (l *Lockstep) Now() time.Time { return l.fake.Now() }

// Sleep advances the time by d at once, firing tickers on the way: for
// the driver's settle waits of microseconds. Participants use
// Participant.Sleep.
func (l *Lockstep) Sleep(d time.Duration) { l.fake.Sleep(d) }

// NewTicker returns a ticker that fires as Step or Sleep pass its period.
func (l *Lockstep) NewTicker(d time.Duration) Ticker { return l.fake.NewTicker(d) }

// Go starts f on a goroutine of its own as a participant. It first runs
// at the next Step (or within the current one, when a participant calls
// Go), after the participants that joined before it. A participant
// started after the clock is closed runs at once, every wait failing with
// ErrClosed.
func (l *Lockstep) Go(f func(p *Participant)) {
	p := &Participant{l: l, resume: make(chan struct{}, 1)}
	l.mu.Lock()
	l.parts = append(l.parts, p)
	l.mu.Unlock()
	go func() {
		select {
		case <-p.resume:
		case <-l.closed:
		}
		f(p)
		l.mu.Lock()
		p.gone = true
		l.mu.Unlock()
		// Hand the turn back, unless the driver has stopped waiting.
		select {
		case l.yield <- struct{}{}:
		case <-l.closed:
		}
	}()
}

// Step moves the time to t (never back), fires the tickers due, then
// wakes, one at a time in the order they joined, every participant whose
// wait is over (its Sleep's end is at or before t, or it waits for the
// next step), and returns once each has waited again or returned. A
// participant that goes on waiting within the step (Sleep(0), Next) is
// woken at the next step.
func (l *Lockstep) Step(t time.Time) {
	if d := t.Sub(l.fake.Now()); d > 0 {
		l.fake.Advance(d)
	}
	now := l.fake.Now()
	for i := 0; ; i++ {
		l.mu.Lock()
		if i >= len(l.parts) {
			l.mu.Unlock()
			break
		}
		p := l.parts[i]
		due := !p.gone && (p.next || !p.wake.After(now))
		if due {
			p.next, p.wake = false, time.Time{}
		}
		l.mu.Unlock()
		if !due {
			continue
		}
		p.resume <- struct{}{}
		select {
		case <-l.yield:
		case <-l.closed:
			return
		}
	}
	// Forget the participants that returned.
	l.mu.Lock()
	kept := l.parts[:0]
	for _, p := range l.parts {
		if !p.gone {
			kept = append(kept, p)
		}
	}
	clear(l.parts[len(kept):])
	l.parts = kept
	l.mu.Unlock()
}

// Participants is how many participants have not returned yet.
func (l *Lockstep) Participants() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, p := range l.parts {
		if !p.gone {
			n++
		}
	}
	return n
}

// Close stops the clock: every participant's wait, now and later,
// returns ErrClosed, and a Step under way returns. The driver calls it
// when it stops.
func (l *Lockstep) Close() { l.once.Do(func() { close(l.closed) }) }

// Participant is one goroutine taking part in a Lockstep run.
type Participant struct {
	l      *Lockstep
	resume chan struct{}
	wake   time.Time // Sleep's end
	next   bool      // waits for the next step
	gone   bool
}

// Now returns the virtual time.
func (p *Participant) Now() time.Time { return p.l.Now() }

// Sleep waits until the time is at least d later than now: until the
// first Step at or after that time (for d ≤ 0, the next Step).
func (p *Participant) Sleep(d time.Duration) error {
	p.l.mu.Lock()
	p.wake, p.next = p.l.fake.Now().Add(max(d, time.Nanosecond)), false
	p.l.mu.Unlock()
	return p.wait()
}

// Next waits for the next Step.
func (p *Participant) Next() error {
	p.l.mu.Lock()
	p.next = true
	p.l.mu.Unlock()
	return p.wait()
}

// Go starts another participant (Lockstep.Go).
func (p *Participant) Go(f func(*Participant)) { p.l.Go(f) }

// wait hands the turn back to Step and blocks until Step wakes this
// participant again.
func (p *Participant) wait() error {
	select {
	case p.l.yield <- struct{}{}:
	case <-p.l.closed:
		return ErrClosed
	}
	select {
	case <-p.resume:
		return nil
	case <-p.l.closed:
		return ErrClosed
	}
}

// Package buttons reads the push buttons (new game, confirm, take-back)
// wired from a GPIO to ground, with the Pi's internal pull-ups.
//
// Contacts bounce for a few milliseconds, so a level only counts once it
// has held for the debounce time; each press is reported once, when it
// becomes stable. The pins are polled rather than edge-triggered because
// edge interrupts would report every bounce, and polling at 200 Hz costs
// nothing next to the sensor scan.
//
// Layer: drivers. May import: base, game, drivers.
package buttons

import (
	"context"
	"fmt"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/gpio"

	"github.com/zertzboard/zertzboard/hardware/timebase"
)

// Button names a button.
type Button uint8

// The buttons.
const (
	NewGame Button = iota
	Confirm
	Takeback
	numButtons
)

func (b Button) String() string {
	switch b {
	case NewGame:
		return "new-game"
	case Confirm:
		return "confirm"
	case Takeback:
		return "takeback"
	}
	return fmt.Sprintf("Button(%d)", uint8(b))
}

// Event is a debounced press.
type Event struct {
	Button Button
	T      time.Time
}

// Debouncer is the pure debounce state machine of one active-low button.
// Its zero value is a released button.
type Debouncer struct {
	pressed bool // stable state
	cand    bool // level seen last
	since   time.Time
	started bool
}

// Update takes the pin level at now and reports whether a press has just
// become stable (held down for at least hold).
func (d *Debouncer) Update(l gpio.Level, now time.Time, hold time.Duration) bool {
	down := l == gpio.Low
	if !d.started || down != d.cand {
		d.cand, d.since, d.started = down, now, true
	}
	if d.cand != d.pressed && now.Sub(d.since) >= hold {
		d.pressed = d.cand
		return d.pressed
	}
	return false
}

// Opts configures a Dev.
type Opts struct {
	// Debounce is how long a level must hold.
	Debounce time.Duration
	// Poll is the polling period.
	Poll time.Duration
	// Clock times the polling. Nil means the real clock.
	Clock timebase.Clock
}

// DefaultOpts suit ordinary tactile switches.
var DefaultOpts = Opts{Debounce: 30 * time.Millisecond, Poll: 5 * time.Millisecond}

// Dev polls the buttons. It is not safe for concurrent use.
type Dev struct {
	pins [numButtons]gpio.PinIn
	deb  [numButtons]Debouncer
	o    Opts
}

// New configures each wired button's pin as an input with pull-up. Absent
// buttons are nil.
func New(newGame, confirm, takeback gpio.PinIn, o *Opts) (*Dev, error) {
	if o == nil {
		o = &DefaultOpts
	}
	d := &Dev{pins: [numButtons]gpio.PinIn{newGame, confirm, takeback}, o: *o}
	if d.o.Clock == nil {
		d.o.Clock = timebase.Real{}
	}
	if d.o.Poll <= 0 || d.o.Debounce < 0 {
		return nil, fmt.Errorf("buttons: poll %v must be positive and debounce %v not negative", d.o.Poll, d.o.Debounce)
	}
	for b, p := range d.pins {
		if p == nil {
			continue
		}
		if err := p.In(gpio.PullUp, gpio.NoEdge); err != nil {
			return nil, fmt.Errorf("buttons: %s on %s: %w", Button(b), p, err)
		}
	}
	return d, nil
}

// Poll reads every button once at now and appends the presses to dst.
func (d *Dev) Poll(now time.Time, dst []Event) []Event {
	for b, p := range d.pins {
		if p == nil {
			continue
		}
		if d.deb[b].Update(p.Read(), now, d.o.Debounce) {
			dst = append(dst, Event{Button: Button(b), T: now})
		}
	}
	return dst
}

// Run polls until ctx is done and calls fn with each press.
func (d *Dev) Run(ctx context.Context, fn func(Event)) error {
	t := d.o.Clock.NewTicker(d.o.Poll)
	defer t.Stop()
	var ev []Event
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case now := <-t.C():
			ev = d.Poll(now, ev[:0])
			for _, e := range ev {
				fn(e)
			}
		}
	}
}

// String implements conn.Resource.
func (d *Dev) String() string {
	return fmt.Sprintf("buttons{%v, %v, %v}", d.pins[0], d.pins[1], d.pins[2])
}

// Halt implements conn.Resource; inputs need no stopping.
func (d *Dev) Halt() error { return nil }

var _ conn.Resource = (*Dev)(nil)

package hc4067

import (
	"errors"
	"fmt"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/gpio"

	"github.com/zertzboard/zertzboard/hardware/timebase"
)

// Channels is the number of mux inputs.
const Channels = 16

// Opts configures a Dev.
type Opts struct {
	// Settle is how long to wait after changing the address before the
	// output may be sampled.
	Settle time.Duration
	// Clock provides the wait. Nil means the real clock.
	Clock timebase.Clock
}

// DefaultOpts waits 10 µs. The RC of the switch (a few hundred Ω at 3.3 V)
// and the mux and ADC input capacitance (tens of pF) is tens of
// nanoseconds; the rest is margin for charge injection, long wires to the
// sockets and the sensor's output stage recovering from the load step.
// Measure with selftest and lower it if scans overrun.
var DefaultOpts = Opts{Settle: 10 * time.Microsecond}

// Dev is a 74HC4067 (or several sharing the same select lines).
type Dev struct {
	sel    [4]gpio.PinOut
	enable gpio.PinOut // nil when EN is tied low
	settle time.Duration
	clk    timebase.Clock
	addr   int // -1 before the first Select and after Halt
}

// New drives the select lines S0–S3 (sel[0] is S0, the least significant
// bit) and, when enable is not nil, the active-low EN line.
func New(sel [4]gpio.PinOut, enable gpio.PinOut, o *Opts) (*Dev, error) {
	if o == nil {
		o = &DefaultOpts
	}
	for i, p := range sel {
		if p == nil || p == gpio.INVALID {
			return nil, fmt.Errorf("hc4067: select line S%d is not connected", i)
		}
	}
	if enable == gpio.INVALID {
		return nil, errors.New("hc4067: use nil for an enable line tied low, not gpio.INVALID")
	}
	if o.Settle < 0 {
		return nil, fmt.Errorf("hc4067: negative settle time %v", o.Settle)
	}
	d := &Dev{sel: sel, enable: enable, settle: o.Settle, clk: o.Clock, addr: -1}
	if d.clk == nil {
		d.clk = timebase.Real{}
	}
	if enable != nil {
		if err := enable.Out(gpio.Low); err != nil {
			return nil, fmt.Errorf("hc4067: enable %s: %w", enable, err)
		}
	}
	return d, nil
}

// Select routes input addr (0–15) to the common output and waits for it to
// settle. Only the select lines that change are written, and selecting the
// current address again costs nothing.
func (d *Dev) Select(addr int) error {
	if addr < 0 || addr >= Channels {
		return fmt.Errorf("hc4067: address %d out of range 0-15", addr)
	}
	if addr == d.addr {
		return nil
	}
	for i, p := range d.sel {
		bit := addr>>i&1 != 0
		if d.addr >= 0 && (d.addr>>i&1 != 0) == bit {
			continue
		}
		if err := p.Out(gpio.Level(bit)); err != nil {
			d.addr = -1 // the lines are in an unknown state
			return fmt.Errorf("hc4067: S%d (%s): %w", i, p, err)
		}
	}
	d.addr = addr
	if d.settle > 0 {
		d.clk.Sleep(d.settle)
	}
	return nil
}

// Address returns the selected input, or -1 when none is.
func (d *Dev) Address() int { return d.addr }

// SelectLevels returns the levels of S0–S3 that select addr. It is the
// truth table of the datasheet.
func SelectLevels(addr int) [4]gpio.Level {
	var l [4]gpio.Level
	for i := range l {
		l[i] = gpio.Level(addr>>i&1 != 0)
	}
	return l
}

// AddressOf is the inverse of SelectLevels.
func AddressOf(l [4]gpio.Level) int {
	a := 0
	for i, v := range l {
		if v {
			a |= 1 << i
		}
	}
	return a
}

// String implements conn.Resource.
func (d *Dev) String() string {
	return fmt.Sprintf("hc4067{%s,%s,%s,%s}", d.sel[0], d.sel[1], d.sel[2], d.sel[3])
}

// Halt disconnects every input when the enable line is wired; without it
// there is nothing to stop.
func (d *Dev) Halt() error {
	d.addr = -1
	if d.enable == nil {
		return nil
	}
	if err := d.enable.Out(gpio.High); err != nil {
		return fmt.Errorf("hc4067: enable %s: %w", d.enable, err)
	}
	return nil
}

// Resume re-enables the mux after Halt.
func (d *Dev) Resume() error {
	if d.enable == nil {
		return nil
	}
	return d.enable.Out(gpio.Low)
}

var _ conn.Resource = (*Dev)(nil)

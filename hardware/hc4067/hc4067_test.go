package hc4067

import (
	"errors"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"github.com/zertzboard/zertzboard/hardware/timebase"
)

// countPin counts writes, to check that Select only touches lines that change.
type countPin struct {
	*gpiotest.Pin
	writes int
	fail   bool
}

func (c *countPin) Out(l gpio.Level) error {
	if c.fail {
		return errors.New("broken wire")
	}
	c.writes++
	return c.Pin.Out(l)
}

func newPins() ([4]*countPin, [4]gpio.PinOut) {
	var cp [4]*countPin
	var po [4]gpio.PinOut
	for i := range cp {
		cp[i] = &countPin{Pin: &gpiotest.Pin{N: "S" + string(rune('0'+i)), Num: i}}
		po[i] = cp[i]
	}
	return cp, po
}

func levels(cp [4]*countPin) [4]gpio.Level {
	var l [4]gpio.Level
	for i, p := range cp {
		l[i] = p.Read()
	}
	return l
}

func TestSelect(t *testing.T) {
	cp, po := newPins()
	en := &gpiotest.Pin{N: "EN", L: gpio.High}
	clk := timebase.NewFake(time.Unix(0, 0))
	d, err := New(po, en, &Opts{Settle: 7 * time.Microsecond, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	if en.Read() != gpio.Low {
		t.Error("New did not enable the mux (EN low)")
	}
	for addr := 0; addr < Channels; addr++ {
		if err := d.Select(addr); err != nil {
			t.Fatalf("Select(%d): %v", addr, err)
		}
		if got := AddressOf(levels(cp)); got != addr {
			t.Errorf("after Select(%d) the lines say %d", addr, got)
		}
	}
	if got, want := clk.Slept(), 16*7*time.Microsecond; got != want {
		t.Errorf("settled for %v; want %v", got, want)
	}
	// Reselecting is free.
	before := clk.Slept()
	if err := d.Select(15); err != nil {
		t.Fatal(err)
	}
	if clk.Slept() != before {
		t.Error("Select of the current address waited")
	}
	// 15 → 14 changes S0 only.
	for _, p := range cp {
		p.writes = 0
	}
	if err := d.Select(14); err != nil {
		t.Fatal(err)
	}
	if cp[0].writes != 1 || cp[1].writes+cp[2].writes+cp[3].writes != 0 {
		t.Errorf("15→14 wrote S0..S3 %d,%d,%d,%d times; want 1,0,0,0", cp[0].writes, cp[1].writes, cp[2].writes, cp[3].writes)
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	if en.Read() != gpio.High {
		t.Error("Halt left the mux enabled")
	}
	if d.Address() != -1 {
		t.Errorf("Address() after Halt = %d; want -1", d.Address())
	}
}

func TestSelectErrors(t *testing.T) {
	cp, po := newPins()
	d, err := New(po, nil, &Opts{Clock: timebase.NewFake(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []int{-1, 16} {
		if err := d.Select(a); err == nil {
			t.Errorf("Select(%d): want an error", a)
		}
	}
	cp[2].fail = true
	if err := d.Select(4); err == nil {
		t.Error("Select(4) with a broken S2: want an error")
	}
	if d.Address() != -1 {
		t.Errorf("Address() after a failed Select = %d; want -1 (unknown)", d.Address())
	}
}

func TestNewErrors(t *testing.T) {
	_, po := newPins()
	po[3] = nil
	if _, err := New(po, nil, nil); err == nil {
		t.Error("New with S3 nil: want an error")
	}
	_, po = newPins()
	if _, err := New(po, gpio.INVALID, nil); err == nil {
		t.Error("New with enable gpio.INVALID: want an error")
	}
	if _, err := New(po, nil, &Opts{Settle: -1}); err == nil {
		t.Error("New with negative settle: want an error")
	}
}

func TestSelectLevels(t *testing.T) {
	for _, tc := range []struct {
		addr int
		want [4]gpio.Level
	}{
		{0, [4]gpio.Level{gpio.Low, gpio.Low, gpio.Low, gpio.Low}},
		{1, [4]gpio.Level{gpio.High, gpio.Low, gpio.Low, gpio.Low}},
		{6, [4]gpio.Level{gpio.Low, gpio.High, gpio.High, gpio.Low}},
		{8, [4]gpio.Level{gpio.Low, gpio.Low, gpio.Low, gpio.High}},
		{15, [4]gpio.Level{gpio.High, gpio.High, gpio.High, gpio.High}},
	} {
		if got := SelectLevels(tc.addr); got != tc.want {
			t.Errorf("SelectLevels(%d) = %v; want %v", tc.addr, got, tc.want)
		}
		if got := AddressOf(tc.want); got != tc.addr {
			t.Errorf("AddressOf(%v) = %d; want %d", tc.want, got, tc.addr)
		}
	}
}

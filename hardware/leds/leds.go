// Package leds drives the per-socket RGB LEDs: a WS2812/SK6812 chain
// (periph nrzled over SPI) or an APA102 chain (periph apa102).
//
// Callers colour sockets; the chain order of the wiring file decides which
// LED that is, so a builder can snake the chain however the board routes.
// Brightness and gamma are applied here, once, with a lookup table:
// players see perceived brightness, and 8-bit PWM is linear.
//
// Datasheets: WS2812B https://cdn-shop.adafruit.com/datasheets/WS2812B.pdf,
// APA102 https://cdn-shop.adafruit.com/product-files/2343/APA102C.pdf.
//
// Layer: drivers. May import: base, game, drivers.
package leds

import (
	"fmt"
	"image/color"
	"math"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/apa102"
	"periph.io/x/devices/v3/nrzled"
)

// Kind is the LED chip family.
type Kind uint8

// The LED chip families.
const (
	NRZ    Kind = iota // WS2812, WS2812B, SK6812 (RGB): one data line, NRZ timing
	APA102             // APA102, SK9822: clock and data
)

// Opts configures a Dev.
type Opts struct {
	Kind Kind
	// Order gives the socket of each LED, first LED first. Its length is
	// the chain length; every socket index must be below the socket count.
	Order []int
	// Brightness scales every colour, 0–255; it limits current as well as
	// glare.
	Brightness uint8
	// Gamma is the exponent from requested to PWM level; 1 is linear.
	Gamma float64
	// Speed is the APA102 clock; 0 means 4 MHz. NRZ chains always use
	// 2.5 MHz.
	Speed physic.Frequency
	// MaxCurrent is the chain's current budget: the supply's rating less
	// a margin. Show scales every colour down when the estimated draw of a
	// frame would exceed it. 0 means no limit.
	MaxCurrent physic.ElectricCurrent
}

// DefaultOpts is a WS2812 chain at a comfortable indoor brightness, within
// a 1.5 A budget: a 5 V 2 A supply with a margin (hardware/README.md).
var DefaultOpts = Opts{Kind: NRZ, Brightness: 96, Gamma: 2.2, MaxCurrent: 1500 * physic.MilliAmpere}

// Current model of one LED (WS2812B and APA102 datasheets): each colour
// channel draws up to about 20 mA at full PWM, and the chip's logic about
// 1 mA even when dark. 61 LEDs at full white: 61 × 61 mA ≈ 3.7 A.
const (
	ChannelCurrent   = 20 * physic.MilliAmpere
	QuiescentCurrent = 1 * physic.MilliAmpere
)

// DefaultAPA102Speed is the APA102 clock when Opts.Speed is 0.
const DefaultAPA102Speed = 4 * physic.MegaHertz

type strip interface {
	Write(pixels []byte) (int, error)
	Halt() error
	String() string
}

// Dev is the LED chain. It is not safe for concurrent use.
type Dev struct {
	s       strip
	order   []int
	colors  []color.NRGBA // by socket
	pix     []byte        // by LED, RGB
	table   [256]byte
	sockets int
	// budget is the colour part of the current budget, in units of one
	// PWM step of one channel (ChannelCurrent/255); 0 for no limit.
	budget int64
	scaled bool
}

// New opens the chain on p for sockets sockets.
func New(p spi.Port, sockets int, o *Opts) (*Dev, error) {
	if o == nil {
		o = &DefaultOpts
	}
	if len(o.Order) == 0 {
		return nil, fmt.Errorf("leds: empty chain order")
	}
	seen := make([]bool, sockets)
	for i, s := range o.Order {
		if s < 0 || s >= sockets {
			return nil, fmt.Errorf("leds: LED %d is on socket %d; there are %d sockets", i, s, sockets)
		}
		if seen[s] {
			return nil, fmt.Errorf("leds: LED %d is on socket %d, which already has an LED", i, s)
		}
		seen[s] = true
	}
	if o.Gamma <= 0 {
		return nil, fmt.Errorf("leds: gamma %v must be positive", o.Gamma)
	}
	d := &Dev{order: append([]int(nil), o.Order...), colors: make([]color.NRGBA, sockets), pix: make([]byte, 3*len(o.Order)), table: Table(o.Gamma, o.Brightness), sockets: sockets}
	if o.MaxCurrent < 0 {
		return nil, fmt.Errorf("leds: negative current budget %s", o.MaxCurrent)
	}
	if o.MaxCurrent > 0 {
		idle := physic.ElectricCurrent(len(o.Order)) * QuiescentCurrent
		if o.MaxCurrent <= idle {
			return nil, fmt.Errorf("leds: a current budget of %s does not even cover %d dark LEDs (%s)", o.MaxCurrent, len(o.Order), idle)
		}
		d.budget = int64(o.MaxCurrent-idle) * 255 / int64(ChannelCurrent)
	}
	var err error
	switch o.Kind {
	case NRZ:
		if o.Speed != 0 && o.Speed != 2500*physic.KiloHertz {
			return nil, fmt.Errorf("leds: NRZ LEDs run at 2.5MHz; got %s", o.Speed)
		}
		d.s, err = nrzled.NewSPI(p, &nrzled.Opts{NumPixels: len(o.Order), Channels: 3, Freq: 2500 * physic.KiloHertz})
	case APA102:
		// apa102.New asks for 20 MHz; the port's limit is what the bus
		// runs at, so the speed setting is applied there.
		sp := o.Speed
		if sp == 0 {
			sp = DefaultAPA102Speed
		}
		l, ok := p.(interface{ LimitSpeed(physic.Frequency) error })
		if !ok {
			return nil, fmt.Errorf("leds: %s cannot limit its speed to %s", p, sp)
		}
		if err := l.LimitSpeed(sp); err != nil {
			return nil, fmt.Errorf("leds: %s: speed %s: %w", p, sp, err)
		}
		ao := apa102.PassThruOpts
		ao.NumPixels = len(o.Order)
		d.s, err = apa102.New(p, &ao)
	default:
		return nil, fmt.Errorf("leds: unknown kind %d", o.Kind)
	}
	if err != nil {
		return nil, fmt.Errorf("leds: %w", err)
	}
	return d, nil
}

// Set colours a socket; Show sends it. Alpha is ignored.
func (d *Dev) Set(socket int, c color.NRGBA) {
	if socket >= 0 && socket < d.sockets {
		d.colors[socket] = c
	}
}

// SetAll colours every socket.
func (d *Dev) SetAll(c color.NRGBA) {
	for i := range d.colors {
		d.colors[i] = c
	}
}

// Show sends the colours to the chain, dimmed to the current budget. It
// does not allocate.
func (d *Dev) Show() error {
	var sum int64
	for i, s := range d.order {
		c := d.colors[s]
		r, g, b := d.table[c.R], d.table[c.G], d.table[c.B]
		d.pix[3*i], d.pix[3*i+1], d.pix[3*i+2] = r, g, b
		sum += int64(r) + int64(g) + int64(b)
	}
	d.scaled = d.budget > 0 && sum > d.budget
	if d.scaled {
		// PWM is linear in current: scale every channel by budget/sum,
		// rounding down so that the frame stays within the budget.
		for i, v := range d.pix {
			d.pix[i] = byte(int64(v) * d.budget / sum)
		}
	}
	if _, err := d.s.Write(d.pix); err != nil {
		return fmt.Errorf("leds: %w", err)
	}
	return nil
}

// Scaled reports whether the last Show was dimmed to stay within the
// current budget.
func (d *Dev) Scaled() bool { return d.scaled }

// Current estimates the chain's draw for the frame last shown.
func (d *Dev) Current() physic.ElectricCurrent {
	var sum int64
	for _, v := range d.pix {
		sum += int64(v)
	}
	return physic.ElectricCurrent(len(d.order))*QuiescentCurrent + physic.ElectricCurrent(sum*int64(ChannelCurrent)/255)
}

// String implements conn.Resource.
func (d *Dev) String() string { return "leds{" + d.s.String() + "}" }

// Halt turns every LED off.
func (d *Dev) Halt() error {
	d.SetAll(color.NRGBA{})
	if err := d.s.Halt(); err != nil {
		return fmt.Errorf("leds: %w", err)
	}
	return nil
}

// Table is the lookup from a requested channel level to the PWM level:
// 255 · (v/255)^gamma · brightness/255, rounded.
func Table(gamma float64, brightness uint8) [256]byte {
	var t [256]byte
	for v := range t {
		t[v] = byte(math.Round(255 * math.Pow(float64(v)/255, gamma) * float64(brightness) / 255))
	}
	return t
}

var _ conn.Resource = (*Dev)(nil)

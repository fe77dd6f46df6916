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
}

// DefaultOpts is a WS2812 chain at a comfortable indoor brightness.
var DefaultOpts = Opts{Kind: NRZ, Brightness: 96, Gamma: 2.2}

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
	var err error
	switch o.Kind {
	case NRZ:
		d.s, err = nrzled.NewSPI(p, &nrzled.Opts{NumPixels: len(o.Order), Channels: 3, Freq: 2500 * physic.KiloHertz})
	case APA102:
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

// Show sends the colours to the chain. It does not allocate.
func (d *Dev) Show() error {
	for i, s := range d.order {
		c := d.colors[s]
		d.pix[3*i], d.pix[3*i+1], d.pix[3*i+2] = d.table[c.R], d.table[c.G], d.table[c.B]
	}
	if _, err := d.s.Write(d.pix); err != nil {
		return fmt.Errorf("leds: %w", err)
	}
	return nil
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

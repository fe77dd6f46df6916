// Package screen draws the status screen: whose turn it is, each player's
// captures by colour, a status line and sensor faults, on an SSD1306
// 128×64 OLED over I²C (periph ssd1306), in basicfont's 7×13 face: five
// lines of eighteen characters.
//
// Datasheet: https://cdn-shop.adafruit.com/datasheets/SSD1306.pdf
package screen

import (
	"fmt"
	"image"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/devices/v3/ssd1306"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// Size of the screen, and of the text grid on it.
const (
	Width   = 128
	Height  = 64
	Columns = Width / 7
	Rows    = 5
	pitch   = 12 // line pitch in pixels: 13-pixel glyphs overlap by one blank row
)

// Status is what the screen shows.
type Status struct {
	// ToMove is the player to move, 0 or 1, or -1 when no game is on.
	ToMove int
	// Players are the players' names; empty names read "P0" and "P1".
	Players [2]string
	// Captures are each player's captured marbles: white, grey, black.
	Captures [2][3]int
	// Line is a short status, e.g. "remove a free ring".
	Line string
	// Faults are sensor faults, most important first.
	Faults []string
}

// Lines lays the status out as Rows lines of at most Columns characters.
// It is the pure half of Show.
func Lines(s Status) []string {
	name := func(p int) string {
		if s.Players[p] != "" {
			return s.Players[p]
		}
		return fmt.Sprintf("P%d", p)
	}
	var l []string
	switch s.ToMove {
	case 0, 1:
		l = append(l, name(s.ToMove)+" to move")
	default:
		l = append(l, "no game")
	}
	for p := 0; p < 2; p++ {
		mark := " "
		if p == s.ToMove {
			mark = ">"
		}
		c := s.Captures[p]
		caps := fmt.Sprintf(" w%d g%d b%d", c[0], c[1], c[2])
		n := ascii(name(p))
		if room := Columns - 1 - len(caps); len(n) > room {
			n = n[:room]
		}
		l = append(l, mark+n+strings.Repeat(" ", Columns-1-len(caps)-len(n))+caps)
	}
	l = append(l, s.Line)
	switch len(s.Faults) {
	case 0:
		l = append(l, "")
	case 1:
		l = append(l, "! "+s.Faults[0])
	default:
		l = append(l, fmt.Sprintf("!%d: %s", len(s.Faults), s.Faults[0]))
	}
	for i := range l {
		l[i] = ascii(l[i])
		if len(l[i]) > Columns {
			l[i] = l[i][:Columns]
		}
	}
	return l
}

// ascii replaces what basicfont cannot draw.
func ascii(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7E {
			return '?'
		}
		return r
	}, s)
}

// Render draws the lines into a new 1-bit image in the controller's
// memory layout.
func Render(s Status) *image1bit.VerticalLSB {
	img := image1bit.NewVerticalLSB(image.Rect(0, 0, Width, Height))
	d := font.Drawer{Dst: img, Src: image.NewUniform(image1bit.On), Face: basicfont.Face7x13}
	for i, line := range Lines(s) {
		d.Dot = fixed.P(0, basicfont.Face7x13.Ascent+i*pitch)
		d.DrawString(line)
	}
	return img
}

// Opts configures a Dev.
type Opts struct {
	// Address is the I²C address: 0x3C, or 0x3D with the D/C pin high.
	Address uint16
	// Speed limits the bus; 0 leaves it. The SSD1306 takes 400 kHz.
	Speed physic.Frequency
}

// DefaultOpts is the common 0x3C module.
var DefaultOpts = Opts{Address: 0x3C}

// Dev is the status screen.
type Dev struct {
	d    *ssd1306.Dev
	last []string
}

// New initialises the screen on bus.
func New(bus i2c.Bus, o *Opts) (*Dev, error) {
	if o == nil {
		o = &DefaultOpts
	}
	if o.Address != 0x3C && o.Address != 0x3D {
		return nil, fmt.Errorf("screen: address %#x; an SSD1306 answers at 0x3C or 0x3D", o.Address)
	}
	if o.Speed > 0 {
		if err := bus.SetSpeed(o.Speed); err != nil {
			return nil, fmt.Errorf("screen: %w", err)
		}
	}
	if o.Address != 0x3C {
		// periph's ssd1306.NewI2C always talks to 0x3C.
		bus = &readdress{Bus: bus, to: o.Address}
	}
	d, err := ssd1306.NewI2C(bus, &ssd1306.DefaultOpts)
	if err != nil {
		return nil, fmt.Errorf("screen: %w", err)
	}
	return &Dev{d: d}, nil
}

// Show draws s, if it differs from what is shown. The I²C transfer of a
// full screen takes about 25 ms at 400 kHz, so call it from the output
// goroutine, not the scan loop.
func (d *Dev) Show(s Status) error {
	l := Lines(s)
	if equal(l, d.last) {
		return nil
	}
	if err := d.d.Draw(d.d.Bounds(), Render(s), image.Point{}); err != nil {
		return fmt.Errorf("screen: %w", err)
	}
	d.last = l
	return nil
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// String implements conn.Resource.
func (d *Dev) String() string { return "screen{" + d.d.String() + "}" }

// Halt switches the display off.
func (d *Dev) Halt() error {
	d.last = nil
	return d.d.Halt()
}

// readdress sends 0x3C traffic to another address.
type readdress struct {
	i2c.Bus
	to uint16
}

func (r *readdress) Tx(addr uint16, w, rd []byte) error {
	if addr == 0x3C {
		addr = r.to
	}
	return r.Bus.Tx(addr, w, rd)
}

var _ conn.Resource = (*Dev)(nil)

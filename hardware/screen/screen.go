// Package screen draws lines of text on the status screen, an SSD1306
// 128×64 OLED over I²C (periph ssd1306), in the misc-fixed 7×13 face of
// display/face (ASCII, Latin-1, Latin Extended-A and Cyrillic, so every
// letter of English, German, French, Italian, Dutch, Spanish, Polish and
// Russian): five lines of eighteen characters. What the lines say (whose
// turn it is, the captures, faults) is display's business.
//
// Datasheet: https://cdn-shop.adafruit.com/datasheets/SSD1306.pdf
//
// Layer: drivers. May import: base, game, drivers.
package screen

import (
	"fmt"
	"image"
	"slices"

	"github.com/zertzboard/zertzboard/display/face"
	"golang.org/x/image/font"
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
	Columns = Width / face.Width
	Rows    = 5
	// Lines are 13 pixels apart, so no line's descenders (g, ą, у) touch
	// the next line's accents. Five lines need 65 rows of the 64, so the
	// first line starts one row above the screen: that row is blank in
	// every glyph but the top of the breve and accent on Й, Ѓ, Ќ, Ѝ, Ў.
	pitch = face.Height
	top   = -1
)

// Fit is lines as the screen shows them: at most Rows lines of at most
// Columns characters (runes: every glyph is one cell), with what the
// font cannot draw as '?'.
func Fit(lines []string) []string {
	l := make([]string, 0, Rows)
	for i := 0; i < len(lines) && i < Rows; i++ {
		x := []rune(face.Map(lines[i]))
		if len(x) > Columns {
			x = x[:Columns]
		}
		l = append(l, string(x))
	}
	return l
}

// Render draws the lines into a new 1-bit image in the controller's
// memory layout.
func Render(lines []string) *image1bit.VerticalLSB {
	img := image1bit.NewVerticalLSB(image.Rect(0, 0, Width, Height))
	d := font.Drawer{Dst: img, Src: image.NewUniform(image1bit.On), Face: face.Fixed7x13}
	for i, line := range Fit(lines) {
		d.Dot = fixed.P(0, top+face.Ascent+i*pitch)
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

// Show draws the lines (display.StatusLines lays a status out), if they
// differ from what is shown. The I²C transfer of a full screen takes about
// 25 ms at 400 kHz, so call it from the output goroutine, not the scan
// loop.
func (d *Dev) Show(lines []string) error {
	l := Fit(lines)
	if slices.Equal(l, d.last) {
		return nil
	}
	if err := d.d.Draw(d.d.Bounds(), Render(l), image.Point{}); err != nil {
		return fmt.Errorf("screen: %w", err)
	}
	d.last = l
	return nil
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

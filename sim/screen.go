package sim

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"strings"
	"sync"

	"periph.io/x/conn/v3/physic"
)

// Screen is an in-memory SSD1306 on an I²C bus: it decodes the command and
// data streams into its 128×64 graphics RAM, as the controller does in
// horizontal addressing mode.
type Screen struct {
	name string
	addr uint16

	mu       sync.Mutex
	ram      [8][128]byte
	page     int
	col      int
	colStart int
	colEnd   int
	pageEnd  int
	on       bool
	writes   int
}

// NewScreen returns a screen answering at addr on the bus called name.
func NewScreen(name string, addr uint16) *Screen {
	return &Screen{name: name, addr: addr, colEnd: 127, pageEnd: 7}
}

func (s *Screen) String() string                    { return "sim.ssd1306{" + s.name + "}" }
func (s *Screen) Close() error                      { return nil }
func (s *Screen) SetSpeed(f physic.Frequency) error { return nil }

// args is the number of argument bytes after each multi-byte command.
var args = map[byte]int{
	0x81: 1, 0xD3: 1, 0xDA: 1, 0xD5: 1, 0x8D: 1, 0xD9: 1, 0xDB: 1, 0xA8: 1, 0x20: 1,
	0x21: 2, 0x22: 2, 0xA3: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5,
}

// Tx implements i2c.Bus.
func (s *Screen) Tx(addr uint16, w, r []byte) error {
	if addr != s.addr {
		return fmt.Errorf("sim: %s: no device at %#x (the screen is at %#x)", s, addr, s.addr)
	}
	if len(r) != 0 {
		return fmt.Errorf("sim: %s: the SSD1306 cannot be read over I²C", s)
	}
	if len(w) == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	switch w[0] {
	case 0x00:
		return s.commands(w[1:])
	case 0x40:
		for _, b := range w[1:] {
			s.ram[s.page][s.col] = b
			s.col++
			if s.col > s.colEnd {
				s.col = s.colStart
				s.page++
				if s.page > s.pageEnd {
					s.page = 0
				}
			}
		}
		return nil
	}
	return fmt.Errorf("sim: %s: control byte %#x is neither 0x00 nor 0x40", s, w[0])
}

func (s *Screen) commands(c []byte) error {
	for i := 0; i < len(c); i++ {
		op := c[i]
		n := args[op]
		if i+n >= len(c) && n > 0 {
			return fmt.Errorf("sim: %s: command %#x lacks its %d argument bytes", s, op, n)
		}
		a := c[i+1 : i+1+n]
		switch {
		case op == 0xAE:
			s.on = false
		case op == 0xAF:
			s.on = true
		case op == 0x21:
			s.colStart, s.colEnd, s.col = int(a[0]&0x7F), int(a[1]&0x7F), int(a[0]&0x7F)
		case op == 0x22:
			s.page, s.pageEnd = int(a[0]&7), int(a[1]&7)
		case op&0xF0 == 0xB0:
			s.page = int(op & 7)
		case op <= 0x0F:
			s.col = s.col&0xF0 | int(op)
		case op >= 0x10 && op <= 0x1F:
			s.col = s.col&0x0F | int(op&7)<<4
		}
		i += n
	}
	return nil
}

// On reports whether the display is switched on.
func (s *Screen) On() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.on
}

// Image returns the graphics RAM as a 128×64 picture, lit pixels white.
// A screen that is off is all black.
func (s *Screen) Image() *image.Gray {
	s.mu.Lock()
	defer s.mu.Unlock()
	img := image.NewGray(image.Rect(0, 0, 128, 64))
	if !s.on {
		return img
	}
	for p := 0; p < 8; p++ {
		for x := 0; x < 128; x++ {
			for b := 0; b < 8; b++ {
				if s.ram[p][x]>>b&1 != 0 {
					img.SetGray(x, 8*p+b, color.Gray{Y: 255})
				}
			}
		}
	}
	return img
}

// Text renders the screen as text, two pixel rows per line with half
// blocks, for a terminal or a test failure message.
func (s *Screen) Text() string {
	img := s.Image()
	var b strings.Builder
	for y := 0; y < 64; y += 2 {
		for x := 0; x < 128; x++ {
			top, bot := img.GrayAt(x, y).Y != 0, img.GrayAt(x, y+1).Y != 0
			switch {
			case top && bot:
				b.WriteRune('█')
			case top:
				b.WriteRune('▀')
			case bot:
				b.WriteRune('▄')
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// SavePNG writes the screen, scaled up 4× for legibility, to path.
func (s *Screen) SavePNG(path string) error {
	src := s.Image()
	const k = 4
	dst := image.NewGray(image.Rect(0, 0, 128*k, 64*k))
	for y := 0; y < 64*k; y++ {
		for x := 0; x < 128*k; x++ {
			dst.SetGray(x, y, src.GrayAt(x/k, y/k))
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	if err := png.Encode(f, dst); err != nil {
		f.Close()
		return fmt.Errorf("sim: %s: %w", path, err)
	}
	return f.Close()
}

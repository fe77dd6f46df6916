package sim

import (
	"fmt"
	"image/color"
	"sync"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"github.com/zertzboard/zertzboard/hardware/pi"
)

// LEDProtocol is the wire format a virtual LED chain decodes.
type LEDProtocol uint8

// The LED chain protocols.
const (
	NRZ    LEDProtocol = iota // WS2812/SK6812 through periph nrzled's SPI encoder
	APA102                    // APA102/SK9822
)

// LEDChain is a virtual LED strip on an SPI port. It decodes every write
// back into colours, as the LEDs would latch them.
type LEDChain struct {
	name  string
	proto LEDProtocol
	n     int

	// ctl, when set, is the Pi's controller.
	ctl *pi.Controller

	mu        sync.Mutex
	connected bool
	freq      physic.Frequency
	limit     physic.Frequency
	colors    []color.NRGBA
	frames    int
	err       error
}

// NewLEDChain returns a chain of n LEDs speaking proto.
func NewLEDChain(name string, proto LEDProtocol, n int) *LEDChain {
	return &LEDChain{name: name, proto: proto, n: n, colors: make([]color.NRGBA, n)}
}

func (l *LEDChain) String() string { return "sim.leds{" + l.name + "}" }
func (l *LEDChain) Close() error   { return nil }

// LimitSpeed implements spi.PortCloser: the bus runs at most at f.
func (l *LEDChain) LimitSpeed(f physic.Frequency) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.limit = f
	return nil
}

// MaxTxSize implements conn.Limits: spidev's default bufsiz.
func (l *LEDChain) MaxTxSize() int { return pi.DefaultBufSiz }

// Freq is the clock the chain runs at.
func (l *LEDChain) Freq() physic.Frequency {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.freq
}

// Connect implements spi.Port. NRZ timing only works at 2.5 MHz.
func (l *LEDChain) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.connected {
		return nil, fmt.Errorf("sim: %s: Connect called twice", l)
	}
	if err := checkMode(l.ctl, l.name, mode); err != nil {
		return nil, err
	}
	if l.limit != 0 && f > l.limit {
		f = l.limit
	}
	if l.proto == NRZ && f != 2500*physic.KiloHertz {
		return nil, fmt.Errorf("sim: %s: NRZ LEDs need 2.5MHz; got %s", l, f)
	}
	if l.proto == NRZ && l.ctl != nil && !l.ctl.DMA {
		return nil, fmt.Errorf("sim: %s: %s has no DMA: the NRZ stream would be refilled from interrupts and stall mid-frame", l, l.ctl.Driver)
	}
	l.connected, l.freq = true, f
	return &ledConn{l}, nil
}

// Colors returns the colour latched by each LED, first LED first.
func (l *LEDChain) Colors() []color.NRGBA {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]color.NRGBA(nil), l.colors...)
}

// Frames counts the updates received.
func (l *LEDChain) Frames() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.frames
}

// Err is the first undecodable write, if any.
func (l *LEDChain) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

type ledConn struct{ l *LEDChain }

func (c *ledConn) String() string      { return c.l.String() }
func (c *ledConn) Duplex() conn.Duplex { return conn.Half }
func (c *ledConn) TxPackets(p []spi.Packet) error {
	return fmt.Errorf("sim: %s: TxPackets is not supported", c.l)
}

func (c *ledConn) Tx(w, r []byte) error {
	if len(w) > pi.DefaultBufSiz {
		return fmt.Errorf("sim: %s: a %d-byte write is over spidev's bufsiz %d (EMSGSIZE)", c.l, len(w), pi.DefaultBufSiz)
	}
	var cols []color.NRGBA
	var err error
	if c.l.proto == NRZ {
		cols, err = DecodeNRZ(w)
	} else {
		cols, err = DecodeAPA102(w)
	}
	c.l.mu.Lock()
	defer c.l.mu.Unlock()
	if err != nil {
		if c.l.err == nil {
			c.l.err = err
		}
		return fmt.Errorf("sim: %s: %w", c.l, err)
	}
	copy(c.l.colors, cols)
	c.l.frames++
	return nil
}

// DecodeNRZ decodes periph nrzled's SPI stream: leading and trailing zero
// bytes for the reset, then every LED bit as four SPI bits, 1110 for one
// and 1000 for zero, MSB first, in G R B order.
func DecodeNRZ(w []byte) ([]color.NRGBA, error) {
	i, j := 0, len(w)
	for i < j && w[i] == 0 {
		i++
	}
	for j > i && w[j-1] == 0 {
		j--
	}
	body := w[i:j]
	if len(body)%12 != 0 {
		return nil, fmt.Errorf("NRZ stream of %d bytes is not a whole number of 12-byte LEDs", len(body))
	}
	out := make([]color.NRGBA, len(body)/12)
	for k := range out {
		var grb [3]byte
		for ch := 0; ch < 3; ch++ {
			var v byte
			for b := 0; b < 4; b++ {
				x := body[12*k+4*ch+b]
				for _, nib := range [2]byte{x >> 4, x & 0xF} {
					v <<= 1
					switch nib {
					case 0xE:
						v |= 1
					case 0x8:
					default:
						return nil, fmt.Errorf("LED %d: SPI nibble %#x is neither 1110 nor 1000", k, nib)
					}
				}
			}
			grb[ch] = v
		}
		out[k] = color.NRGBA{R: grb[1], G: grb[0], B: grb[2], A: 255}
	}
	return out, nil
}

// DecodeAPA102 decodes an APA102 stream: a 32-bit zero start frame, then
// per LED 111bbbbb B G R with a 5-bit global brightness, then end bytes.
// The colour returned is scaled by the global brightness.
func DecodeAPA102(w []byte) ([]color.NRGBA, error) {
	if len(w) < 4 || w[0]|w[1]|w[2]|w[3] != 0 {
		return nil, fmt.Errorf("APA102 stream does not start with a zero frame")
	}
	var out []color.NRGBA
	for i := 4; i+4 <= len(w); i += 4 {
		if w[i] == 0xFF && w[i+1] == 0xFF && w[i+2] == 0xFF && w[i+3] == 0xFF {
			break // end frame
		}
		if w[i]&0xE0 != 0xE0 {
			return nil, fmt.Errorf("APA102 LED %d: header byte %#x lacks 111", len(out), w[i])
		}
		g := uint16(w[i] & 0x1F)
		sc := func(v byte) byte { return byte((uint16(v)*g + 15) / 31) }
		out = append(out, color.NRGBA{R: sc(w[i+3]), G: sc(w[i+2]), B: sc(w[i+1]), A: 255})
	}
	return out, nil
}

var _ spi.PortCloser = (*LEDChain)(nil)

package sim

import (
	"fmt"
	"sync"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"github.com/zertzboard/zertzboard/hardware/mcp3x08"
	"github.com/zertzboard/zertzboard/hardware/pi"
)

// ADC is a virtual MCP3008 or MCP3208 on one chip select. It decodes each
// 3-byte command as the chip would and answers with the reading of the
// channel's input.
type ADC struct {
	name    string
	variant mcp3x08.Variant
	input   func(ch int) uint16
	// inputs, when set, reads several channels of one message at once:
	// the same readings as input, channel after channel, in one go.
	inputs func(chs []int, dst []uint16)

	// ctl and timing, when set, are the Pi's controller and cost model.
	ctl       *pi.Controller
	timing    *Timing
	noPackets bool

	mu        sync.Mutex
	connected bool
	freq      physic.Frequency
	limit     physic.Frequency
	conv      int
}

// NewADC returns a virtual chip whose channel ch reads input(ch).
func NewADC(name string, v mcp3x08.Variant, input func(ch int) uint16) *ADC {
	return &ADC{name: name, variant: v, input: input}
}

// String implements spi.Port.
func (a *ADC) String() string { return fmt.Sprintf("sim.%s{%s}", a.variant, a.name) }

// Close implements spi.PortCloser.
func (a *ADC) Close() error { return nil }

// LimitSpeed implements spi.PortCloser.
func (a *ADC) LimitSpeed(f physic.Frequency) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.limit = f
	return nil
}

// Freq is the clock the driver connected at (with the port's limit).
func (a *ADC) Freq() physic.Frequency {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.freq
}

// Connect implements spi.Port. The chip only works in SPI modes 0 and 3
// with 8-bit words.
func (a *ADC) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.connected {
		return nil, fmt.Errorf("sim: %s: Connect called twice", a)
	}
	if err := checkMode(a.ctl, a.name, mode); err != nil {
		return nil, err
	}
	if m := mode &^ spi.NoCS; m != spi.Mode0 && m != spi.Mode3 {
		return nil, fmt.Errorf("sim: %s: mode %s; the chip needs Mode0 or Mode3", a, mode)
	}
	if bits != 8 {
		return nil, fmt.Errorf("sim: %s: %d bits per word; want 8", a, bits)
	}
	if a.limit != 0 && f > a.limit {
		f = a.limit
	}
	a.connected, a.freq = true, f
	return &adcConn{a: a}, nil
}

// Conversions counts the conversions answered.
func (a *ADC) Conversions() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.conv
}

type adcConn struct {
	a *ADC
	// chs and vals are TxPackets' buffers for one batch of channels.
	chs  [maxBatch]int
	vals [maxBatch]uint16
}

func (c *adcConn) String() string      { return c.a.String() }
func (c *adcConn) Duplex() conn.Duplex { return conn.Full }

func (c *adcConn) Tx(w, r []byte) error {
	if err := c.convert(w, r); err != nil {
		return err
	}
	c.charge(1, len(w))
	return nil
}

// charge costs one ioctl of transfers transfers and n bytes.
func (c *adcConn) charge(transfers, n int) {
	if t := c.a.timing; t != nil {
		idle := 0
		if c.a.ctl != nil {
			idle = c.a.ctl.IdleClocks
		}
		t.ioctl(transfers, n, c.a.freq, idle)
	}
}

// TxPackets is one spidev message: the chip select must rise between two
// conversions (KeepCS false), since its falling edge starts one, and the
// whole message must fit spidev's buffer.
func (c *adcConn) TxPackets(p []spi.Packet) error {
	if c.a.noPackets {
		return fmt.Errorf("sim: %s: TxPackets is not implemented", c.a)
	}
	n := 0
	for i := range p {
		n += len(p[i].W)
		if p[i].KeepCS && i < len(p)-1 {
			return fmt.Errorf("sim: %s: transfer %d of %d keeps CS low; the next conversion would not start", c.a, i, len(p))
		}
	}
	if n > pi.DefaultBufSiz {
		return fmt.Errorf("sim: %s: a %d-byte message is over spidev's bufsiz %d (EMSGSIZE)", c.a, n, pi.DefaultBufSiz)
	}
	if c.a.inputs == nil {
		for i := range p {
			if err := c.convert(p[i].W, p[i].R); err != nil {
				return fmt.Errorf("transfer %d: %w", i, err)
			}
		}
		c.charge(len(p), n)
		return nil
	}
	// The whole message is converted at one mux address: read its
	// channels together.
	chs, vals := c.chs[:], c.vals[:]
	for start := 0; start < len(p); start += maxBatch {
		part := p[start:min(len(p), start+maxBatch)]
		for i := range part {
			ch, err := c.command(part[i].W, part[i].R)
			if err != nil {
				return fmt.Errorf("transfer %d: %w", start+i, err)
			}
			chs[i] = ch
		}
		c.a.inputs(chs[:len(part)], vals[:len(part)])
		for i := range part {
			c.answer(vals[i], part[i].R)
		}
	}
	c.a.mu.Lock()
	c.a.conv += len(p)
	c.a.mu.Unlock()
	c.charge(len(p), n)
	return nil
}

// maxBatch is how many conversions of a message are read together.
const maxBatch = 16

// command decodes a conversion command and checks its read buffer.
func (c *adcConn) command(w, r []byte) (int, error) {
	ch, ok := mcp3x08.ParseCommand(c.a.variant, w)
	if !ok {
		return 0, fmt.Errorf("sim: %s: % x is not a single-ended conversion command", c.a, w)
	}
	if len(r) != len(w) {
		return 0, fmt.Errorf("sim: %s: read buffer of %d bytes for a %d-byte transfer", c.a, len(r), len(w))
	}
	return ch, nil
}

// answer writes reading v into r as the chip shifts it out.
func (c *adcConn) answer(v uint16, r []byte) {
	if top := c.a.variant.MaxCount(); v > top {
		v = top
	}
	out := mcp3x08.Encode(c.a.variant, v)
	// The chip drives MISO only after the null bit; before that the line
	// floats, which a pull-up reads as ones. The driver must mask them.
	if c.a.variant == mcp3x08.MCP3208 {
		out[0], out[1] = 0xFF, out[1]|0xE0
	} else {
		out[0], out[1] = 0xFF, out[1]|0xF8
	}
	copy(r, out[:])
}

func (c *adcConn) convert(w, r []byte) error {
	ch, err := c.command(w, r)
	if err != nil {
		return err
	}
	c.answer(c.a.input(ch), r)
	c.a.mu.Lock()
	c.a.conv++
	c.a.mu.Unlock()
	return nil
}

var _ spi.PortCloser = (*ADC)(nil)

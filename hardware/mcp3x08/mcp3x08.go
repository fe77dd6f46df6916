package mcp3x08

import (
	"errors"
	"fmt"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// Variant is the chip model. The two models differ in resolution, command
// framing and top clock rate.
type Variant uint8

// The supported chips.
const (
	MCP3008 Variant = iota // 10 bits
	MCP3208                // 12 bits
)

// Channels is the number of single-ended inputs on either chip.
const Channels = 8

// String returns the chip's part number.
func (v Variant) String() string {
	switch v {
	case MCP3008:
		return "MCP3008"
	case MCP3208:
		return "MCP3208"
	}
	return fmt.Sprintf("Variant(%d)", uint8(v))
}

// Bits is the resolution of a conversion.
func (v Variant) Bits() int {
	if v == MCP3208 {
		return 12
	}
	return 10
}

// MaxCount is the largest raw reading, the code for VRef.
func (v Variant) MaxCount() uint16 { return 1<<v.Bits() - 1 }

// ParseVariant parses "mcp3008" or "mcp3208" (any case).
func ParseVariant(s string) (Variant, error) {
	switch s {
	case "mcp3008", "MCP3008", "3008":
		return MCP3008, nil
	case "mcp3208", "MCP3208", "3208":
		return MCP3208, nil
	}
	return 0, fmt.Errorf("mcp3x08: unknown chip %q (want mcp3008 or mcp3208)", s)
}

// Opts configures a Dev.
type Opts struct {
	// Variant is the chip on the bus.
	Variant Variant
	// Freq is the SPI clock. The datasheets rate the MCP3008 at 1.35 MHz and
	// the MCP3208 at 1 MHz with VDD = 2.7 V, twice that at 5 V. Zero picks
	// the 2.7 V rating, which is safe at the Pi's 3.3 V.
	Freq physic.Frequency
	// VRef is the reference voltage wired to the chip's VREF pin. It only
	// matters for Read, which converts counts to a potential.
	VRef physic.ElectricPotential
}

// DefaultOpts is an MCP3008 at its 2.7 V clock rating with a 3.3 V reference.
var DefaultOpts = Opts{Variant: MCP3008, VRef: 3300 * physic.MilliVolt}

// maxFreq is each chip's clock rating at VDD = 2.7 V (MCP3008 datasheet
// DS21295, MCP3208 datasheet DS21298: "Clock Frequency fCLK").
func maxFreq(v Variant) physic.Frequency {
	if v == MCP3208 {
		return physic.MegaHertz
	}
	return 1350 * physic.KiloHertz
}

// MaxFreq is the highest SPI clock the chip is rated for, at VDD = 5 V:
// 3.6 MHz for the MCP3008, 2 MHz for the MCP3208. See MaxFreqAt.
func (v Variant) MaxFreq() physic.Frequency {
	if v == MCP3208 {
		return 2 * physic.MegaHertz
	}
	return 3600 * physic.KiloHertz
}

// MaxFreqAt is the clock rating at supply vdd. The datasheets give it at
// 5 V and at 2.7 V only, so anything below 4.75 V (5 V less 5 %) gets the
// 2.7 V rating: at the Pi's 3.3 V, 1.35 MHz (MCP3008) and 1 MHz (MCP3208).
// Below 2.7 V the chips are not specified at all: 0.
func (v Variant) MaxFreqAt(vdd physic.ElectricPotential) physic.Frequency {
	switch {
	case vdd >= 4750*physic.MilliVolt:
		return v.MaxFreq()
	case vdd >= 2700*physic.MilliVolt:
		return maxFreq(v)
	}
	return 0
}

// Dev is an open MCP3008 or MCP3208. It is not safe for concurrent use: the
// scanner owns it.
type Dev struct {
	c       spi.Conn
	variant Variant
	vref    physic.ElectricPotential
	name    string
	// w and r are reused so that a conversion does not allocate.
	w, r [3]byte
	// bw, br and pk are ReadBatch's message, reused likewise.
	bw, br [3 * Channels]byte
	pk     [Channels]spi.Packet
	batch  batchMode
}

// batchMode is whether the bus takes a whole batch in one message.
type batchMode uint8

const (
	batchUnknown batchMode = iota // not tried yet
	batchPackets                  // TxPackets works: one ioctl per batch
	batchTx                       // TxPackets is not implemented (periph's fakes): one Tx per conversion
)

// New connects to the chip on p. Mode 0 is used; both chips also accept
// mode 3.
func New(p spi.Port, o *Opts) (*Dev, error) {
	if o == nil {
		o = &DefaultOpts
	}
	if o.Variant != MCP3008 && o.Variant != MCP3208 {
		return nil, fmt.Errorf("mcp3x08: unknown variant %d", o.Variant)
	}
	f := o.Freq
	if f == 0 {
		f = maxFreq(o.Variant)
	}
	if f < 0 || f > o.Variant.MaxFreq() {
		return nil, fmt.Errorf("mcp3x08: %s cannot run at %s (max %s at 5 V)", o.Variant, f, o.Variant.MaxFreq())
	}
	c, err := p.Connect(f, spi.Mode0, 8)
	if err != nil {
		return nil, fmt.Errorf("mcp3x08: %w", err)
	}
	return &Dev{c: c, variant: o.Variant, vref: o.VRef, name: fmt.Sprintf("%s{%s}", o.Variant, c)}, nil
}

// ErrChannel is returned for a channel outside 0–7.
var ErrChannel = errors.New("mcp3x08: channel out of range 0-7")

// ReadRaw converts one single-ended channel and returns the raw count, 0 to
// Variant.MaxCount. It does not allocate.
func (d *Dev) ReadRaw(ch int) (uint16, error) {
	if ch < 0 || ch >= Channels {
		return 0, ErrChannel
	}
	d.w = Command(d.variant, ch)
	if err := d.c.Tx(d.w[:], d.r[:]); err != nil {
		return 0, fmt.Errorf("mcp3x08: channel %d: %w", ch, err)
	}
	return Decode(d.variant, d.r), nil
}

// ReadBatch converts channels chs into dst (len ≥ len(chs)), Channels at
// a time in one bus message (conn.TxPackets): on spidev, one ioctl of
// several transfers with the chip select raised between them, which is
// what starts each conversion. A scan then pays the ioctl's fixed cost
// (tens of µs on a Pi Zero) once per mux address instead of once per
// socket. A bus without TxPackets (periph's spitest fakes) gets one Tx
// per conversion. It does not allocate.
func (d *Dev) ReadBatch(chs []int, dst []uint16) error {
	if len(dst) < len(chs) {
		return fmt.Errorf("mcp3x08: %d results for %d channels", len(dst), len(chs))
	}
	for start := 0; start < len(chs); start += Channels {
		end := min(start+Channels, len(chs))
		if err := d.batchOnce(chs[start:end], dst[start:end]); err != nil {
			return err
		}
	}
	return nil
}

func (d *Dev) batchOnce(chs []int, dst []uint16) error {
	for _, ch := range chs {
		if ch < 0 || ch >= Channels {
			return ErrChannel
		}
	}
	if d.batch != batchTx {
		n := len(chs)
		for i, ch := range chs {
			cmd := Command(d.variant, ch)
			copy(d.bw[3*i:3*i+3], cmd[:])
			// KeepCS false: CS rises after every conversion (spidev
			// cs_change), and its next falling edge starts the next one.
			d.pk[i] = spi.Packet{W: d.bw[3*i : 3*i+3], R: d.br[3*i : 3*i+3]}
		}
		err := d.c.TxPackets(d.pk[:n])
		if err == nil {
			d.batch = batchPackets
			for i := range chs {
				dst[i] = Decode(d.variant, [3]byte(d.br[3*i:3*i+3]))
			}
			return nil
		}
		if d.batch == batchPackets {
			return fmt.Errorf("mcp3x08: %d conversions from channel %d: %w", len(chs), chs[0], err)
		}
	}
	// TxPackets failed on first use: the bus may not implement it. If
	// conversions one by one work, keep to them.
	for i, ch := range chs {
		v, err := d.ReadRaw(ch)
		if err != nil {
			return err
		}
		dst[i] = v
	}
	d.batch = batchTx
	return nil
}

// Read converts one channel and scales it by VRef.
func (d *Dev) Read(ch int) (physic.ElectricPotential, error) {
	c, err := d.ReadRaw(ch)
	if err != nil {
		return 0, err
	}
	return CountsToPotential(c, d.variant.Bits(), d.vref), nil
}

// Variant returns the chip model.
func (d *Dev) Variant() Variant { return d.variant }

// String implements conn.Resource.
func (d *Dev) String() string { return d.name }

// Halt implements conn.Resource. The chips power down between conversions
// on their own (CS high), so there is nothing to stop.
func (d *Dev) Halt() error { return nil }

// Command returns the three bytes that start a single-ended conversion of
// channel ch (0–7) on chip v. See the package documentation for the framing.
func Command(v Variant, ch int) [3]byte {
	c := byte(ch) & 7
	if v == MCP3208 {
		// 5 leading zeros, start, SGL, D2 | D1 D0 then don't-cares.
		return [3]byte{0x06 | c>>2, (c & 3) << 6, 0}
	}
	// 7 leading zeros, start | SGL, D2 D1 D0 then don't-cares.
	return [3]byte{0x01, 0x80 | c<<4, 0}
}

// Decode extracts the conversion result from the three bytes read back while
// Command was being sent. The bits before the result are undriven (the
// chip's output is high impedance) and are masked off.
func Decode(v Variant, r [3]byte) uint16 {
	if v == MCP3208 {
		return uint16(r[1]&0x0F)<<8 | uint16(r[2])
	}
	return uint16(r[1]&0x03)<<8 | uint16(r[2])
}

// Encode is the inverse of Decode: the bytes a chip clocks out for count. A
// simulator uses it; the unused high bits are zero.
func Encode(v Variant, count uint16) [3]byte {
	if v == MCP3208 {
		return [3]byte{0, byte(count>>8) & 0x0F, byte(count)}
	}
	return [3]byte{0, byte(count>>8) & 0x03, byte(count)}
}

// ParseCommand is the inverse of Command: it returns the channel that w
// asks to convert, and false if w is not a single-ended conversion command
// for chip v. A simulator uses it.
func ParseCommand(v Variant, w []byte) (ch int, ok bool) {
	if len(w) != 3 {
		return 0, false
	}
	if v == MCP3208 {
		if w[0]&0xFE != 0x06 {
			return 0, false
		}
		return int(w[0]&1)<<2 | int(w[1]>>6), true
	}
	if w[0] != 0x01 || w[1]&0x80 == 0 {
		return 0, false
	}
	return int(w[1]>>4) & 7, true
}

// CountsToPotential converts a raw count of an n-bit converter to a
// potential: count / 2ⁿ × VRef, as in the datasheets' transfer function.
func CountsToPotential(count uint16, bits int, vref physic.ElectricPotential) physic.ElectricPotential {
	return physic.ElectricPotential(int64(count) * int64(vref) >> uint(bits))
}

var _ conn.Resource = (*Dev)(nil)

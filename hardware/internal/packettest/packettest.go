// Package packettest is a playback SPI port that, unlike periph's
// spitest.Playback, implements TxPackets: each expected op is one bus
// message (one spidev ioctl) of one or more transfers, so that a test can
// check that a driver batches its conversions and raises the chip select
// between them.
//
// Layer: drivers. May import: base, game, drivers.
package packettest

import (
	"bytes"
	"fmt"
	"sync"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// Playback replays Ops in order: Ops[i] is the i-th message, one IO per
// transfer (W what must be written, R what is read back). Every transfer
// but a message's last must release the chip select (KeepCS false).
type Playback struct {
	Ops [][]conntest.IO

	mu       sync.Mutex
	count    int
	freq     physic.Frequency
	mode     spi.Mode
	messages int
}

func (p *Playback) String() string                      { return "packettest" }
func (p *Playback) Close() error                        { return p.Done() }
func (p *Playback) LimitSpeed(f physic.Frequency) error { return nil }
func (p *Playback) Duplex() conn.Duplex                 { return conn.Full }

// Connect implements spi.Port.
func (p *Playback) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.freq, p.mode = f, mode
	return p, nil
}

// Tx implements spi.Conn as a message of one transfer.
func (p *Playback) Tx(w, r []byte) error {
	return p.TxPackets([]spi.Packet{{W: w, R: r}})
}

// TxPackets implements spi.Conn.
func (p *Playback) TxPackets(pk []spi.Packet) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.count >= len(p.Ops) {
		return fmt.Errorf("packettest: message %d: no more expected (got %d transfers)", p.count, len(pk))
	}
	want := p.Ops[p.count]
	if len(pk) != len(want) {
		return fmt.Errorf("packettest: message %d: %d transfers; want %d", p.count, len(pk), len(want))
	}
	for i := range pk {
		if !bytes.Equal(pk[i].W, want[i].W) {
			return fmt.Errorf("packettest: message %d transfer %d: wrote % x; want % x", p.count, i, pk[i].W, want[i].W)
		}
		if len(pk[i].R) != len(want[i].R) {
			return fmt.Errorf("packettest: message %d transfer %d: read buffer of %d bytes; want %d", p.count, i, len(pk[i].R), len(want[i].R))
		}
		if pk[i].KeepCS && i < len(pk)-1 {
			return fmt.Errorf("packettest: message %d transfer %d keeps CS asserted: the next conversion would not start", p.count, i)
		}
		copy(pk[i].R, want[i].R)
	}
	p.count++
	p.messages++
	return nil
}

// Messages is the number of messages (ioctls) replayed.
func (p *Playback) Messages() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.messages
}

// Done reports an error when expected messages were not sent.
func (p *Playback) Done() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.count != len(p.Ops) {
		return fmt.Errorf("packettest: %d of %d messages sent", p.count, len(p.Ops))
	}
	return nil
}

var _ spi.PortCloser = (*Playback)(nil)
var _ spi.Conn = (*Playback)(nil)

package scan_test

import (
	"testing"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/hc4067"
	"github.com/zertzboard/zertzboard/hardware/mcp3x08"
	"github.com/zertzboard/zertzboard/hardware/scan"
	"github.com/zertzboard/zertzboard/sensors/classify"
)

// freePort is an SPI bus that costs nothing and answers mid-scale, to
// measure the CPU work of a scan without bus time.
type freePort struct{}

func (freePort) String() string { return "free" }
func (freePort) Connect(physic.Frequency, spi.Mode, int) (spi.Conn, error) {
	return freeConn{}, nil
}

type freeConn struct{}

func (freeConn) String() string      { return "free" }
func (freeConn) Duplex() conn.Duplex { return conn.Full }
func (freeConn) TxPackets(p []spi.Packet) error {
	for i := range p {
		p[i].R[1], p[i].R[2] = 0x08, 0x00
	}
	return nil
}
func (freeConn) Tx(w, r []byte) error {
	r[1], r[2] = 0x08, 0x00 // 2048 on an MCP3208
	return nil
}

// BenchmarkScanClassify61 is the CPU cost per frame of the whole sensing
// path on the reference wiring, bus time excluded: real mcp3x08 and hc4067
// drivers (no settle wait, batched conversions), the scanner, and the
// classifier. Each Pi's bus and ioctl time is BenchmarkScan in rig.
func BenchmarkScanClassify61(b *testing.B) {
	adc, err := mcp3x08.New(freePort{}, &mcp3x08.Opts{Variant: mcp3x08.MCP3208})
	if err != nil {
		b.Fatal(err)
	}
	var sel [4]gpio.PinOut
	for i := range sel {
		sel[i] = &gpiotest.Pin{N: "S"}
	}
	mux, err := hc4067.New(sel, nil, &hc4067.Opts{Settle: 0})
	if err != nil {
		b.Fatal(err)
	}
	base := engine.MustStandardBoard("61")
	slots := make([]scan.Slot, base.Len())
	for i := range slots {
		slots[i] = scan.Slot{ADC: 0, Channel: i / 16, MuxAddr: i % 16}
	}
	s, err := scan.New([]scan.ADC{adc}, mux, slots, nil)
	if err != nil {
		b.Fatal(err)
	}
	cal := &classify.Calibration{Base: base, Bits: 12, Hysteresis: 8, Sockets: make([]classify.Bands, base.Len())}
	for i := range cal.Sockets {
		cal.Sockets[i] = classify.Bands{
			{Lo: 1950, Ref: 2048, Hi: 2150}, {Lo: 1700, Ref: 1800, Hi: 1900}, {Lo: 1200, Ref: 1350, Hi: 1500},
			{Lo: 2350, Ref: 2500, Hi: 2650}, {Lo: 2900, Ref: 3100, Hi: 3300},
		}
	}
	cls := classify.New(cal)
	raw := make([]uint16, base.Len())
	out := make([]engine.Content, base.Len())
	b.ReportAllocs()
	for b.Loop() {
		if err := s.ScanOnce(raw); err != nil {
			b.Fatal(err)
		}
		if err := cls.Classify(out, raw); err != nil {
			b.Fatal(err)
		}
	}
	if out[0] != engine.NoRing {
		b.Fatalf("classified %c; want .", out[0])
	}
}

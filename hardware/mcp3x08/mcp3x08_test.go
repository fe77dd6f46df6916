package mcp3x08

import (
	"slices"
	"testing"

	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"

	"github.com/zertzboard/zertzboard/hardware/internal/packettest"
)

// The bytes below come from figure 6-1 of each datasheet, not from the code:
// MCP3008 channel 5 is start=1, SGL=1, D2..D0=101; MCP3208 channel 5 the
// same bits, shifted so that the start bit is the 6th bit of byte 0.

func TestReadRawMCP3008Playback(t *testing.T) {
	p := &spitest.Playback{Playback: conntest.Playback{DontPanic: true, Ops: []conntest.IO{
		{W: []byte{0x01, 0xD0, 0x00}, R: []byte{0xFF, 0xFA, 0x5A}}, // ch5: null bit 0, B9 B8 = 10, 0x5A
		{W: []byte{0x01, 0x80, 0x00}, R: []byte{0x00, 0x00, 0x00}}, // ch0: 0
		{W: []byte{0x01, 0xF0, 0x00}, R: []byte{0x00, 0x03, 0xFF}}, // ch7: full scale
	}}}
	d, err := New(p, &Opts{Variant: MCP3008, VRef: 3300 * physic.MilliVolt})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ch   int
		want uint16
	}{{5, 0x25A}, {0, 0}, {7, 1023}} {
		got, err := d.ReadRaw(tc.ch)
		if err != nil {
			t.Fatalf("ReadRaw(%d): %v", tc.ch, err)
		}
		if got != tc.want {
			t.Errorf("ReadRaw(%d) = %#x; want %#x", tc.ch, got, tc.want)
		}
	}
	if err := p.Close(); err != nil {
		t.Error(err)
	}
}

func TestReadRawMCP3208Playback(t *testing.T) {
	p := &spitest.Playback{Playback: conntest.Playback{DontPanic: true, Ops: []conntest.IO{
		{W: []byte{0x07, 0x40, 0x00}, R: []byte{0xFF, 0xEA, 0xBC}}, // ch5 = 1|01: null bit 0, B11..B8 = 1010
		{W: []byte{0x06, 0x00, 0x00}, R: []byte{0x00, 0x00, 0x01}}, // ch0
		{W: []byte{0x07, 0xC0, 0x00}, R: []byte{0x00, 0x0F, 0xFF}}, // ch7
		{W: []byte{0x06, 0x80, 0x00}, R: []byte{0x00, 0x08, 0x00}}, // ch2, mid scale
	}}}
	d, err := New(p, &Opts{Variant: MCP3208, VRef: 3300 * physic.MilliVolt})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ch   int
		want uint16
	}{{5, 0xABC}, {0, 1}, {7, 4095}} {
		got, err := d.ReadRaw(tc.ch)
		if err != nil {
			t.Fatalf("ReadRaw(%d): %v", tc.ch, err)
		}
		if got != tc.want {
			t.Errorf("ReadRaw(%d) = %#x; want %#x", tc.ch, got, tc.want)
		}
	}
	v, err := d.Read(2)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1650 * physic.MilliVolt; v != want {
		t.Errorf("Read(2) = %s; want %s", v, want)
	}
	if err := p.Close(); err != nil {
		t.Error(err)
	}
}

func TestReadRawErrors(t *testing.T) {
	p := &spitest.Playback{Playback: conntest.Playback{DontPanic: true}}
	d, err := New(p, &Opts{Variant: MCP3208})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.ReadRaw(8); err != ErrChannel {
		t.Errorf("ReadRaw(8) error = %v; want ErrChannel", err)
	}
	if _, err := d.ReadRaw(-1); err != ErrChannel {
		t.Errorf("ReadRaw(-1) error = %v; want ErrChannel", err)
	}
	// The playback has no more operations: the bus error must surface.
	if _, err := d.ReadRaw(1); err == nil {
		t.Error("ReadRaw(1) on an exhausted bus: want an error")
	}
}

func TestNewRejects(t *testing.T) {
	for _, o := range []Opts{
		{Variant: 7},
		{Variant: MCP3208, Freq: 5 * physic.MegaHertz},
		{Variant: MCP3008, Freq: -1},
	} {
		p := &spitest.Playback{Playback: conntest.Playback{DontPanic: true}}
		if _, err := New(p, &o); err == nil {
			t.Errorf("New(%+v): want an error", o)
		}
	}
}

func TestCommand(t *testing.T) {
	for _, tc := range []struct {
		v    Variant
		ch   int
		want [3]byte
	}{
		{MCP3008, 0, [3]byte{0x01, 0x80, 0}},
		{MCP3008, 1, [3]byte{0x01, 0x90, 0}},
		{MCP3008, 4, [3]byte{0x01, 0xC0, 0}},
		{MCP3008, 7, [3]byte{0x01, 0xF0, 0}},
		{MCP3208, 0, [3]byte{0x06, 0x00, 0}},
		{MCP3208, 1, [3]byte{0x06, 0x40, 0}},
		{MCP3208, 3, [3]byte{0x06, 0xC0, 0}},
		{MCP3208, 4, [3]byte{0x07, 0x00, 0}},
		{MCP3208, 6, [3]byte{0x07, 0x80, 0}},
	} {
		if got := Command(tc.v, tc.ch); got != tc.want {
			t.Errorf("Command(%s, %d) = % x; want % x", tc.v, tc.ch, got, tc.want)
		}
		ch, ok := ParseCommand(tc.v, tc.want[:])
		if !ok || ch != tc.ch {
			t.Errorf("ParseCommand(%s, % x) = %d, %t; want %d, true", tc.v, tc.want, ch, ok, tc.ch)
		}
	}
}

func TestParseCommandRejects(t *testing.T) {
	for _, tc := range []struct {
		v Variant
		w []byte
	}{
		{MCP3008, []byte{0x01, 0x00, 0}}, // differential
		{MCP3008, []byte{0x06, 0x00, 0}}, // an MCP3208 command
		{MCP3208, []byte{0x04, 0x00, 0}}, // differential
		{MCP3208, []byte{0x01, 0x80, 0}}, // an MCP3008 command
		{MCP3208, []byte{0x06, 0x00}},    // short
	} {
		if ch, ok := ParseCommand(tc.v, tc.w); ok {
			t.Errorf("ParseCommand(%s, % x) = %d, true; want false", tc.v, tc.w, ch)
		}
	}
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		v    Variant
		r    [3]byte
		want uint16
	}{
		{MCP3008, [3]byte{0xFF, 0xFC, 0x00}, 0},     // undriven bits high
		{MCP3008, [3]byte{0x00, 0x01, 0x00}, 256},   // B8
		{MCP3008, [3]byte{0xFF, 0xFF, 0xFF}, 1023},  // full scale
		{MCP3208, [3]byte{0xFF, 0xF0, 0x00}, 0},     // undriven bits high
		{MCP3208, [3]byte{0x00, 0x08, 0x00}, 2048},  // B11
		{MCP3208, [3]byte{0xFF, 0xFF, 0xFF}, 4095},  // full scale
		{MCP3208, [3]byte{0x00, 0x01, 0x23}, 0x123}, // B8 and low byte
	} {
		if got := Decode(tc.v, tc.r); got != tc.want {
			t.Errorf("Decode(%s, % x) = %d; want %d", tc.v, tc.r, got, tc.want)
		}
		if got := Decode(tc.v, Encode(tc.v, tc.want)); got != tc.want {
			t.Errorf("Decode(Encode(%s, %d)) = %d", tc.v, tc.want, got)
		}
	}
}

func TestCountsToPotential(t *testing.T) {
	for _, tc := range []struct {
		count uint16
		bits  int
		vref  physic.ElectricPotential
		want  physic.ElectricPotential
	}{
		{0, 10, 3300 * physic.MilliVolt, 0},
		{512, 10, 3300 * physic.MilliVolt, 1650 * physic.MilliVolt},
		{2048, 12, 5 * physic.Volt, 2500 * physic.MilliVolt},
		{4095, 12, 4096 * physic.MilliVolt, 4095 * physic.MilliVolt},
	} {
		if got := CountsToPotential(tc.count, tc.bits, tc.vref); got != tc.want {
			t.Errorf("CountsToPotential(%d, %d, %s) = %s; want %s", tc.count, tc.bits, tc.vref, got, tc.want)
		}
	}
}

func TestParseVariant(t *testing.T) {
	for s, want := range map[string]Variant{"mcp3008": MCP3008, "MCP3208": MCP3208} {
		if got, err := ParseVariant(s); err != nil || got != want {
			t.Errorf("ParseVariant(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if _, err := ParseVariant("mcp3004"); err == nil {
		t.Error(`ParseVariant("mcp3004"): want an error`)
	}
}

func BenchmarkReadRaw(b *testing.B) {
	d, err := New(&spitest.Playback{Playback: conntest.Playback{DontPanic: true}}, &Opts{Variant: MCP3208})
	if err != nil {
		b.Fatal(err)
	}
	d.c = discardConn{}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.ReadRaw(3); err != nil {
			b.Fatal(err)
		}
	}
}

// connectArgs records what the driver asks of the port.
type connectArgs struct {
	spitest.Playback
	f    physic.Frequency
	mode spi.Mode
	bits int
}

func (c *connectArgs) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	c.f, c.mode, c.bits = f, mode, bits
	return c.Playback.Connect(f, mode, bits)
}

func TestConnectParameters(t *testing.T) {
	for _, tc := range []struct {
		o    Opts
		want physic.Frequency
	}{
		{Opts{Variant: MCP3008}, 1350 * physic.KiloHertz},
		{Opts{Variant: MCP3208}, physic.MegaHertz},
		{Opts{Variant: MCP3208, Freq: 2 * physic.MegaHertz}, 2 * physic.MegaHertz},
	} {
		p := &connectArgs{}
		if _, err := New(p, &tc.o); err != nil {
			t.Fatal(err)
		}
		if p.f != tc.want || p.mode != spi.Mode0 || p.bits != 8 {
			t.Errorf("New(%+v) connected at %s, %s, %d bits; want %s, Mode0, 8 bits", tc.o, p.f, p.mode, p.bits, tc.want)
		}
	}
}

// TestReadBatchPlayback: the four channels behind one mux address go out
// as one message of four 3-byte transfers (one spidev ioctl), with the
// chip select raised between them; nine channels take two messages.
func TestReadBatchPlayback(t *testing.T) {
	io := func(ch int, count uint16) conntest.IO {
		w := Command(MCP3208, ch)
		r := Encode(MCP3208, count)
		r[0] = 0xFF // undriven
		return conntest.IO{W: w[:], R: r[:]}
	}
	p := &packettest.Playback{Ops: [][]conntest.IO{
		{io(0, 100), io(1, 2048), io(2, 4095), io(3, 7)},
		{io(0, 1), io(1, 2), io(2, 3), io(3, 4), io(4, 5), io(5, 6), io(6, 7), io(7, 8)},
		{io(0, 9)},
	}}
	d, err := New(p, &Opts{Variant: MCP3208})
	if err != nil {
		t.Fatal(err)
	}
	got := make([]uint16, 9)
	if err := d.ReadBatch([]int{0, 1, 2, 3}, got); err != nil {
		t.Fatal(err)
	}
	if want := []uint16{100, 2048, 4095, 7}; !slices.Equal(got[:4], want) {
		t.Errorf("ReadBatch = %v; want %v", got[:4], want)
	}
	if err := d.ReadBatch([]int{0, 1, 2, 3, 4, 5, 6, 7, 0}, got); err != nil {
		t.Fatal(err)
	}
	if want := []uint16{1, 2, 3, 4, 5, 6, 7, 8, 9}; !slices.Equal(got, want) {
		t.Errorf("ReadBatch = %v; want %v", got, want)
	}
	if err := p.Done(); err != nil {
		t.Error(err)
	}
	if p.Messages() != 3 {
		t.Errorf("%d ioctls; want 3", p.Messages())
	}
	q := &packettest.Playback{Ops: make([][]conntest.IO, 11)}
	for i := range q.Ops {
		q.Ops[i] = []conntest.IO{io(0, 1), io(1, 2)}
	}
	dq, _ := New(q, &Opts{Variant: MCP3208})
	if n := testing.AllocsPerRun(10, func() { _ = dq.ReadBatch([]int{0, 1}, got) }); n != 0 {
		t.Errorf("ReadBatch allocates %v times", n)
	}
}

// TestReadBatchFallsBackToTx: periph's spitest fakes have no TxPackets;
// ReadBatch then converts one channel per Tx and keeps to that.
func TestReadBatchFallsBackToTx(t *testing.T) {
	p := &spitest.Playback{Playback: conntest.Playback{DontPanic: true, Ops: []conntest.IO{
		{W: []byte{0x06, 0x00, 0x00}, R: []byte{0x00, 0x00, 0x01}}, // ch0
		{W: []byte{0x06, 0x80, 0x00}, R: []byte{0x00, 0x08, 0x00}}, // ch2
		{W: []byte{0x06, 0x40, 0x00}, R: []byte{0x00, 0x00, 0x05}}, // ch1
	}}}
	d, err := New(p, &Opts{Variant: MCP3208})
	if err != nil {
		t.Fatal(err)
	}
	got := make([]uint16, 2)
	if err := d.ReadBatch([]int{0, 2}, got); err != nil {
		t.Fatal(err)
	}
	if got[0] != 1 || got[1] != 0x800 {
		t.Errorf("ReadBatch = %v; want [1 2048]", got)
	}
	if err := d.ReadBatch([]int{1}, got); err != nil || got[0] != 5 {
		t.Errorf("ReadBatch = %v, %v; want [5]", got[:1], err)
	}
	if err := p.Close(); err != nil {
		t.Error(err)
	}
}

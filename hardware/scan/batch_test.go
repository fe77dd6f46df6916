package scan_test

import (
	"testing"

	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"github.com/zertzboard/zertzboard/hardware/hc4067"
	"github.com/zertzboard/zertzboard/hardware/internal/packettest"
	"github.com/zertzboard/zertzboard/hardware/mcp3x08"
	"github.com/zertzboard/zertzboard/hardware/scan"
)

// TestScanBatchesPerMuxAddress replays a scan of seven sockets on two
// MCP3208s behind two mux addresses, plus one direct socket: each ADC gets
// one message per address with all its channels there (the direct socket
// first), so the scan is five ioctls, not eight.
func TestScanBatchesPerMuxAddress(t *testing.T) {
	io := func(ch int, count uint16) conntest.IO {
		w := mcp3x08.Command(mcp3x08.MCP3208, ch)
		r := mcp3x08.Encode(mcp3x08.MCP3208, count)
		return conntest.IO{W: w[:], R: r[:]}
	}
	p0 := &packettest.Playback{Ops: [][]conntest.IO{
		{io(7, 70)},                    // direct socket 6
		{io(0, 1), io(1, 2), io(3, 3)}, // address 2: sockets 0, 1, 2
		{io(0, 11)},                    // address 5: socket 3
	}}
	p1 := &packettest.Playback{Ops: [][]conntest.IO{
		{io(2, 4)},             // address 2: socket 4
		{io(2, 14), io(4, 15)}, // address 5: socket 5 and 7
	}}
	a0, err := mcp3x08.New(p0, &mcp3x08.Opts{Variant: mcp3x08.MCP3208})
	if err != nil {
		t.Fatal(err)
	}
	a1, err := mcp3x08.New(p1, &mcp3x08.Opts{Variant: mcp3x08.MCP3208})
	if err != nil {
		t.Fatal(err)
	}
	var sel [4]gpio.PinOut
	pins := make([]*gpiotest.Pin, 4)
	for i := range sel {
		pins[i] = &gpiotest.Pin{N: "S"}
		sel[i] = pins[i]
	}
	mux, err := hc4067.New(sel, nil, &hc4067.Opts{})
	if err != nil {
		t.Fatal(err)
	}
	slots := []scan.Slot{
		{ADC: 0, Channel: 0, MuxAddr: 2}, {ADC: 0, Channel: 1, MuxAddr: 2}, {ADC: 0, Channel: 3, MuxAddr: 2},
		{ADC: 0, Channel: 0, MuxAddr: 5}, {ADC: 1, Channel: 2, MuxAddr: 2}, {ADC: 1, Channel: 2, MuxAddr: 5},
		{ADC: 0, Channel: 7, MuxAddr: -1}, {ADC: 1, Channel: 4, MuxAddr: 5},
	}
	s, err := scan.New([]scan.ADC{a0, a1}, mux, slots, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Messages() != 5 {
		t.Errorf("Messages() = %d; want 5", s.Messages())
	}
	got := make([]uint16, len(slots))
	if err := s.ScanOnce(got); err != nil {
		t.Fatal(err)
	}
	want := []uint16{1, 2, 3, 11, 4, 14, 70, 15}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("socket %d = %d; want %d", i, got[i], want[i])
		}
	}
	for _, p := range []*packettest.Playback{p0, p1} {
		if err := p.Done(); err != nil {
			t.Error(err)
		}
	}
	if n := p0.Messages() + p1.Messages(); n != 5 {
		t.Errorf("%d ioctls; want 5", n)
	}
	if mux.Address() != 5 {
		t.Errorf("mux left at %d; want 5", mux.Address())
	}
}

package sim

import (
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/leds"
	"github.com/zertzboard/zertzboard/hardware/mcp3x08"
	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/hardware/timebase"
	"github.com/zertzboard/zertzboard/hardware/wiring"
)

func TestHardwareRoutesTheMux(t *testing.T) {
	w := wiring.Reference()
	o := DefaultBoardOpts
	o.Noise, o.Spread, o.Crosstalk, o.Gain = 0, 0, 0, 0
	b := NewBoard(w.Base, &o)
	h, err := New(w, b)
	if err != nil {
		t.Fatal(err)
	}
	e5, _ := w.Base.ParseCell("E5")
	b.Set(e5, engine.BlackMarble)
	so := w.Sockets[e5]
	for i, n := range w.Mux.Select {
		h.Pin(n).Out(gpio.Level(so.MuxAddr>>i&1 != 0))
	}
	h.Pin(w.Mux.Enable).Out(gpio.Low)
	p, err := h.SPI("SPI1.0")
	if err != nil {
		t.Fatal(err)
	}
	d, err := mcp3x08.New(p, &mcp3x08.Opts{Variant: mcp3x08.MCP3208})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := d.ReadRaw(so.Channel); float64(v) != DefaultLevels[4] {
		t.Errorf("E5 through its mux address reads %d; want %.0f", v, DefaultLevels[4])
	}
	if v, _ := d.ReadRaw(7); float64(v) == DefaultLevels[4] || b.Reads(e5) != 1 {
		t.Errorf("an unused channel read %d and E5 was read %d times", v, b.Reads(e5))
	}
	// A disabled mux connects nothing.
	h.Pin(w.Mux.Enable).Out(gpio.High)
	d.ReadRaw(so.Channel)
	if b.Reads(e5) != 1 {
		t.Error("E5 was read through a disabled mux")
	}
}

func TestHardwareBuses(t *testing.T) {
	w := wiring.Reference()
	h, err := New(w, NewBoard(w.Base, nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.SPI("SPI1.0"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.SPI("SPI1.0"); err == nil {
		t.Error("SPI1.0 opened twice: want an error")
	}
	if _, err := h.SPI("SPI2.0"); err == nil {
		t.Error("SPI2.0 has nothing on it: want an error")
	}
	if _, err := h.I2C("I2C0"); err == nil {
		t.Error("I2C0 has nothing on it: want an error")
	}
	if _, err := h.GPIO("GPIO4"); err == nil {
		t.Error("GPIO4 is not wired: want an error")
	}
	if got := len(h.Pins()); got != 8 {
		t.Errorf("%d pins; want 8 (4 select, enable, 3 buttons)", got)
	}
	if _, err := New(w, NewBoard(engine.MustStandardBoard("37"), nil)); err == nil {
		t.Error("a 37 board for a 61 wiring: want an error")
	}
}

// firstReference is the first reference wiring, which no Pi 1-4 could
// start: WS2812 on the auxiliary SPI1, the ADC on SPI0, and the mux's S3
// on GPIO19, SPI1's MISO.
func firstReference(t *testing.T) *wiring.Wiring {
	t.Helper()
	s := string(wiring.ReferenceText())
	for _, r := range [][2]string{
		{"bus = SPI1.0\nchip", "bus = SPI0.0\nchip"},
		{"kind = ws2812\nbus = SPI0.0", "kind = ws2812\nbus = SPI1.0"},
		{"select = GPIO5 GPIO6 GPIO13 GPIO26", "select = GPIO5 GPIO6 GPIO13 GPIO19"},
	} {
		if !strings.Contains(s, r[0]) {
			t.Fatalf("reference wiring has no %q", r[0])
		}
		s = strings.Replace(s, r[0], r[1], 1)
	}
	w, err := wiring.Parse("first.wiring", strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestRefusesWhatTheKernelRefuses: on every Pi 1-4 model the WS2812 chain
// on the auxiliary SPI cannot connect (nrzled asks for mode 3; the aux
// controller has no CPHA), and GPIO19 is SPI1's MISO once spi1-1cs is on.
// The Pi 5's RP1 takes mode 3, but GPIO19 stays taken.
func TestRefusesWhatTheKernelRefuses(t *testing.T) {
	w := firstReference(t)
	for _, name := range []string{"zero", "zero2w", "3b", "4b", "5"} {
		t.Run(name, func(t *testing.T) {
			m, err := pi.ByName(name)
			if err != nil {
				t.Fatal(err)
			}
			h, err := NewWith(w, NewBoard(w.Base, nil), &Opts{Model: m})
			if err != nil {
				t.Fatal(err)
			}
			p, err := h.SPI("SPI1.0")
			if err != nil {
				t.Fatal(err)
			}
			_, err = leds.New(p, 61, &leds.Opts{Kind: leds.NRZ, Order: seqN(61), Brightness: 96, Gamma: 2.2})
			if aux := name != "5"; aux != (err != nil) {
				t.Errorf("WS2812 on SPI1: leds.New = %v; want an error: %v", err, aux)
			} else if aux && !strings.Contains(err.Error(), "no CPHA") {
				t.Errorf("WS2812 on SPI1: %v; want the missing CPHA named", err)
			}
			if _, err := h.GPIO("GPIO19"); err == nil || !strings.Contains(err.Error(), "SPI1 MISO (dtoverlay=spi1-1cs)") {
				t.Errorf("GPIO19 = %v; want it refused as SPI1 MISO", err)
			}
			if _, err := h.GPIO("GPIO5"); err != nil {
				t.Fatal(err)
			}
			if _, err := h.GPIO("GPIO5"); err == nil {
				t.Error("GPIO5 claimed twice: want an error")
			}
		})
	}
}

// TestBatchedConversionsAndTheirCost: one message converts several
// channels, each answered as the chip would; the model's ioctl, transfer
// and wire time is charged to the clock.
func TestBatchedConversionsAndTheirCost(t *testing.T) {
	w := wiring.Reference()
	o := DefaultBoardOpts
	o.Noise, o.Spread, o.Crosstalk, o.Gain = 0, 0, 0, 0
	b := NewBoard(w.Base, &o)
	zero, _ := pi.ByName("zero")
	clk := timebase.NewFake(time.Unix(0, 0))
	h, err := NewWith(w, b, &Opts{Model: zero, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range w.Mux.Select {
		if _, err := h.GPIO(n); err != nil {
			t.Fatal(err)
		}
	}
	p, err := h.SPI("SPI1.0")
	if err != nil {
		t.Fatal(err)
	}
	d, err := mcp3x08.New(p, &mcp3x08.Opts{Variant: mcp3x08.MCP3208, Freq: physic.MegaHertz})
	if err != nil {
		t.Fatal(err)
	}
	got := make([]uint16, 4)
	if err := d.ReadBatch([]int{0, 1, 2, 3}, got); err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if v != 2048 { // no ring on the sockets behind mux address 0
			t.Errorf("channel %d = %d; want 2048", i, v)
		}
	}
	// 70 µs ioctl + 3 × 12 µs transfers + 12 bytes × 8 clocks at 1 MHz,
	// and a jitter of 10 µs on average.
	if got, want := clk.Now().Sub(time.Unix(0, 0)), 70*time.Microsecond+36*time.Microsecond+96*time.Microsecond; got < want || got > want+100*time.Microsecond {
		t.Errorf("a 4-conversion message took %s on a Zero; want %s and a little jitter", got, want)
	}
	if h.Timing.Ioctls() != 1 {
		t.Errorf("%d ioctls; want 1", h.Timing.Ioctls())
	}
}

func seqN(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestTimingDraws: wake-up latencies and fsync times follow the model:
// mostly near the mean, with the tail and the stall at their rates.
func TestTimingDraws(t *testing.T) {
	m, _ := pi.ByName("3b")
	tm := NewTiming(m, nil, 1)
	const n = 20000
	var wakeSum, fsyncSum time.Duration
	tails, stalls := 0, 0
	for i := 0; i < n; i++ {
		w := tm.Wake()
		if w == m.Timing.WakeTail {
			tails++
		} else {
			wakeSum += w
		}
		f := tm.Fsync()
		if f == m.Timing.FsyncStall {
			stalls++
		} else {
			fsyncSum += f
		}
	}
	if mean := wakeSum / time.Duration(n-tails); mean < m.Timing.WakeMean*8/10 || mean > m.Timing.WakeMean*12/10 {
		t.Errorf("mean wake-up %s; want about %s", mean, m.Timing.WakeMean)
	}
	if tails < n/m.Timing.WakeTailEvery/2 || tails > 2*n/m.Timing.WakeTailEvery {
		t.Errorf("%d wake-up tails in %d; want about %d", tails, n, n/m.Timing.WakeTailEvery)
	}
	if mean := fsyncSum / time.Duration(n-stalls); mean < m.Timing.FsyncMean*8/10 || mean > m.Timing.FsyncMean*12/10 {
		t.Errorf("mean fsync %s; want about %s", mean, m.Timing.FsyncMean)
	}
	if stalls < n/200 || stalls > n/50 {
		t.Errorf("%d fsync stalls in %d; want about %d", stalls, n, n/100)
	}
}

// A stall holds the next SPI message for its length on the clock it is
// given, once: the scan stops, as a starved Pi's does.
func TestTimingStall(t *testing.T) {
	m, _ := pi.ByName("3b")
	tm := NewTiming(m, nil, 1) // no bus costs charged: only the stall
	clk := timebase.NewFake(time.Unix(0, 0))
	tm.Stall(400*time.Millisecond, clk)
	tm.ioctl(1, 3, physic.MegaHertz, 0)
	if got := clk.Slept(); got != 400*time.Millisecond {
		t.Fatalf("the message after a 400 ms stall slept %s", got)
	}
	tm.ioctl(1, 3, physic.MegaHertz, 0)
	if got := clk.Slept(); got != 400*time.Millisecond {
		t.Fatalf("the stall was charged twice: %s slept", got)
	}
}

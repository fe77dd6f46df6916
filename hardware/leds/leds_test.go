package leds

import (
	"image/color"
	"testing"

	"periph.io/x/conn/v3/spi/spitest"

	"github.com/zertzboard/zertzboard/sim"
)

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		gamma      float64
		brightness uint8
		v, want    byte
	}{
		{1, 255, 0, 0},
		{1, 255, 255, 255},
		{1, 255, 77, 77},
		{1, 128, 255, 128},
		{2.2, 255, 128, 56}, // 255·(128/255)^2.2 = 55.97
		{2.2, 255, 255, 255},
		{2.2, 96, 255, 96},
		{2.2, 0, 255, 0},
	} {
		if got := Table(tc.gamma, tc.brightness)[tc.v]; got != tc.want {
			t.Errorf("Table(%v, %d)[%d] = %d; want %d", tc.gamma, tc.brightness, tc.v, got, tc.want)
		}
	}
}

func TestChainOrderNRZ(t *testing.T) {
	chain := sim.NewLEDChain("SPI1.0", sim.NRZ, 3)
	// LED 0 is on socket 2, LED 1 on socket 0, LED 2 on socket 1.
	d, err := New(chain, 3, &Opts{Kind: NRZ, Order: []int{2, 0, 1}, Brightness: 255, Gamma: 1})
	if err != nil {
		t.Fatal(err)
	}
	d.Set(0, color.NRGBA{R: 255})
	d.Set(1, color.NRGBA{G: 255})
	d.Set(2, color.NRGBA{B: 255})
	if err := d.Show(); err != nil {
		t.Fatal(err)
	}
	want := []color.NRGBA{{0, 0, 255, 255}, {255, 0, 0, 255}, {0, 255, 0, 255}}
	got := chain.Colors()
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("LED %d = %v; want %v", i, got[i], want[i])
		}
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	for i, c := range chain.Colors() {
		if c.R|c.G|c.B != 0 {
			t.Errorf("LED %d lit after Halt: %v", i, c)
		}
	}
}

func TestBrightnessAPA102(t *testing.T) {
	chain := sim.NewLEDChain("SPI1.0", sim.APA102, 2)
	d, err := New(chain, 2, &Opts{Kind: APA102, Order: []int{0, 1}, Brightness: 128, Gamma: 1})
	if err != nil {
		t.Fatal(err)
	}
	d.SetAll(color.NRGBA{R: 255, G: 100, B: 0})
	if err := d.Show(); err != nil {
		t.Fatal(err)
	}
	for i, c := range chain.Colors() {
		if want := (color.NRGBA{128, 50, 0, 255}); c != want {
			t.Errorf("LED %d = %v; want %v", i, c, want)
		}
	}
}

func TestNewRejects(t *testing.T) {
	for _, o := range []Opts{
		{Kind: NRZ, Order: nil, Gamma: 1},
		{Kind: NRZ, Order: []int{0, 0}, Gamma: 1},
		{Kind: NRZ, Order: []int{5}, Gamma: 1},
		{Kind: NRZ, Order: []int{0}, Gamma: 0},
		{Kind: 9, Order: []int{0}, Gamma: 1},
	} {
		if _, err := New(&spitest.Playback{}, 3, &o); err == nil {
			t.Errorf("New(%+v): want an error", o)
		}
	}
}

type nopStrip struct{}

func (nopStrip) Write(p []byte) (int, error) { return len(p), nil }
func (nopStrip) Halt() error                 { return nil }
func (nopStrip) String() string              { return "nop" }

func TestShowDoesNotAllocate(t *testing.T) {
	d, err := New(sim.NewLEDChain("x", sim.NRZ, 61), 61, &Opts{Kind: NRZ, Order: seq(61), Brightness: 96, Gamma: 2.2})
	if err != nil {
		t.Fatal(err)
	}
	d.s = nopStrip{}
	if n := testing.AllocsPerRun(10, func() { _ = d.Show() }); n != 0 {
		t.Errorf("Show allocates %v times", n)
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

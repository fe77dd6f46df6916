package leds_test

import (
	"image/color"
	"testing"

	"periph.io/x/conn/v3/physic"

	"github.com/zertzboard/zertzboard/hardware/leds"
	"github.com/zertzboard/zertzboard/sim"
)

func TestChainOrderNRZ(t *testing.T) {
	chain := sim.NewLEDChain("SPI1.0", sim.NRZ, 3)
	// LED 0 is on socket 2, LED 1 on socket 0, LED 2 on socket 1.
	d, err := leds.New(chain, 3, &leds.Opts{Kind: leds.NRZ, Order: []int{2, 0, 1}, Brightness: 255, Gamma: 1})
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
	d, err := leds.New(chain, 2, &leds.Opts{Kind: leds.APA102, Order: []int{0, 1}, Brightness: 128, Gamma: 1})
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

// TestAPA102Speed: the wiring's speed reaches the bus (periph's apa102
// asks for 20 MHz; the port limit decides), and 0 means 4 MHz.
func TestAPA102Speed(t *testing.T) {
	for _, tc := range []struct{ set, want physic.Frequency }{
		{0, leds.DefaultAPA102Speed},
		{physic.MegaHertz, physic.MegaHertz},
	} {
		chain := sim.NewLEDChain("SPI1.0", sim.APA102, 2)
		if _, err := leds.New(chain, 2, &leds.Opts{Kind: leds.APA102, Order: []int{0, 1}, Brightness: 255, Gamma: 1, Speed: tc.set}); err != nil {
			t.Fatal(err)
		}
		if got := chain.Freq(); got != tc.want {
			t.Errorf("Speed %s: the bus runs at %s; want %s", tc.set, got, tc.want)
		}
	}
}

package open_test

import (
	"errors"
	"image/color"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"

	"github.com/zertzboard/zertzboard/hardware/open"
	"github.com/zertzboard/zertzboard/hardware/timebase"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/sim"
)

const reference = "../../firmware-config/reference-61.wiring"

func TestOpenReferenceOnSim(t *testing.T) {
	w, err := wiring.Load(reference)
	if err != nil {
		t.Fatal(err)
	}
	hw, err := sim.New(w, sim.NewBoard(w.Base, nil))
	if err != nil {
		t.Fatal(err)
	}
	r, err := open.Open(w, hw, &open.Opts{Clock: timebase.NewFake(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	if r.Bits() != 12 || r.Scanner.Len() != 61 || r.Mux == nil || r.LEDs == nil || r.Screen == nil || r.Buttons == nil {
		t.Fatalf("rig incomplete: %+v", r)
	}
	raw := make([]uint16, 61)
	if err := r.Scanner.ScanOnce(raw); err != nil {
		t.Fatal(err)
	}
	if got := hw.ADCs["SPI1.0"].Conversions(); got != 61 {
		t.Errorf("one scan made %d conversions; want 61", got)
	}
	// LED of socket E5 lights the LED the chain order says.
	e5, _ := w.Base.ParseCell("E5")
	r.LEDs.Set(int(e5), color.NRGBA{G: 255})
	if err := r.LEDs.Show(); err != nil {
		t.Fatal(err)
	}
	for i, c := range hw.LEDs.Colors() {
		if lit := c.G != 0; lit != (w.LEDs.Order[i] == e5) {
			t.Errorf("LED %d (socket %s) lit=%t", i, w.Base.Label(w.LEDs.Order[i]), lit)
		}
	}
	if err := r.Screen.Show([]string{"hello"}); err != nil {
		t.Fatal(err)
	}
	if !hw.Screen.On() {
		t.Error("screen off after Show")
	}
	hw.Pin("GPIO27").Out(gpio.Low)
	t0 := time.Unix(0, 0)
	var ev []string
	for i := 0; i < 10; i++ {
		for _, e := range r.Buttons.Poll(t0.Add(time.Duration(i)*10*time.Millisecond), nil) {
			ev = append(ev, e.Button.String())
		}
	}
	if strings.Join(ev, ",") != "confirm" {
		t.Errorf("button events %v; want [confirm]", ev)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	for i, c := range hw.LEDs.Colors() {
		if c.R|c.G|c.B != 0 {
			t.Errorf("LED %d lit after Close", i)
		}
	}
	if hw.Screen.On() {
		t.Error("screen on after Close")
	}
}

func TestOpenHostWithoutPiFailsClearly(t *testing.T) {
	w, err := wiring.Load(reference)
	if err != nil {
		t.Fatal(err)
	}
	b, err := open.Host()
	if err != nil {
		t.Skipf("periph host init failed here: %v", err)
	}
	if _, err := b.SPI("SPI1.0"); err == nil {
		t.Skip("this machine has SPI1.0; the test is for machines without it")
	}
	_, err = open.Open(w, b, nil)
	if !errors.Is(err, open.ErrNotFound) || !strings.Contains(err.Error(), "SPI bus SPI1.0 not found") || !strings.Contains(err.Error(), "dtoverlay=spi1-1cs") {
		t.Errorf("Open on a non-Pi = %v; want SPI bus SPI1.0 not found with the config.txt hint", err)
	}
}

package sim

import (
	"testing"

	"periph.io/x/conn/v3/gpio"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/mcp3x08"
	"github.com/zertzboard/zertzboard/hardware/wiring"
)

func TestHardwareRoutesTheMux(t *testing.T) {
	w := wiring.Reference()
	o := DefaultBoardOpts
	o.Noise, o.Spread, o.Crosstalk = 0, 0, 0
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
	p, err := h.SPI("SPI0.0")
	if err != nil {
		t.Fatal(err)
	}
	d, err := mcp3x08.New(p, &mcp3x08.Opts{Variant: mcp3x08.MCP3208})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := d.ReadRaw(so.Channel); v != 3100 {
		t.Errorf("E5 through its mux address reads %d; want 3100", v)
	}
	if v, _ := d.ReadRaw(7); v == 3100 || b.Reads(e5) != 1 {
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
	if _, err := h.SPI("SPI0.0"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.SPI("SPI0.0"); err == nil {
		t.Error("SPI0.0 opened twice: want an error")
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

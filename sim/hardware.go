package sim

import (
	"fmt"
	"sort"
	"sync"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/hc4067"
	"github.com/zertzboard/zertzboard/hardware/wiring"
)

// Hardware is a whole virtual controller wired as a wiring file says. It
// offers the buses by name, like periph's registries do on a Pi.
type Hardware struct {
	Board  *Board
	Wiring *wiring.Wiring
	// ADCs by SPI port name.
	ADCs map[string]*ADC
	// LEDs is the LED chain, nil when the wiring has none.
	LEDs *LEDChain
	// Screen is the status screen, nil when the wiring has none.
	Screen *Screen

	mu    sync.Mutex
	pins  map[string]*gpiotest.Pin
	slots map[slotKey]engine.Cell
	sel   [4]*gpiotest.Pin
	en    *gpiotest.Pin
	open  map[string]bool
}

type slotKey struct{ adc, ch, addr int }

// New builds the virtual hardware for w around board b, whose base must be
// the wiring's base.
func New(w *wiring.Wiring, b *Board) (*Hardware, error) {
	if b.Base() != w.Base {
		return nil, fmt.Errorf("sim: the board is a %s base; the wiring is for a %s base", b.Base().Name(), w.Base.Name())
	}
	h := &Hardware{Board: b, Wiring: w, ADCs: map[string]*ADC{}, pins: map[string]*gpiotest.Pin{}, slots: map[slotKey]engine.Cell{}, open: map[string]bool{}}
	for s, so := range w.Sockets {
		h.slots[slotKey{so.ADC, so.Channel, so.MuxAddr}] = engine.Cell(s)
	}
	pin := func(name string) *gpiotest.Pin {
		if name == "" {
			return nil
		}
		p := &gpiotest.Pin{N: name, Num: len(h.pins), EdgesChan: make(chan gpio.Level, 1)}
		h.pins[name] = p
		return p
	}
	if w.Mux != nil {
		for i, n := range w.Mux.Select {
			h.sel[i] = pin(n)
		}
		h.en = pin(w.Mux.Enable)
	}
	for _, n := range []string{w.Buttons.NewGame, w.Buttons.Confirm, w.Buttons.Takeback} {
		if p := pin(n); p != nil {
			p.L = gpio.High // released, pulled up
		}
	}
	for i, a := range w.ADCs {
		i := i
		h.ADCs[a.Bus] = NewADC(a.Name, a.Chip, func(ch int) uint16 { return h.input(i, ch) })
	}
	if w.LEDs != nil {
		proto := NRZ
		if w.LEDs.Kind == wiring.APA102 {
			proto = APA102
		}
		h.LEDs = NewLEDChain(w.LEDs.Bus, proto, len(w.LEDs.Order))
	}
	if w.Screen != nil {
		h.Screen = NewScreen(w.Screen.Bus, w.Screen.Address)
	}
	return h, nil
}

// input is what ADC adc sees on channel ch: the sensor that the mux
// select lines route there, or a floating input.
func (h *Hardware) input(adc, ch int) uint16 {
	if s, ok := h.slots[slotKey{adc, ch, wiring.NoMux}]; ok {
		return h.Board.Read(s)
	}
	if h.sel[0] == nil || (h.en != nil && h.en.Read() == gpio.High) {
		return h.Board.Floating()
	}
	var l [4]gpio.Level
	for i, p := range h.sel {
		l[i] = p.Read()
	}
	if s, ok := h.slots[slotKey{adc, ch, hc4067.AddressOf(l)}]; ok {
		return h.Board.Read(s)
	}
	return h.Board.Floating()
}

// SPI opens the SPI port called name.
func (h *Hardware) SPI(name string) (spi.PortCloser, error) {
	if err := h.claim("spi:" + name); err != nil {
		return nil, err
	}
	if a, ok := h.ADCs[name]; ok {
		return a, nil
	}
	if h.LEDs != nil && h.Wiring.LEDs.Bus == name {
		return h.LEDs, nil
	}
	return nil, fmt.Errorf("sim: SPI port %s not found: nothing is wired to it", name)
}

// I2C opens the I²C bus called name.
func (h *Hardware) I2C(name string) (i2c.BusCloser, error) {
	if h.Screen != nil && h.Wiring.Screen.Bus == name {
		return h.Screen, nil
	}
	return nil, fmt.Errorf("sim: I²C bus %s not found: nothing is wired to it", name)
}

// GPIO returns the pin called name.
func (h *Hardware) GPIO(name string) (gpio.PinIO, error) {
	if p := h.Pin(name); p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("sim: GPIO %s not found: nothing is wired to it", name)
}

// Pin returns the virtual pin called name, e.g. to press a button by
// setting its level, or nil.
func (h *Hardware) Pin(name string) *gpiotest.Pin {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.pins[name]
}

// Pins lists the pin names, sorted.
func (h *Hardware) Pins() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var n []string
	for k := range h.pins {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// claim refuses to open an SPI port twice, as periph's registry does.
func (h *Hardware) claim(id string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.open[id] {
		return fmt.Errorf("sim: %s is already open", id)
	}
	h.open[id] = true
	return nil
}

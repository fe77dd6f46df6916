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
	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/hardware/timebase"
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
	// Model is the Pi whose kernel limits the buses, and Timing its cost
	// model.
	Model  *pi.Model
	Timing *Timing

	mu     sync.Mutex
	pins   map[string]*gpiotest.Pin
	slots  map[slotKey]engine.Cell
	sel    [4]*gpiotest.Pin
	en     *gpiotest.Pin
	open   map[string]bool
	claims map[int]string // GPIO → what an enabled overlay uses it for
}

// Opts configures the virtual hardware.
type Opts struct {
	// Model is the Pi; nil means DefaultModel.
	Model *pi.Model
	// Clock, when not nil, is charged the model's bus and GPIO costs, so
	// that a scan takes the time it would on that Pi.
	Clock timebase.Clock
	// Seed makes the drawn latencies reproducible.
	Seed uint64
	// NoPackets makes the ADCs refuse TxPackets, as periph's fakes do, so
	// that the drivers fall back to one Tx (one ioctl) per conversion.
	NoPackets bool
}

// DefaultModel is the Pi that New simulates.
var DefaultModel = mustModel("4b")

func mustModel(n string) *pi.Model {
	m, err := pi.ByName(n)
	if err != nil {
		panic(err)
	}
	return m
}

type slotKey struct{ adc, ch, addr int }

// New builds the virtual hardware for w around board b, whose base must be
// the wiring's base, on DefaultModel with no time charged.
func New(w *wiring.Wiring, b *Board) (*Hardware, error) { return NewWith(w, b, nil) }

// NewWith builds the virtual hardware for w around board b on o's Pi.
// Like that Pi's kernel, it refuses a mode the SPI controller lacks and a
// GPIO that an overlay has taken.
func NewWith(w *wiring.Wiring, b *Board, o *Opts) (*Hardware, error) {
	if o == nil {
		o = &Opts{}
	}
	if b.Base() != w.Base {
		return nil, fmt.Errorf("sim: the board is a %s base; the wiring is for a %s base", b.Base().Name(), w.Base.Name())
	}
	m := o.Model
	if m == nil {
		m = DefaultModel
	}
	h := &Hardware{Board: b, Wiring: w, ADCs: map[string]*ADC{}, pins: map[string]*gpiotest.Pin{}, slots: map[slotKey]engine.Cell{}, open: map[string]bool{},
		Model: m, Timing: NewTiming(m, o.Clock, o.Seed), claims: map[int]string{}}
	h.claimOverlays()
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
		d := NewADC(a.Bus, a.Chip, func(ch int) uint16 { return h.input(i, ch) })
		d.inputs = func(chs []int, dst []uint16) { h.inputs(i, chs, dst) }
		d.ctl, d.timing, d.noPackets = h.controller(a.Bus), h.Timing, o.NoPackets
		h.ADCs[a.Bus] = d
	}
	if w.LEDs != nil {
		proto := NRZ
		if w.LEDs.Kind == wiring.APA102 {
			proto = APA102
		}
		h.LEDs = NewLEDChain(w.LEDs.Bus, proto, len(w.LEDs.Order))
		h.LEDs.ctl = h.controller(w.LEDs.Bus)
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

// inputs is input for several channels of ADC adc at once: the mux's
// select lines are read once, and the board under one lock.
func (h *Hardware) inputs(adc int, chs []int, dst []uint16) {
	var socks [maxBatch]engine.Cell
	addr := wiring.NoMux
	if h.sel[0] != nil && (h.en == nil || h.en.Read() == gpio.Low) {
		var l [4]gpio.Level
		for i, p := range h.sel {
			l[i] = p.Read()
		}
		addr = hc4067.AddressOf(l)
	}
	for i, ch := range chs {
		s, ok := h.slots[slotKey{adc, ch, wiring.NoMux}]
		if !ok && addr != wiring.NoMux {
			s, ok = h.slots[slotKey{adc, ch, addr}]
		}
		if !ok {
			s = engine.NoCell
		}
		socks[i] = s
	}
	h.Board.ReadSockets(socks[:len(chs)], dst)
}

// controller is the model's SPI controller of port name ("SPI1.0"), or
// nil.
func (h *Hardware) controller(name string) *pi.Controller {
	var b, cs int
	if _, err := fmt.Sscanf(name, "SPI%d.%d", &b, &cs); err != nil {
		return nil
	}
	return h.Model.Controller(b)
}

// claimOverlays takes the pins of the overlays that the wiring's buses
// need, as the firmware does at boot: SPI controllers with as many chip
// selects as used, and I2C1 for a screen.
func (h *Hardware) claimOverlays() {
	w := h.Wiring
	cs := map[int]int{}
	use := func(name string) {
		var b, c int
		if _, err := fmt.Sscanf(name, "SPI%d.%d", &b, &c); err == nil {
			if old, ok := cs[b]; !ok || c > old {
				cs[b] = c
			}
		}
	}
	for _, a := range w.ADCs {
		use(a.Bus)
	}
	if w.LEDs != nil {
		use(w.LEDs.Bus)
	}
	for b, c := range cs {
		if ctl := h.Model.Controller(b); ctl != nil && c < len(ctl.Overlays) {
			ov := ctl.Overlays[c]
			for p, fn := range ov.Pins {
				h.claims[p] = fn + " (" + ov.Line + ")"
			}
		}
	}
	if w.Screen != nil {
		h.claims[2], h.claims[3] = "I2C1 SDA (dtparam=i2c_arm=on)", "I2C1 SCL (dtparam=i2c_arm=on)"
	}
}

// SPI opens the SPI port called name.
func (h *Hardware) SPI(name string) (spi.PortCloser, error) {
	if h.controller(name) == nil {
		return nil, fmt.Errorf("sim: SPI port %s: the %s has no such controller on its header", name, h.Model.Title)
	}
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

// GPIO returns the pin called name. Like the kernel, it refuses a pin that
// an overlay has taken for a bus, and a pin already given out.
func (h *Hardware) GPIO(name string) (gpio.PinIO, error) {
	var n int
	if _, err := fmt.Sscanf(name, "GPIO%d", &n); err == nil {
		if fn, ok := h.claims[n]; ok {
			return nil, fmt.Errorf("sim: %s is busy: it is %s", name, fn)
		}
	}
	p := h.Pin(name)
	if p == nil {
		return nil, fmt.Errorf("sim: GPIO %s not found: nothing is wired to it", name)
	}
	if err := h.claim("gpio:" + name); err != nil {
		return nil, err
	}
	return &timedPin{Pin: p, t: h.Timing}, nil
}

// timedPin charges the model's cost of a GPIO write.
type timedPin struct {
	*gpiotest.Pin
	t *Timing
}

func (p *timedPin) Out(l gpio.Level) error {
	p.t.gpio()
	return p.Pin.Out(l)
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

// claim refuses to open an SPI port or a GPIO twice, as periph's
// registry and the kernel's GPIO character device do.
func (h *Hardware) claim(id string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.open[id] {
		return fmt.Errorf("sim: %s is already open", id)
	}
	h.open[id] = true
	return nil
}

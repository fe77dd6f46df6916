package wiring

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"periph.io/x/conn/v3/physic"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/leds"
	"github.com/zertzboard/zertzboard/hardware/mcp3x08"
	"github.com/zertzboard/zertzboard/internal/ini"
)

// NoMux is the mux address of a sensor wired straight to an ADC channel.
const NoMux = -1

// Wiring is a checked wiring file.
type Wiring struct {
	// File is the name the wiring was read from, for messages.
	File string
	// Base is the board of sockets, normally the 61-ring hexagon.
	Base *engine.Board
	// ADCs are the converters, in file order.
	ADCs []ADC
	// Mux is the shared multiplexer select bus; nil when every sensor is
	// wired straight to an ADC channel.
	Mux *Mux
	// Sockets has one entry per base cell, in board order.
	Sockets []Socket
	// LEDs is the LED chain; nil when there is none.
	LEDs *LEDs
	// Screen is the status screen; nil when there is none.
	Screen *Screen
	// Buttons maps a button's name to its GPIO line.
	Buttons Buttons
	// Mounts overrides where a game board sits on the base, by board name.
	Mounts map[string]engine.Coord
	// Lines gives the line of every entry, by field ("adc.adc0.bus",
	// "leds.bus", "mux.select"), so that a later check (hardware/pi) can
	// name the line it refuses.
	Lines map[string]int
}

// Line is the line of field in the file, or 0.
func (w *Wiring) Line(field string) int { return w.Lines[field] }

// ADC is one MCP3x08 on its own SPI chip select.
type ADC struct {
	Name  string // the id used by [sockets], e.g. "adc0"
	Bus   string // periph SPI port name, e.g. "SPI0.0"
	Chip  mcp3x08.Variant
	Speed physic.Frequency // 0: the chip's default
	VRef  physic.ElectricPotential
	// VDD is the chip's supply; its clock rating depends on it.
	VDD physic.ElectricPotential
}

// Mux is the select bus shared by every 74HC4067.
type Mux struct {
	Select [4]string // GPIO names of S0..S3
	Enable string    // GPIO name of EN, or "" when tied low
	Settle time.Duration
}

// Socket is where one socket's sensor is read.
type Socket struct {
	ADC     int // index into Wiring.ADCs
	Channel int // 0–7
	MuxAddr int // 0–15, or NoMux
}

// LED chain kinds.
const (
	WS2812 = "ws2812"
	SK6812 = "sk6812"
	APA102 = "apa102"
)

// The [leds] defaults are the driver's, so that a wiring file without
// them lights the board as leds.DefaultOpts does.
var (
	DefaultBrightness = leds.DefaultOpts.Brightness
	DefaultGamma      = leds.DefaultOpts.Gamma
	DefaultMaxCurrent = leds.DefaultOpts.MaxCurrent
)

// LEDs is the per-socket LED chain.
type LEDs struct {
	Kind       string // WS2812, SK6812 or APA102
	Bus        string
	Speed      physic.Frequency // APA102 only; NRZ chips need 2.5 MHz
	Brightness uint8            // 0–255, scales every colour
	Gamma      float64          // 1 for none; 2.2 is typical
	// MaxCurrent is the budget for the whole chain; Show dims every
	// colour when the chain's estimated draw would exceed it.
	MaxCurrent physic.ElectricCurrent
	// Order lists the base cell of each LED, first LED first.
	Order []engine.Cell
}

// Screen is the SSD1306 status screen.
type Screen struct {
	Bus     string // periph I²C bus name, e.g. "I2C1"
	Address uint16 // 0x3C or 0x3D
	// Speed, when not 0, is set on the bus when it is opened. Most Pi
	// kernels only take the speed from config.txt (i2c_arm_baudrate), and
	// refuse it at run time.
	Speed physic.Frequency
}

// Buttons are GPIO names; "" when a button is absent.
type Buttons struct {
	NewGame, Confirm, Takeback string
	Debounce                   time.Duration
}

// Load reads and checks the wiring file at path.
func Load(path string) (*Wiring, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("wiring: %w", err)
	}
	defer f.Close()
	return Parse(filepath.Base(path), f)
}

// Parse reads and checks a wiring file. name is used in error messages.
func Parse(name string, r io.Reader) (*Wiring, error) {
	secs, err := parseINI(name, r)
	if err != nil {
		return nil, err
	}
	p := &parser{file: name, w: &Wiring{File: name, Mounts: map[string]engine.Coord{}, Lines: map[string]int{}}}
	for _, s := range secs {
		for _, e := range s.Entries {
			p.w.Lines[s.Field(e.Key)] = e.Line
		}
	}
	return p.build(secs)
}

type parser struct {
	file string
	w    *Wiring
}

func (p *parser) errf(s *ini.Section, e *ini.Entry, format string, a ...any) error {
	err := &Error{Pkg: "wiring", File: p.file, Msg: fmt.Sprintf(format, a...)}
	if s != nil {
		err.Line = s.Line
		err.Field = s.Name
		if s.Arg != "" {
			err.Field += "." + s.Arg
		}
	}
	if e != nil {
		err.Line = e.Line
		err.Field = s.Field(e.Key)
	}
	return err
}

// known lists each section's keys; anything else is a typo to report.
var known = map[string][]string{
	"base":    {"board"},
	"adc":     {"bus", "chip", "speed", "vref", "vdd"},
	"mux":     {"select", "enable", "settle"},
	"leds":    {"kind", "bus", "speed", "brightness", "gamma", "max-current", "order"},
	"screen":  {"bus", "address", "speed"},
	"buttons": {"new-game", "confirm", "takeback", "debounce"},
}

func (p *parser) build(secs []*ini.Section) (*Wiring, error) {
	w := p.w
	w.Base = engine.MustStandardBoard("61")
	bySection := map[string]*ini.Section{}
	for _, s := range secs {
		switch s.Name {
		case "adc":
			if s.Arg == "" {
				return nil, p.errf(s, nil, "an [adc] section needs an id, e.g. [adc adc0]")
			}
		case "base", "mux", "sockets", "leds", "screen", "buttons", "mount":
			if s.Arg != "" {
				return nil, p.errf(s, nil, "[%s] takes no id", s.Name)
			}
			bySection[s.Name] = s
		default:
			return nil, p.errf(s, nil, "unknown section [%s] (want base, adc, mux, sockets, leds, screen, buttons or mount)", s.Name)
		}
		if keys, ok := known[s.Name]; ok {
			for i := range s.Entries {
				e := &s.Entries[i]
				if !contains(keys, e.Key) {
					return nil, p.errf(s, e, "unknown key (want one of %s)", strings.Join(keys, ", "))
				}
			}
		}
	}
	if s := bySection["base"]; s != nil {
		if e := s.Get("board"); e != nil {
			b, err := engine.StandardBoard(e.Value)
			if err != nil {
				return nil, p.errf(s, e, "%v", err)
			}
			w.Base = b
		}
	}
	for _, s := range secs {
		if s.Name == "adc" {
			if err := p.adc(s); err != nil {
				return nil, err
			}
		}
	}
	if len(w.ADCs) == 0 {
		return nil, &Error{Pkg: "wiring", File: p.file, Field: "adc", Msg: "no [adc ID] section: at least one ADC is needed"}
	}
	if s := bySection["mux"]; s != nil {
		if err := p.mux(s); err != nil {
			return nil, err
		}
	}
	s := bySection["sockets"]
	if s == nil {
		return nil, &Error{Pkg: "wiring", File: p.file, Field: "sockets", Msg: "no [sockets] section"}
	}
	if err := p.sockets(s); err != nil {
		return nil, err
	}
	if s := bySection["leds"]; s != nil {
		if err := p.leds(s); err != nil {
			return nil, err
		}
	}
	if s := bySection["screen"]; s != nil {
		if err := p.screen(s); err != nil {
			return nil, err
		}
	}
	if s := bySection["buttons"]; s != nil {
		if err := p.buttons(s); err != nil {
			return nil, err
		}
	}
	if s := bySection["mount"]; s != nil {
		if err := p.mounts(s); err != nil {
			return nil, err
		}
	}
	return w, nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) need(s *ini.Section, key string) (*ini.Entry, error) {
	e := s.Get(key)
	if e == nil || e.Value == "" {
		return nil, &Error{Pkg: "wiring", File: p.file, Line: s.Line, Field: s.Field(key), Msg: "missing"}
	}
	return e, nil
}

func (p *parser) adc(s *ini.Section) error {
	for _, a := range p.w.ADCs {
		if a.Name == s.Arg {
			return p.errf(s, nil, "ADC %q is defined twice", s.Arg)
		}
	}
	a := ADC{Name: s.Arg, VRef: 3300 * physic.MilliVolt, VDD: 3300 * physic.MilliVolt}
	e, err := p.need(s, "bus")
	if err != nil {
		return err
	}
	a.Bus = e.Value
	for _, b := range p.w.ADCs {
		if b.Bus == a.Bus {
			return p.errf(s, e, "bus %s is already used by ADC %q", a.Bus, b.Name)
		}
	}
	if e, err = p.need(s, "chip"); err != nil {
		return err
	}
	if a.Chip, err = mcp3x08.ParseVariant(e.Value); err != nil {
		return p.errf(s, e, "unknown chip %q (want mcp3008 or mcp3208)", e.Value)
	}
	if e := s.Get("vdd"); e != nil {
		if err := a.VDD.Set(e.Value); err != nil || a.VDD < 2700*physic.MilliVolt || a.VDD > 5500*physic.MilliVolt {
			return p.errf(s, e, "bad supply %q (the MCP3x08 runs from 2.7V to 5.5V, e.g. 3.3V)", e.Value)
		}
	}
	if e := s.Get("speed"); e != nil {
		if err := a.Speed.Set(e.Value); err != nil || a.Speed <= 0 {
			return p.errf(s, e, "bad frequency %q (e.g. 1MHz)", e.Value)
		}
		if top := a.Chip.MaxFreqAt(a.VDD); a.Speed > top {
			return p.errf(s, e, "%s is above the %s's %s maximum at VDD %s", a.Speed, a.Chip, top, a.VDD)
		}
	}
	if e := s.Get("vref"); e != nil {
		if err := a.VRef.Set(e.Value); err != nil || a.VRef <= 0 {
			return p.errf(s, e, "bad voltage %q (e.g. 3.3V)", e.Value)
		}
		if a.VRef > a.VDD {
			return p.errf(s, e, "VREF %s is above the chip's supply %s", a.VRef, a.VDD)
		}
	}
	p.w.ADCs = append(p.w.ADCs, a)
	return nil
}

func (p *parser) mux(s *ini.Section) error {
	m := &Mux{Settle: 10 * time.Microsecond}
	e, err := p.need(s, "select")
	if err != nil {
		return err
	}
	f := strings.Fields(e.Value)
	if len(f) != 4 {
		return p.errf(s, e, "want 4 GPIO names S0 S1 S2 S3; got %d", len(f))
	}
	seen := map[string]bool{}
	for i, n := range f {
		if seen[n] {
			return p.errf(s, e, "GPIO %s is listed twice", n)
		}
		seen[n] = true
		m.Select[i] = n
	}
	if e := s.Get("enable"); e != nil && e.Value != "-" {
		if seen[e.Value] {
			return p.errf(s, e, "GPIO %s is also a select line", e.Value)
		}
		m.Enable = e.Value
	}
	if e := s.Get("settle"); e != nil {
		d, err := time.ParseDuration(e.Value)
		if err != nil || d < 0 || d > 10*time.Millisecond {
			return p.errf(s, e, "bad settle time %q (e.g. 10us, at most 10ms)", e.Value)
		}
		m.Settle = d
	}
	p.w.Mux = m
	return nil
}

func (p *parser) sockets(s *ini.Section) error {
	w := p.w
	w.Sockets = make([]Socket, w.Base.Len())
	seen := make([]int, w.Base.Len()) // line that gave the socket, 0 if none
	type slot struct{ adc, ch, addr int }
	used := map[slot]string{}
	for i := range s.Entries {
		e := &s.Entries[i]
		c, err := w.Base.ParseCell(e.Key)
		if err != nil {
			return p.errf(s, e, "no socket %q on the %s base", e.Key, w.Base.Name())
		}
		if seen[c] != 0 {
			return p.errf(s, e, "socket already wired on line %d", seen[c])
		}
		seen[c] = e.Line
		f := strings.Fields(e.Value)
		if len(f) != 3 {
			return p.errf(s, e, "%q: want ADC channel mux-address, e.g. adc0 3 12 (or - for no mux)", e.Value)
		}
		so := Socket{ADC: -1}
		for j, a := range w.ADCs {
			if a.Name == f[0] {
				so.ADC = j
			}
		}
		if so.ADC < 0 {
			return p.errf(s, e, "unknown ADC %q", f[0])
		}
		if so.Channel, err = strconv.Atoi(f[1]); err != nil || so.Channel < 0 || so.Channel >= mcp3x08.Channels {
			return p.errf(s, e, "channel %q out of range 0-7", f[1])
		}
		if f[2] == "-" {
			so.MuxAddr = NoMux
		} else {
			if w.Mux == nil {
				return p.errf(s, e, "mux address %s but there is no [mux] section", f[2])
			}
			if so.MuxAddr, err = strconv.Atoi(f[2]); err != nil || so.MuxAddr < 0 || so.MuxAddr > 15 {
				return p.errf(s, e, "mux address %q out of range 0-15 (or - for no mux)", f[2])
			}
		}
		k := slot{so.ADC, so.Channel, so.MuxAddr}
		if other, dup := used[k]; dup {
			return p.errf(s, e, "same ADC, channel and mux address as socket %s", other)
		}
		// A channel is either behind a mux or direct, never both.
		k2 := slot{so.ADC, so.Channel, NoMux}
		if so.MuxAddr == NoMux {
			for u, lab := range used {
				if u.adc == so.ADC && u.ch == so.Channel {
					return p.errf(s, e, "channel %d of %s is direct here but behind a mux for socket %s", so.Channel, f[0], lab)
				}
			}
		} else if lab, direct := used[k2]; direct {
			return p.errf(s, e, "channel %d of %s is behind a mux here but direct for socket %s", so.Channel, f[0], lab)
		}
		used[k] = e.Key
		w.Sockets[c] = so
	}
	for c := range seen {
		if seen[c] == 0 {
			return &Error{Pkg: "wiring", File: p.file, Line: s.Line, Field: "sockets." + w.Base.Label(engine.Cell(c)), Msg: "socket is not wired"}
		}
	}
	return nil
}

func (p *parser) leds(s *ini.Section) error {
	l := &LEDs{Brightness: DefaultBrightness, Gamma: DefaultGamma, MaxCurrent: DefaultMaxCurrent}
	e, err := p.need(s, "kind")
	if err != nil {
		return err
	}
	switch e.Value {
	case WS2812, SK6812, APA102:
		l.Kind = e.Value
	default:
		return p.errf(s, e, "unknown LED kind %q (want ws2812, sk6812 or apa102; RGBW chips are not supported by periph's SPI encoder)", e.Value)
	}
	if e, err = p.need(s, "bus"); err != nil {
		return err
	}
	l.Bus = e.Value
	for _, a := range p.w.ADCs {
		if strings.SplitN(a.Bus, ".", 2)[0] == strings.SplitN(l.Bus, ".", 2)[0] {
			// No LED chip has a chip select: NRZ LEDs would read the ADC
			// traffic on the shared MOSI line as colours, and an APA102
			// chain clocks in every conversion from the shared SCLK.
			return p.errf(s, e, "%s LEDs cannot share an SPI bus with ADC %q (%s): LEDs have no chip select and would take the ADC traffic for colours", l.Kind, a.Name, a.Bus)
		}
	}
	if e := s.Get("speed"); e != nil {
		if err := l.Speed.Set(e.Value); err != nil || l.Speed <= 0 {
			return p.errf(s, e, "bad frequency %q", e.Value)
		}
		if l.Kind != APA102 && l.Speed != 2500*physic.KiloHertz {
			return p.errf(s, e, "%s LEDs need exactly 2.5MHz (periph nrzled timing); got %s", l.Kind, l.Speed)
		}
	}
	if e := s.Get("brightness"); e != nil {
		b, err := strconv.Atoi(e.Value)
		if err != nil || b < 0 || b > 255 {
			return p.errf(s, e, "brightness %q out of range 0-255", e.Value)
		}
		l.Brightness = uint8(b)
	}
	if e := s.Get("gamma"); e != nil {
		g, err := strconv.ParseFloat(e.Value, 64)
		if err != nil || g < 0.5 || g > 4 {
			return p.errf(s, e, "gamma %q out of range 0.5-4", e.Value)
		}
		l.Gamma = g
	}
	if e := s.Get("max-current"); e != nil {
		if err := l.MaxCurrent.Set(e.Value); err != nil || l.MaxCurrent < 50*physic.MilliAmpere || l.MaxCurrent > 20*physic.Ampere {
			return p.errf(s, e, "bad current budget %q (e.g. 1.5A; 50mA-20A)", e.Value)
		}
	}
	if e, err = p.need(s, "order"); err != nil {
		return err
	}
	seen := map[engine.Cell]int{}
	for i, lab := range strings.Fields(e.Value) {
		c, err := p.w.Base.ParseCell(lab)
		if err != nil {
			return p.errf(s, e, "LED %d: no socket %q", i, lab)
		}
		if j, dup := seen[c]; dup {
			return p.errf(s, e, "LED %d: socket %s already has LED %d", i, lab, j)
		}
		seen[c] = i
		l.Order = append(l.Order, c)
	}
	if len(l.Order) != p.w.Base.Len() {
		return p.errf(s, e, "lists %d sockets; the %s base has %d", len(l.Order), p.w.Base.Name(), p.w.Base.Len())
	}
	p.w.LEDs = l
	return nil
}

func (p *parser) screen(s *ini.Section) error {
	sc := &Screen{Address: 0x3C}
	e, err := p.need(s, "bus")
	if err != nil {
		return err
	}
	sc.Bus = e.Value
	if e := s.Get("address"); e != nil {
		a, err := strconv.ParseUint(e.Value, 0, 16)
		if err != nil || (a != 0x3C && a != 0x3D) {
			return p.errf(s, e, "address %q: an SSD1306 answers at 0x3C or 0x3D", e.Value)
		}
		sc.Address = uint16(a)
	}
	if e := s.Get("speed"); e != nil {
		if err := sc.Speed.Set(e.Value); err != nil || sc.Speed < 10*physic.KiloHertz || sc.Speed > 1*physic.MegaHertz {
			return p.errf(s, e, "bad I²C speed %q (e.g. 400kHz; 10kHz-1MHz)", e.Value)
		}
	}
	p.w.Screen = sc
	return nil
}

func (p *parser) buttons(s *ini.Section) error {
	b := Buttons{Debounce: 30 * time.Millisecond}
	seen := map[string]string{}
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.Key == "debounce" {
			d, err := time.ParseDuration(e.Value)
			if err != nil || d <= 0 || d > time.Second {
				return p.errf(s, e, "bad debounce time %q (e.g. 30ms)", e.Value)
			}
			b.Debounce = d
			continue
		}
		if other, dup := seen[e.Value]; dup {
			return p.errf(s, e, "GPIO %s is also button %s", e.Value, other)
		}
		seen[e.Value] = e.Key
		switch e.Key {
		case "new-game":
			b.NewGame = e.Value
		case "confirm":
			b.Confirm = e.Value
		case "takeback":
			b.Takeback = e.Value
		}
	}
	p.w.Buttons = b
	return nil
}

func (p *parser) mounts(s *ini.Section) error {
	for i := range s.Entries {
		e := &s.Entries[i]
		b, err := engine.StandardBoard(e.Key)
		if err != nil {
			return p.errf(s, e, "%v", err)
		}
		f := strings.Fields(e.Value)
		if len(f) != 2 {
			return p.errf(s, e, "%q: want dx dy in doubled coordinates, e.g. 1 1", e.Value)
		}
		dx, err1 := strconv.Atoi(f[0])
		dy, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil {
			return p.errf(s, e, "%q: want two integers dx dy", e.Value)
		}
		off := engine.Coord{X: dx, Y: dy}
		if _, err := NewMount(p.w.Base, b, off); err != nil {
			return p.errf(s, e, "%v", err)
		}
		p.w.Mounts[e.Key] = off
	}
	return nil
}

// Mount returns where game board b sits on the base: the [mount] entry if
// the file has one, otherwise DefaultOffset.
func (w *Wiring) Mount(b *engine.Board) (*Mount, error) {
	if off, ok := w.Mounts[b.Name()]; ok {
		return NewMount(w.Base, b, off)
	}
	off, err := DefaultOffset(w.Base, b)
	if err != nil {
		return nil, err
	}
	return NewMount(w.Base, b, off)
}

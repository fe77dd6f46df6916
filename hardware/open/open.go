// Package open opens the whole hardware described by a wiring file: the
// ADCs, the multiplexers, the scanner, the LEDs, the screen and the
// buttons.
//
// It takes the buses from a Buses: Host on a Raspberry Pi (periph's
// registries), or a *sim.Hardware in simulation. Everything from the
// drivers up is the same code either way.
//
// Layer: drivers. May import: base, game, drivers.
package open

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"

	"github.com/zertzboard/zertzboard/hardware/buttons"
	"github.com/zertzboard/zertzboard/hardware/hc4067"
	"github.com/zertzboard/zertzboard/hardware/leds"
	"github.com/zertzboard/zertzboard/hardware/mcp3x08"
	"github.com/zertzboard/zertzboard/hardware/scan"
	"github.com/zertzboard/zertzboard/hardware/screen"
	"github.com/zertzboard/zertzboard/hardware/timebase"
	"github.com/zertzboard/zertzboard/hardware/wiring"
)

// Buses opens buses and pins by name.
type Buses interface {
	SPI(name string) (spi.PortCloser, error)
	I2C(name string) (i2c.BusCloser, error)
	GPIO(name string) (gpio.PinIO, error)
}

// ErrNotFound wraps every "no such bus or pin" error, so that a caller can
// suggest --sim.
var ErrNotFound = errors.New("not found")

// ErrPermission wraps every "the bus is there but this user may not open
// it" error: the fix is a group or a udev rule, not the simulator.
var ErrPermission = errors.New("permission denied")

// Host initialises periph's host drivers and returns the host's buses.
// On a machine that is not a Pi, Init succeeds but registers nothing; the
// buses are then reported missing by name when opened.
func Host() (Buses, error) {
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("open: periph host drivers: %w", err)
	}
	return hostBuses{}, nil
}

type hostBuses struct{}

// devDir is where the device nodes are, and openRW how they are opened;
// tests replace them.
var (
	devDir = "/dev"
	openRW = func(path string) (*os.File, error) { return os.OpenFile(path, os.O_RDWR, 0) }
)

// device checks the device node of a bus before periph opens it, so that
// a missing overlay and a missing permission read differently: periph
// registers only the nodes it may open, and reports any other as "no port
// found; did you forget to call Init()?".
func device(node, kind, name, enable, group, subsystem string) error {
	path := filepath.Join(devDir, node)
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("open: %s bus %s %w: %s does not exist; add %s to config.txt (zertzboard check-wiring prints the lines) and reboot", kind, name, ErrNotFound, path, enable)
	}
	f, err := openRW(path)
	if err == nil {
		return f.Close()
	}
	if !errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("open: %s bus %s: %w", kind, name, err)
	}
	owner := ownerGroup(path)
	join := fmt.Sprintf("it belongs to group %s: add this user to it with \"sudo usermod -aG %s $USER\" and log in again", owner, owner)
	if owner == "" || owner == "root" {
		join = fmt.Sprintf("only root may open it: create group %s (sudo groupadd -f %s), add this user (sudo usermod -aG %s $USER)", group, group, group)
	}
	return fmt.Errorf("open: %s bus %s: %w on %s; %s; without the udev rule of Raspberry Pi OS, add /etc/udev/rules.d/99-zertzboard.rules with SUBSYSTEM==\"%s\", GROUP=\"%s\", MODE=\"0660\" and run sudo udevadm trigger",
		kind, name, ErrPermission, path, join, subsystem, group)
}

func (hostBuses) SPI(name string) (spi.PortCloser, error) {
	var b, cs int
	if _, err := fmt.Sscanf(name, "SPI%d.%d", &b, &cs); err == nil {
		enable := "dtparam=spi=on"
		if b > 0 {
			enable = fmt.Sprintf("dtoverlay=spi%d-%dcs", b, cs+1)
		}
		if err := device(fmt.Sprintf("spidev%d.%d", b, cs), "SPI", name, enable, "spi", "spidev"); err != nil {
			return nil, err
		}
	}
	p, err := spireg.Open(name)
	if err != nil {
		return nil, fmt.Errorf("open: SPI bus %s: %w (periph: %v)", name, ErrNotFound, err)
	}
	return p, nil
}

func (hostBuses) I2C(name string) (i2c.BusCloser, error) {
	var n int
	if _, err := fmt.Sscanf(name, "I2C%d", &n); err == nil {
		if err := device(fmt.Sprintf("i2c-%d", n), "I²C", name, "dtparam=i2c_arm=on", "i2c", "i2c-dev"); err != nil {
			return nil, err
		}
	}
	b, err := i2creg.Open(name)
	if err != nil {
		return nil, fmt.Errorf("open: I²C bus %s: %w (periph: %v)", name, ErrNotFound, err)
	}
	return b, nil
}

func (hostBuses) GPIO(name string) (gpio.PinIO, error) {
	p := gpioreg.ByName(name)
	if p == nil {
		return nil, fmt.Errorf("open: GPIO %s %w: is this a Raspberry Pi, and is this user in the gpio group?", name, ErrNotFound)
	}
	return p, nil
}

// Opts configures Open.
type Opts struct {
	// Clock times the scans and settle waits. Nil means the real clock.
	Clock timebase.Clock
	// Rate is the scan rate; 0 means scan.DefaultOpts.Rate.
	Rate physic.Frequency
}

// Rig is the open hardware.
type Rig struct {
	Wiring  *wiring.Wiring
	ADCs    []*mcp3x08.Dev
	Mux     *hc4067.Dev // nil without a mux
	Scanner *scan.Scanner
	LEDs    *leds.Dev    // nil without [leds]
	Screen  *screen.Dev  // nil without [screen]
	Buttons *buttons.Dev // nil without [buttons]

	closers []func() error
}

// Open opens the sensing side of w: ADCs, mux and scanner. On error it
// closes whatever it had opened.
func Open(w *wiring.Wiring, b Buses, o *Opts) (*Rig, error) {
	r := &Rig{Wiring: w}
	if err := r.open(b, o); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

func (r *Rig) open(b Buses, o *Opts) error {
	w := r.Wiring
	if o == nil {
		o = &Opts{}
	}
	clk := o.Clock
	if clk == nil {
		clk = timebase.Real{}
	}
	adcs := make([]scan.ADC, len(w.ADCs))
	for i, a := range w.ADCs {
		p, err := b.SPI(a.Bus)
		if err != nil {
			return err
		}
		r.closers = append(r.closers, p.Close)
		d, err := mcp3x08.New(p, &mcp3x08.Opts{Variant: a.Chip, Freq: a.Speed, VRef: a.VRef})
		if err != nil {
			return fmt.Errorf("open: ADC %s on %s: %w", a.Name, a.Bus, err)
		}
		r.ADCs = append(r.ADCs, d)
		adcs[i] = d
	}
	var mux scan.Mux
	if w.Mux != nil {
		var sel [4]gpio.PinOut
		for i, n := range w.Mux.Select {
			p, err := b.GPIO(n)
			if err != nil {
				return err
			}
			sel[i] = p
		}
		var en gpio.PinOut
		if w.Mux.Enable != "" {
			p, err := b.GPIO(w.Mux.Enable)
			if err != nil {
				return err
			}
			en = p
		}
		m, err := hc4067.New(sel, en, &hc4067.Opts{Settle: w.Mux.Settle, Clock: clk})
		if err != nil {
			return fmt.Errorf("open: %w", err)
		}
		r.Mux, mux = m, m
		r.closers = append(r.closers, m.Halt)
	}
	slots := make([]scan.Slot, len(w.Sockets))
	for i, s := range w.Sockets {
		slots[i] = scan.Slot{ADC: s.ADC, Channel: s.Channel, MuxAddr: s.MuxAddr}
	}
	so := scan.Opts{Rate: o.Rate, Clock: clk}
	if so.Rate == 0 {
		so.Rate = scan.DefaultOpts.Rate
	}
	var err error
	if r.Scanner, err = scan.New(adcs, mux, slots, &so); err != nil {
		return fmt.Errorf("open: %w", err)
	}
	if err := r.openOutputs(b, clk); err != nil {
		return err
	}
	return nil
}

func (r *Rig) openOutputs(b Buses, clk timebase.Clock) error {
	w := r.Wiring
	if l := w.LEDs; l != nil {
		p, err := b.SPI(l.Bus)
		if err != nil {
			return err
		}
		r.closers = append(r.closers, p.Close)
		o := leds.Opts{Kind: leds.NRZ, Brightness: l.Brightness, Gamma: l.Gamma, Speed: l.Speed}
		if l.Kind == wiring.APA102 {
			o.Kind = leds.APA102
		}
		for _, c := range l.Order {
			o.Order = append(o.Order, int(c))
		}
		if r.LEDs, err = leds.New(p, w.Base.Len(), &o); err != nil {
			return fmt.Errorf("open: LEDs on %s: %w", l.Bus, err)
		}
		r.closers = append(r.closers, r.LEDs.Halt)
	}
	if s := w.Screen; s != nil {
		bus, err := b.I2C(s.Bus)
		if err != nil {
			return err
		}
		r.closers = append(r.closers, bus.Close)
		if r.Screen, err = screen.New(bus, &screen.Opts{Address: s.Address, Speed: s.Speed}); err != nil {
			return fmt.Errorf("open: screen on %s: %w", s.Bus, err)
		}
		r.closers = append(r.closers, r.Screen.Halt)
	}
	bt := w.Buttons
	if bt.NewGame != "" || bt.Confirm != "" || bt.Takeback != "" {
		var pins [3]gpio.PinIn
		for i, n := range []string{bt.NewGame, bt.Confirm, bt.Takeback} {
			if n == "" {
				continue
			}
			p, err := b.GPIO(n)
			if err != nil {
				return err
			}
			pins[i] = p
		}
		o := buttons.DefaultOpts
		o.Clock = clk
		if bt.Debounce > 0 {
			o.Debounce = bt.Debounce
		}
		var err error
		if r.Buttons, err = buttons.New(pins[0], pins[1], pins[2], &o); err != nil {
			return fmt.Errorf("open: %w", err)
		}
	}
	return nil
}

// Bits is the resolution of the ADCs; with mixed chips, the lowest.
func (r *Rig) Bits() int {
	b := 16
	for _, d := range r.ADCs {
		if n := d.Variant().Bits(); n < b {
			b = n
		}
	}
	return b
}

// Close halts and releases everything, in reverse order of opening, and
// returns the first error.
func (r *Rig) Close() error {
	var first error
	for i := len(r.closers) - 1; i >= 0; i-- {
		if err := r.closers[i](); err != nil && first == nil {
			first = err
		}
	}
	r.closers = nil
	return first
}

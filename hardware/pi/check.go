package pi

import (
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"
	"time"

	"periph.io/x/conn/v3/physic"

	"github.com/zertzboard/zertzboard/hardware/leds"
	"github.com/zertzboard/zertzboard/hardware/wiring"
)

// DefaultBufSiz is spidev's default buffer: the most bytes one ioctl may
// move (drivers/spi/spidev.c, module parameter bufsiz).
const DefaultBufSiz = 4096

// Rates are the scan rates Check chooses from, fastest first. Below
// 100 Hz a quick hand's touch could fall between two settled frames.
var Rates = []physic.Frequency{200 * physic.Hertz, 100 * physic.Hertz}

// CheckOpts tunes Check.
type CheckOpts struct {
	// BufSiz is spidev's bufsiz; 0 means DefaultBufSiz.
	BufSiz int
	// Rate, when not 0, is the scan rate the wiring must sustain instead
	// of the fastest of Rates that fits.
	Rate physic.Frequency
}

// Report is what Check found: the lines the Pi needs and the scan rate.
type Report struct {
	Model *Model
	// Config are the config.txt lines, with a comment each.
	Config []string
	// Cmdline are kernel command-line additions (cmdline.txt), if any.
	Cmdline []string
	// Pins maps each GPIO the wiring takes to its use.
	Pins map[int]string
	// Scan is the estimated scan; Rate the scan rate chosen.
	Scan Estimate
	Rate physic.Frequency
	// Notes are warnings that do not stop the board.
	Notes []string
}

// Check verifies that model m can run wiring w. The error is a
// *wiring.Error naming the file, the line and the field.
func Check(w *wiring.Wiring, m *Model, o *CheckOpts) (*Report, error) {
	if o == nil {
		o = &CheckOpts{}
	}
	bufsiz := o.BufSiz
	if bufsiz == 0 {
		bufsiz = DefaultBufSiz
	}
	c := &checker{w: w, m: m, r: &Report{Model: m, Pins: map[int]string{}}, claimer: map[int]string{}, cs: map[int]int{}, csField: map[int]string{}}
	for _, step := range []func() error{
		c.checkADCs,
		func() error { return c.checkLEDs(bufsiz, o.BufSiz) },
		c.enableSPI,
		c.checkScreen,
		c.checkGPIO,
		func() error { return c.checkScan(o.Rate) },
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return c.r, nil
}

// checkADCs puts every ADC on its SPI controller and chip select, within
// the chip's rated clock.
func (c *checker) checkADCs() error {
	w := c.w
	for _, a := range w.ADCs {
		f := "adc." + a.Name + ".bus"
		ctl, cs, err := c.spi(a.Bus, f)
		if err != nil {
			return err
		}
		top := a.Chip.MaxFreqAt(a.VDD)
		sp := a.Speed
		if sp == 0 {
			sp = a.Chip.MaxFreqAt(2700 * physic.MilliVolt)
		}
		if sp > top {
			return c.errf(f, "%s at VDD %s is rated for %s; the wiring asks %s", a.Chip, a.VDD, top, sp)
		}
		if a.VDD > 3600*physic.MilliVolt {
			c.r.Notes = append(c.r.Notes, fmt.Sprintf("%s runs from %s: its DOUT would drive %s into the Pi's 3.3 V GPIO%d; put a level shifter on MISO", a.Name, a.VDD, a.VDD, c.pinOf(ctl, cs, "MISO")))
		}
	}
	return nil
}

// checkLEDs puts the LED chain on an SPI controller that can drive it:
// CPHA, DMA for WS2812, and one transfer within spidev's buffer bufsiz
// (asked is the buffer the caller set, 0 for the default).
func (c *checker) checkLEDs(bufsiz, asked int) error {
	w := c.w
	if l := w.LEDs; l != nil {
		f := "leds.bus"
		ctl, _, err := c.spi(l.Bus, f)
		if err != nil {
			return err
		}
		if !ctl.CPHA {
			drv := "nrzled"
			if l.Kind == wiring.APA102 {
				drv = "apa102"
			}
			return c.errf(f, "SPI%d is the auxiliary SPI (%s): it has no CPHA, so no mode 3, which periph's %s driver asks for, and no DMA; put the LEDs on SPI0 (MOSI GPIO10) and the ADC on SPI1", ctl.Bus, ctl.Driver, drv)
		}
		if l.Kind != wiring.APA102 && !ctl.DMA {
			return c.errf(f, "SPI%d (%s) has no DMA here: a %d-byte WS2812 stream refilled from interrupts stalls mid-frame and the LEDs show wrong colours; use SPI0", ctl.Bus, ctl.Driver, LEDBytes(l))
		}
		if n := LEDBytes(l); n > bufsiz {
			if asked == 0 {
				return c.errf(f, "the chain needs %d bytes in one transfer; spidev's buffer is %d: add spidev.bufsiz=%d to cmdline.txt and check again with --bufsiz %d", n, bufsiz, n, n)
			}
			return c.errf(f, "the chain needs %d bytes in one transfer; spidev's buffer is %d", n, bufsiz)
		}
		if asked > DefaultBufSiz {
			c.r.Cmdline = append(c.r.Cmdline, fmt.Sprintf("spidev.bufsiz=%d", asked))
		}
		full := physic.ElectricCurrent(len(l.Order)) * (3*leds.ChannelCurrent + leds.QuiescentCurrent)
		c.r.Notes = append(c.r.Notes, fmt.Sprintf("LEDs: %d × %s on %s, budget %s (full white would draw %s); 5 V supply rated above the budget, power injected at both ends of the chain", len(l.Order), l.Kind, l.Bus, l.MaxCurrent, full))
		if l.Kind != wiring.APA102 {
			c.r.Notes = append(c.r.Notes, "WS2812 data needs a 3.3 V → 5 V level shifter (74AHCT125 or 74HCT245) between GPIO10 and DIN")
		}
	}
	return nil
}

// enableSPI enables each controller the ADCs and LEDs use, with enough
// chip selects, and claims its pins.
func (c *checker) enableSPI() error {
	m := c.m
	var buses []int
	for b := range c.cs {
		buses = append(buses, b)
	}
	sort.Ints(buses)
	for _, b := range buses {
		ctl := m.Controller(b)
		ov := ctl.Overlays[c.cs[b]]
		for _, p := range sortedPins(ov.Pins) {
			if err := c.claim(p, ov.Pins[p]+" ("+ov.Line+")", c.csField[b]); err != nil {
				return err
			}
		}
		c.r.Config = append(c.r.Config, fmt.Sprintf("%-22s # SPI%d (%s): %s", ov.Line, b, ctl.Driver, pinList(ov.Pins)))
	}
	if len(buses) > 0 && m.CoreClock != "" {
		c.r.Config = append(c.r.Config, fmt.Sprintf("%-22s # the SPI clocks are divided from the core clock: keep it steady", m.CoreClock))
	}
	return nil
}

// checkScreen puts the screen on I2C1 and claims its pins.
func (c *checker) checkScreen() error {
	w := c.w
	if s := w.Screen; s != nil {
		if s.Bus != "I2C1" {
			return c.errf("screen.bus", "bus %q: the screen goes on I2C1 (GPIO2 SDA, GPIO3 SCL); I2C0 is the HAT EEPROM's", s.Bus)
		}
		for p, fn := range map[int]string{2: "I2C1 SDA (dtparam=i2c_arm=on)", 3: "I2C1 SCL (dtparam=i2c_arm=on)"} {
			if err := c.claim(p, fn, "screen.bus"); err != nil {
				return err
			}
		}
		c.r.Config = append(c.r.Config, fmt.Sprintf("%-22s # I2C1: GPIO2 SDA, GPIO3 SCL", "dtparam=i2c_arm=on"))
		baud := 400 * physic.KiloHertz
		if s.Speed != 0 {
			baud = s.Speed
		}
		c.r.Config = append(c.r.Config, fmt.Sprintf("dtparam=i2c_arm_baudrate=%d", int64(baud/physic.Hertz)))
	}
	return nil
}

// checkGPIO claims the plain GPIO lines: the multiplexers' selects and
// enable, and the buttons.
func (c *checker) checkGPIO() error {
	w := c.w
	if mx := w.Mux; mx != nil {
		for i, n := range mx.Select {
			if err := c.gpio(n, fmt.Sprintf("mux S%d", i), "mux.select"); err != nil {
				return err
			}
		}
		if mx.Enable != "" {
			if err := c.gpio(mx.Enable, "mux EN", "mux.enable"); err != nil {
				return err
			}
		}
	}
	for _, b := range []struct{ name, key string }{{w.Buttons.NewGame, "new-game"}, {w.Buttons.Confirm, "confirm"}, {w.Buttons.Takeback, "takeback"}} {
		if b.name != "" {
			if err := c.gpio(b.name, "button "+b.key, "buttons."+b.key); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkScan estimates a scan and picks the scan rate: rate when it is not
// 0 and the scan fits it, else the fastest of Rates that fits.
func (c *checker) checkScan(rate physic.Frequency) error {
	m := c.m
	c.r.Scan = EstimateScan(c.w, m)
	if rate != 0 {
		if !c.r.Scan.Fits(m, rate) {
			return c.errf(c.adcField(), "a scan takes about %s on the %s (%d ioctls); %s needs it under %s", round(c.r.Scan.Mean), m.Title, c.r.Scan.Ioctls, rate, round(budget(rate)))
		}
		c.r.Rate = rate
	} else {
		for _, r := range Rates {
			if c.r.Scan.Fits(m, r) {
				c.r.Rate = r
				break
			}
		}
		if c.r.Rate == 0 {
			last := Rates[len(Rates)-1]
			return c.errf(c.adcField(), "a scan takes about %s on the %s (%d ioctls); even %s needs it under %s: use fewer mux addresses, a faster clock or more ADCs", round(c.r.Scan.Mean), m.Title, c.r.Scan.Ioctls, last, round(budget(last)))
		}
	}
	return nil
}

type checker struct {
	w       *wiring.Wiring
	m       *Model
	r       *Report
	claimer map[int]string // GPIO → the field that took it
	cs      map[int]int    // bus → highest chip select used
	csField map[int]string // bus → a field using it
}

func (c *checker) errf(field, format string, a ...any) error {
	return &wiring.Error{Pkg: "pi", File: c.w.File, Line: c.w.Line(field), Field: field, Msg: fmt.Sprintf("%s: ", c.m.Title) + fmt.Sprintf(format, a...)}
}

func (c *checker) adcField() string {
	if len(c.w.ADCs) == 0 {
		return "adc"
	}
	return "adc." + c.w.ADCs[0].Name + ".speed"
}

// spi parses "SPIb.c" and records that bus b needs chip select c.
func (c *checker) spi(name, field string) (*Controller, int, error) {
	var b, cs int
	if _, err := fmt.Sscanf(name, "SPI%d.%d", &b, &cs); err != nil || fmt.Sprintf("SPI%d.%d", b, cs) != name {
		return nil, 0, c.errf(field, "%q is not an SPI port name like SPI0.0", name)
	}
	ctl := c.m.Controller(b)
	if ctl == nil {
		return nil, 0, c.errf(field, "no SPI%d on the 40-pin header (this model has %s)", b, c.m.buses())
	}
	if cs >= len(ctl.Overlays) {
		return nil, 0, c.errf(field, "SPI%d has %d chip selects (CE0-CE%d); %s has none", b, len(ctl.Overlays), len(ctl.Overlays)-1, name)
	}
	if old, ok := c.cs[b]; !ok || cs > old {
		c.cs[b] = cs
	}
	if _, ok := c.csField[b]; !ok {
		c.csField[b] = field
	}
	return ctl, cs, nil
}

func (c *checker) pinOf(ctl *Controller, cs int, fn string) int {
	for p, f := range ctl.Overlays[cs].Pins {
		if strings.HasSuffix(f, " "+fn) {
			return p
		}
	}
	return -1
}

// gpio claims a plain GPIO line called name ("GPIO17").
func (c *checker) gpio(name, use, field string) error {
	n, err := strconv.Atoi(strings.TrimPrefix(name, "GPIO"))
	if err != nil || !strings.HasPrefix(name, "GPIO") || n < 0 || n > 27 {
		return c.errf(field, "%q is not a header GPIO (GPIO0-GPIO27)", name)
	}
	if n < 2 {
		return c.errf(field, "GPIO%d is ID_SD/ID_SC, reserved for the HAT EEPROM", n)
	}
	return c.claim(n, use, field)
}

func (c *checker) claim(gpio int, use, field string) error {
	if old, ok := c.r.Pins[gpio]; ok {
		return c.errf(field, "GPIO%d is used twice: %s here, and already %s (%s, line %d)", gpio, use, old, c.claimer[gpio], c.w.Line(c.claimer[gpio]))
	}
	c.r.Pins[gpio], c.claimer[gpio] = use, field
	return nil
}

func sortedPins(m map[int]string) []int {
	var p []int
	for k := range m {
		p = append(p, k)
	}
	sort.Ints(p)
	return p
}

func pinList(m map[int]string) string {
	var l []string
	for _, p := range sortedPins(m) {
		f := m[p]
		if i := strings.IndexByte(f, ' '); i >= 0 {
			f = f[i+1:]
		}
		l = append(l, fmt.Sprintf("%s GPIO%d", f, p))
	}
	return strings.Join(l, ", ")
}

// LEDBytes is the size of one frame to the chain, as periph's drivers
// send it in one transfer: nrzled 3 + 12 per LED + 3, apa102 a start
// frame, 4 per LED and end bits.
func LEDBytes(l *wiring.LEDs) int {
	n := len(l.Order)
	if l.Kind == wiring.APA102 {
		return 4*(n+1) + n/2/8 + 1
	}
	return 3 + 12*n + 3
}

// Estimate is the cost of one scan on a model.
type Estimate struct {
	// Mean is the scan without wake-up latency; Worst adds the model's
	// wake-up tail.
	Mean, Worst time.Duration
	// Ioctls is the number of spidev ioctls per scan; Conversions the
	// number of ADC conversions.
	Ioctls, Conversions int
}

// budget is the time a scan may take at rate r: half the period, so that
// the classifier, the referee and the LEDs have the rest of the CPU.
func budget(r physic.Frequency) time.Duration { return r.Period() / 2 }

// Fits reports whether the scan fits rate r on m: on average within half
// the period, and in the worst case within the period.
func (e Estimate) Fits(m *Model, r physic.Frequency) bool {
	return e.Mean+m.Timing.WakeMean <= budget(r) && e.Worst <= r.Period()
}

// EstimateScan is the cost of one scan of w on m with the batched scan
// (one ioctl per mux address and ADC, as hardware/scan does it): GPIO
// writes for the select lines that change, the mux settle, the ioctls and
// the bytes on the wire with the controller's idle clocks.
func EstimateScan(w *wiring.Wiring, m *Model) Estimate {
	type group struct{ addr, adc int }
	count := map[group]int{}
	var addrs []int
	seen := map[int]bool{}
	for _, s := range w.Sockets {
		g := group{s.MuxAddr, s.ADC}
		count[g]++
		if !seen[s.MuxAddr] {
			seen[s.MuxAddr] = true
			addrs = append(addrs, s.MuxAddr)
		}
	}
	sort.Ints(addrs)
	t := m.Timing
	var d time.Duration
	var e Estimate
	prev := -1
	for _, a := range addrs {
		if a >= 0 && w.Mux != nil {
			flips := 4
			if prev >= 0 {
				flips = bits.OnesCount(uint(prev ^ a))
			}
			d += time.Duration(flips)*t.GPIOWrite + w.Mux.Settle
			prev = a
		}
		for i, adc := range w.ADCs {
			k := count[group{a, i}]
			if k == 0 {
				continue
			}
			e.Ioctls++
			e.Conversions += k
			d += t.Ioctl + t.IoctlJitter + time.Duration(k-1)*t.Transfer + ByteTime(m, adc, 3*k)
		}
	}
	e.Mean = d
	e.Worst = d + t.WakeTail
	return e
}

// ByteTime is how long n bytes take on the wire to adc on m, with the
// controller's idle clocks.
func ByteTime(m *Model, adc wiring.ADC, n int) time.Duration {
	f := adc.Speed
	if f == 0 {
		f = adc.Chip.MaxFreqAt(2700 * physic.MilliVolt)
	}
	idle := 0
	var b int
	if _, err := fmt.Sscanf(adc.Bus, "SPI%d.", &b); err == nil {
		if ctl := m.Controller(b); ctl != nil {
			idle = ctl.IdleClocks
		}
	}
	clocks := int64(n * (8 + idle))
	return time.Duration(clocks * int64(time.Second) / int64(f/physic.Hertz))
}

func round(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }

// Package pi knows what each supported Raspberry Pi can do with a wiring:
// which pins each device-tree overlay claims, what each SPI controller
// accepts (the auxiliary SPI of the BCM2835-2711 has no CPHA and no DMA;
// the Pi 5's RP1 controllers have both), spidev's buffer size, and what a
// scan costs. Check refuses a wiring that the Pi's kernel would refuse, and
// says which config.txt lines the wiring needs.
//
// Sources (firmware-config/README.md, "Pi timing model", lists them with
// the estimates marked):
//   - Linux drivers/spi/spi-bcm2835aux.c: mode_bits = SPI_CPOL | SPI_CS_HIGH |
//     SPI_NO_CS (no SPI_CPHA, so no mode 1 or 3), no DMA, a 4-entry FIFO;
//   - drivers/spi/spi-bcm2835.c: BCM2835_SPI_MODE_BITS includes SPI_CPHA,
//     DMA for transfers of BCM2835_SPI_DMA_MIN_LENGTH (96) bytes or more;
//   - drivers/spi/spidev.c: bufsiz = 4096, "data bytes in biggest supported
//     SPI message";
//   - drivers/spi/spi-dw-core.c (RP1 on the Pi 5): SPI_CPOL | SPI_CPHA;
//   - raspberrypi/linux arch/arm/boot/dts/overlays/README: the pins of
//     spi1-1cs (CE0 GPIO18, MISO 19, MOSI 20, SCLK 21), spi1-2cs (CE1 17),
//     spi1-3cs (CE2 16), spi3-6 on the Pi 4.
//
// Layer: drivers. May import: base, game, drivers.
package pi

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"
)

// Model is one Raspberry Pi model.
type Model struct {
	// Name is the --pi name: zero, zero2w, 3b, 4b or 5.
	Name string
	// Title is how /proc/device-tree/model starts, e.g. "Raspberry Pi 4".
	Title string
	SoC   string
	// GOARCH and GOARM of the build that runs on it.
	Arch string
	// Cores is the number of CPU cores (Go's default GOMAXPROCS there).
	Cores int
	// SPI lists the controllers a wiring may use, by bus number.
	SPI []Controller
	// CoreClock is the config.txt line that keeps the VPU core clock, and
	// so the SPI clocks divided from it, steady; "" when the SPI clock does
	// not depend on it (Pi 5).
	CoreClock string
	// Timing is the cost model of the scan (see Timing).
	Timing Timing
}

// Controller is one SPI controller as the kernel drives it.
type Controller struct {
	Bus    int
	Driver string // the kernel driver, for messages
	// Aux is the BCM2835-2711 auxiliary SPI (spi-bcm2835aux).
	Aux bool
	// CPHA: modes 1 and 3 are accepted. periph's nrzled and apa102 ask
	// for mode 3; the MCP3x08 uses mode 0.
	CPHA bool
	// DMA: long transfers are fed by DMA, not refilled from an interrupt.
	// A WS2812 stream must not stall mid-frame, so NRZ LEDs need it.
	DMA bool
	// IdleClocks is the number of idle SCLK cycles after each byte.
	IdleClocks int
	// Overlays[n-1] enables the controller with n chip selects.
	Overlays []Overlay
}

// Overlay is one config.txt line and the pins it takes from GPIO.
type Overlay struct {
	Line string
	Pins map[int]string // GPIO number → function, e.g. 19 → "SPI1 MISO"
}

// Timing is the cost of a scan on a model: what the Pi spends around the
// bus transfers, which the transfers' own clocks do not show. The figures
// are estimates (firmware-config/README.md says how each was reached);
// the simulator charges them to its clock, and Check uses them to choose
// the scan rate.
type Timing struct {
	// Ioctl is one SPI_IOC_MESSAGE ioctl on spidev: syscall, message
	// set-up, chip select, completion and return, without the bytes.
	Ioctl time.Duration
	// Transfer is each further transfer in the same message (chip select
	// toggled between, FIFO set-up).
	Transfer time.Duration
	// IoctlJitter is the mean of the extra time an ioctl takes when an
	// interrupt or another task gets in its way (exponentially
	// distributed).
	IoctlJitter time.Duration
	// GPIOWrite is one GPIO level change through periph.
	GPIOWrite time.Duration
	// WakeMean and WakeJitter are the scan goroutine's timer wake-up
	// latency on a stock (not real-time) kernel: mean and standard
	// deviation. WakeTail is the occasional worst case (another process
	// or an interrupt storm), seen about once in WakeTailEvery wake-ups.
	WakeMean, WakeJitter, WakeTail time.Duration
	WakeTailEvery                  int
	// FsyncMean is a typical fsync of a journal line on an SD card;
	// FsyncStall is the stall seen when the card erases or the kernel
	// flushes other dirty pages.
	FsyncMean, FsyncStall time.Duration
}

// The controllers.
var (
	bcmSPI0 = Controller{Bus: 0, Driver: "spi-bcm2835", CPHA: true, DMA: true, IdleClocks: 1, Overlays: []Overlay{
		{"dtparam=spi=on", map[int]string{7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"}},
		{"dtparam=spi=on", map[int]string{7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"}},
	}}
	auxSPI1 = Controller{Bus: 1, Driver: "spi-bcm2835aux", Aux: true, Overlays: spi1Overlays}
	rp1SPI0 = Controller{Bus: 0, Driver: "spi-dw (RP1)", CPHA: true, DMA: true, Overlays: bcmSPI0.Overlays}
	rp1SPI1 = Controller{Bus: 1, Driver: "spi-dw (RP1)", CPHA: true, DMA: true, Overlays: spi1Overlays}

	spi1Overlays = []Overlay{
		{"dtoverlay=spi1-1cs", map[int]string{18: "SPI1 CE0", 19: "SPI1 MISO", 20: "SPI1 MOSI", 21: "SPI1 SCLK"}},
		{"dtoverlay=spi1-2cs", map[int]string{17: "SPI1 CE1", 18: "SPI1 CE0", 19: "SPI1 MISO", 20: "SPI1 MOSI", 21: "SPI1 SCLK"}},
		{"dtoverlay=spi1-3cs", map[int]string{16: "SPI1 CE2", 17: "SPI1 CE1", 18: "SPI1 CE0", 19: "SPI1 MISO", 20: "SPI1 MOSI", 21: "SPI1 SCLK"}},
	}
)

// bcm2711Extra are the Pi 4's further full SPI controllers. They have no
// DMA channels of their own in the stock device tree, so they are
// modelled without DMA.
func bcm2711Extra(bus, ce0, miso, mosi, sclk, ce1 int) Controller {
	n := fmt.Sprintf("SPI%d", bus)
	one := map[int]string{ce0: n + " CE0", miso: n + " MISO", mosi: n + " MOSI", sclk: n + " SCLK"}
	two := map[int]string{ce1: n + " CE1"}
	for k, v := range one {
		two[k] = v
	}
	return Controller{Bus: bus, Driver: "spi-bcm2835", CPHA: true, IdleClocks: 1, Overlays: []Overlay{
		{fmt.Sprintf("dtoverlay=spi%d-1cs", bus), one},
		{fmt.Sprintf("dtoverlay=spi%d-2cs", bus), two},
	}}
}

// Models are the supported Pis, by Name.
var Models = []*Model{
	{Name: "zero", Cores: 1, Title: "Raspberry Pi Zero", SoC: "BCM2835", Arch: "armv6", SPI: []Controller{bcmSPI0, auxSPI1},
		CoreClock: "core_freq_min=400",
		Timing: Timing{Ioctl: 70 * time.Microsecond, Transfer: 12 * time.Microsecond, IoctlJitter: 10 * time.Microsecond, GPIOWrite: time.Microsecond,
			WakeMean: 60 * time.Microsecond, WakeJitter: 40 * time.Microsecond, WakeTail: time.Millisecond, WakeTailEvery: 1000,
			FsyncMean: 15 * time.Millisecond, FsyncStall: 500 * time.Millisecond}},
	{Name: "zero2w", Cores: 4, Title: "Raspberry Pi Zero 2", SoC: "RP3A0 (BCM2710A1)", Arch: "arm64", SPI: []Controller{bcmSPI0, auxSPI1},
		CoreClock: "core_freq=250",
		Timing: Timing{Ioctl: 18 * time.Microsecond, Transfer: 4 * time.Microsecond, IoctlJitter: 3 * time.Microsecond, GPIOWrite: 500 * time.Nanosecond,
			WakeMean: 30 * time.Microsecond, WakeJitter: 20 * time.Microsecond, WakeTail: 500 * time.Microsecond, WakeTailEvery: 1000,
			FsyncMean: 15 * time.Millisecond, FsyncStall: 500 * time.Millisecond}},
	{Name: "3b", Cores: 4, Title: "Raspberry Pi 3", SoC: "BCM2837", Arch: "arm64", SPI: []Controller{bcmSPI0, auxSPI1},
		CoreClock: "core_freq=250",
		Timing: Timing{Ioctl: 15 * time.Microsecond, Transfer: 3500 * time.Nanosecond, IoctlJitter: 3 * time.Microsecond, GPIOWrite: 500 * time.Nanosecond,
			WakeMean: 25 * time.Microsecond, WakeJitter: 15 * time.Microsecond, WakeTail: 400 * time.Microsecond, WakeTailEvery: 1000,
			FsyncMean: 15 * time.Millisecond, FsyncStall: 500 * time.Millisecond}},
	{Name: "4b", Cores: 4, Title: "Raspberry Pi 4", SoC: "BCM2711", Arch: "arm64",
		SPI:       []Controller{bcmSPI0, auxSPI1, bcm2711Extra(3, 0, 1, 2, 3, 24), bcm2711Extra(4, 4, 5, 6, 7, 25), bcm2711Extra(5, 12, 13, 14, 15, 26), bcm2711Extra(6, 18, 19, 20, 21, 27)},
		CoreClock: "core_freq_min=500",
		Timing: Timing{Ioctl: 8 * time.Microsecond, Transfer: 2 * time.Microsecond, IoctlJitter: 2 * time.Microsecond, GPIOWrite: 300 * time.Nanosecond,
			WakeMean: 15 * time.Microsecond, WakeJitter: 10 * time.Microsecond, WakeTail: 300 * time.Microsecond, WakeTailEvery: 1000,
			FsyncMean: 10 * time.Millisecond, FsyncStall: 400 * time.Millisecond}},
	{Name: "5", Cores: 4, Title: "Raspberry Pi 5", SoC: "BCM2712 + RP1", Arch: "arm64", SPI: []Controller{rp1SPI0, rp1SPI1},
		Timing: Timing{Ioctl: 10 * time.Microsecond, Transfer: 3 * time.Microsecond, IoctlJitter: 2 * time.Microsecond, GPIOWrite: 15 * time.Microsecond,
			WakeMean: 10 * time.Microsecond, WakeJitter: 6 * time.Microsecond, WakeTail: 200 * time.Microsecond, WakeTailEvery: 1000,
			FsyncMean: 8 * time.Millisecond, FsyncStall: 300 * time.Millisecond}},
}

// Names lists the model names, for flags and messages.
func Names() string {
	var n []string
	for _, m := range Models {
		n = append(n, m.Name)
	}
	return strings.Join(n, ", ")
}

// ByName returns the model called name.
func ByName(name string) (*Model, error) {
	for _, m := range Models {
		if m.Name == name {
			return m, nil
		}
	}
	return nil, fmt.Errorf("pi: unknown model %q (want one of %s)", name, Names())
}

// Controller returns SPI controller bus, or nil when the model has none
// that a wiring can use.
func (m *Model) Controller(bus int) *Controller {
	for i := range m.SPI {
		if m.SPI[i].Bus == bus {
			return &m.SPI[i]
		}
	}
	return nil
}

// buses lists the model's SPI bus numbers, for messages.
func (m *Model) buses() string {
	var b []string
	for _, c := range m.SPI {
		b = append(b, fmt.Sprintf("SPI%d", c.Bus))
	}
	sort.Strings(b)
	return strings.Join(b, ", ")
}

// FromDeviceTree picks the model from the text of /proc/device-tree/model,
// e.g. "Raspberry Pi 4 Model B Rev 1.4".
func FromDeviceTree(text string) (*Model, error) {
	t := strings.TrimRight(text, "\x00\n ")
	for _, pre := range []struct{ prefix, name string }{
		{"Raspberry Pi Zero 2", "zero2w"}, {"Raspberry Pi Zero", "zero"}, {"Raspberry Pi 3", "3b"},
		{"Raspberry Pi 4", "4b"}, {"Raspberry Pi 400", "4b"}, {"Raspberry Pi Compute Module 4", "4b"},
		{"Raspberry Pi 5", "5"}, {"Raspberry Pi 500", "5"},
	} {
		if strings.HasPrefix(t, pre.prefix) {
			return ByName(pre.name)
		}
	}
	return nil, fmt.Errorf("pi: %q is not a supported Raspberry Pi (%s); name one with --pi", t, Names())
}

// Detect reads /proc/device-tree/model.
func Detect() (*Model, error) {
	b, err := os.ReadFile("/proc/device-tree/model")
	if err != nil {
		return nil, fmt.Errorf("pi: cannot tell which Raspberry Pi this is (%w); name it with --pi (%s)", err, Names())
	}
	return FromDeviceTree(string(b))
}

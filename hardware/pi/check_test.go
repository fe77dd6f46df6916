package pi

import (
	"errors"
	"strings"
	"testing"

	"periph.io/x/conn/v3/physic"

	"github.com/zertzboard/zertzboard/hardware/wiring"
)

// edit returns the reference wiring with each old replaced by its new.
func edit(t *testing.T, pairs ...string) string {
	t.Helper()
	s := string(wiring.ReferenceText())
	for i := 0; i < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("reference wiring has no %q", pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s
}

func lineOf(s, sub string) int {
	return strings.Count(s[:strings.Index(s, sub)], "\n") + 1
}

// The first reference wiring: WS2812 on the auxiliary SPI1, the ADC on
// SPI0 and the mux's S3 on GPIO19, which spi1-1cs takes for MISO.
var firstReference = []string{
	"bus = SPI1.0\nchip", "bus = SPI0.0\nchip",
	"kind = ws2812\nbus = SPI0.0", "kind = ws2812\nbus = SPI1.0",
	"select = GPIO5 GPIO6 GPIO13 GPIO26", "select = GPIO5 GPIO6 GPIO13 GPIO19",
}

func TestCheckReferenceRunsEverywhere(t *testing.T) {
	w := wiring.Reference()
	want := map[string]physic.Frequency{"zero": 100 * physic.Hertz, "zero2w": 200 * physic.Hertz, "3b": 200 * physic.Hertz, "4b": 200 * physic.Hertz, "5": 200 * physic.Hertz}
	for _, m := range Models {
		t.Run(m.Name, func(t *testing.T) {
			r, err := Check(w, m, nil)
			if err != nil {
				t.Fatalf("Check(reference, %s) = %v", m.Name, err)
			}
			if r.Rate != want[m.Name] {
				t.Errorf("rate %s (scan %s); want %s", r.Rate, r.Scan.Mean, want[m.Name])
			}
			if r.Rate < 100*physic.Hertz {
				t.Errorf("rate %s is under 100 Hz", r.Rate)
			}
			if r.Scan.Ioctls != 16 || r.Scan.Conversions != 61 {
				t.Errorf("scan = %d ioctls, %d conversions; want 16 and 61", r.Scan.Ioctls, r.Scan.Conversions)
			}
			cfg := strings.Join(r.Config, "\n")
			for _, line := range []string{"dtparam=spi=on", "dtoverlay=spi1-1cs", "dtparam=i2c_arm=on"} {
				if !strings.Contains(cfg, line) {
					t.Errorf("config.txt lines lack %q:\n%s", line, cfg)
				}
			}
			if (m.CoreClock != "") != strings.Contains(cfg, "core_freq") {
				t.Errorf("core clock line (%q) wrong in:\n%s", m.CoreClock, cfg)
			}
			if r.Pins[19] != "SPI1 MISO (dtoverlay=spi1-1cs)" || r.Pins[10] != "SPI0 MOSI (dtparam=spi=on)" {
				t.Errorf("pins 19 and 10 are %q and %q", r.Pins[19], r.Pins[10])
			}
		})
	}
}

func TestCheckRefuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		models string // space-separated
		src    func(t *testing.T) string
		opts   CheckOpts
		field  string // where the error points
		line   string // the text on that line
		msg    string
	}{
		{"first reference: WS2812 on the aux SPI", "zero zero2w 3b 4b", func(t *testing.T) string { return edit(t, firstReference...) },
			CheckOpts{}, "leds.bus", "bus = SPI1.0\nbrightness", "no CPHA, so no mode 3"},
		{"first reference on a Pi 5: GPIO19 twice", "5", func(t *testing.T) string { return edit(t, firstReference...) },
			CheckOpts{}, "mux.select", "select = GPIO5", "GPIO19 is used twice: mux S3 here, and already SPI1 MISO"},
		{"mux S3 on SPI1 MISO", "zero zero2w 3b 4b 5", func(t *testing.T) string {
			return edit(t, "select = GPIO5 GPIO6 GPIO13 GPIO26", "select = GPIO5 GPIO6 GPIO13 GPIO19")
		}, CheckOpts{}, "mux.select", "select = GPIO5", "GPIO19 is used twice"},
		{"APA102 on the aux SPI", "zero 3b 4b", func(t *testing.T) string {
			return edit(t, "bus = SPI1.0\nchip", "bus = SPI0.0\nchip", "kind = ws2812\nbus = SPI0.0", "kind = apa102\nbus = SPI1.0")
		}, CheckOpts{}, "leds.bus", "bus = SPI1.0\nbrightness", "no CPHA"},
		{"button on SPI0 CE1", "zero 3b 4b 5", func(t *testing.T) string { return edit(t, "confirm = GPIO27", "confirm = GPIO7") },
			CheckOpts{}, "buttons.confirm", "confirm = GPIO7", "GPIO7 is used twice: button confirm here, and already SPI0 CE1"},
		{"button on I2C SDA", "4b", func(t *testing.T) string { return edit(t, "confirm = GPIO27", "confirm = GPIO2") },
			CheckOpts{}, "buttons.confirm", "confirm = GPIO2", "GPIO2 is used twice"},
		{"a third SPI0 chip select", "3b", func(t *testing.T) string { return edit(t, "bus = SPI0.0\nbrightness", "bus = SPI0.2\nbrightness") },
			CheckOpts{}, "leds.bus", "bus = SPI0.2", "has 2 chip selects"},
		{"SPI2 is not on the header", "zero 3b 4b 5", func(t *testing.T) string { return edit(t, "bus = SPI1.0\nchip", "bus = SPI2.0\nchip") },
			CheckOpts{}, "adc.adc0.bus", "bus = SPI2.0", "no SPI2 on the 40-pin header"},
		{"Pi 4 SPI6 shares SPI1's pins", "4b", func(t *testing.T) string {
			return edit(t, "kind = ws2812\nbus = SPI0.0", "kind = apa102\nbus = SPI6.0")
		}, CheckOpts{}, "leds.bus", "bus = SPI6.0", "GPIO18 is used twice: SPI6 CE0 (dtoverlay=spi6-1cs) here, and already SPI1 CE0"},
		{"WS2812 on a Pi 4 SPI without DMA", "4b", func(t *testing.T) string {
			return edit(t, "bus = SPI0.0\nbrightness", "bus = SPI5.0\nbrightness")
		}, CheckOpts{}, "leds.bus", "bus = SPI5.0", "no DMA"},
		{"LED chain beyond spidev's buffer", "3b", func(t *testing.T) string { return string(wiring.ReferenceText()) },
			CheckOpts{BufSiz: 512}, "leds.bus", "bus = SPI0.0\nbrightness", "needs 738 bytes in one transfer; spidev's buffer is 512"},
		{"200 Hz asked of a Zero", "zero", func(t *testing.T) string { return string(wiring.ReferenceText()) },
			CheckOpts{Rate: 200 * physic.Hertz}, "adc.adc0.speed", "speed = 1MHz", "200Hz needs it under 2.5ms"},
		{"a slow ADC clock does not fit 100 Hz on a Zero", "zero", func(t *testing.T) string {
			return edit(t, "speed = 1MHz", "speed = 100kHz")
		}, CheckOpts{}, "adc.adc0.speed", "speed = 100kHz", "even 100Hz"},
		{"screen on I2C0", "4b", func(t *testing.T) string { return edit(t, "bus = I2C1", "bus = I2C0") },
			CheckOpts{}, "screen.bus", "bus = I2C0", "I2C1"},
		{"not a header GPIO", "4b", func(t *testing.T) string { return edit(t, "takeback = GPIO22", "takeback = GPIO40") },
			CheckOpts{}, "buttons.takeback", "takeback = GPIO40", "not a header GPIO"},
	} {
		for _, name := range strings.Fields(tc.models) {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				m, err := ByName(name)
				if err != nil {
					t.Fatal(err)
				}
				src := tc.src(t)
				w, err := wiring.Parse("base.wiring", strings.NewReader(src))
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				_, err = Check(w, m, &tc.opts)
				var we *wiring.Error
				if !errors.As(err, &we) {
					t.Fatalf("Check = %v; want a *wiring.Error", err)
				}
				want := lineOf(src, tc.line)
				if we.File != "base.wiring" || we.Line != want || we.Field != tc.field || !strings.Contains(we.Msg, tc.msg) {
					t.Errorf("Check = %q; want base.wiring:%d, field %s, message containing %q", err, want, tc.field, tc.msg)
				}
			})
		}
	}
}

func TestFromDeviceTree(t *testing.T) {
	for in, want := range map[string]string{
		"Raspberry Pi 4 Model B Rev 1.4\x00":    "4b",
		"Raspberry Pi Zero 2 W Rev 1.0\x00":     "zero2w",
		"Raspberry Pi Zero W Rev 1.1\x00":       "zero",
		"Raspberry Pi 3 Model B Plus Rev 1.3":   "3b",
		"Raspberry Pi 5 Model B Rev 1.0\x00":    "5",
		"Raspberry Pi Compute Module 4 Rev 1.0": "4b",
	} {
		m, err := FromDeviceTree(in)
		if err != nil || m.Name != want {
			t.Errorf("FromDeviceTree(%q) = %v, %v; want %s", in, m, err, want)
		}
	}
	if _, err := FromDeviceTree("Raspberry Pi Model B Rev 2"); err == nil {
		t.Error("FromDeviceTree(Pi 1 B): want an error")
	}
}

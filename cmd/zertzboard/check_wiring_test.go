package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestCheckWiring(t *testing.T) {
	ref := "../../firmware-config/reference-61.wiring"
	for _, m := range []string{"zero", "zero2w", "3b", "4b", "5"} {
		code, out, errs := runCmd("check-wiring", "--pi", m, ref)
		if code != exitOK || !strings.Contains(out, ": ok, scan") || !strings.Contains(out, "dtoverlay=spi1-1cs") || !strings.Contains(out, "dtparam=spi=on") {
			t.Errorf("check-wiring --pi %s reference = %d\n%s%s", m, code, out, errs)
		}
	}
	// The first reference wiring: LEDs on the aux SPI1.
	src, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), "kind = ws2812\nbus = SPI0.0", "kind = ws2812\nbus = SPI1.1", 1)
	bad = strings.Replace(bad, "bus = SPI1.0\nchip", "bus = SPI0.0\nchip", 1)
	path := filepath.Join(t.TempDir(), "bad.wiring")
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	line := strings.Count(bad[:strings.Index(bad, "bus = SPI1.1")], "\n") + 1
	code, _, errs := runCmd("check-wiring", "--pi", "3b", path)
	if want := "bad.wiring:" + strconv.Itoa(line) + ": leds.bus: Raspberry Pi 3: SPI1 is the auxiliary SPI"; code != exitIllegal || !strings.Contains(errs, want) {
		t.Errorf("check-wiring of LEDs on SPI1 = %d, %q; want exit 1 with %q", code, errs, want)
	}
	for _, args := range [][]string{{"--pi", "2b", ref}, {}, {"--bogus", ref}} {
		if code, _, _ := runCmd(append([]string{"check-wiring"}, args...)...); code != exitUsage {
			t.Errorf("check-wiring %q = %d; want %d", args, code, exitUsage)
		}
	}
	if code, _, errs := runCmd("check-wiring", "--help"); code != exitOK || !strings.Contains(errs, "Usage: zertzboard check-wiring") {
		t.Errorf("check-wiring --help = %d, %q", code, errs)
	}
}

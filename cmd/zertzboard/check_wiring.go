package main

import (
	"fmt"
	"io"

	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/hardware/wiring"
)

func init() {
	register(command{name: "check-wiring", summary: "check a wiring file against a Raspberry Pi model and print the config.txt lines it needs", run: runCheckWiring})
}

const checkWiringAbout = `
Checks that a Raspberry Pi can run a wiring file, before anything is
soldered or any bus is opened, and prints the config.txt lines the wiring
needs. It knows:
  - which pins each overlay takes (dtparam=spi=on takes GPIO7-11,
    spi1-1cs GPIO18-21, i2c_arm GPIO2-3), so that no GPIO is used twice;
  - what each SPI controller accepts: SPI1 on the Zero, Zero 2 W, 3 and 4
    is the auxiliary SPI (spi-bcm2835aux), with no mode 1 or 3 and no DMA,
    so no LED chain can run on it; the Pi 5's RP1 controllers have both;
  - spidev's buffer (bufsiz, 4096 bytes unless cmdline.txt raises it)
    against the LED chain's frame;
  - each ADC's clock rating at its supply voltage;
  - what a scan costs on that Pi, and so the scan rate: 200 Hz where it
    fits, 100 Hz otherwise, never less.
"run", "calibrate" and "selftest" make the same check before they open a
bus. MODEL is one of zero, zero2w, 3b, 4b, 5; without --pi, every model is
checked.

Exit status: 0 when the Pi can run the wiring, 1 when it cannot (the reason
names the file, the line and the field), 2 on bad flags.

Examples:
  zertzboard check-wiring --pi 4b firmware-config/reference-61.wiring
  zertzboard check-wiring --pi zero --bufsiz 8192 my-base.wiring
  zertzboard check-wiring my-base.wiring`

func runCheckWiring(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("check-wiring", "[--pi MODEL] [--bufsiz BYTES] FILE", checkWiringAbout, stderr)
	model := fs.String("pi", "", "the Raspberry Pi `model`: "+pi.Names()+" (default: all)")
	bufsiz := fs.Int("bufsiz", 0, "spidev's buffer size in `bytes` (cmdline.txt spidev.bufsiz; default 4096)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 || *bufsiz < 0 {
		fmt.Fprintln(stderr, "zertzboard check-wiring: want one wiring FILE (and a positive --bufsiz)")
		return exitUsage
	}
	models := pi.Models
	if *model != "" {
		m, err := pi.ByName(*model)
		if err != nil {
			fmt.Fprintf(stderr, "zertzboard check-wiring: --pi: %s\n", errText(err))
			return exitUsage
		}
		models = []*pi.Model{m}
	}
	w, err := wiring.Load(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "zertzboard check-wiring: %v\n", err)
		return exitIllegal
	}
	code := exitOK
	for _, m := range models {
		rep, err := pi.Check(w, m, &pi.CheckOpts{BufSiz: *bufsiz})
		if err != nil {
			fmt.Fprintf(stderr, "zertzboard check-wiring: %v\n", err)
			code = exitIllegal
			continue
		}
		fmt.Fprint(stdout, rep.Text())
	}
	return code
}

package main

import (
	"fmt"
	"io"

	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/hardware/wiring"
)

func init() {
	register(command{Name: "check-wiring", Summary: "check a wiring file against a Raspberry Pi model and print the config.txt lines it needs", Run: runCheckWiring})
}

func runCheckWiring(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("check-wiring", "[--pi MODEL] [--bufsiz BYTES] FILE", helpText("check-wiring"), stderr)
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

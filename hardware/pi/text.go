package pi

import (
	"fmt"
	"io"
	"strings"
)

// Text is the report in words, as "zertzboard check-wiring" prints it:
// the model, the scan and its rate, the config.txt lines, the cmdline.txt
// additions and the notes, each line ending in a newline.
func (r *Report) Text() string {
	var b strings.Builder
	m := r.Model
	fmt.Fprintf(&b, "%s (%s, %s): ok, scan %s (%d ioctls, %d conversions) at %s\n", m.Title, m.SoC, m.Arch,
		r.Scan.Mean.Round(10e3), r.Scan.Ioctls, r.Scan.Conversions, r.Rate)
	b.WriteString("  config.txt:\n")
	lines(&b, r.Config)
	if len(r.Cmdline) > 0 {
		b.WriteString("  cmdline.txt (append to the single line):\n")
		lines(&b, r.Cmdline)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	return b.String()
}

func lines(w io.Writer, ls []string) {
	for _, l := range ls {
		fmt.Fprintf(w, "    %s\n", l)
	}
}

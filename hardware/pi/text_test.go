package pi

import (
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/hardware/wiring"
)

// The report in words: the model and scan, the config.txt lines, the
// cmdline.txt additions when there are some, and the notes.
func TestReportText(t *testing.T) {
	m, err := ByName("zero")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Check(wiring.Reference(), m, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := rep.Text()
	if !strings.HasPrefix(got, "Raspberry Pi Zero (BCM2835, armv6): ok, scan ") || !strings.Contains(got, " (16 ioctls, 61 conversions) at 100Hz\n  config.txt:\n    dtparam=spi=on ") {
		t.Errorf("Text:\n%s", got)
	}
	if strings.Contains(got, "cmdline.txt") || !strings.Contains(got, "\n  note: ") || !strings.HasSuffix(got, "\n") {
		t.Errorf("Text without cmdline additions, with notes:\n%s", got)
	}
	rep.Cmdline, rep.Notes = []string{"spidev.bufsiz=8192"}, nil
	want := "  config.txt:\n"
	for _, l := range rep.Config {
		want += "    " + l + "\n"
	}
	want += "  cmdline.txt (append to the single line):\n    spidev.bufsiz=8192\n"
	if got := rep.Text(); !strings.HasSuffix(got, want) {
		t.Errorf("Text:\n%s\nwant it to end\n%s", got, want)
	}
}

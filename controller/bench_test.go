package controller

import (
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/referee"
)

// BenchmarkFrameUnchangedWithClock is the controller's cost of a scan in
// which nothing changed while a Fischer clock runs: the clock's tick and
// flag check, then the referee's comparison. No journal: a checkpoint
// every 10 s is an fsync, not part of the per-frame budget.
func BenchmarkFrameUnchangedWithClock(b *testing.B) { benchFrame(b, "fischer:6h+10s") }

// BenchmarkFrameUnchangedNoClock is the same frame without a time control,
// for comparison.
func BenchmarkFrameUnchangedNoClock(b *testing.B) { benchFrame(b, "none") }

func benchFrame(b *testing.B, control string) {
	ctl, _ := clock.Parse(control)
	c, err := New(Config{BoardID: "b", Variant: "37", Mode: referee.Tournament, Control: ctl})
	if err != nil {
		b.Fatal(err)
	}
	cells := []byte(strings.Repeat("o", 37))
	for i := 0; i < 40; i++ {
		c.Frame(int64(i*5), cells)
	}
	if ctl.Timed() && c.State().Clock.Running == nil {
		b.Fatal("the clock does not run")
	}
	b.ReportAllocs()
	t := int64(200)
	n := 0
	for b.Loop() {
		t += 5
		c.Frame(t, cells)
		if n++; n%500_000 == 0 && ctl.Timed() { // 2500 s of frames: keep the flag up
			c.Command(t, command.AddTime{Player: 0, MS: clock.MaxAddMS})
		}
	}
	if st := c.State(); st.Phase == "over" || ctl.Timed() && st.Clock.Running == nil {
		b.Fatalf("the clock stopped: %+v", st.Clock)
	}
}

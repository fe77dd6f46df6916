package rig

import (
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/analyst"
	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/internal/background"
)

// TestNoOverrunsWhileTheEngineThinks: on every Pi's timing model (what
// selftest --sim --pi MODEL measures), the scan never overruns while the
// engine searches on its background thread (level 10 on 61 rings, far
// longer than the scans measured). The model charges background work by
// how it is run (package background: nice 19, GOMAXPROCS at least 2); a
// busy thread at the scan's own priority on the one-core Pi Zero delays
// its scans by milliseconds, which shows the measurement can tell.
func TestNoOverrunsWhileTheEngineThinks(t *testing.T) {
	defer analyst.Busy()()
	late := map[string]time.Duration{}
	for _, m := range pi.Models {
		r := openSim(t, nil, m.Name, true)
		if _, err := r.Measure(400, nil); err != nil {
			t.Fatal(err)
		}
		if n := len(background.Running()); n != 1 {
			t.Fatalf("%d background threads while measuring %s; want the engine's", n, m.Name)
		}
		late[m.Name] = r.Stats.LateMax
		t.Logf("%s: scan mean %s max %s, tick to end at most %s, period %s, overruns %d, with the engine thinking", m.Name, r.Stats.ScanMean, r.Stats.ScanMax, r.Stats.LateMax, r.Stats.Period, r.Stats.Overruns)
		if r.Stats.Overruns != 0 {
			t.Errorf("%s: %d overruns in 400 scans while the engine thinks", m.Name, r.Stats.Overruns)
		}
	}
	exit := background.Register(0) // a busy thread at the scan's priority
	defer exit()
	r := openSim(t, nil, "zero", true)
	if _, err := r.Measure(400, nil); err != nil {
		t.Fatal(err)
	}
	if r.Stats.LateMax < late["zero"]+time.Millisecond {
		t.Errorf("zero: tick to end at most %s with a busy thread at nice 0 beside the scan, %s with the engine alone; the model charges nothing", r.Stats.LateMax, late["zero"])
	}
}

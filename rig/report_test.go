package rig

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// selftest builds its report here and the command only prints it: a
// healthy simulated base reads its selftest position, row by row, and a
// dead and a drifting sensor are the report's faults; the scan timing is
// the JSON the contract names.
func TestSelftestReport(t *testing.T) {
	r := openSim(t, nil, "zero", true)
	if title := r.Title(); !strings.HasPrefix(title, "selftest on the simulator (Raspberry Pi Zero") || !strings.HasSuffix(title, ": 61 sockets, 1 ADC(s)") {
		t.Errorf("Title = %q", title)
	}
	var progress strings.Builder
	o := SelftestOpts{Frames: 400, Out: &progress}
	if err := r.PrepareSim(&o, SimFaults{}); err != nil {
		t.Fatal(err)
	}
	if o.Calibration == nil || progress.String() != "calibrating the simulator in memory...\n" {
		t.Fatalf("PrepareSim without a calibration: %q; want one made in memory, and said", progress.String())
	}
	res, err := r.Selftest(o)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := res.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	if !res.OK() || !strings.HasSuffix(out, "\n\nno faults\n") || !strings.Contains(out, "scanned 400 frames at ") {
		t.Errorf("a healthy base: OK %t, report\n%s", res.OK(), out)
	}
	rows := 0
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 8 || f[0] == "socket" {
			continue
		}
		rows++
		want := map[string]string{"D4": "w", "E5": "g", "F4": "b"}[f[0]]
		if want == "" {
			want = "o"
		}
		if f[7] != want {
			t.Errorf("row %q: class %s; want %s", line, f[7], want)
		}
	}
	if rows != 61 {
		t.Errorf("%d socket rows; want 61:\n%s", rows, out)
	}
	var timing map[string]any
	data, err := json.Marshal(res.Timing())
	if err != nil || json.Unmarshal(data, &timing) != nil {
		t.Fatal(err)
	}
	if timing["model"] != "zero" || timing["overruns"] != 0.0 || timing["rate_hz"].(float64) < 100 || timing["scan_ms_mean"].(float64) <= 0 || len(timing) != 6 {
		t.Errorf("timing %s", data)
	}

	progress.Reset()
	if err := r.PrepareSim(&o, SimFaults{Dead: "A3", Drift: "E5"}); err != nil || progress.Len() != 0 {
		t.Fatalf("PrepareSim with a calibration: %v, %q; want it kept", err, progress.String())
	}
	if res, err = r.Selftest(o); err != nil {
		t.Fatal(err)
	}
	text.Reset()
	res.WriteText(&text)
	out = text.String()
	if res.OK() || !strings.Contains(out, "\n2 fault(s):\n  A3: saturated") || !strings.Contains(out, "\n  E5: drifting") {
		t.Errorf("a dead A3 and a drifting E5: OK %t, report\n%s", res.OK(), out)
	}
	var le *LabelError
	if err := r.PrepareSim(&o, SimFaults{Drift: "Z9"}); !errors.As(err, &le) || !strings.Contains(err.Error(), "Z9") {
		t.Errorf("PrepareSim with socket Z9: %v; want a *LabelError naming it", err)
	}
}

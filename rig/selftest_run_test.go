package rig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// RunSelftest records the frames and raw counts it asks for, saves the
// simulator's screen, and keeps Busy running while the scan is measured.
func TestRunSelftest(t *testing.T) {
	r := openSim(t, nil, "zero", true)
	b, err := engine.StandardBoard("61")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var out strings.Builder
	started, stopped := 0, 0
	s := SelftestRun{
		SelftestOpts: SelftestOpts{Frames: 20, Out: &out},
		Record:       filepath.Join(dir, "t.frames.jsonl"), Raw: filepath.Join(dir, "t.raw.jsonl"), Board: b,
		ScreenPNG: filepath.Join(dir, "screen.png"),
		Busy: func() func() {
			started++
			return func() { stopped++ }
		},
	}
	res, err := r.RunSelftest(s)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() || started != 1 || stopped != 1 {
		t.Errorf("OK %t, Busy started %d and stopped %d times; want a healthy base and once each", res.OK(), started, stopped)
	}
	lines := strings.Split(out.String(), "\n")
	if lines[0] != r.Title() || !strings.Contains(out.String(), "\nthe engine is thinking on its background thread") {
		t.Errorf("progress:\n%s\nwant the title first and the engine's thinking said", out.String())
	}
	for _, f := range []string{s.Record, s.Raw, s.ScreenPNG} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v; want it written", filepath.Base(f), err)
		}
	}
	if _, err := r.RunSelftest(SelftestRun{SelftestOpts: SelftestOpts{Frames: 20, Out: &out}, Calibration: filepath.Join(dir, "none.json")}); err == nil || !strings.Contains(err.Error(), "none.json") {
		t.Errorf("a missing calibration file: %v; want an error naming it", err)
	}
}

package classify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// WriteFile writes what Load reads back; a path that cannot be created
// is an error.
func TestWriteFileLoad(t *testing.T) {
	base := engine.MustStandardBoard("37")
	samples := make([]Samples, base.Len())
	for i := range samples {
		samples[i] = synth([NumClasses]int{2048 + i, 1800, 1350, 2500, 3100}, 5)
	}
	cal, err := Fit(base, 12, samples, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "calibration.json")
	if err := os.WriteFile(path, []byte("an older, longer file than the calibration, to be replaced whole: "+string(make([]byte, 1<<16))), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := cal.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path, base)
	if err != nil {
		t.Fatal(err)
	}
	for s := range cal.Sockets {
		if back.Sockets[s] != cal.Sockets[s] {
			t.Fatalf("socket %d: loaded %v; wrote %v", s, back.Sockets[s], cal.Sockets[s])
		}
	}
	if err := cal.WriteFile(filepath.Join(t.TempDir(), "no", "dir", "c.json")); err == nil {
		t.Error("WriteFile into a missing directory: no error")
	}
}

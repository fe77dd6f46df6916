package capture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/wiring"
)

// Create writes the logs it is given paths for, and only those; a path
// that cannot be created closes what was opened and names the path.
func TestCreate(t *testing.T) {
	base := engine.MustStandardBoard("37")
	m, err := wiring.NewMount(base, base, engine.Coord{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cls := make([]engine.Content, base.Len())
	for i := range cls {
		cls[i] = engine.Vacant
	}
	counts := make([]uint16, base.Len())
	for _, tt := range []struct{ frames, raw string }{{"a.frames.jsonl", "a.raw.jsonl"}, {"", "b.raw.jsonl"}, {"c.frames.jsonl", ""}} {
		path := func(name string) string {
			if name == "" {
				return ""
			}
			return filepath.Join(dir, name)
		}
		f, err := Create(m, path(tt.frames), path(tt.raw))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Record(time.Unix(0, 0), counts, cls); err != nil {
			t.Fatal(err)
		}
		if err := f.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{tt.frames, tt.raw} {
			if name == "" {
				continue
			}
			b, err := os.ReadFile(path(name))
			if err != nil || !strings.HasPrefix(string(b), `{"t":0,`) || strings.Count(string(b), "\n") != 1 {
				t.Errorf("%s: %q, %v; want one line", name, b, err)
			}
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 4 {
		t.Errorf("%d files written; want 4", len(ents))
	}
	if _, err := Create(m, filepath.Join(dir, "d.frames.jsonl"), filepath.Join(dir, "no", "e.raw.jsonl")); err == nil || !strings.Contains(err.Error(), "e.raw.jsonl") {
		t.Errorf("a raw log in a missing directory: %v; want an error naming it", err)
	}
}

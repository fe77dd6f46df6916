package settle

import (
	"strings"
	"testing"
)

// feed pushes cells every scanMS from t for ms and returns the
// observations.
func feed(s *Stage, t *int64, cells string, scanMS, ms int64) []Observation {
	var out []Observation
	for end := *t + ms; *t < end; *t += scanMS {
		if o, ok := s.Push(*t, cells); ok {
			out = append(out, o)
		}
	}
	return out
}

func newStage(t *testing.T, n int) *Stage {
	t.Helper()
	s, err := New(n, Config{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSettlesOnceAfterTheSettleTime(t *testing.T) {
	s := newStage(t, 3)
	var now int64
	got := feed(s, &now, "ooo", 5, 300)
	if len(got) != 1 || got[0].Cells != "ooo" || got[0].HeldMS < DefaultMS {
		t.Fatalf("observations %+v; want one after %d ms", got, DefaultMS)
	}
	if got := feed(s, &now, "ooo", 5, 300); len(got) != 0 {
		t.Errorf("the same board again: %+v", got)
	}
	// A glitch shorter than the glitch window neither counts nor delays.
	feed(s, &now, "o?o", 5, 10)
	if got := feed(s, &now, "ooo", 5, 300); len(got) != 0 {
		t.Errorf("back after a glitch: %+v", got)
	}
}

// At 10 scans a second a two-scan glitch lasts 200 ms, longer than the
// settle time: it still never counts, since a board needs MinScans frames.
func TestTwoScanGlitchAtTenHertz(t *testing.T) {
	s := newStage(t, 3)
	var now int64
	feed(s, &now, "ooo", 100, 1000)
	if got := feed(s, &now, "owo", 100, 200); len(got) != 0 {
		t.Fatalf("a two-scan glitch at 10 Hz counted: %+v", got)
	}
	if got := feed(s, &now, "ooo", 100, 500); len(got) != 0 {
		t.Fatalf("back after the glitch: %+v", got)
	}
	got := feed(s, &now, "owo", 100, 300)
	if len(got) != 1 {
		t.Fatalf("three scans of a real change: %+v; want it seen", got)
	}
	if got[0].Transients[0] != (Transient{Cell: 1, Showed: "w"}) {
		t.Errorf("transients %+v", got[0].Transients)
	}
}

func TestHoldMS(t *testing.T) {
	for _, c := range []struct{ settle, scan, want int64 }{{100, 5, 105}, {100, 100, 300}, {30, 20, 60}} {
		if got := HoldMS(c.settle, c.scan); got != c.want {
			t.Errorf("HoldMS(%d, %d) = %d; want %d", c.settle, c.scan, got, c.want)
		}
		s, _ := New(3, Config{SettleMS: c.settle, GlitchMS: c.settle / 4})
		var now int64
		feed(s, &now, "ooo", c.scan, 1000)
		if got := feed(s, &now, "oob", c.scan, HoldMS(c.settle, c.scan)); len(got) != 1 {
			t.Errorf("settle %d, scan %d: a board held HoldMS not seen", c.settle, c.scan)
		}
	}
}

// A socket that reads '?' holds boards back for a second, then they count
// with it unknown; after five seconds it is dead; one readable frame and
// it is alive.
func TestUnknownAndDeadCells(t *testing.T) {
	s := newStage(t, 3)
	var now int64
	feed(s, &now, "ooo", 5, 300)
	got := feed(s, &now, "o?w", 5, DefaultUnknownMS-50)
	if len(got) != 0 {
		t.Fatalf("a board with a fresh '?' counted: %+v", got)
	}
	got = feed(s, &now, "o?w", 5, 200)
	if len(got) != 1 || len(got[0].Unknown) != 1 || got[0].Unknown[0] != 1 {
		t.Fatalf("after a second: %+v; want the board with cell 1 unknown", got)
	}
	if d := s.Dead(); len(d) != 0 {
		t.Errorf("dead after a second: %v", d)
	}
	feed(s, &now, "o?w", 5, DefaultDeadMS)
	if d := s.Dead(); len(d) != 1 || d[0] != 1 {
		t.Errorf("dead after five seconds: %v; want [1]", d)
	}
	got = feed(s, &now, "oow", 5, 300)
	if d := s.Dead(); len(d) != 0 || len(got) != 1 || got[0].Unknown != nil {
		t.Errorf("read again: dead %v, observations %+v", d, got)
	}
}

func TestConfigRefused(t *testing.T) {
	for _, c := range []Config{{SettleMS: 100, GlitchMS: 100}, {SettleMS: -1}, {SettleMS: 100, UnknownMS: 50}, {UnknownMS: 2000, DeadMS: 1000}} {
		if _, err := New(3, c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	if err := Check(20); err == nil || !strings.Contains(err.Error(), "30 to 2000") {
		t.Errorf("Check(20) = %v", err)
	}
	if err := Check(DefaultMS); err != nil {
		t.Error(err)
	}
}

// An unchanged frame costs a string comparison.
func BenchmarkPushUnchanged(b *testing.B) {
	s, _ := New(61, Config{})
	cells := strings.Repeat("o", 61)
	var now int64
	for i := 0; i < 100; i++ {
		s.Push(now, cells)
		now += 5
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Push(now, cells)
		now += 5
	}
}

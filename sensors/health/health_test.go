package health

import (
	"math/rand/v2"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/sensors/classify"
)

var means = [classify.NumClasses]int{2048, 1800, 1350, 2500, 3100}

func calibration(t testing.TB, base *engine.Board) *classify.Calibration {
	samples := make([]classify.Samples, base.Len())
	for s := range samples {
		for k, m := range means {
			for d := -6; d <= 6; d++ {
				samples[s][k] = append(samples[s][k], uint16(m+d))
			}
		}
	}
	cal, err := classify.Fit(base, 12, samples, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cal
}

func TestMonitorFindsEachFault(t *testing.T) {
	base := engine.MustStandardBoard("37")
	cal := calibration(t, base)
	m := New(cal, &Opts{Window: 100, RailMargin: 8, NoiseLimit: 24, DriftFraction: 0.6, UnreadableWindows: 3})
	cls := classify.New(cal)
	rng := rand.New(rand.NewPCG(1, 2))
	raw := make([]uint16, base.Len())
	out := make([]engine.Content, base.Len())
	const (
		saturated  = 3
		stuck      = 7
		noisy      = 11
		drifting   = 20
		unreadable = 30
	)
	db := cal.Sockets[drifting][0]
	for f := 0; f < 400; f++ {
		for s := range raw {
			v := float64(means[0]) + rng.NormFloat64()*3
			switch s {
			case saturated:
				v = 4095
			case stuck:
				v = 2040
			case noisy:
				v += float64(60 * (f%2*2 - 1))
			case drifting:
				v += 0.8 * float64(db.Room(true))
			case unreadable:
				v += float64(means[3]-means[0]) / 2
			}
			raw[s] = uint16(v)
		}
		if err := cls.Classify(out, raw); err != nil {
			t.Fatal(err)
		}
		m.Observe(raw, out)
	}
	want := map[engine.Cell]Kind{saturated: Saturated, stuck: Stuck, noisy: Noisy, drifting: Drifting, unreadable: Unreadable}
	got := map[engine.Cell]Kind{}
	for _, f := range m.Faults() {
		got[f.Socket] |= f.Kind
		if f.Label != base.Label(f.Socket) || f.Detail == "" {
			t.Errorf("fault %+v: want the socket's label and a detail", f)
		}
		t.Log(f)
	}
	for s, k := range want {
		if got[s] != k {
			t.Errorf("socket %s: faults %v; want %v", base.Label(s), got[s], k)
		}
	}
	for s, k := range got {
		if _, ok := want[s]; !ok {
			t.Errorf("healthy socket %s reported %v", base.Label(s), k)
		}
	}
	if m.Healthy() {
		t.Error("Healthy() = true with faults")
	}
}

func TestMonitorToleratesMoves(t *testing.T) {
	// Sockets change class once a window; a placement is not noise, drift
	// or a stuck sensor.
	base := engine.MustStandardBoard("37")
	cal := calibration(t, base)
	m := New(cal, &Opts{Window: 50, RailMargin: 8, NoiseLimit: 24, DriftFraction: 0.6, UnreadableWindows: 3})
	cls := classify.New(cal)
	rng := rand.New(rand.NewPCG(3, 4))
	raw := make([]uint16, base.Len())
	out := make([]engine.Content, base.Len())
	for f := 0; f < 500; f++ {
		for s := range raw {
			k := (s + f/37) % classify.NumClasses
			raw[s] = uint16(float64(means[k]) + rng.NormFloat64()*3)
		}
		_ = cls.Classify(out, raw)
		m.Observe(raw, out)
	}
	if !m.Healthy() {
		t.Errorf("faults on a healthy board: %v", m.Faults())
	}
}

func BenchmarkObserve61(b *testing.B) {
	base := engine.MustStandardBoard("61")
	cal := calibration(b, base)
	m := New(cal, nil)
	raw := make([]uint16, base.Len())
	out := make([]engine.Content, base.Len())
	for i := range raw {
		raw[i] = uint16(2048 + i%3)
		out[i] = engine.NoRing
	}
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		k++
		raw[k%len(raw)] ^= 1 // a little noise, so that no sensor looks stuck
		m.Observe(raw, out)
	}
	if !m.Healthy() {
		b.Fatalf("faults: %v", m.Faults())
	}
}

// A window that ends on an unreadable frame still judges drift by the
// classes it saw (this used to index the bands with '?').
func TestDriftWindowEndingUnreadable(t *testing.T) {
	base := engine.MustStandardBoard("37")
	cal := calibration(t, base)
	m := New(cal, &Opts{Window: 10, RailMargin: 8, NoiseLimit: 1000, DriftFraction: 0.6, UnreadableWindows: 3})
	raw := make([]uint16, base.Len())
	cls := make([]engine.Content, base.Len())
	up := cal.Sockets[0][0].Room(true)
	for f := 0; f < 10; f++ {
		for s := range raw {
			raw[s], cls[s] = uint16(means[0]+f%2), engine.NoRing
		}
		raw[0] = uint16(int(cal.Sockets[0][0].Ref) + up*9/10 + f%2)
		if f == 9 {
			cls[0] = engine.Unreadable
		}
		m.Observe(raw, cls)
	}
	f := m.Faults()
	if len(f) != 1 || f[0].Socket != 0 || f[0].Kind != Drifting {
		t.Errorf("faults %v; want A1 drifting", f)
	}
}

// TestStuckScalesWithResolution: a healthy sensor's noise of about one
// 12-bit count is a quarter of a 10-bit count, so a quiet 10-bit reading
// may hold one value for a whole window. OptsFor(10) waits 16 windows
// before calling that stuck; at 12 bits one window is enough.
func TestStuckScalesWithResolution(t *testing.T) {
	base := engine.MustStandardBoard("37")
	for _, tc := range []struct {
		bits       int
		windows    int // windows of stillness before stuck
		railMargin uint16
		noiseLimit float64
	}{
		{12, 1, 8, 24},
		{10, 16, 2, 6},
	} {
		cal := &classify.Calibration{Base: base, Bits: tc.bits, Sockets: make([]classify.Bands, base.Len())}
		o := OptsFor(tc.bits)
		if o.RailMargin != tc.railMargin || o.NoiseLimit != tc.noiseLimit || max(o.StuckWindows, 1) != tc.windows {
			t.Errorf("OptsFor(%d) = %+v; want rail %d, noise %v, stuck after %d windows", tc.bits, o, tc.railMargin, tc.noiseLimit, tc.windows)
		}
		o.Window = 10
		m := New(cal, &o)
		raw := make([]uint16, base.Len())
		cls := make([]engine.Content, base.Len())
		for i := range raw {
			raw[i] = uint16(1 << (tc.bits - 1))
			cls[i] = engine.Unreadable
		}
		for w := 1; w <= tc.windows; w++ {
			for f := 0; f < o.Window; f++ {
				m.Observe(raw, cls)
			}
			stuck := false
			for _, f := range m.Faults() {
				stuck = stuck || f.Kind == Stuck
			}
			if want := w == tc.windows; stuck != want {
				t.Errorf("%d bits, after %d still windows: stuck = %v; want %v", tc.bits, w, stuck, want)
				break
			}
		}
	}
}

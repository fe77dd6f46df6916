package classify

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// bands of a typical 12-bit socket: w < o < . < g < b.
var typical = Bands{
	{1950, 2048, 2150}, // .
	{1700, 1800, 1900}, // o
	{1200, 1350, 1500}, // w
	{2350, 2500, 2650}, // g
	{2900, 3100, 3300}, // b
}

func TestClassify(t *testing.T) {
	const h = 10
	for _, tc := range []struct {
		prev engine.Content
		v    uint16
		want engine.Content
	}{
		{engine.Unreadable, 2048, engine.NoRing},
		{engine.Unreadable, 1950, engine.NoRing}, // inclusive edges
		{engine.Unreadable, 2150, engine.NoRing},
		{engine.Unreadable, 1800, engine.Vacant},
		{engine.Unreadable, 1300, engine.WhiteMarble},
		{engine.Unreadable, 2500, engine.GreyMarble},
		{engine.Unreadable, 3100, engine.BlackMarble},
		{engine.Unreadable, 2200, engine.Unreadable}, // between . and g
		{engine.Unreadable, 0, engine.Unreadable},    // rail
		{engine.Unreadable, 4095, engine.Unreadable}, // rail
		{engine.NoRing, 2155, engine.NoRing},         // held within the hysteresis
		{engine.NoRing, 2160, engine.NoRing},         // edge of the hysteresis
		{engine.NoRing, 2161, engine.Unreadable},     // left the band by more than h
		{engine.NoRing, 1945, engine.NoRing},
		{engine.NoRing, 1939, engine.Unreadable},
		{engine.NoRing, 1850, engine.Vacant},         // a real change is never hidden
		{engine.Unreadable, 2155, engine.Unreadable}, // no class held: no widening
		{engine.BlackMarble, 2500, engine.GreyMarble},
	} {
		if got := Classify(&typical, h, tc.prev, tc.v); got != tc.want {
			t.Errorf("Classify(prev %c, %d) = %c; want %c", tc.prev, tc.v, got, tc.want)
		}
	}
}

func TestClassifierHysteresis(t *testing.T) {
	cal := &Calibration{Base: engine.MustStandardBoard("37"), Bits: 12, Hysteresis: 10, Sockets: make([]Bands, 37)}
	for i := range cal.Sockets {
		cal.Sockets[i] = typical
	}
	c := New(cal)
	raw := make([]uint16, 37)
	dst := make([]engine.Content, 37)
	seq := []struct {
		v    uint16
		want engine.Content
	}{{2155, engine.Unreadable}, {2100, engine.NoRing}, {2155, engine.NoRing}, {2170, engine.Unreadable}, {2155, engine.Unreadable}}
	for i, s := range seq {
		raw[5] = s.v
		if err := c.Classify(dst, raw); err != nil {
			t.Fatal(err)
		}
		if dst[5] != s.want {
			t.Errorf("step %d: reading %d classified %c; want %c", i, s.v, dst[5], s.want)
		}
	}
	if err := c.Classify(dst[:3], raw); err == nil {
		t.Error("Classify with a short dst: want an error")
	}
}

// synth makes samples around the given means with a ±spread sawtooth.
func synth(means [NumClasses]int, spread int) Samples {
	var s Samples
	for i, m := range means {
		for k := -spread; k <= spread; k++ {
			s[i] = append(s[i], uint16(m+k))
		}
	}
	return s
}

func TestFitRoundTrip(t *testing.T) {
	base := engine.MustStandardBoard("37")
	samples := make([]Samples, base.Len())
	for i := range samples {
		samples[i] = synth([NumClasses]int{2048 + i, 1800, 1350, 2500, 3100}, 5)
	}
	cal, err := Fit(base, 12, samples, nil)
	if err != nil {
		t.Fatal(err)
	}
	for s := range samples {
		for k, v := range samples[s] {
			for _, x := range v {
				if got := Classify(&cal.Sockets[s], cal.Hysteresis, engine.Unreadable, x); got != Classes[k] {
					t.Fatalf("socket %d: sample %d of class %c classified %c (bands %v)", s, x, Classes[k], got, cal.Sockets[s])
				}
			}
		}
	}
	// Halfway between . and o is unreadable: the guard.
	if got := Classify(&cal.Sockets[0], 0, engine.Unreadable, (2048+1800)/2); got != engine.Unreadable {
		t.Errorf("midpoint between . and o classified %c; want ?", got)
	}
	var buf bytes.Buffer
	if err := cal.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Read("cal.json", &buf, base)
	if err != nil {
		t.Fatal(err)
	}
	for s := range cal.Sockets {
		if back.Sockets[s] != cal.Sockets[s] {
			t.Fatalf("socket %d: read back %v; wrote %v", s, back.Sockets[s], cal.Sockets[s])
		}
	}
}

func TestFitOverlap(t *testing.T) {
	base := engine.MustStandardBoard("37")
	samples := make([]Samples, base.Len())
	for i := range samples {
		samples[i] = synth([NumClasses]int{2048, 1800, 1350, 2500, 3100}, 5)
	}
	samples[7] = synth([NumClasses]int{2048, 1800, 1350, 2500, 2520}, 5)
	_, err := Fit(base, 12, samples, nil)
	if !errors.Is(err, ErrOverlap) || !strings.Contains(err.Error(), base.Label(7)) {
		t.Errorf("Fit with g and b 20 counts apart = %v; want ErrOverlap naming %s", err, base.Label(7))
	}
}

func TestReadErrors(t *testing.T) {
	base := engine.MustStandardBoard("37")
	for _, tc := range []struct{ src, want string }{
		{`{"schema": 2}`, "schema 2"},
		{`{"schema": 1, "base": "61", "adc_bits": 12}`, `"61" base`},
		{`{"schema": 1, "base": "37", "adc_bits": 12, "sockets": {"Z9": {}}}`, "sockets.Z9"},
		{`{"schema": 1, "base": "37", "adc_bits": 12, "sockets": {"A1": {"x": [1, 2, 3]}}}`, "sockets.A1.x"},
		{`{"schema": 1, "base": "37", "adc_bits": 12, "sockets": {"A1": {".": [5, 4, 2]}}}`, "sockets.A1.."},
		{`{"schema": 1, "base": "37", "adc_bits": 12, "sockets": {}}`, "is not calibrated"},
		{`{"schema": 1, "bogus": 1}`, "unknown field"},
	} {
		_, err := Read("cal.json", strings.NewReader(tc.src), base)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "classify: cal.json:") {
			t.Errorf("Read(%s) = %v; want an error naming cal.json and %q", tc.src, err, tc.want)
		}
	}
}

func TestValidateOverlap(t *testing.T) {
	cal := &Calibration{Base: engine.MustStandardBoard("37"), Bits: 12, Hysteresis: 60, Sockets: make([]Bands, 37)}
	for i := range cal.Sockets {
		cal.Sockets[i] = typical
	}
	// . ends at 2150 and g starts at 2350: 200 apart, fine for h=60;
	// o ends at 1900 and . starts at 1950: 50 apart, not fine.
	if err := cal.Validate(); err == nil || !strings.Contains(err.Error(), "socket A1") {
		t.Errorf("Validate = %v; want an overlap on A1", err)
	}
}

// BenchmarkClassify61 is one 61-socket frame through the classifier.
func BenchmarkClassify61(b *testing.B) {
	base := engine.MustStandardBoard("61")
	cal := &Calibration{Base: base, Bits: 12, Hysteresis: 8, Sockets: make([]Bands, base.Len())}
	raw := make([]uint16, base.Len())
	for i := range cal.Sockets {
		cal.Sockets[i] = typical
		raw[i] = []uint16{2048, 1800, 1300, 2500, 3100, 2250}[i%6]
	}
	c := New(cal)
	dst := make([]engine.Content, base.Len())
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Classify(dst, raw); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTrackFollowsConfirmedDrift: a vacant ring's reading creeps up by 70
// counts, past its band and hysteresis (hi = ref + 51, + 8 here). With the referee confirming
// the vacant ring, the baseline follows and the socket stays 'o'; without
// confirmation, or confirmed as something else, it does not, and the
// reading ends unreadable.
func TestTrackFollowsConfirmedDrift(t *testing.T) {
	base := engine.MustStandardBoard("37")
	mk := func() *Calibration {
		c := &Calibration{Base: base, Bits: 12, Hysteresis: 8, Sockets: make([]Bands, base.Len())}
		for s := range c.Sockets {
			c.Sockets[s] = Bands{
				{Lo: 1950, Ref: 2048, Hi: 2150}, {Lo: 1700, Ref: 1800, Hi: 1851}, {Lo: 1200, Ref: 1350, Hi: 1500},
				{Lo: 2350, Ref: 2500, Hi: 2650}, {Lo: 2900, Ref: 3100, Hi: 3300},
			}
		}
		return c
	}
	for _, tc := range []struct {
		name    string
		confirm engine.Content // the referee's class for every socket
		want    engine.Content
	}{
		{"confirmed vacant", engine.Vacant, engine.Vacant},
		{"nothing confirmed", engine.Unreadable, engine.Unreadable},
		{"confirmed as something else", engine.WhiteMarble, engine.Unreadable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cls := New(mk())
			raw := make([]uint16, base.Len())
			out := make([]engine.Content, base.Len())
			conf := make([]engine.Content, base.Len())
			for i := range conf {
				conf[i] = tc.confirm
			}
			// 70 counts over 40 000 frames (200 s at 200 Hz).
			for f := 0; f < 40000; f++ {
				for i := range raw {
					raw[i] = uint16(1800 + 70*f/40000)
				}
				if err := cls.Classify(out, raw); err != nil {
					t.Fatal(err)
				}
				cls.Track(raw, conf)
			}
			if out[0] != tc.want {
				t.Errorf("after drifting 70 counts: %c (baseline %.1f); want %c", out[0], cls.Baseline(0), tc.want)
			}
		})
	}
	// The baseline never moves more than half the smallest room (51/2).
	cls := New(mk())
	raw := make([]uint16, base.Len())
	out := make([]engine.Content, base.Len())
	conf := make([]engine.Content, base.Len())
	for i := range conf {
		conf[i] = engine.Vacant
	}
	for f := 0; f < 200000; f++ {
		for i := range raw {
			raw[i] = uint16(1800 + min(f/1000, 45))
		}
		_ = cls.Classify(out, raw)
		cls.Track(raw, conf)
	}
	if b := cls.Baseline(0); b > 25.5 || b < 20 {
		t.Errorf("baseline %.1f; want capped at 25.5", b)
	}
	if n := testing.AllocsPerRun(10, func() { _ = cls.Classify(out, raw); cls.Track(raw, conf) }); n != 0 {
		t.Errorf("Classify+Track allocate %v times", n)
	}
}

func TestAdoptBaselines(t *testing.T) {
	base := engine.MustStandardBoard("37")
	cal := &Calibration{Base: base, Bits: 12, Hysteresis: 8, Sockets: make([]Bands, base.Len())}
	for s := range cal.Sockets {
		cal.Sockets[s] = Bands{
			{Lo: 1950, Ref: 2048, Hi: 2150}, {Lo: 1700, Ref: 1800, Hi: 1900}, {Lo: 1200, Ref: 1350, Hi: 1500},
			{Lo: 2350, Ref: 2500, Hi: 2650}, {Lo: 2900, Ref: 3100, Hi: 3300},
		}
	}
	old := New(cal)
	raw := make([]uint16, base.Len())
	out := make([]engine.Content, base.Len())
	conf := make([]engine.Content, base.Len())
	for i := range raw {
		raw[i], conf[i] = 1830, engine.Vacant
	}
	for f := 0; f < 20000; f++ {
		_ = old.Classify(out, raw)
		old.Track(raw, conf)
	}
	c := New(cal)
	c.AdoptBaselines(old)
	if got, want := c.Baseline(3), old.Baseline(3); got != want || got < 20 {
		t.Errorf("adopted baseline %.1f; want %.1f (about 30)", got, want)
	}
	if New(cal).Baseline(3) != 0 {
		t.Error("a fresh classifier has a baseline")
	}
}

package clock

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	good := []struct {
		in   string
		want Control
		out  string
	}{
		{"none", Control{}, "none"},
		{"sudden:25m", Control{Sudden, 25 * time.Minute, 0}, "sudden:25m"},
		{"sudden:10s", Control{Sudden, 10 * time.Second, 0}, "sudden:10s"},
		{"sudden:6h", Control{Sudden, 6 * time.Hour, 0}, "sudden:6h"},
		{"sudden:90m", Control{Sudden, 90 * time.Minute, 0}, "sudden:1h30m"},
		{"sudden:1h0m30s", Control{Sudden, time.Hour + 30*time.Second, 0}, "sudden:1h30s"},
		{"fischer:20m+10s", Control{Fischer, 20 * time.Minute, 10 * time.Second}, "fischer:20m+10s"},
		{"fischer:1h30m+30s", Control{Fischer, 90 * time.Minute, 30 * time.Second}, "fischer:1h30m+30s"},
		{"fischer:5m+0s", Control{Fischer, 5 * time.Minute, 0}, "fischer:5m+0s"},
		{"fischer:5m+10m", Control{Fischer, 5 * time.Minute, 10 * time.Minute}, "fischer:5m+10m"},
	}
	for _, tc := range good {
		c, err := Parse(tc.in)
		if err != nil || c != tc.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tc.in, c, err, tc.want)
			continue
		}
		if s := c.String(); s != tc.out {
			t.Errorf("Parse(%q).String() = %q; want %q", tc.in, s, tc.out)
		}
	}
	bad := []string{
		"", "None", "sudden", "sudden:", "sudden:9s", "sudden:6h1s", "sudden:25", "sudden:25ms", "sudden:1.5m",
		"sudden:-5m", "sudden:m", "sudden:5m5m", "sudden:5s5m", "sudden:25m+10s", "fischer:20m", "fischer:20m+",
		"fischer:20m+10m1s", "fischer:20m+-1s", "blitz:5m", "sudden:100000h", "sudden: 25m", "sudden:25m ",
		"sudden:1h30m1h", "sudden:99999999999999999999s",
	}
	for _, in := range bad {
		if c, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %v; want an error", in, c)
		} else if _, ok := err.(*ParseError); !ok {
			t.Errorf("Parse(%q) error %T; want *ParseError", in, err)
		}
	}
}

func TestFormat(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 500 * time.Millisecond: "0s", time.Second: "1s", time.Hour: "1h", 61 * time.Minute: "1h1m",
		3*time.Hour + 5*time.Second: "3h5s", 1500 * time.Millisecond: "1s",
	} {
		if got := Format(d); got != want {
			t.Errorf("Format(%v) = %q; want %q", d, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"none", "sudden:25m", "fischer:20m+10s", "fischer:1h30m+30s", "sudden:1h0m30s", "x:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			return
		}
		if c.Kind != None && (c.Base < MinBase || c.Base > MaxBase || c.Inc < 0 || c.Inc > MaxInc) {
			t.Fatalf("Parse(%q) = %+v: out of bounds", s, c)
		}
		again, err := Parse(c.String())
		if err != nil || again != c {
			t.Fatalf("Parse(%q) = %+v; Parse(%q) = %+v, %v", s, c, c.String(), again, err)
		}
	})
}

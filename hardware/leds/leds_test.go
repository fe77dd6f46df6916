package leds

import (
	"image/color"
	"testing"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi/spitest"
)

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		gamma      float64
		brightness uint8
		v, want    byte
	}{
		{1, 255, 0, 0},
		{1, 255, 255, 255},
		{1, 255, 77, 77},
		{1, 128, 255, 128},
		{2.2, 255, 128, 56}, // 255·(128/255)^2.2 = 55.97
		{2.2, 255, 255, 255},
		{2.2, 96, 255, 96},
		{2.2, 0, 255, 0},
	} {
		if got := Table(tc.gamma, tc.brightness)[tc.v]; got != tc.want {
			t.Errorf("Table(%v, %d)[%d] = %d; want %d", tc.gamma, tc.brightness, tc.v, got, tc.want)
		}
	}
}

func TestNewRejects(t *testing.T) {
	for _, o := range []Opts{
		{Kind: NRZ, Order: nil, Gamma: 1},
		{Kind: NRZ, Order: []int{0, 0}, Gamma: 1},
		{Kind: NRZ, Order: []int{5}, Gamma: 1},
		{Kind: NRZ, Order: []int{0}, Gamma: 0},
		{Kind: 9, Order: []int{0}, Gamma: 1},
		{Kind: NRZ, Order: []int{0}, Gamma: 1, Speed: physic.MegaHertz},
		{Kind: NRZ, Order: []int{0, 1, 2}, Gamma: 1, MaxCurrent: 2 * physic.MilliAmpere},
		{Kind: NRZ, Order: []int{0}, Gamma: 1, MaxCurrent: -1},
	} {
		if _, err := New(&spitest.Playback{}, 3, &o); err == nil {
			t.Errorf("New(%+v): want an error", o)
		}
	}
}

type nopStrip struct{ last []byte }

func (s *nopStrip) Write(p []byte) (int, error) { s.last = p; return len(p), nil }
func (*nopStrip) Halt() error                   { return nil }
func (*nopStrip) String() string                { return "nop" }

// TestCurrentBudget: 61 LEDs at full white would draw about 3.7 A; with a
// 1.5 A budget Show scales every channel so that the estimate fits, and
// keeps the colours' proportions. Under the budget nothing changes.
func TestCurrentBudget(t *testing.T) {
	for _, tc := range []struct {
		name   string
		budget physic.ElectricCurrent
		c      color.NRGBA
		scaled bool
	}{
		{"full white over 1.5A", 1500 * physic.MilliAmpere, color.NRGBA{255, 255, 255, 255}, true},
		{"orange over 1A", physic.Ampere, color.NRGBA{255, 128, 0, 255}, true},
		{"dim blue under 1.5A", 1500 * physic.MilliAmpere, color.NRGBA{0, 0, 60, 255}, false},
		{"no budget", 0, color.NRGBA{255, 255, 255, 255}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := New(&spitest.Playback{}, 61, &Opts{Kind: NRZ, Order: seq(61), Brightness: 255, Gamma: 1, MaxCurrent: tc.budget})
			if err != nil {
				t.Fatal(err)
			}
			st := &nopStrip{}
			d.s = st
			d.SetAll(tc.c)
			if err := d.Show(); err != nil {
				t.Fatal(err)
			}
			if d.Scaled() != tc.scaled {
				t.Fatalf("Scaled() = %v; want %v", d.Scaled(), tc.scaled)
			}
			if tc.budget > 0 && d.Current() > tc.budget {
				t.Errorf("Current() = %s; want at most %s", d.Current(), tc.budget)
			}
			if !tc.scaled {
				if st.last[0] != tc.c.R || st.last[1] != tc.c.G || st.last[2] != tc.c.B {
					t.Errorf("LED 0 = % x; want the colour unchanged %v", st.last[:3], tc.c)
				}
				return
			}
			// Scaled, but within a rounding step of the budget, and the
			// red/green proportion kept.
			if min := tc.budget - 61*physic.MilliAmpere*3/2; d.Current() < min {
				t.Errorf("Current() = %s; want close to %s", d.Current(), tc.budget)
			}
			if tc.c.G != 0 {
				r, g := float64(st.last[0]), float64(st.last[1])
				if want := float64(tc.c.R) / float64(tc.c.G); r/g < want*0.95 || r/g > want*1.05 {
					t.Errorf("red/green = %.2f; want %.2f", r/g, want)
				}
			}
		})
	}
}

func TestShowDoesNotAllocate(t *testing.T) {
	d, err := New(&spitest.Playback{}, 61, &Opts{Kind: NRZ, Order: seq(61), Brightness: 96, Gamma: 2.2, MaxCurrent: physic.Ampere})
	if err != nil {
		t.Fatal(err)
	}
	d.s = &nopStrip{}
	if n := testing.AllocsPerRun(10, func() { _ = d.Show() }); n != 0 {
		t.Errorf("Show allocates %v times", n)
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

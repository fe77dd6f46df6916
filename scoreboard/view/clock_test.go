package view

import (
	"testing"
)

func TestFmtClock(t *testing.T) {
	for _, tt := range []struct {
		ms   int64
		want string
	}{
		{0, "0:00.0"}, {99, "0:00.0"}, {9999, "0:09.9"}, {10000, "0:10"}, {59999, "0:59"}, {60000, "1:00"},
		{25 * 60000, "25:00"}, {3599999, "59:59"}, {3600000, "1:00:00"}, {6*3600000 + 61000, "6:01:01"},
	} {
		if got := FmtClock(tt.ms); got != tt.want {
			t.Errorf("fmtClock(%d) = %q; want %q", tt.ms, got, tt.want)
		}
	}
}

func TestAgedClocks(t *testing.T) {
	h := `<div><span class="clock running" data-ms="65000" data-running="" data-k="p0-clock">1:05</span><span class="clock" data-ms="5000" data-k="p1-clock">0:05.0</span></div>`
	for _, tt := range []struct {
		age  int64
		want string
	}{
		{0, h},
		{5500, `<div><span class="clock running" data-ms="59500" data-running="" data-k="p0-clock">0:59</span><span class="clock" data-ms="5000" data-k="p1-clock">0:05.0</span></div>`},
		{70000, `<div><span class="clock running flag" data-ms="0" data-running="" data-k="p0-clock">0:00.0</span><span class="clock" data-ms="5000" data-k="p1-clock">0:05.0</span></div>`},
	} {
		if got := AgedClocks(h, tt.age); got != tt.want {
			t.Errorf("agedClocks(%d):\n%s\nwant\n%s", tt.age, got, tt.want)
		}
	}
}

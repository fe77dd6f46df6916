package buttons

import (
	"context"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"github.com/zertzboard/zertzboard/hardware/timebase"
)

const ms = time.Millisecond

func TestDebouncer(t *testing.T) {
	t0 := time.Unix(0, 0)
	H, L := gpio.High, gpio.Low
	for _, tc := range []struct {
		name  string
		trace []gpio.Level // one sample per ms
		want  []int        // ms at which a press is reported
	}{
		{"clean press", []gpio.Level{H, H, L, L, L, L, L, L}, []int{7}},
		{"bounce then press", []gpio.Level{H, L, H, L, H, L, L, L, L, L, L}, []int{10}},
		{"glitch", []gpio.Level{H, L, L, H, H, H, H, H}, nil},
		{"press release press", []gpio.Level{L, L, L, L, L, L, H, H, H, H, H, H, L, L, L, L, L, L}, []int{5, 17}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d Debouncer
			var got []int
			for i, l := range tc.trace {
				if d.Update(l, t0.Add(time.Duration(i)*ms), 5*ms) {
					got = append(got, i)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("presses at %v ms; want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("presses at %v ms; want %v", got, tc.want)
				}
			}
		})
	}
}

func TestDevWithGPIOTest(t *testing.T) {
	ng := &gpiotest.Pin{N: "GPIO17"}
	cf := &gpiotest.Pin{N: "GPIO27"}
	clk := timebase.NewFake(time.Unix(0, 0))
	d, err := New(ng, cf, nil, &Opts{Debounce: 20 * ms, Poll: 5 * ms, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	if ng.Pull() != gpio.PullUp || ng.Read() != gpio.High {
		t.Fatal("New did not enable the pull-up")
	}
	var ev []Event
	now := time.Unix(0, 0)
	step := func(n int) {
		for i := 0; i < n; i++ {
			now = now.Add(5 * ms)
			ev = d.Poll(now, ev)
		}
	}
	step(2)
	cf.Out(gpio.Low) // press confirm
	step(3)
	if len(ev) != 0 {
		t.Fatalf("press reported after 10 ms: %v", ev)
	}
	step(2)
	if len(ev) != 1 || ev[0].Button != Confirm {
		t.Fatalf("events %v; want one confirm", ev)
	}
	step(10) // held: no repeat
	cf.Out(gpio.High)
	step(10)
	if len(ev) != 1 {
		t.Fatalf("events %v; want still one", ev)
	}

	// Run delivers the same through the ticker.
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan Event, 4)
	done := make(chan error)
	go func() { done <- d.Run(ctx, func(e Event) { got <- e }) }()
	clk.WaitTicker(5 * ms)
	ng.Out(gpio.Low)
	for len(got) == 0 {
		clk.Tick(5 * ms) // returns once Run took the tick before
	}
	if e := <-got; e.Button != NewGame {
		t.Errorf("Run reported %v; want new-game", e.Button)
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("Run = %v; want context.Canceled", err)
	}
}

package timebase

import (
	"testing"
	"time"
)

func TestFakeTicker(t *testing.T) {
	f := NewFake(time.Unix(0, 0))
	tk := f.NewTicker(5 * time.Millisecond)
	f.Advance(4 * time.Millisecond)
	select {
	case <-tk.C():
		t.Fatal("ticked before its period")
	default:
	}
	f.Advance(time.Millisecond)
	select {
	case got := <-tk.C():
		if want := time.Unix(0, 0).Add(5 * time.Millisecond); !got.Equal(want) {
			t.Errorf("tick at %v; want %v", got, want)
		}
	default:
		t.Fatal("no tick after one period")
	}
	// A slow reader loses ticks, as with time.Ticker.
	f.Advance(20 * time.Millisecond)
	<-tk.C()
	select {
	case <-tk.C():
		t.Error("more than one tick buffered")
	default:
	}
	tk.Stop()
	f.Advance(time.Second)
	select {
	case <-tk.C():
		t.Error("tick after Stop")
	default:
	}
}

func TestFakeSleep(t *testing.T) {
	f := NewFake(time.Unix(10, 0))
	f.Sleep(3 * time.Microsecond)
	f.Sleep(2 * time.Microsecond)
	if got := f.Slept(); got != 5*time.Microsecond {
		t.Errorf("Slept() = %v; want 5µs", got)
	}
	if got := f.Now().Sub(time.Unix(10, 0)); got != 5*time.Microsecond {
		t.Errorf("Now moved %v; want 5µs", got)
	}
}

func TestRealSleepShort(t *testing.T) {
	// Only a lower bound can be tested without flakiness.
	start := time.Now()
	Real{}.Sleep(20 * time.Microsecond)
	if d := time.Since(start); d < 20*time.Microsecond {
		t.Errorf("Sleep(20µs) returned after %v", d)
	}
}

func BenchmarkRealSleep10us(b *testing.B) {
	for b.Loop() {
		Real{}.Sleep(10 * time.Microsecond)
	}
}

// Tick hands every due tick to the reader, waiting for room, where
// Advance drops the ticks of a reader that is behind; a stopped ticker
// releases it.
func TestFakeTickWaitsForTheReader(t *testing.T) {
	t0 := time.Unix(0, 0)
	f := NewFake(t0)
	tk := f.NewTicker(time.Second)
	f.Tick(time.Second) // into the ticker's buffer
	done := make(chan struct{})
	go func() {
		f.Tick(2 * time.Second) // two more ticks: waits for the reader twice
		close(done)
	}()
	for i := 1; i <= 3; i++ {
		if got := <-tk.C(); !got.Equal(t0.Add(time.Duration(i) * time.Second)) {
			t.Fatalf("tick %d at %v; want %v", i, got, t0.Add(time.Duration(i)*time.Second))
		}
	}
	<-done
	if !f.Now().Equal(t0.Add(3 * time.Second)) {
		t.Errorf("Now = %v after ticks of 3 s", f.Now())
	}

	// A reader that stops: Tick returns without handing the rest.
	f.Tick(time.Second) // fills the buffer
	done = make(chan struct{})
	go func() {
		f.Tick(time.Second)
		close(done)
	}()
	tk.Stop()
	<-done
}

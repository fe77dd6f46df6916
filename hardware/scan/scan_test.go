package scan

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"periph.io/x/conn/v3/physic"

	"github.com/zertzboard/zertzboard/hardware/timebase"
)

// fakeADC answers 1000·adc + 100·mux + channel, so that a test can tell
// exactly which slot was read, and costs `cost` of fake time per read.
type fakeADC struct {
	id    int
	mux   *fakeMux
	clk   *timebase.Fake
	cost  time.Duration
	reads int
	fail  bool
}

func (a *fakeADC) ReadRaw(ch int) (uint16, error) {
	if a.fail {
		return 0, errors.New("bus fault")
	}
	a.reads++
	if a.clk != nil {
		a.clk.Advance(a.cost)
	}
	m := 0
	if a.mux != nil {
		m = a.mux.addr
	}
	return uint16(1000*a.id + 100*m + ch), nil
}

type fakeMux struct {
	addr    int
	selects int
}

func (m *fakeMux) Select(a int) error { m.addr, m.selects = a, m.selects+1; return nil }

func TestScanOnce(t *testing.T) {
	mux := &fakeMux{}
	a0, a1 := &fakeADC{id: 0, mux: mux}, &fakeADC{id: 1, mux: mux}
	slots := []Slot{
		{0, 0, 3}, {0, 1, 3}, {1, 2, 0}, {0, 0, 0}, {1, 7, -1},
	}
	s, err := New([]ADC{a0, a1}, mux, slots, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]uint16, len(slots))
	if err := s.ScanOnce(got); err != nil {
		t.Fatal(err)
	}
	// The direct socket reads whatever address is left selected (the real
	// direct channel has no mux in front, so that does not matter); the
	// others must read their own address.
	want := []uint16{300, 301, 1002, 0}
	for i := 0; i < 4; i++ {
		if got[i] != want[i] {
			t.Errorf("socket %d read %d; want %d", i, got[i], want[i])
		}
	}
	if mux.selects != 2 {
		t.Errorf("selected %d times; want 2 (addresses 0 and 3 once each)", mux.selects)
	}
	if err := s.ScanOnce(make([]uint16, 2)); err == nil {
		t.Error("ScanOnce into a short buffer: want an error")
	}
	a1.fail = true
	if err := s.ScanOnce(got); err == nil {
		t.Error("ScanOnce with a failing ADC: want an error")
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New([]ADC{&fakeADC{}}, nil, []Slot{{0, 0, 2}}, nil); err == nil {
		t.Error("mux slot without a mux: want an error")
	}
	if _, err := New([]ADC{&fakeADC{}}, nil, []Slot{{1, 0, -1}}, nil); err == nil {
		t.Error("slot on a missing ADC: want an error")
	}
	if _, err := New(nil, nil, nil, &Opts{Rate: 0}); err == nil {
		t.Error("zero rate: want an error")
	}
}

func TestRunTicksAndOverruns(t *testing.T) {
	clk := timebase.NewFake(time.Unix(0, 0))
	mux := &fakeMux{}
	adc := &fakeADC{mux: mux, clk: clk, cost: 100 * time.Microsecond}
	slots := make([]Slot, 20)
	for i := range slots {
		slots[i] = Slot{0, i % 4, i / 4}
	}
	s, err := New([]ADC{adc}, mux, slots, &Opts{Rate: 200 * physic.Hertz, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	if s.Period() != 5*time.Millisecond {
		t.Fatalf("period %v; want 5ms", s.Period())
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The callback hands each frame over and waits to be released: the test
	// moves the fake clock only while the scanner is parked there, so time
	// never moves during a scan except by the scan's own waits.
	frames := make(chan Frame)
	release := make(chan struct{})
	done := make(chan error)
	go func() {
		done <- s.Run(ctx, func(f *Frame) error {
			frames <- *f
			<-release
			switch f.Seq {
			case 1:
				adc.cost = 100 * time.Microsecond
			case 2:
				clk.Advance(8 * time.Millisecond) // a slow consumer
			}
			if f.Seq == 3 {
				return ErrStop
			}
			return nil
		})
	}()
	var got []Frame
	// The first tick: the scanner's ticker may not exist yet, so advance
	// until a frame comes.
	for len(got) == 0 {
		clk.Advance(s.Period())
		select {
		case f := <-frames:
			got = append(got, f)
		case <-time.After(200 * time.Millisecond):
		}
	}
	for len(got) < 4 {
		if len(got) == 1 {
			adc.cost = time.Millisecond // 20 ms per scan: an overrun
		}
		clk.Advance(s.Period())
		release <- struct{}{}
		got = append(got, <-frames)
	}
	release <- struct{}{}
	if err := <-done; err != nil {
		t.Fatalf("Run = %v; want nil after ErrStop", err)
	}
	if got[0].Duration != 2*time.Millisecond || got[0].Overruns != 0 {
		t.Errorf("frame 0: duration %v, overruns %d; want 2ms, 0", got[0].Duration, got[0].Overruns)
	}
	if got[1].Duration != 20*time.Millisecond || got[1].Overruns != 1 {
		t.Errorf("frame 1: duration %v, overruns %d; want 20ms, 1", got[1].Duration, got[1].Overruns)
	}
	if got[2].Overruns != 1 || got[3].Overruns != 2 {
		t.Errorf("overruns %d then %d; want 1 then 2 (the slow consumer of frame 2)", got[2].Overruns, got[3].Overruns)
	}
	for i, f := range got {
		if f.Seq != uint64(i) {
			t.Errorf("frame %d has Seq %d", i, f.Seq)
		}
	}
}

func TestRunCancel(t *testing.T) {
	clk := timebase.NewFake(time.Unix(0, 0))
	s, err := New([]ADC{&fakeADC{}}, nil, []Slot{{0, 0, -1}}, &Opts{Rate: 100 * physic.Hertz, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Run(ctx, func(*Frame) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("Run after cancel = %v; want context.Canceled", err)
	}
}

func TestRunReportsScanError(t *testing.T) {
	clk := timebase.NewFake(time.Unix(0, 0))
	s, err := New([]ADC{&fakeADC{fail: true}}, nil, []Slot{{0, 0, -1}}, &Opts{Rate: 100 * physic.Hertz, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { done <- s.Run(context.Background(), func(*Frame) error { return nil }) }()
	for {
		clk.Advance(10 * time.Millisecond)
		select {
		case err := <-done:
			if err == nil {
				t.Fatal("Run with a failing ADC returned nil")
			}
			return
		case <-time.After(time.Millisecond):
		}
	}
}

// BenchmarkScanOnce61 is the CPU cost of one 61-socket scan with a free
// bus: the planning overhead the Pi pays on top of SPI time.
func BenchmarkScanOnce61(b *testing.B) {
	mux := &fakeMux{}
	adc := &fakeADC{mux: mux}
	slots := make([]Slot, 61)
	for i := range slots {
		slots[i] = Slot{0, i / 16, i % 16}
	}
	s, err := New([]ADC{adc}, mux, slots, nil)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]uint16, 61)
	b.ReportAllocs()
	for b.Loop() {
		if err := s.ScanOnce(dst); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleScanner_ScanOnce() {
	mux := &fakeMux{}
	s, _ := New([]ADC{&fakeADC{mux: mux}}, mux, []Slot{{0, 0, 5}, {0, 1, 5}, {0, 0, 6}}, nil)
	raw := make([]uint16, s.Len())
	_ = s.ScanOnce(raw)
	fmt.Println(raw)
	// Output: [500 501 600]
}

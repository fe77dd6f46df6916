package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/hardware/timebase"
	"github.com/zertzboard/zertzboard/internal/background"
)

// Timing charges a Pi model's costs (pi.Timing) to a clock: each spidev
// ioctl, each transfer in it, the bytes on the wire with the controller's
// idle clocks, each GPIO write; and it draws scheduler wake-up latencies
// and fsync stalls. With a nil clock it charges nothing. It is safe for
// concurrent use.
type Timing struct {
	Model *pi.Model
	clk   timebase.Clock

	mu     sync.Mutex
	rng    *rand.Rand
	ioctls int
	wakes  int
	// stall is charged to the next SPI message, on stallClk (Stall).
	stall    time.Duration
	stallClk timebase.Clock
}

// Stall makes the next SPI message take d longer, as a starved Pi's scan
// does (a GC pause, an SD card's fsync, a busy CPU): the frames stop for
// that long, and the scan misses what the hands do meanwhile. The time
// passes on clk (the board's virtual clock), or, if nil, on the wall clock.
func (t *Timing) Stall(d time.Duration, clk timebase.Clock) {
	t.mu.Lock()
	t.stall += d
	t.stallClk = clk
	t.mu.Unlock()
}

// NewTiming returns the timing of model m charged to clk (nil for none).
func NewTiming(m *pi.Model, clk timebase.Clock, seed uint64) *Timing {
	return &Timing{Model: m, clk: clk, rng: rand.New(rand.NewPCG(seed, 0x7e1e))}
}

// ioctl charges one SPI message of transfers transfers and n bytes at f.
func (t *Timing) ioctl(transfers, n int, f physic.Frequency, idle int) {
	t.mu.Lock()
	t.ioctls++
	stall, stallClk := t.stall, t.stallClk
	t.stall = 0
	t.mu.Unlock()
	if stall > 0 {
		if stallClk != nil {
			stallClk.Sleep(stall)
		} else {
			time.Sleep(stall)
		}
	}
	if t.clk == nil || f <= 0 {
		return
	}
	tm := t.Model.Timing
	d := tm.Ioctl + time.Duration(max(transfers-1, 0))*tm.Transfer
	if tm.IoctlJitter > 0 {
		t.mu.Lock()
		d += time.Duration(t.rng.ExpFloat64() * float64(tm.IoctlJitter))
		t.mu.Unlock()
	}
	d += time.Duration(int64(n*(8+idle)) * int64(time.Second) / int64(f/physic.Hertz))
	t.clk.Sleep(d)
}

// gpio charges one GPIO write.
func (t *Timing) gpio() {
	if t.clk != nil {
		t.clk.Sleep(t.Model.Timing.GPIOWrite)
	}
}

// Ioctls counts the SPI messages sent to the ADCs.
func (t *Timing) Ioctls() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ioctls
}

// Wake draws one timer wake-up latency of the scan goroutine: normal
// around WakeMean with WakeJitter, and WakeTail about once every
// WakeTailEvery wake-ups.
func (t *Timing) Wake() time.Duration {
	tm := t.Model.Timing
	t.mu.Lock()
	defer t.mu.Unlock()
	t.wakes++
	if tm.WakeTailEvery > 0 && t.rng.IntN(tm.WakeTailEvery) == 0 {
		return tm.WakeTail
	}
	d := float64(tm.WakeMean) + t.rng.NormFloat64()*float64(tm.WakeJitter)
	return time.Duration(math.Max(0, d)) + t.contention()
}

// The costs of CPU-bound work beside the scan (package background), as
// the model charges them to the scan's wake-up:
const (
	// GoPreempt: with a single P, the scan goroutine waits for Go to
	// preempt the goroutine holding it (sysmon's forcePreemptNS).
	GoPreempt = 10 * time.Millisecond
	// NicePreempt: on a shared core, the kernel preempts a nice-19
	// thread for the woken scan thread at once: a context switch.
	NicePreempt = 20 * time.Microsecond
	// SharedSlice: a thread of the scan's own priority may keep the
	// core for up to half the scheduler's 6 ms latency period before the
	// scan runs.
	SharedSlice = 3 * time.Millisecond
)

// contention is what the background work running now (the engine
// thinking) adds to one wake-up of the scan on this model: nothing while
// a core is free for each thread, else the scheduler's price.
func (t *Timing) contention() time.Duration {
	work := background.Running()
	if len(work) == 0 {
		return 0
	}
	cores := max(t.Model.Cores, 1)
	if background.Procs(cores) < 2 {
		return GoPreempt
	}
	if len(work) < cores {
		return 0
	}
	var d time.Duration
	for _, nice := range work {
		if nice >= 19 {
			d = max(d, NicePreempt)
		} else {
			d = max(d, time.Duration(t.rng.Int64N(int64(SharedSlice))))
		}
	}
	return d
}

// Fsync draws one fsync's duration: exponential around FsyncMean, and a
// FsyncStall about once in a hundred.
func (t *Timing) Fsync() time.Duration {
	tm := t.Model.Timing
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rng.IntN(100) == 0 {
		return tm.FsyncStall
	}
	return time.Duration(t.rng.ExpFloat64() * float64(tm.FsyncMean))
}

// checkMode refuses what the controller's kernel driver refuses: a mode
// with CPHA (1 or 3) on a controller without it, as spi_setup() does with
// EINVAL when the mode bits are not in the controller's mode_bits.
func checkMode(ctl *pi.Controller, port string, mode spi.Mode) error {
	if ctl == nil {
		return nil
	}
	if m := mode &^ (spi.HalfDuplex | spi.NoCS | spi.LSBFirst); m&spi.Mode1 != 0 && !ctl.CPHA {
		return fmt.Errorf("sim: %s: %s: %s has no CPHA (mode_bits lack SPI_CPHA); the kernel refuses it with EINVAL", port, m, ctl.Driver)
	}
	return nil
}

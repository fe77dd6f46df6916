// Package scan reads every socket's sensor once per scan, through the
// multiplexers and ADCs, at a steady rate.
//
// A scan selects each mux address once and, while it is selected, reads
// every ADC channel that has a socket behind that address, as one bus
// message per ADC when the ADC can batch (BatchADC). With the reference
// wiring that is 16 selects, 16 spidev ioctls and 61 conversions per scan:
// the settle time and an ioctl's fixed cost are paid 16 times, not 61.
//
// The scanner knows nothing of what the readings mean: it hands raw counts
// to the sensors layer.
//
// Layer: drivers. May import: base, game, drivers.
package scan

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"periph.io/x/conn/v3/physic"

	"github.com/zertzboard/zertzboard/hardware/timebase"
)

// ADC converts one channel. *mcp3x08.Dev is one.
type ADC interface {
	ReadRaw(ch int) (uint16, error)
}

// BatchADC converts several channels in one bus message. *mcp3x08.Dev is
// one.
type BatchADC interface {
	ADC
	ReadBatch(chs []int, dst []uint16) error
}

// Mux routes one of its inputs to the ADCs. *hc4067.Dev is one.
type Mux interface {
	Select(addr int) error
}

// Slot is where one socket is read. MuxAddr is negative for a sensor wired
// straight to the ADC.
type Slot struct {
	ADC, Channel, MuxAddr int
}

// Opts configures a Scanner.
type Opts struct {
	// Rate is the number of scans per second.
	Rate physic.Frequency
	// Clock times the scans. Nil means the real clock.
	Clock timebase.Clock
}

// DefaultOpts scans 200 times a second: a 5 ms period is short next to a
// hand placing a marble, and long enough for 61 conversions at 1 MHz.
var DefaultOpts = Opts{Rate: 200 * physic.Hertz}

// group is the conversions of one ADC at one mux address, in scan order.
type group struct {
	adc     ADC
	batch   BatchADC // nil when the ADC converts one channel at a time
	sel     int      // mux address to select before this group, or -1 for none
	chs     []int
	sockets []int
	vals    []uint16
}

// Scanner reads a fixed set of sockets. It is not safe for concurrent use.
type Scanner struct {
	plan   []group
	mux    Mux
	n      int
	period time.Duration
	clk    timebase.Clock
	raw    []uint16
}

// New plans the scan of len(slots) sockets: slots[i] is socket i. mux may
// be nil when no slot uses one.
func New(adcs []ADC, mux Mux, slots []Slot, o *Opts) (*Scanner, error) {
	if o == nil {
		o = &DefaultOpts
	}
	if o.Rate <= 0 {
		return nil, fmt.Errorf("scan: rate %s must be positive", o.Rate)
	}
	s := &Scanner{mux: mux, n: len(slots), period: o.Rate.Period(), clk: o.Clock, raw: make([]uint16, len(slots))}
	if s.clk == nil {
		s.clk = timebase.Real{}
	}
	order := make([]int, len(slots))
	for i, sl := range slots {
		order[i] = i
		if sl.ADC < 0 || sl.ADC >= len(adcs) || adcs[sl.ADC] == nil {
			return nil, fmt.Errorf("scan: socket %d: no ADC %d", i, sl.ADC)
		}
		if sl.MuxAddr >= 0 && mux == nil {
			return nil, fmt.Errorf("scan: socket %d is behind mux address %d but there is no mux", i, sl.MuxAddr)
		}
	}
	// Direct sockets first, then by mux address, then ADC and channel, so
	// that each address is selected once per scan.
	sort.SliceStable(order, func(a, b int) bool {
		x, y := slots[order[a]], slots[order[b]]
		if x.MuxAddr != y.MuxAddr {
			return x.MuxAddr < y.MuxAddr
		}
		if x.ADC != y.ADC {
			return x.ADC < y.ADC
		}
		return x.Channel < y.Channel
	})
	prev := -1
	for k, i := range order {
		sl := slots[i]
		if k == 0 || sl.MuxAddr != slots[order[k-1]].MuxAddr || sl.ADC != slots[order[k-1]].ADC {
			g := group{adc: adcs[sl.ADC], sel: -1}
			g.batch, _ = g.adc.(BatchADC)
			if sl.MuxAddr >= 0 && sl.MuxAddr != prev {
				g.sel = sl.MuxAddr
				prev = sl.MuxAddr
			}
			s.plan = append(s.plan, g)
		}
		g := &s.plan[len(s.plan)-1]
		g.chs = append(g.chs, sl.Channel)
		g.sockets = append(g.sockets, i)
		g.vals = append(g.vals, 0)
	}
	return s, nil
}

// Messages is the number of bus messages a scan sends when every ADC can
// batch: one per ADC and mux address.
func (s *Scanner) Messages() int { return len(s.plan) }

// Len is the number of sockets.
func (s *Scanner) Len() int { return s.n }

// Period is the time between scans.
func (s *Scanner) Period() time.Duration { return s.period }

// ScanOnce reads every socket into dst (len ≥ Len), dst[i] for socket i.
// It does not allocate.
func (s *Scanner) ScanOnce(dst []uint16) error {
	if len(dst) < s.n {
		return fmt.Errorf("scan: buffer holds %d readings; want %d", len(dst), s.n)
	}
	for i := range s.plan {
		g := &s.plan[i]
		if g.sel >= 0 {
			if err := s.mux.Select(g.sel); err != nil {
				return fmt.Errorf("scan: %w", err)
			}
		}
		if g.batch != nil {
			if err := g.batch.ReadBatch(g.chs, g.vals); err != nil {
				return fmt.Errorf("scan: sockets %d…: %w", g.sockets[0], err)
			}
			for j, so := range g.sockets {
				dst[so] = g.vals[j]
			}
			continue
		}
		for j, ch := range g.chs {
			v, err := g.adc.ReadRaw(ch)
			if err != nil {
				return fmt.Errorf("scan: socket %d: %w", g.sockets[j], err)
			}
			dst[g.sockets[j]] = v
		}
	}
	return nil
}

// Frame is one scan's result.
type Frame struct {
	// Seq counts scans from 0.
	Seq uint64
	// T is when the scan started.
	T time.Time
	// Raw holds one count per socket. The slice is reused by the next scan:
	// copy what must outlive the callback.
	Raw []uint16
	// Duration is how long the scan took, bus time included.
	Duration time.Duration
	// Overruns counts scans, since Run started, that took longer than the
	// period, so that at least one tick was missed: by the scan itself
	// (counted in its own frame) or by the callback (counted in the next).
	Overruns uint64
}

// Run scans at the configured rate and calls fn with each frame, until ctx
// is done or a scan or fn fails. It returns ctx.Err() on cancellation. A
// failed scan is returned at once: on the bus, a read error means a wiring
// or power fault, not noise.
func (s *Scanner) Run(ctx context.Context, fn func(*Frame) error) error {
	t := s.clk.NewTicker(s.period)
	defer t.Stop()
	f := &Frame{Raw: s.raw}
	lateScan := false
	for {
		var tick time.Time
		select {
		case <-ctx.Done():
			return ctx.Err()
		case tick = <-t.C():
		}
		// A consumer that held the loop past the next tick shows as that
		// tick arriving more than a period late; a scan that overran was
		// counted already, by its duration.
		if !lateScan && s.clk.Now().Sub(tick) > s.period {
			f.Overruns++
		}
		f.T = s.clk.Now()
		if err := s.ScanOnce(f.Raw); err != nil {
			return err
		}
		f.Duration = s.clk.Now().Sub(f.T)
		if lateScan = f.Duration > s.period; lateScan {
			f.Overruns++
		}
		if err := fn(f); err != nil {
			if errors.Is(err, ErrStop) {
				return nil
			}
			return err
		}
		f.Seq++
	}
}

// ErrStop, returned by Run's callback, ends Run without an error.
var ErrStop = errors.New("scan: stop")

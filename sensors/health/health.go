// Package health watches the raw readings for failing sensors: stuck,
// saturated, noisy, drifting, or unreadable for too long.
//
// A failing sensor must be named, because the referee would otherwise see
// a phantom move, or none, and blame the players. The checks work on
// windows of frames (a second at 200 Hz by default) so that one marble
// being placed never looks like a fault.
//
// Layer: sensors. May import: base, game, drivers, sensors.
package health

import (
	"fmt"
	"math"
	"sort"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/sensors/classify"
)

// Kind is a kind of sensor fault.
type Kind uint8

// The faults, in the order a socket reports them when several apply.
const (
	Saturated  Kind = 1 << iota // the reading sits at a rail: a short, an open, or a magnet far too strong
	Stuck                       // the reading does not move by even one count: a dead sensor or ADC input
	Noisy                       // the reading jumps around: a bad joint or interference
	Drifting                    // the reading wanders from its calibrated reference: temperature, a loose magnet
	Unreadable                  // no class for a long time: a sensor out of calibration
)

var kindNames = []struct {
	k Kind
	s string
}{{Saturated, "saturated"}, {Stuck, "stuck"}, {Noisy, "noisy"}, {Drifting, "drifting"}, {Unreadable, "unreadable"}}

func (k Kind) String() string {
	for _, n := range kindNames {
		if k == n.k {
			return n.s
		}
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Fault is one socket's problem.
type Fault struct {
	Socket engine.Cell
	Label  string
	Kind   Kind
	Detail string
}

func (f Fault) String() string { return fmt.Sprintf("%s: %s: %s", f.Label, f.Kind, f.Detail) }

// Opts tunes the checks.
type Opts struct {
	// Window is the number of frames per evaluation.
	Window int
	// RailMargin is how close to 0 or full scale counts as saturated.
	RailMargin uint16
	// NoiseLimit is the largest mean frame-to-frame change, in counts,
	// while the class stays the same.
	NoiseLimit float64
	// DriftFraction is how far the window's mean may sit from the
	// calibrated reference reading, as a fraction of the room between the
	// reference and the band's edge on that side.
	DriftFraction float64
	// UnreadableWindows is how many whole windows a socket may stay
	// unreadable before it is reported. A hand hovering over the board
	// lasts a few seconds.
	UnreadableWindows int
	// StuckWindows is how many whole windows a reading must not move by
	// one count before the sensor is called stuck. 0 means 1.
	StuckWindows int
}

// DefaultOpts suit 200 scans a second and a 12-bit ADC.
var DefaultOpts = Opts{Window: 200, RailMargin: 8, NoiseLimit: 24, DriftFraction: 0.6, UnreadableWindows: 10, StuckWindows: 1}

// OptsFor scales DefaultOpts to an ADC of bits bits. Counts thresholds
// scale with the count size: a 10-bit count is four 12-bit counts, so the
// rail margin and noise limit are a quarter. A healthy sensor's noise
// (a few 12-bit counts, hardware/README.md) is under one 10-bit count, so
// a quiet 10-bit reading can hold still for a window; "stuck" then needs
// 4^(12-bits) windows of stillness, as unlikely as one window at 12 bits.
func OptsFor(bits int) Opts {
	o := DefaultOpts
	if bits == 12 || bits < 8 || bits > 16 {
		return o
	}
	scale := math.Ldexp(1, bits-12)
	o.RailMargin = uint16(max(1, math.Round(float64(o.RailMargin)*scale)))
	o.NoiseLimit *= scale
	if bits < 12 {
		o.StuckWindows = 1 << (2 * (12 - bits))
	}
	return o
}

type acc struct {
	n, nDiff, nDev, rail int
	min, max             uint16
	sumDiff, sumDev      float64
	sumNorm              float64        // deviation from Ref as a fraction of the room to the band edge
	known                engine.Content // the last readable class
	last                 uint16
	lastClass            engine.Content
	unreadable           int // consecutive unreadable windows
	still                int // consecutive windows without a change
	stillAt              uint16
	allUnreadable        bool
	faults               Kind
	detail               [8]string
}

// Monitor accumulates per-socket statistics. It is not safe for concurrent
// use.
type Monitor struct {
	cal    *classify.Calibration
	o      Opts
	top    uint16
	frames int
	s      []acc
}

// New returns a monitor for the calibrated sockets; nil options mean
// OptsFor(cal.Bits).
func New(cal *classify.Calibration, o *Opts) *Monitor {
	if o == nil {
		d := OptsFor(cal.Bits)
		o = &d
	}
	m := &Monitor{cal: cal, o: *o, top: uint16(1<<cal.Bits - 1), s: make([]acc, len(cal.Sockets))}
	if m.o.Window < 2 {
		m.o.Window = 2
	}
	m.reset()
	return m
}

func (m *Monitor) reset() {
	for i := range m.s {
		a := &m.s[i]
		a.n, a.nDiff, a.nDev, a.rail = 0, 0, 0, 0
		a.min, a.max = math.MaxUint16, 0
		a.sumDiff, a.sumDev, a.sumNorm = 0, 0, 0
		a.allUnreadable = true
	}
	m.frames = 0
}

// Observe adds one frame: raw counts and their classes, base order. It
// returns true when a window closed and the faults were re-evaluated. It
// does not allocate except when a fault's description changes.
func (m *Monitor) Observe(raw []uint16, cls []engine.Content) bool {
	for i := range m.s {
		a := &m.s[i]
		v, c := raw[i], cls[i]
		if v < a.min {
			a.min = v
		}
		if v > a.max {
			a.max = v
		}
		if v <= m.o.RailMargin || v >= m.top-m.o.RailMargin {
			a.rail++
		}
		if c != engine.Unreadable {
			a.allUnreadable = false
			if a.n > 0 && c == a.lastClass {
				d := float64(v) - float64(a.last)
				a.sumDiff += math.Abs(d)
				a.nDiff++
				b := &m.cal.Sockets[i][classify.Index(c)]
				dev := float64(v) - float64(b.Ref)
				if room := b.Room(dev > 0); room > 0 {
					a.sumNorm += dev / float64(room)
				}
				a.sumDev += dev
				a.nDev++
				a.known = c
			}
		}
		a.n++
		a.last, a.lastClass = v, c
	}
	m.frames++
	if m.frames < m.o.Window {
		return false
	}
	m.evaluate()
	m.reset()
	return true
}

func (m *Monitor) evaluate() {
	for i := range m.s {
		a := &m.s[i]
		var f Kind
		switch {
		case a.rail == a.n:
			a.set(&f, Saturated, "reads %d-%d, at the rail of 0-%d", a.min, a.max, m.top)
		case a.min == a.max:
			if a.still > 0 && a.stillAt == a.min {
				a.still++
			} else {
				a.still, a.stillAt = 1, a.min
			}
			if a.still >= max(m.o.StuckWindows, 1) {
				a.set(&f, Stuck, "reads exactly %d for %d frames", a.min, a.still*a.n)
			}
		default:
			a.still = 0
		}
		if a.nDiff > a.n/2 {
			if noise := a.sumDiff / float64(a.nDiff); noise > m.o.NoiseLimit {
				a.set(&f, Noisy, "changes by %.0f counts a frame on average (limit %.0f)", noise, m.o.NoiseLimit)
			}
		}
		if a.nDev > a.n/2 && f&(Saturated|Stuck) == 0 {
			if norm := a.sumNorm / float64(a.nDev); math.Abs(norm) > m.o.DriftFraction {
				b := m.cal.Sockets[i][classify.Index(a.known)]
				a.set(&f, Drifting, "reads %+.0f counts from its calibrated %c reference %d (band %d-%d)", a.sumDev/float64(a.nDev), a.known, b.Ref, b.Lo, b.Hi)
			}
		}
		if a.allUnreadable {
			a.unreadable++
		} else {
			a.unreadable = 0
		}
		if a.unreadable >= m.o.UnreadableWindows && f&(Saturated|Stuck) == 0 {
			a.set(&f, Unreadable, "no class for %d frames (last reading %d)", a.unreadable*m.o.Window, a.last)
		}
		a.faults = f
	}
}

// set records fault k with its detail. It is only called when a fault is
// found, so a healthy window costs no formatting or allocation.
func (a *acc) set(f *Kind, k Kind, format string, args ...any) {
	*f |= k
	a.detail[bitIndex(k)] = fmt.Sprintf(format, args...)
}

func bitIndex(k Kind) int {
	for i := 0; i < 8; i++ {
		if k == 1<<i {
			return i
		}
	}
	return 7
}

// Faults lists the current faults, by socket then kind.
func (m *Monitor) Faults() []Fault {
	var out []Fault
	for i := range m.s {
		a := &m.s[i]
		for _, n := range kindNames {
			if a.faults&n.k != 0 {
				out = append(out, Fault{Socket: engine.Cell(i), Label: m.cal.Base.Label(engine.Cell(i)), Kind: n.k, Detail: a.detail[bitIndex(n.k)]})
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Socket < out[b].Socket })
	return out
}

// Healthy reports whether no socket has a fault.
func (m *Monitor) Healthy() bool {
	for i := range m.s {
		if m.s[i].faults != 0 {
			return false
		}
	}
	return true
}

// Package classify turns raw ADC counts into the frame-log classes: no
// ring, vacant ring, white, grey or black marble, or unreadable.
//
// Each socket has its own calibrated band of counts per class, because
// every Hall sensor, magnet and solder joint differs. A reading in no band
// is unreadable ('?'): a marble in flight, a hand, a neighbour's magnet.
//
// Hysteresis keeps noise at a band's edge from flickering the class: a
// socket keeps its class until the reading leaves that class's band by more
// than Calibration.Hysteresis counts. Fit places the bands so that the
// widened band never reaches the next class's band, so hysteresis can delay
// "unreadable" but never hide a real change of class.
//
// Layer: sensors. May import: base, game, drivers, sensors.
package classify

import (
	"fmt"
	"math"

	"github.com/zertzboard/zertzboard/engine"
)

// NumClasses is the number of readable classes.
const NumClasses = 5

// Classes lists the readable classes; band arrays are indexed in this order.
var Classes = [NumClasses]engine.Content{engine.NoRing, engine.Vacant, engine.WhiteMarble, engine.GreyMarble, engine.BlackMarble}

// Index returns c's position in Classes, or -1 for anything else.
func Index(c engine.Content) int {
	switch c {
	case engine.NoRing:
		return 0
	case engine.Vacant:
		return 1
	case engine.WhiteMarble:
		return 2
	case engine.GreyMarble:
		return 3
	case engine.BlackMarble:
		return 4
	}
	return -1
}

// Band is an inclusive range of counts, and the reference reading that
// calibration measured inside it (the health checks measure drift from it).
type Band struct{ Lo, Ref, Hi uint16 }

// Contains reports whether v is in the band.
func (b Band) Contains(v uint16) bool { return b.Lo <= v && v <= b.Hi }

// Room is how far a reading may move from Ref, upwards (up) or downwards,
// before it leaves the band.
func (b Band) Room(up bool) int {
	if up {
		return int(b.Hi) - int(b.Ref)
	}
	return int(b.Ref) - int(b.Lo)
}

// Bands are one socket's bands, indexed like Classes.
type Bands [NumClasses]Band

// Classify is the pure classification of one reading v with the socket's
// bands b, hysteresis h, and the class held so far (engine.Unreadable when
// none).
func Classify(b *Bands, h uint16, prev engine.Content, v uint16) engine.Content {
	if i := Index(prev); i >= 0 {
		if x := int(v); x+int(h) >= int(b[i].Lo) && x <= int(b[i].Hi)+int(h) {
			return prev
		}
	}
	for i := range b {
		if b[i].Contains(v) {
			return Classes[i]
		}
	}
	return engine.Unreadable
}

// Classifier classifies whole frames and remembers each socket's class for
// hysteresis. It is not safe for concurrent use.
type Classifier struct {
	cal  *Calibration
	prev []engine.Content
	// Baseline tracking (Track): each socket's offset, subtracted from
	// its readings, and how far it may go.
	track TrackOpts
	off   []float64
	limit []float64
}

// TrackOpts tunes Track.
type TrackOpts struct {
	// Rate is the fraction of a confirmed reading's distance from its
	// class's reference that the socket's baseline moves per frame: at
	// 1/4096 and 200 frames a second, a time constant of 20 s, far slower
	// than a hand and fast enough for the LEDs warming the board.
	Rate float64
	// MaxShift is how far the baseline may move in all, as a fraction of
	// the socket's smallest room from a reference to its band's edge.
	// Beyond it the health check reports the drift: calibrate again.
	MaxShift float64
}

// DefaultTrackOpts follow drift slowly and at most half way to a band's
// edge.
var DefaultTrackOpts = TrackOpts{Rate: 1.0 / 4096, MaxShift: 0.5}

// New returns a classifier with every socket unreadable until its first
// reading.
func New(cal *Calibration) *Classifier {
	c := &Classifier{cal: cal, prev: make([]engine.Content, len(cal.Sockets))}
	c.Reset()
	return c
}

// Track follows slow drift (temperature, hardware/README.md "Drift") of
// each socket's baseline, but only where the referee confirms the board:
// confirmed[s] is the class the official position puts on socket s, or
// engine.Unreadable where it confirms nothing (a board in motion, an
// illegal board, a socket off the game board). A socket whose last class
// (Classify) differs from its confirmed class is not tracked, so a hand or
// a misplaced piece never drags a baseline. raw is the frame just
// classified. It does not allocate.
func (c *Classifier) Track(raw []uint16, confirmed []engine.Content) {
	if c.off == nil {
		c.EnableTracking(&DefaultTrackOpts)
	}
	for s, k := range confirmed {
		i := Index(k)
		if i < 0 || s >= len(raw) || c.prev[s] != k {
			continue
		}
		ref := float64(c.cal.Sockets[s][i].Ref)
		o := c.off[s] + c.track.Rate*(float64(raw[s])-c.off[s]-ref)
		c.off[s] = max(-c.limit[s], min(c.limit[s], o))
	}
}

// EnableTracking sets Track's options and forgets the baselines.
func (c *Classifier) EnableTracking(o *TrackOpts) {
	c.track = *o
	c.off = make([]float64, len(c.prev))
	c.limit = make([]float64, len(c.prev))
	for s := range c.limit {
		room := 1 << 16
		for _, b := range c.cal.Sockets[s] {
			room = min(room, b.Room(true), b.Room(false))
		}
		c.limit[s] = o.MaxShift * float64(room)
	}
}

// AdoptBaselines takes over the tracked baselines of from, a classifier
// of the same calibration's base (a new game board on the same sensors),
// so that a new game does not forget the drift already followed. Neither
// classifier may be in use meanwhile.
func (c *Classifier) AdoptBaselines(from *Classifier) {
	if from.off == nil || len(from.off) != len(c.prev) {
		return
	}
	c.EnableTracking(&from.track)
	for s := range c.off {
		c.off[s] = max(-c.limit[s], min(c.limit[s], from.off[s]))
	}
}

// Baseline is socket s's tracked offset, in counts.
func (c *Classifier) Baseline(s int) float64 {
	if c.off == nil {
		return 0
	}
	return c.off[s]
}

// Reset forgets the held classes.
func (c *Classifier) Reset() {
	for i := range c.prev {
		c.prev[i] = engine.Unreadable
	}
}

// Calibration returns the calibration in use.
func (c *Classifier) Calibration() *Calibration { return c.cal }

// Classify classifies one frame of raw counts (one per socket, base order)
// into dst, which must be as long. It does not allocate.
func (c *Classifier) Classify(dst []engine.Content, raw []uint16) error {
	n := len(c.prev)
	if len(raw) != n || len(dst) != n {
		return fmt.Errorf("classify: frame of %d readings into %d classes; calibration has %d sockets", len(raw), len(dst), n)
	}
	h := c.cal.Hysteresis
	for i, v := range raw {
		if c.off != nil {
			v = uint16(max(0, min(65535, int(v)-int(math.Round(c.off[i])))))
		}
		k := Classify(&c.cal.Sockets[i], h, c.prev[i], v)
		c.prev[i] = k
		dst[i] = k
	}
	return nil
}

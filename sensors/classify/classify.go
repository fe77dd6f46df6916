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
package classify

import (
	"fmt"

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
}

// New returns a classifier with every socket unreadable until its first
// reading.
func New(cal *Calibration) *Classifier {
	c := &Classifier{cal: cal, prev: make([]engine.Content, len(cal.Sockets))}
	c.Reset()
	return c
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
		k := Classify(&c.cal.Sockets[i], h, c.prev[i], v)
		c.prev[i] = k
		dst[i] = k
	}
	return nil
}

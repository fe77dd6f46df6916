package classify

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
)

// Calibration holds every socket's bands.
type Calibration struct {
	// Base is the board of sockets the calibration was measured on.
	Base *engine.Board
	// Bits is the ADC resolution; counts are below 1<<Bits.
	Bits int
	// Hysteresis widens the held class's band, in counts.
	Hysteresis uint16
	// Sockets holds one Bands per base cell, in board order.
	Sockets []Bands
}

// Schema is the calibration file version this package writes.
const Schema = 1

// file is the JSON form: bands keyed by socket label and class letter, so
// that a person can read and hand-tune it.
type file struct {
	Schema     int                          `json:"schema"`
	Base       string                       `json:"base"`
	ADCBits    int                          `json:"adc_bits"`
	Hysteresis uint16                       `json:"hysteresis"`
	Sockets    map[string]map[string][3]int `json:"sockets"`
}

// Load reads and checks a calibration file for the given base.
func Load(path string, base *engine.Board) (*Calibration, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("classify: %w", err)
	}
	defer f.Close()
	return Read(filepath.Base(path), f, base)
}

// Read parses a calibration. name is used in error messages.
func Read(name string, r io.Reader, base *engine.Board) (*Calibration, error) {
	var f file
	d := json.NewDecoder(r)
	d.DisallowUnknownFields()
	if err := d.Decode(&f); err != nil {
		return nil, fmt.Errorf("classify: %s: %w", name, err)
	}
	if f.Schema != Schema {
		return nil, fmt.Errorf("classify: %s: schema %d; this program reads schema %d", name, f.Schema, Schema)
	}
	if f.Base != base.Name() {
		return nil, fmt.Errorf("classify: %s: measured on a %q base; the wiring has a %q base", name, f.Base, base.Name())
	}
	c := &Calibration{Base: base, Bits: f.ADCBits, Hysteresis: f.Hysteresis, Sockets: make([]Bands, base.Len())}
	if c.Bits < 8 || c.Bits > 16 {
		return nil, fmt.Errorf("classify: %s: adc_bits %d out of range 8-16", name, c.Bits)
	}
	seen := make([]bool, base.Len())
	for lab, m := range f.Sockets {
		s, err := base.ParseCell(lab)
		if err != nil {
			return nil, fmt.Errorf("classify: %s: sockets.%s: no such socket on the %s base", name, lab, base.Name())
		}
		seen[s] = true
		for k, v := range m {
			i := -1
			if len(k) == 1 {
				i = Index(engine.Content(k[0]))
			}
			if i < 0 {
				return nil, fmt.Errorf("classify: %s: sockets.%s.%s: unknown class (want . o w g b)", name, lab, k)
			}
			if v[0] < 0 || v[1] < v[0] || v[2] < v[1] || v[2] >= 1<<c.Bits {
				return nil, fmt.Errorf("classify: %s: sockets.%s.%s: [%d, %d, %d] is not lo ≤ ref ≤ hi within 0-%d", name, lab, k, v[0], v[1], v[2], 1<<c.Bits-1)
			}
			c.Sockets[s][i] = Band{uint16(v[0]), uint16(v[1]), uint16(v[2])}
		}
		if len(m) != NumClasses {
			return nil, fmt.Errorf("classify: %s: sockets.%s: has %d classes; want all of . o w g b", name, lab, len(m))
		}
	}
	for s, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("classify: %s: socket %s is not calibrated", name, base.Label(engine.Cell(s)))
		}
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("classify: %s: %w", name, err)
	}
	return c, nil
}

// Validate checks that no two bands of a socket overlap, even widened by
// the hysteresis, so that a held class can never mask another.
func (c *Calibration) Validate() error {
	for s := range c.Sockets {
		b := &c.Sockets[s]
		for i := range b {
			for j := range b {
				if i == j {
					continue
				}
				lo, hi := int(b[i].Lo)-int(c.Hysteresis), int(b[i].Hi)+int(c.Hysteresis)
				if int(b[j].Lo) <= hi && int(b[j].Hi) >= lo {
					return fmt.Errorf("socket %s: band %c [%d, %d] widened by hysteresis %d overlaps band %c [%d, %d]",
						c.Base.Label(engine.Cell(s)), Classes[i], b[i].Lo, b[i].Hi, c.Hysteresis, Classes[j], b[j].Lo, b[j].Hi)
				}
			}
		}
	}
	return nil
}

// Write writes the calibration as JSON, one socket per line in board
// order, classes in the order . o w g b, so that a person can read and
// diff it.
func (c *Calibration) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "{\n  \"schema\": %d,\n  \"base\": %q,\n  \"adc_bits\": %d,\n  \"hysteresis\": %d,\n  \"sockets\": {\n", Schema, c.Base.Name(), c.Bits, c.Hysteresis)
	for s := range c.Sockets {
		fmt.Fprintf(&b, "    %q: {", c.Base.Label(engine.Cell(s)))
		for i, bd := range c.Sockets[s] {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "\"%c\": [%d, %d, %d]", Classes[i], bd.Lo, bd.Ref, bd.Hi)
		}
		b.WriteString("}")
		if s < len(c.Sockets)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("  }\n}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Samples are one socket's readings per class, indexed like Classes.
type Samples [NumClasses][]uint16

// FitOpts tunes Fit.
type FitOpts struct {
	// Hysteresis in counts; see Calibration.
	Hysteresis uint16
	// Guard is the fraction of the distance between two neighbouring class
	// means left unreadable between their bands (centred on the midpoint).
	Guard float64
	// Sigmas is how many standard deviations of noise each class's
	// readings need inside its band.
	Sigmas float64
}

// DefaultFitOpts leave a quarter of each gap unreadable and want every
// class's readings within its band at 4 σ.
var DefaultFitOpts = FitOpts{Hysteresis: 8, Guard: 0.25, Sigmas: 4}

// ErrOverlap means two classes read too alike on a socket to tell apart.
var ErrOverlap = errors.New("classify: classes overlap")

// Fit computes bands from samples measured with each class on each socket
// (samples[s] for base cell s). Bands meet the neighbouring class halfway,
// less a guard, so that the most drift and crosstalk is tolerated before a
// reading becomes unreadable.
func Fit(base *engine.Board, bits int, samples []Samples, o *FitOpts) (*Calibration, error) {
	return FitContext(base, bits, samples, nil, o)
}

// FitContext is Fit with, per socket, readings that each class's band must
// also contain but that do not set its centre or noise: a vacant ring
// measured beside marbles, whose fields leak in (hardware/README.md,
// "Crosstalk"). context may be nil.
func FitContext(base *engine.Board, bits int, samples, context []Samples, o *FitOpts) (*Calibration, error) {
	if o == nil {
		o = &DefaultFitOpts
	}
	if len(samples) != base.Len() || (context != nil && len(context) != base.Len()) {
		return nil, fmt.Errorf("classify: %d sockets of samples (%d of context) for a %d-socket base", len(samples), len(context), base.Len())
	}
	c := &Calibration{Base: base, Bits: bits, Hysteresis: o.Hysteresis, Sockets: make([]Bands, base.Len())}
	top := float64(int(1)<<bits - 1)
	for s := range samples {
		lab := base.Label(engine.Cell(s))
		type stat struct {
			class     int
			mean, std float64
			lo, hi    float64 // how far the context readings reach below and above the mean
		}
		var st [NumClasses]stat
		for i, v := range samples[s] {
			if len(v) == 0 {
				return nil, fmt.Errorf("classify: socket %s: no readings for class %c", lab, Classes[i])
			}
			st[i].class = i
			st[i].mean, st[i].std = MeanStd(v)
			if context != nil {
				for _, x := range context[s][i] {
					st[i].lo = math.Max(st[i].lo, st[i].mean-float64(x))
					st[i].hi = math.Max(st[i].hi, float64(x)-st[i].mean)
				}
			}
		}
		sort.Slice(st[:], func(a, b int) bool { return st[a].mean < st[b].mean })
		half := make([][2]float64, NumClasses) // below, above
		for k := 0; k < NumClasses-1; k++ {
			a, b := st[k], st[k+1]
			sep := b.mean - a.mean
			h := sep/2 - math.Max(sep*o.Guard/2, float64(o.Hysteresis)/2+1)
			if h < o.Sigmas*a.std || h < o.Sigmas*b.std || h < 1 {
				return nil, fmt.Errorf("%w: socket %s: %c (mean %.0f, σ %.1f) and %c (mean %.0f, σ %.1f) are too close",
					ErrOverlap, lab, Classes[a.class], a.mean, a.std, Classes[b.class], b.mean, b.std)
			}
			if h < a.hi+1 || h < b.lo+1 {
				return nil, fmt.Errorf("%w: socket %s: %c (mean %.0f, up to %+.0f beside other pieces) and %c (mean %.0f, down to %+.0f) are too close",
					ErrOverlap, lab, Classes[a.class], a.mean, a.hi, Classes[b.class], b.mean, -b.lo)
			}
			half[k][1], half[k+1][0] = h, h
		}
		half[0][0], half[NumClasses-1][1] = half[0][1], half[NumClasses-1][0]
		for k, x := range st {
			lo := math.Max(0, math.Ceil(x.mean-half[k][0]))
			hi := math.Min(top, math.Floor(x.mean+half[k][1]))
			c.Sockets[s][x.class] = Band{uint16(lo), uint16(math.Round(x.mean)), uint16(hi)}
		}
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("classify: %w", err)
	}
	return c, nil
}

// MeanStd returns the mean and the (population) standard deviation of
// readings.
func MeanStd(v []uint16) (mean, std float64) {
	for _, x := range v {
		mean += float64(x)
	}
	mean /= float64(len(v))
	for _, x := range v {
		d := float64(x) - mean
		std += d * d
	}
	return mean, math.Sqrt(std / float64(len(v)))
}

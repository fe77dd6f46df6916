package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/sensors/classify"
)

// Levels are the mean readings per class, indexed like classify.Classes.
type Levels [classify.NumClasses]float64

// The sensing design of hardware/README.md, which the simulator's sockets
// follow.
const (
	// SensitivityMVPerMT is the DRV5055A2's sensitivity at VCC = 3.3 V.
	SensitivityMVPerMT = 30.0
	// CountsPerMT is that sensitivity on a 12-bit ADC with VREF = VCC =
	// 3.3 V: 30 mV/mT ÷ (3300 mV / 4096).
	CountsPerMT = SensitivityMVPerMT / (3300.0 / 4096)
	// SaturationMT is where the DRV5055A2's output leaves its linear
	// range at 3.3 V (datasheet: about ±44 mT; the A1 saturates at ±21).
	SaturationMT = 44.0
	// CrosstalkRatio is a neighbour's field at a sensor relative to its
	// own sensor: a dipole 6 mm above its sensor seen from 30 mm away is
	// −0.33 % of the on-axis field (the axial field reverses off axis).
	CrosstalkRatio = -0.0035
	// GainSpread is the per-socket spread of every magnet's field at its
	// sensor: ±0.3 mm in a 6 mm distance is ±5 % (field ∝ 1/d³ near the
	// axis, less for a finite magnet).
	GainSpread = 0.05
	// OffsetCounts is the per-socket spread of the sensor's quiescent
	// output (no field) in counts: ±1 % of VCC is ±41 counts.
	OffsetCounts = 40
	// NoiseCounts is a reading's noise: the sensor's about 0.5 counts
	// and the ADC's about 1 count, with margin.
	NoiseCounts = 4
)

// FieldsMT are the design's fields at a socket's sensor per class, in
// millitesla: no ring; a ring's 12×9×1 mm N35 annulus 5 mm above; with a
// marble, the ring plus the marble's magnet 6 mm above, turned by the
// ring's field until it attracts it, so adding to it (white 3×2 mm,
// grey 4×3 mm, black 5×3 mm, all N35).
var FieldsMT = [classify.NumClasses]float64{0, -6.0, -6.0 - 7.5, -6.0 - 16.2, -6.0 - 23.9}

// DefaultLevels are FieldsMT in counts of a 12-bit ADC: mid-scale with no
// field.
var DefaultLevels = func() Levels {
	var l Levels
	for i, f := range FieldsMT {
		l[i] = math.Round(2048 + f*CountsPerMT)
	}
	return l
}()

// BoardOpts configures a Board.
type BoardOpts struct {
	// Bits is the ADC resolution the readings are scaled for.
	Bits int
	// Levels are the class means.
	Levels Levels
	// Spread is the largest per-socket offset, in counts: no two sensors
	// and magnets are alike, which is why calibration is per socket.
	Spread float64
	// Noise is the standard deviation of each reading, in counts.
	Noise float64
	// Crosstalk is the fraction of each neighbour's magnetic field (its
	// level's distance from the no-ring level) that a sensor picks up;
	// negative when it reads opposite, as a dipole's does off axis.
	Crosstalk float64
	// Gain is the largest per-socket deviation of the magnets' fields at
	// the sensor, as a fraction (mounting height, magnet tolerance).
	Gain float64
	// Seed makes the noise and offsets reproducible.
	Seed uint64
}

// DefaultBoardOpts are the figures of hardware/README.md.
var DefaultBoardOpts = BoardOpts{Bits: 12, Levels: DefaultLevels, Spread: OffsetCounts, Noise: NoiseCounts, Crosstalk: CrosstalkRatio, Gain: GainSpread, Seed: 1}

// Board is a virtual base: what lies on each socket and how each sensor
// responds. It is safe for concurrent use.
type Board struct {
	base *engine.Board
	o    BoardOpts
	top  float64

	mu     sync.Mutex
	rng    *rand.Rand
	cells  []engine.Content
	offset []float64
	gain   []float64
	dead   []int     // -1, or the constant reading of a dead sensor
	drift  []float64 // counts added per reading
	drifts []float64 // accumulated drift
	noise  []float64 // extra noise σ per socket
	reads  []int
	// still is each socket's noiseless level without its drift, worked
	// out once after the cells change (fresh): a scan reads every socket,
	// the pieces move far more rarely.
	still []float64
	fresh bool
}

// NewBoard returns a base with no rings on it.
func NewBoard(base *engine.Board, o *BoardOpts) *Board {
	if o == nil {
		o = &DefaultBoardOpts
	}
	n := base.Len()
	b := &Board{base: base, o: *o, top: float64(int(1)<<o.Bits - 1), rng: rand.New(rand.NewPCG(o.Seed, 0x2e27)),
		cells: make([]engine.Content, n), offset: make([]float64, n), gain: make([]float64, n), dead: make([]int, n),
		drift: make([]float64, n), drifts: make([]float64, n), noise: make([]float64, n), reads: make([]int, n), still: make([]float64, n)}
	for i := range b.cells {
		b.cells[i] = engine.NoRing
		b.offset[i] = (b.rng.Float64()*2 - 1) * o.Spread
		b.gain[i] = 1 + (b.rng.Float64()*2-1)*o.Gain
		b.dead[i] = -1
	}
	return b
}

// Base is the board of sockets.
func (b *Board) Base() *engine.Board { return b.base }

// Set puts c on socket s.
func (b *Board) Set(s engine.Cell, c engine.Content) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cells[s] != c {
		b.cells[s], b.fresh = c, false
	}
}

// SetAll puts c on every socket.
func (b *Board) SetAll(c engine.Content) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range b.cells {
		b.cells[i] = c
	}
	b.fresh = false
}

// SetCells sets every socket from a frame-log string in base order.
func (b *Board) SetCells(cells string) error {
	if len(cells) != len(b.cells) {
		return fmt.Errorf("sim: %d cells for a %d-socket base", len(cells), len(b.cells))
	}
	for i := range cells {
		if classify.Index(engine.Content(cells[i])) < 0 {
			return fmt.Errorf("sim: cell %d is %q; want one of . o w g b", i, cells[i])
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range cells {
		b.cells[i] = engine.Content(cells[i])
	}
	b.fresh = false
	return nil
}

// Cells returns what lies on each socket, in base order.
func (b *Board) Cells() []engine.Content {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]engine.Content(nil), b.cells...)
}

// Kill makes socket s's sensor read level for ever: 0 for a broken wire to
// a pulled-down input, full scale for a short to VCC, or anything else for
// a sensor stuck at one output.
func (b *Board) Kill(s engine.Cell, level uint16) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.dead[s] = int(level)
}

// Drift makes socket s's reading move by perRead counts at every reading,
// like a sensor heating up or a magnet working loose.
func (b *Board) Drift(s engine.Cell, perRead float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.drift[s] = perRead
}

// Noisy adds Gaussian noise of standard deviation sigma counts to socket
// s's readings, like a cracked joint or a long unshielded wire.
func (b *Board) Noisy(s engine.Cell, sigma float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.noise[s] = sigma
}

// Heal undoes Kill, Drift and Noisy on socket s.
func (b *Board) Heal(s engine.Cell) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.dead[s], b.drift[s], b.drifts[s], b.noise[s] = -1, 0, 0, 0
}

// Reads is how many times socket s was read.
func (b *Board) Reads(s engine.Cell) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reads[s]
}

// Level is the noiseless reading of socket s with its neighbours' crosstalk.
func (b *Board) Level(s engine.Cell) float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.level(s)
}

func (b *Board) level(s engine.Cell) float64 {
	if !b.fresh {
		for i := range b.still {
			b.still[i] = b.stillLevel(engine.Cell(i))
		}
		b.fresh = true
	}
	return b.still[s] + b.drifts[s]
}

// stillLevel is socket s's noiseless level without its drift.
func (b *Board) stillLevel(s engine.Cell) float64 {
	lv := &b.o.Levels
	v := lv[0] + (lv[classify.Index(b.cells[s])]-lv[0])*b.gain[s] + b.offset[s]
	for _, n := range b.base.Neighbours(s) {
		v += b.o.Crosstalk * (lv[classify.Index(b.cells[n])] - lv[0])
	}
	return v
}

// Read is one conversion of socket s's sensor.
func (b *Board) Read(s engine.Cell) uint16 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.read(s)
}

func (b *Board) read(s engine.Cell) uint16 {
	b.reads[s]++
	if b.dead[s] >= 0 {
		return uint16(b.dead[s])
	}
	b.drifts[s] += b.drift[s]
	v := b.level(s) + b.rng.NormFloat64()*b.o.Noise
	if b.noise[s] > 0 {
		v += b.rng.NormFloat64() * b.noise[s]
	}
	return uint16(math.Round(math.Max(0, math.Min(b.top, v))))
}

// ReadSockets is Read of each socket of ss in turn, into dst, under one
// lock; a socket of engine.NoCell reads as Floating.
func (b *Board) ReadSockets(ss []engine.Cell, dst []uint16) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, s := range ss {
		if s == engine.NoCell {
			dst[i] = b.floating()
		} else {
			dst[i] = b.read(s)
		}
	}
}

// Floating is what an ADC input with nothing behind it reads: mid-scale
// and very noisy.
func (b *Board) Floating() uint16 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.floating()
}

func (b *Board) floating() uint16 {
	return uint16(math.Max(0, math.Min(b.top, b.top/2+b.rng.NormFloat64()*b.top/8)))
}

// Calibrate measures every class on every socket, the whole base holding
// one class at a time, and fits the bands: what "zertzboard calibrate"
// does with a person placing the pieces. scan reads every socket once;
// bits is the ADC resolution. It leaves the base empty.
func (b *Board) Calibrate(scan func(raw []uint16) error, bits, frames int) (*classify.Calibration, error) {
	n := b.base.Len()
	samples := make([]classify.Samples, n)
	raw := make([]uint16, n)
	for k, c := range classify.Classes {
		b.SetAll(c)
		for f := 0; f < frames; f++ {
			if err := scan(raw); err != nil {
				return nil, err
			}
			for s, v := range raw {
				samples[s][k] = append(samples[s][k], v)
			}
		}
	}
	b.SetAll(engine.NoRing)
	return classify.Fit(b.base, bits, samples, nil)
}

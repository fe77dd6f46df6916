package rig

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/sensors/classify"
)

// Operator is the person doing the calibration's steps: Wait returns once
// they press Enter.
type Operator interface{ Wait() error }

// Auto is the operator of the simulator, which places the pieces itself.
type Auto struct{}

// Wait returns at once.
func (Auto) Wait() error { return nil }

// Lines is an operator answering on a line-based input, e.g. a terminal.
type Lines struct{ R *bufio.Reader }

// Wait reads one line.
func (l *Lines) Wait() error {
	if _, err := l.R.ReadString('\n'); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("input closed before the calibration was finished")
		}
		return err
	}
	return nil
}

// SetMarbles is the number of marbles of each colour in a ZÈRTZ set: how
// many a person places per round.
var SetMarbles = map[engine.Content]int{engine.WhiteMarble: 6, engine.GreyMarble: 8, engine.BlackMarble: 10}

// CalibrateOpts tunes Calibrate.
type CalibrateOpts struct {
	// Frames is the number of scans per measurement.
	Frames int
	// Operator does the steps; in simulation the rig places the pieces
	// itself and Auto answers.
	Operator Operator
	// Out gets the instructions.
	Out io.Writer
}

// Calibrate measures every class on every socket and fits the bands:
//  1. no ring anywhere;
//  2. a vacant ring on every socket;
//  3. for each marble colour, rounds of "place the set's marbles on
//     sockets still to measure": a round takes as marbles only the k
//     sockets that moved most from their vacant reading, k being the
//     marbles placed, and only if each moved clearly; a neighbour's field
//     leaking into a socket can never pass for a marble. Every socket
//     left vacant in a round is measured again as a vacant reference with
//     marbles beside it, so that the vacant band covers the crosstalk it
//     will see in play.
func (r *Rig) Calibrate(o CalibrateOpts) (*classify.Calibration, error) {
	if o.Frames < 2 {
		return nil, fmt.Errorf("rig: calibration needs at least 2 frames per step; got %d", o.Frames)
	}
	if o.Operator == nil {
		o.Operator = Auto{}
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	n := r.Devices.Wiring.Base.Len()
	c := &calibration{r: r, o: o, samples: make([]classify.Samples, n), context: make([]classify.Samples, n)}
	if err := c.whole(engine.NoRing, "take every ring off the base."); err != nil {
		return nil, err
	}
	if err := c.whole(engine.Vacant, "put a ring on every socket."); err != nil {
		return nil, err
	}
	c.thresholds()
	for _, m := range []engine.Content{engine.WhiteMarble, engine.GreyMarble, engine.BlackMarble} {
		if err := c.marbles(m); err != nil {
			return nil, err
		}
	}
	cal, err := classify.FitContext(r.Devices.Wiring.Base, r.Devices.Bits(), c.samples, c.context, nil)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Out, "measured %d sockets in %d steps\n", n, c.step)
	return cal, nil
}

// calibration is Calibrate's state: every socket's samples of each
// class, the vacant readings beside marbles, the steps done so far.
type calibration struct {
	r       *Rig
	o       CalibrateOpts
	samples []classify.Samples
	context []classify.Samples
	step    int
	// vacMean and thresh are each socket's vacant mean and how far from
	// it a reading must be to be a marble.
	vacMean, thresh []float64
}

var vacant = classify.Index(engine.Vacant)

// whole measures every socket holding c.
func (c *calibration) whole(content engine.Content, prompt string) error {
	c.step++
	fmt.Fprintf(c.o.Out, "step %d: %s Press Enter when done.\n", c.step, prompt)
	if c.r.Sim != nil {
		c.r.Sim.Board.SetAll(content)
	}
	if err := c.o.Operator.Wait(); err != nil {
		return err
	}
	m, err := c.r.Measure(c.o.Frames, nil)
	if err != nil {
		return err
	}
	for s := range m {
		c.samples[s][classify.Index(content)] = m[s]
	}
	return nil
}

// thresholds: a socket holds a marble when it reads far from its vacant
// ring: 10 σ of its noise, and at least 1.5 % of full scale.
func (c *calibration) thresholds() {
	top := float64(int(1)<<c.r.Devices.Bits() - 1)
	c.vacMean = make([]float64, len(c.samples))
	c.thresh = make([]float64, len(c.samples))
	for s := range c.samples {
		m, sd := classify.MeanStd(c.samples[s][vacant])
		c.vacMean[s] = m
		c.thresh[s] = math.Max(10*sd, 0.015*top)
	}
}

// marbles measures every socket holding a marble of colour content, in
// rounds of the set's marbles placed on sockets still to measure.
func (c *calibration) marbles(content engine.Content) error {
	col, _ := content.Marble()
	n := len(c.samples)
	pending := make([]engine.Cell, 0, n)
	for s := 0; s < n; s++ {
		pending = append(pending, engine.Cell(s))
	}
	for round := 0; len(pending) > 0; round++ {
		if round >= 200 {
			return fmt.Errorf("rig: no %s marble found in 200 rounds on %s", col, labels(c.r.Devices.Wiring.Base, pending))
		}
		var err error
		if pending, err = c.round(content, pending); err != nil {
			return err
		}
	}
	return nil
}

// round asks for the set's marbles of colour content on sockets still
// pending, takes as marbles the sockets that moved most from their vacant
// reading (at most as many as were placed, and only those that moved
// clearly: a neighbour's field leaking in never passes for a marble),
// keeps every other socket's reading as a vacant ring beside marbles, and
// returns the sockets still pending.
func (c *calibration) round(content engine.Content, pending []engine.Cell) ([]engine.Cell, error) {
	col, _ := content.Marble()
	k := classify.Index(content)
	want := min(SetMarbles[content], len(pending))
	c.step++
	what := fmt.Sprintf("%d %s marbles on rings over sockets", want, col)
	if want == 1 {
		what = fmt.Sprintf("1 %s marble on a ring over a socket", col)
	}
	fmt.Fprintf(c.o.Out, "step %d: put %s still to measure (%d left: %s), rings on every other socket. Press Enter when done.\n", c.step, what, len(pending), labels(c.r.Devices.Wiring.Base, pending))
	if c.r.Sim != nil {
		c.r.Sim.Board.SetAll(engine.Vacant)
		for i := 0; i < want; i++ {
			c.r.Sim.Board.Set(pending[i], content)
		}
	}
	if err := c.o.Operator.Wait(); err != nil {
		return nil, err
	}
	m, err := c.r.Measure(c.o.Frames, nil)
	if err != nil {
		return nil, err
	}
	type dev struct {
		s engine.Cell
		d float64
	}
	var moved []dev
	for _, s := range pending {
		mean, _ := classify.MeanStd(m[s])
		if d := math.Abs(mean - c.vacMean[s]); d > c.thresh[s] {
			moved = append(moved, dev{s, d})
		}
	}
	sort.Slice(moved, func(i, j int) bool { return moved[i].d > moved[j].d })
	if len(moved) > want {
		moved = moved[:want]
	}
	marble := make([]bool, len(c.samples))
	for _, x := range moved {
		c.samples[x.s][k] = m[x.s]
		marble[x.s] = true
	}
	// Every other socket held a vacant ring, some beside marbles: its
	// band must hold those readings too. Only the mean of each, so that
	// the context stays small.
	for s := range c.samples {
		if !marble[s] {
			mean, _ := classify.MeanStd(m[s])
			c.context[s][vacant] = append(c.context[s][vacant], uint16(math.Round(mean)))
		}
	}
	left := pending[:0]
	for _, s := range pending {
		if !marble[s] {
			left = append(left, s)
		}
	}
	if len(moved) == 0 {
		fmt.Fprintf(c.o.Out, "  no %s marble seen; are they sitting on rings?\n", col)
		if c.r.Sim != nil {
			return nil, fmt.Errorf("rig: the simulator placed %s marbles but none was seen", col)
		}
	}
	return left, nil
}

func labels(b *engine.Board, cells []engine.Cell) string {
	var l []string
	for i, c := range cells {
		if i == 12 {
			l = append(l, "…")
			break
		}
		l = append(l, b.Label(c))
	}
	return strings.Join(l, " ")
}

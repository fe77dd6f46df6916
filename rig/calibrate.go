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
	base := r.Devices.Wiring.Base
	n := base.Len()
	samples := make([]classify.Samples, n)
	context := make([]classify.Samples, n)
	step := 0
	vacant := classify.Index(engine.Vacant)
	whole := func(c engine.Content, prompt string) error {
		step++
		fmt.Fprintf(o.Out, "step %d: %s Press Enter when done.\n", step, prompt)
		if r.Sim != nil {
			r.Sim.Board.SetAll(c)
		}
		if err := o.Operator.Wait(); err != nil {
			return err
		}
		m, err := r.Measure(o.Frames, nil)
		if err != nil {
			return err
		}
		for s := range m {
			samples[s][classify.Index(c)] = m[s]
		}
		return nil
	}
	if err := whole(engine.NoRing, "take every ring off the base."); err != nil {
		return nil, err
	}
	if err := whole(engine.Vacant, "put a ring on every socket."); err != nil {
		return nil, err
	}
	// A socket holds a marble when it reads far from its vacant ring:
	// 10 σ of its noise, and at least 1.5 % of full scale.
	top := float64(int(1)<<r.Devices.Bits() - 1)
	vacMean := make([]float64, n)
	thresh := make([]float64, n)
	for s := range samples {
		m, sd := classify.MeanStd(samples[s][vacant])
		vacMean[s] = m
		thresh[s] = math.Max(10*sd, 0.015*top)
	}
	type dev struct {
		s engine.Cell
		d float64
	}
	for _, c := range []engine.Content{engine.WhiteMarble, engine.GreyMarble, engine.BlackMarble} {
		k := classify.Index(c)
		col, _ := c.Marble()
		pending := make([]engine.Cell, 0, n)
		for s := 0; s < n; s++ {
			pending = append(pending, engine.Cell(s))
		}
		for round := 0; len(pending) > 0; round++ {
			if round >= 200 {
				return nil, fmt.Errorf("rig: no %s marble found in 200 rounds on %s", col, labels(base, pending))
			}
			want := min(SetMarbles[c], len(pending))
			step++
			what := fmt.Sprintf("%d %s marbles on rings over sockets", want, col)
			if want == 1 {
				what = fmt.Sprintf("1 %s marble on a ring over a socket", col)
			}
			fmt.Fprintf(o.Out, "step %d: put %s still to measure (%d left: %s), rings on every other socket. Press Enter when done.\n", step, what, len(pending), labels(base, pending))
			if r.Sim != nil {
				r.Sim.Board.SetAll(engine.Vacant)
				for i := 0; i < want; i++ {
					r.Sim.Board.Set(pending[i], c)
				}
			}
			if err := o.Operator.Wait(); err != nil {
				return nil, err
			}
			m, err := r.Measure(o.Frames, nil)
			if err != nil {
				return nil, err
			}
			var moved []dev
			for _, s := range pending {
				mean, _ := classify.MeanStd(m[s])
				if d := math.Abs(mean - vacMean[s]); d > thresh[s] {
					moved = append(moved, dev{s, d})
				}
			}
			sort.Slice(moved, func(i, j int) bool { return moved[i].d > moved[j].d })
			if len(moved) > want {
				moved = moved[:want]
			}
			marble := make([]bool, n)
			for _, x := range moved {
				samples[x.s][k] = m[x.s]
				marble[x.s] = true
			}
			// Every other socket held a vacant ring, some beside marbles:
			// its band must hold those readings too. Only the mean of
			// each, so that the context stays small.
			for s := 0; s < n; s++ {
				if !marble[s] {
					mean, _ := classify.MeanStd(m[s])
					context[s][vacant] = append(context[s][vacant], uint16(math.Round(mean)))
				}
			}
			left := pending[:0]
			for _, s := range pending {
				if !marble[s] {
					left = append(left, s)
				}
			}
			pending = left
			if len(moved) == 0 {
				fmt.Fprintf(o.Out, "  no %s marble seen; are they sitting on rings?\n", col)
				if r.Sim != nil {
					return nil, fmt.Errorf("rig: the simulator placed %s marbles but none was seen", col)
				}
			}
		}
	}
	cal, err := classify.FitContext(base, r.Devices.Bits(), samples, context, nil)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Out, "measured %d sockets in %d steps\n", n, step)
	return cal, nil
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

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/sensors/classify"
)

func init() {
	register(command{name: "calibrate", summary: "measure every socket's sensor bands, step by step, and write the calibration file", run: runCalibrate})
}

// calibrateInput is where calibrate reads the operator's Enter presses;
// tests replace it.
var calibrateInput io.Reader = os.Stdin

const calibrateAbout = `
Measures each socket's Hall sensor with nothing on it, with a vacant ring,
and with a ring holding each marble colour, and writes the per-socket bands
that the classifier uses (format: firmware-config/README.md).

It guides you:
  1. take every ring off the base;
  2. put a ring on every socket;
  3. for white, then grey, then black: put the marbles you have on rings,
     press Enter, move them to sockets not yet measured, and repeat until
     every socket is done. The sockets still to do are listed each time.

Press Enter after each step. With --sim the simulator does the steps itself.

Exit status: 0 when the file was written, 1 on hardware errors or when two
classes read too alike on some socket, 2 on bad flags.

Examples:
  zertzboard calibrate --out /var/lib/zertzboard/calibration.json
  zertzboard calibrate --sim --out /tmp/calibration.json
`

func runCalibrate(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("calibrate", "[--sim] [--wiring FILE] [--out FILE] [--frames N]", calibrateAbout, stderr)
	var rf rigFlags
	rf.register(fs, 100)
	outPath := fs.String("out", "calibration.json", "calibration `file` to write")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 || rf.frames < 2 {
		fmt.Fprintln(stderr, "zertzboard calibrate: takes no arguments, and --frames must be at least 2")
		return exitUsage
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "zertzboard calibrate: %v\n", err)
		return exitFault
	}
	r, err := rf.open("")
	if err != nil {
		return fail(err)
	}
	defer r.Close()
	var in operator = nopInput{}
	if r.hw == nil {
		in = &lineInput{r: bufio.NewReader(calibrateInput)}
	}
	cal, err := calibrate(r, rf.frames, in, stdout)
	if err != nil {
		return fail(err)
	}
	f, err := os.Create(*outPath)
	if err != nil {
		return fail(err)
	}
	if err := cal.Write(f); err != nil {
		f.Close()
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d sockets, %d-bit, hysteresis %d\n", *outPath, len(cal.Sockets), cal.Bits, cal.Hysteresis)
	return exitOK
}

// operator is the person doing the steps: Wait returns once they press
// Enter.
type operator interface{ Wait() error }

type nopInput struct{}

func (nopInput) Wait() error { return nil }

type lineInput struct{ r *bufio.Reader }

func (l *lineInput) Wait() error {
	if _, err := l.r.ReadString('\n'); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("input closed before the calibration was finished")
		}
		return err
	}
	return nil
}

// simMarbles is the number of marbles of each colour in a ZÈRTZ set, which
// the simulator places per round as a person would.
var simMarbles = map[engine.Content]int{engine.WhiteMarble: 6, engine.GreyMarble: 8, engine.BlackMarble: 10}

// calibrate runs the guided steps and fits the bands.
func calibrate(r *rig, frames int, op operator, out io.Writer) (*classify.Calibration, error) {
	base := r.Wiring.Base
	n := base.Len()
	samples := make([]classify.Samples, n)
	step := 0
	whole := func(c engine.Content, prompt string) error {
		step++
		fmt.Fprintf(out, "step %d: %s Press Enter when done.\n", step, prompt)
		if r.hw != nil {
			r.hw.Board.SetAll(c)
		}
		if err := op.Wait(); err != nil {
			return err
		}
		m, err := r.measure(frames, nil)
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
	// A socket holds a marble when it reads far from its vacant ring.
	top := float64(int(1)<<r.Bits() - 1)
	vacMean := make([]float64, n)
	thresh := make([]float64, n)
	for s := range samples {
		m, sd := classify.MeanStd(samples[s][classify.Index(engine.Vacant)])
		vacMean[s] = m
		thresh[s] = math.Max(10*sd, 0.015*top)
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
				return nil, fmt.Errorf("no %s marble found in 200 rounds on %s", col, labels(base, pending))
			}
			step++
			fmt.Fprintf(out, "step %d: put %s marbles on rings over sockets still to measure (%d left: %s). Press Enter when done.\n", step, col, len(pending), labels(base, pending))
			if r.hw != nil {
				r.hw.Board.SetAll(engine.Vacant)
				for i := 0; i < simMarbles[c] && i < len(pending); i++ {
					r.hw.Board.Set(pending[i], c)
				}
			}
			if err := op.Wait(); err != nil {
				return nil, err
			}
			m, err := r.measure(frames, nil)
			if err != nil {
				return nil, err
			}
			left := pending[:0]
			found := 0
			for _, s := range pending {
				if mean, _ := classify.MeanStd(m[s]); math.Abs(mean-vacMean[s]) > thresh[s] {
					samples[s][k] = m[s]
					found++
				} else {
					left = append(left, s)
				}
			}
			pending = left
			if found == 0 {
				fmt.Fprintf(out, "  no %s marble seen; are they sitting on rings?\n", col)
				if r.hw != nil {
					return nil, fmt.Errorf("the simulator placed %s marbles but none was seen", col)
				}
			}
		}
	}
	cal, err := classify.Fit(base, r.Bits(), samples, nil)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "measured %d sockets in %d steps\n", n, step)
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

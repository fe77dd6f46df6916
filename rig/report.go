package rig

import (
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"periph.io/x/conn/v3/physic"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/wiring"
)

// OK says the selftest found no sensor fault.
func (res *SelftestResult) OK() bool { return len(res.Faults) == 0 }

// WriteText writes the report in words: the scan timing, one line per
// socket (its wiring, its readings' mean, minimum and maximum, its class)
// and the faults, or "no faults".
func (res *SelftestResult) WriteText(out io.Writer) error {
	w, st := res.Wiring, res.Stats
	ew := &errWriter{w: out}
	ew.printf("scanned %d frames at %s: scan time mean %v, max %v, period %v, overruns %d\n\n",
		st.Frames, st.Rate, st.ScanMean, st.ScanMax, st.Period, st.Overruns)
	ew.printf("%-6s %-6s %3s %4s %6s %6s %6s  %s\n", "socket", "adc", "ch", "mux", "mean", "min", "max", "class")
	for s := range res.Readings {
		so := w.Sockets[s]
		mux := "-"
		if so.MuxAddr != wiring.NoMux {
			mux = fmt.Sprint(so.MuxAddr)
		}
		mean, lo, hi := spread(res.Readings[s])
		class := "-"
		if res.Classes != nil {
			class = string(res.Classes[s])
		}
		ew.printf("%-6s %-6s %3d %4s %6.0f %6d %6d  %s\n", w.Base.Label(engine.Cell(s)), w.ADCs[so.ADC].Name, so.Channel, mux, mean, lo, hi, class)
	}
	ew.printf("\n")
	if res.OK() {
		ew.printf("no faults\n")
		return ew.err
	}
	ew.printf("%d fault(s):\n", len(res.Faults))
	for _, f := range res.Faults {
		ew.printf("  %s\n", f)
	}
	return ew.err
}

// ScanTiming is the scan timing of a selftest, as "selftest --json"
// prints it (docs/CONTRACTS.md): the Pi model, the scan rate, the scan's
// mean and longest time in milliseconds (to the microsecond), the scans
// that overran their period, and the ioctls per scan.
type ScanTiming struct {
	Model         string  `json:"model"`
	RateHz        int64   `json:"rate_hz"`
	ScanMSMean    float64 `json:"scan_ms_mean"`
	ScanMSMax     float64 `json:"scan_ms_max"`
	Overruns      int     `json:"overruns"`
	IoctlsPerScan float64 `json:"ioctls_per_scan"`
}

// Timing is the report's scan timing.
func (res *SelftestResult) Timing() ScanTiming {
	st := res.Stats
	ms := func(d time.Duration) float64 { return math.Round(float64(d)/1e3) / 1e3 }
	return ScanTiming{res.Model.Name, int64(st.Rate / physic.Hertz), ms(st.ScanMean), ms(st.ScanMax), st.Overruns, st.IoctlsPerScan}
}

// spread is the mean, minimum and maximum of v (not empty).
func spread(v []uint16) (mean float64, lo, hi uint16) {
	s := append([]uint16(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	for _, x := range s {
		mean += float64(x)
	}
	return mean / float64(len(s)), s[0], s[len(s)-1]
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, a ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, a...)
	}
}

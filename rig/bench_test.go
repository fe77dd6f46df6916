package rig

import (
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/sim"
)

// BenchmarkScan scans the reference wiring on each Pi model's timing
// model, batched (one ioctl per mux address) and one ioctl per conversion
// (the scan before batching). ns/op is the CPU cost on this machine; the
// Pi's figures are the custom metrics: sim-ms/scan (bus, ioctl, GPIO and
// settle time on that Pi), ioctls/scan, and budget-% (the share of the
// scan period the scan takes at the rate the wiring check chose).
func BenchmarkScan(b *testing.B) {
	for _, m := range pi.Models {
		for _, batched := range []bool{true, false} {
			name := m.Name + "/batched"
			if !batched {
				name = m.Name + "/per-conversion"
			}
			b.Run(name, func(b *testing.B) {
				w := wiring.Reference()
				r, err := Open(Options{Wiring: w, Sim: true, Board: sim.NewBoard(w.Base, nil), Model: m, Timing: true, NoPackets: !batched})
				if err != nil {
					b.Fatal(err)
				}
				defer r.Close()
				raw := make([]uint16, r.Devices.Scanner.Len())
				io0 := r.Sim.Timing.Ioctls()
				t0 := r.Clock.Now()
				b.ReportAllocs()
				for b.Loop() {
					if err := r.Devices.Scanner.ScanOnce(raw); err != nil {
						b.Fatal(err)
					}
				}
				scan := r.Clock.Now().Sub(t0) / time.Duration(b.N)
				b.ReportMetric(float64(scan)/1e6, "sim-ms/scan")
				b.ReportMetric(float64(r.Sim.Timing.Ioctls()-io0)/float64(b.N), "ioctls/scan")
				b.ReportMetric(100*float64(scan)/float64(r.Report.Rate.Period()), "budget-%")
			})
		}
	}
}

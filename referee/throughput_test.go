package referee_test

import (
	"testing"

	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/sim/players"
)

// BenchmarkGameFrames referees a whole 48-ring game played physically at
// 200 Hz, and reports the frames per second one core sustains.
func BenchmarkGameFrames(b *testing.B) {
	rec, err := record.ReadFile(samples.Path("032_Z11-ddyer-pmolz-2023-11-27-2100.sgf"))
	if err != nil {
		b.Fatal(err)
	}
	start, _ := rec.Start()
	type frame struct {
		t     int64
		cells []byte
	}
	var frames []frame
	opt := players.DefaultOptions
	opt.Seed = 1
	if _, err := players.Play(start, rec.Turns, opt, func(t int64, cells []byte) error {
		frames = append(frames, frame{t, append([]byte(nil), cells...)})
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ref, _ := referee.New(referee.Config{Board: start.Board(), Rules: start.Rules(), First: rec.First})
		for _, f := range frames {
			ref.ObserveBytes(f.t, f.cells)
		}
		if ref.Game().Len() != len(rec.Turns) {
			b.Fatalf("saw %d turns of %d", ref.Game().Len(), len(rec.Turns))
		}
	}
	perGame := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(len(frames))/perGame, "frames/s")
	b.ReportMetric(float64(len(frames)), "frames/game")
}

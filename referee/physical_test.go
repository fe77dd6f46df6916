package referee_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/physical"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
)

// sampleFiles lists the built-in games and, when it is there, the larger
// sample's.
func sampleFiles(t *testing.T) []string {
	t.Helper()
	files, err := samples.All()
	if err != nil || len(files) == 0 {
		t.Fatalf("no sample games: %v", err)
	}
	return files
}

// TestSampleGamesPlayedPhysically plays every sample game onto a simulated
// board, with hands, glitches, illegal tries and take-backs, and checks the
// referee sees exactly the recorded turns and result.
func TestSampleGamesPlayedPhysically(t *testing.T) {
	files := sampleFiles(t)
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	boards := map[string]int{}
	for i, file := range files {
		if testing.Short() && i%10 != 0 {
			continue
		}
		rec, err := record.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := rec.Replay()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		boards[rec.Variant]++
		for _, seed := range seeds {
			mode := referee.Casual
			if seed%2 == 0 {
				mode = referee.Tournament
			}
			name := fmt.Sprintf("%s/seed%d-%s", filepath.Base(file), seed, mode)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				playAndCheck(t, rec, rep, seed, mode)
			})
		}
	}
	if len(boards) < 3 {
		t.Errorf("games on %d board sizes; want all three (37, 48, 61): %v", len(boards), boards)
	}
}

func playAndCheck(t *testing.T, rec *record.Record, rep *record.Replay, seed uint64, mode referee.Mode) {
	start := rep.Game.Start()
	ref, err := referee.New(referee.Config{Board: start.Board(), Rules: start.Rules(), First: rec.First, Mode: mode})
	if err != nil {
		t.Fatal(err)
	}
	opt := physical.DefaultOptions
	opt.Seed = seed
	opt.ScanMS = 10
	opt.IllegalTries, opt.Takebacks = 0.1, 0.05
	counts := map[string]int{}
	var overEvent *referee.GameOver
	stats, err := physical.Play(start, rec.Turns, opt, func(t int64, cells []byte) error {
		for _, e := range ref.ObserveBytes(t, cells) {
			counts[e.Body.Kind()]++
			if g, ok := e.Body.(referee.GameOver); ok {
				overEvent = &g
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	g := ref.Game()
	b := start.Board()
	if g.Len() != rep.Game.Len() {
		t.Fatalf("referee saw %d turns; the record has %d (events %v, stats %+v)", g.Len(), rep.Game.Len(), counts, stats)
	}
	for i := 0; i < g.Len(); i++ {
		got, _ := g.Turn(i)
		want, _ := rep.Game.Turn(i)
		if got != want && !sameLoop(got, want, g.PositionAfter(i+1), rep.Game.PositionAfter(i+1)) {
			t.Fatalf("turn %d: referee saw %s; the record has %s", i+1, engine.FormatTurn(b, got), engine.FormatTurn(b, want))
		}
	}
	if !g.Position().Equal(rep.Game.Position()) {
		t.Errorf("final position %s; want %s", g.Position(), rep.Game.Position())
	}
	if counts["illegal"] != stats.IllegalTries {
		t.Errorf("%d illegal events; the players made %d illegal tries (events %v)", counts["illegal"], stats.IllegalTries, counts)
	}
	if counts["takeback"] != stats.Takebacks {
		t.Errorf("%d take-backs seen; the players made %d", counts["takeback"], stats.Takebacks)
	}
	if counts["touch-move"]+counts["missed-capture"]+counts["fault"] != 0 {
		t.Errorf("unexpected events: %v", counts)
	}
	end := rep.Game.Position().Result()
	if end.Over != (overEvent != nil) {
		t.Errorf("record over=%v; referee game-over event %v", end.Over, overEvent)
	} else if end.Over && (overEvent.Winner == nil) != (end.Winner < 0) {
		t.Errorf("winner: record %d; referee %v", end.Winner, overEvent.Winner)
	} else if end.Over && end.Winner >= 0 && *overEvent.Winner != end.Winner {
		t.Errorf("winner: record %d; referee %d", end.Winner, *overEvent.Winner)
	}
}

// sameLoop reports whether two chains are one loop of marbles jumped either
// way round: same start, same end, same result. Swept in one go, they look
// the same on the board, so the referee cannot tell them apart.
func sameLoop(a, b engine.Turn, pa, pb engine.Position) bool {
	if a.Kind != engine.Capture || b.Kind != engine.Capture {
		return false
	}
	x, y := a.Path(), b.Path()
	return x[0] == y[0] && x[len(x)-1] == y[len(y)-1] && pa.Equal(pb)
}

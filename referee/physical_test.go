package referee_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/sim/players"
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
		rec, err := record.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if testing.Short() && i%10 != 0 && boards[rec.Variant] > 0 {
			continue // every tenth game, and the first of each board
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
	opt := players.DefaultOptions
	opt.Seed = seed
	opt.ScanMS = 10
	opt.IllegalTries, opt.Takebacks = 0.1, 0.05
	counts := map[string]int{}
	var overEvent *referee.GameOver
	var lastMS int64
	var lastCells []byte
	observe := func(t int64, cells []byte) error {
		lastMS, lastCells = t, append(lastCells[:0], cells...)
		for _, e := range ref.ObserveBytes(t, cells) {
			counts[e.Body.Kind()]++
			if g, ok := e.Body.(referee.GameOver); ok {
				overEvent = &g
			}
		}
		return nil
	}
	stats, err := players.Play(start, rec.Turns, opt, observe)
	if err != nil {
		t.Fatal(err)
	}
	// The players step back; the board stays as it is, scanned on.
	for end := lastMS + 3000; lastMS < end; {
		_ = observe(lastMS+opt.ScanMS, lastCells)
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

// TestSampleGamesWithStalls plays every sample game with scan stalls: the
// frames stop for 150–600 ms while the hands go on, so the referee misses
// settled boards and sees turns merged, and jumpers hover over the board.
// Each game should end with exactly the record's game: the same number of
// turns and the same final position (two placements seen at once may be
// recorded in either order). The players answer the referee's questions.
func TestSampleGamesWithStalls(t *testing.T) {
	files := sampleFiles(t)
	seeds := []uint64{11, 12}
	if testing.Short() {
		seeds = seeds[:1]
	}
	stalls, inferred, games, lost, waiting := 0, 0, 0, 0, 0
	var mu sync.Mutex
	var asked atomic.Int64
	t.Run("games", func(t *testing.T) {
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
			for _, seed := range seeds {
				t.Run(fmt.Sprintf("%s/seed%d", filepath.Base(file), seed), func(t *testing.T) {
					t.Parallel()
					start := rep.Game.Start()
					ref, err := referee.New(referee.Config{Board: start.Board(), Rules: start.Rules(), First: rec.First})
					if err != nil {
						t.Fatal(err)
					}
					opt := players.DefaultOptions
					opt.Seed, opt.ScanMS = seed, 10
					opt.Stalls, opt.StallMS, opt.Hover = 0.001, 600, 0.2
					var last referee.Event
					n := 0
					var lastMS int64
					var lastCells []byte
					observe := func(ms int64, cells []byte) error {
						lastMS, lastCells = ms, append(lastCells[:0], cells...)
						for _, e := range ref.ObserveBytes(ms, cells) {
							last = e
							switch b := e.Body.(type) {
							case referee.Inferred:
								n++
							case referee.Question:
								asked.Add(1)
								opt, ok := answerFromRecord(start.Board(), rep.Game, b)
								if !ok {
									t.Logf("asked %q, which the record does not answer: left open", b.Text)
									continue
								}
								for _, a := range ref.Answer(ms, b.ID, opt) {
									last = a
								}
							}
						}
						return nil
					}
					stats, err := players.Play(start, rec.Turns, opt, observe)
					if err != nil {
						t.Fatal(err)
					}
					// The players step back; the board stays as it is.
					for end := lastMS + 3000; lastMS < end; {
						observe(lastMS+opt.ScanMS, lastCells)
					}
					mu.Lock()
					stalls += stats.Stalls
					inferred += n
					mu.Unlock()
					g := ref.Game()
					mu.Lock()
					games++
					mu.Unlock()
					if g.Len() != rep.Game.Len() || !g.Position().Equal(rep.Game.Position()) {
						if q, open := ref.Asking(); open {
							if _, known := answerFromRecord(start.Board(), rep.Game, q); !known {
								// The referee asks, and none of its options is
								// what the players played: it waits for their
								// word, it does not guess.
								mu.Lock()
								waiting++
								mu.Unlock()
								t.Logf("the referee waits at turn %d on %q, which the record does not answer", g.Len(), q.Text)
								return
							}
						}
						mu.Lock()
						lost++
						mu.Unlock()
						t.Logf("referee ended at turn %d, %s; the record at turn %d, %s (last event %v, %d stalls)",
							g.Len(), g.Position(), rep.Game.Len(), rep.Game.Position(), last, stats.Stalls)
					}
				})
			}
		}
	})
	t.Logf("%d stalls, %d inferences, %d questions; %d of %d games ended exactly as recorded, %d wait on a question the record does not answer", stalls, inferred, asked.Load(), games-lost-waiting, games, waiting)
	// Known weak point: a stall that hides both hops of a jump and the
	// turns around it can leave two lines of play that the rest of the
	// game never tells apart; the referee follows one of them. At this
	// stall rate (one every ten seconds of play) that is about 1 % of
	// games.
	if lost*100 > games {
		t.Errorf("%d of %d games ended off the record; want at most 1 %%", lost, games)
	}
	// The same weak point, where the referee asks instead: a question none
	// of whose options is the line played (the search missed it) leaves
	// the game waiting for the arbiter.
	if waiting*100 > 2*games {
		t.Errorf("%d of %d games wait on a question the players cannot answer; want at most 2 %%", waiting, games)
	}
	if stalls == 0 || inferred == 0 {
		t.Errorf("%d stalls and %d inferences: the test exercised nothing", stalls, inferred)
	}
}

// answerFromRecord answers a question as the players who played the
// record remember it (players.Answer).
func answerFromRecord(b *engine.Board, g *engine.Game, q referee.Question) (int, bool) {
	return players.Answer(b, g, q.About, q.Turn, q.Cell, q.Options, q.Provisional)
}

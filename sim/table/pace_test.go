package table

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/sim/players"
)

// TestSimPlayersFollowEveryGame plays every built-in game the way the
// simulated players of `sim` do (PlayerOptions), at speed 1 and at speed
// 20, scanned at 100 Hz, into the referee, on a virtual clock: the
// generator's time divided by the speed is the wall time the scan sees,
// so human speed costs no wall time. The questions are answered as the
// players answer them (players.Answer). Each game must end as recorded:
// every turn and the result. (TestSimEveryGameOnVirtualTime runs the
// whole simulated board, on the lockstep clock.)
func TestSimPlayersFollowEveryGame(t *testing.T) {
	dir := samples.BuiltinDir()
	for _, speed := range []float64{1, 20} {
		for i, n := range samples.BuiltinNames() {
			t.Run(fmt.Sprintf("speed%g/%s", speed, n), func(t *testing.T) {
				t.Parallel()
				simPlayersFollowGame(t, filepath.Join(dir, n), speed, uint64(i+1))
			})
		}
	}
}

func simPlayersFollowGame(t *testing.T, game string, speed float64, seed uint64) {
	rec, err := record.ReadFile(game)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	start := rep.Game.Start()
	b := start.Board()
	ref, err := referee.New(referee.Config{Board: b, Rules: start.Rules(), First: rec.First})
	if err != nil {
		t.Fatal(err)
	}
	const scanMS = 10 // --scan-hz 100
	opt := PlayerOptions(seed, speed, referee.DefaultSettleMS, 0)
	// What the players put on the board, by wall time.
	type frame struct {
		wall  int64
		cells string
	}
	var frames []frame
	if _, err := players.Play(start, rec.Turns, opt, func(ms int64, cells []byte) error {
		if len(frames) == 0 || frames[len(frames)-1].cells != string(cells) {
			frames = append(frames, frame{int64(float64(ms) / speed), string(cells)})
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	questions := 0
	k := 0
	end := frames[len(frames)-1].wall + 3000 // the players step back; the board stays
	for now := int64(0); now <= end; now += scanMS {
		for k+1 < len(frames) && frames[k+1].wall <= now {
			k++
		}
		for _, e := range ref.Observe(now, frames[k].cells) {
			q, ok := e.Body.(referee.Question)
			if !ok {
				continue
			}
			questions++
			if i, known := players.Answer(b, rep.Game, q.About, q.Turn, q.Cell, q.Options, q.Provisional); known {
				ref.Answer(now, q.ID, i)
			}
		}
	}
	g := ref.Game()
	for i := 0; i < max(g.Len(), rep.Game.Len()); i++ {
		if i >= g.Len() || i >= rep.Game.Len() {
			t.Fatalf("the referee kept %d turns; the record has %d", g.Len(), rep.Game.Len())
		}
		got, _ := g.Turn(i)
		want, _ := rep.Game.Turn(i)
		if got != want && !(got.Kind == engine.Capture && want.Kind == engine.Capture && g.PositionAfter(i+1).Equal(rep.Game.PositionAfter(i+1))) {
			t.Fatalf("turn %d: the referee kept %s; the record has %s", i+1, engine.FormatTurn(b, got), engine.FormatTurn(b, want))
		}
	}
	if got, want := g.Position().Result(), rep.Game.Position().Result(); got != want {
		t.Errorf("result %+v; the record's %+v", got, want)
	}
	t.Logf("%d turns, %d frames, %d questions", g.Len(), len(frames), questions)
}

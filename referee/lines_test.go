package referee

import (
	"math/rand/v2"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// The lines of play stay bounded whatever the frames: a dead socket and
// a board that wanders through random legal turns, random noise and
// illegal boards, with questions never answered.
func TestLinesStayBounded(t *testing.T) {
	p, err := engine.ParsePosition(start37)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(Config{Board: p.Board(), Rules: p.Rules(), Game: engine.NewGame(p)})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	dead, _ := p.Board().ParseCell("D4")
	pos := p
	now := int64(0)
	show := func(cells []byte) {
		cells[dead] = '?'
		for i := 0; i < 40; i++ { // 200 ms at 200 Hz
			r.ObserveBytes(now, cells)
			now += 5
		}
		if len(r.lines) > maxLines || len(r.linesBefore) > maxLines {
			t.Fatalf("%d lines (%d before); at most %d", len(r.lines), len(r.linesBefore), maxLines)
		}
		for _, l := range r.lines {
			if len(l.turns) > maxLineTurns+3 {
				t.Fatalf("a line of %d turns; at most %d", len(l.turns), maxLineTurns+3)
			}
		}
	}
	// The dead socket first reads '?' long enough to count as unknown.
	for i := 0; i < 8; i++ {
		show([]byte(pos.Cells()))
	}
	seenLines := 0
	for step := 0; step < 400; step++ {
		switch k := rng.IntN(10); {
		case k < 7 && !pos.Result().Over:
			turns := pos.LegalTurns(nil)
			pos = pos.MustPlay(turns[rng.IntN(len(turns))])
			for pos.MustPass() && !pos.Result().Over {
				pos = pos.MustPlay(engine.PassTurn())
			}
			show([]byte(pos.Cells()))
		case k < 9:
			noisy := []byte(pos.Cells())
			for j := rng.IntN(4); j >= 0; j-- {
				noisy[rng.IntN(len(noisy))] = ".owgb"[rng.IntN(5)]
			}
			show(noisy)
		default:
			pos = p // the game starts again on the board: a wholesale change
			show([]byte(pos.Cells()))
		}
		seenLines = max(seenLines, len(r.lines))
	}
	if seenLines < 2 {
		t.Errorf("at most %d line followed: the test exercised nothing", seenLines)
	}
}

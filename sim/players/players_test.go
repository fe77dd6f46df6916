package players

import (
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// A short game with a capture and an isolation claim: diagram 5 of the
// rulebook.
func diagram5(t *testing.T) (engine.Position, []engine.Turn) {
	t.Helper()
	p, err := engine.ParsePosition("37 w.oo/o.ooo/.ooooo/o.ooooo/o.gooo/ooooo/oooo 1,4,8 2,0,0 2,3,2 0")
	if err != nil {
		t.Fatal(err)
	}
	var turns []engine.Turn
	for _, s := range []string{"BE4-G4", "E3xE5", "WB1-C2"} {
		turn, err := engine.ParseTurn(p.Board(), s)
		if err != nil {
			t.Fatal(err)
		}
		turns = append(turns, turn)
	}
	return p, turns
}

func record(t *testing.T, start engine.Position, turns []engine.Turn, opt Options) ([]string, []int64, Stats) {
	var frames []string
	var times []int64
	stats, err := Play(start, turns, opt, func(ms int64, cells []byte) error {
		frames = append(frames, string(cells))
		times = append(times, ms)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return frames, times, stats
}

func TestPlayEndsOnTheFinalBoard(t *testing.T) {
	start, turns := diagram5(t)
	opt := DefaultOptions
	opt.Seed = 3
	frames, times, stats := record(t, start, turns, opt)
	if stats.Frames != len(frames) || len(frames) == 0 {
		t.Fatalf("stats %+v for %d frames", stats, len(frames))
	}
	first, last := frames[0], frames[len(frames)-1]
	if first != start.Cells() {
		t.Errorf("first frame %s; want the start %s", first, start.Cells())
	}
	// The claimed rings are off: the board is the final position.
	end := start
	for _, turn := range turns {
		end = end.MustPlay(turn)
	}
	if last != end.Cells() || end.At(0) != engine.NoRing {
		t.Errorf("last frame %s; want the final position %s", last, end.Cells())
	}
	for i := range times {
		if i > 0 && times[i]-times[i-1] != opt.ScanMS {
			t.Fatalf("frame %d at %d ms follows %d ms; want one scan (%d ms) apart", i, times[i], times[i-1], opt.ScanMS)
		}
		if strings.Trim(frames[i], ".owgb?") != "" {
			t.Fatalf("frame %d %q has characters outside the frame-log alphabet", i, frames[i])
		}
	}
}

func TestPlayIsDeterministic(t *testing.T) {
	start, turns := diagram5(t)
	opt := DefaultOptions
	opt.Seed = 11
	a, _, _ := record(t, start, turns, opt)
	b, _, _ := record(t, start, turns, opt)
	opt.Seed = 12
	c, _, _ := record(t, start, turns, opt)
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Error("the same seed played differently")
	}
	if strings.Join(a, "\n") == strings.Join(c, "\n") {
		t.Error("different seeds played identically")
	}
}

func TestPlayRefusesIllegalTurns(t *testing.T) {
	start, turns := diagram5(t)
	turns[1], turns[2] = turns[2], turns[1] // a placement while a capture is compulsory
	_, err := Play(start, turns, DefaultOptions, func(int64, []byte) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "turn 2") {
		t.Errorf("Play = %v; want turn 2 refused", err)
	}
}

func TestSpeedScalesTime(t *testing.T) {
	start, turns := diagram5(t)
	opt := DefaultOptions
	opt.Seed = 5
	_, _, slow := record(t, start, turns, opt)
	opt.Speed = 4
	_, _, fast := record(t, start, turns, opt)
	// Holds never drop below twice the settle time, so not 4× shorter.
	if fast.DurationMS*3/2 > slow.DurationMS {
		t.Errorf("4× speed took %d ms; normal %d ms", fast.DurationMS, slow.DurationMS)
	}
}

// Stalls drop windows of frames while the hands go on: the gaps between
// frame times are the stalls, they add up to what Stats says, and the
// game still ends on the same board.
func TestStallsDropFrameWindows(t *testing.T) {
	p, turns := diagram5(t)
	opt := DefaultOptions
	opt.Seed, opt.Stalls, opt.StallMS = 3, 0.01, 400
	frames, times, stats := record(t, p, turns, opt)
	if stats.Stalls == 0 {
		t.Fatal("no stall at a 1 % chance per scan")
	}
	var gaps, gapMS int64
	for i := 1; i < len(times); i++ {
		if d := times[i] - times[i-1]; d > opt.ScanMS {
			gaps++
			gapMS += d - opt.ScanMS
			if d-opt.ScanMS < opt.StallMS/4 || d-opt.ScanMS > opt.StallMS+opt.ScanMS {
				t.Errorf("a gap of %d ms; stalls last %d to %d ms", d-opt.ScanMS, opt.StallMS/4, opt.StallMS)
			}
		}
	}
	if gaps != int64(stats.Stalls) {
		t.Errorf("%d gaps in the frame times; Stats says %d stalls", gaps, stats.Stalls)
	}
	if gapMS < stats.StalledMS-int64(stats.Stalls)*opt.ScanMS || gapMS > stats.StalledMS+int64(stats.Stalls)*opt.ScanMS {
		t.Errorf("gaps add up to %d ms; Stats says %d", gapMS, stats.StalledMS)
	}
	q := p
	for _, turn := range turns {
		q = q.MustPlay(turn)
	}
	if last := frames[len(frames)-1]; last != q.Cells() {
		t.Errorf("last frame %s; want %s", last, q.Cells())
	}
}

// The players answer a question about the socket a marble the board missed
// is on with the first placement onto one of the sockets offered, from the
// question's turn on; a socket they put nothing on is no answer.
func TestAnswerSocket(t *testing.T) {
	p, turns := diagram5(t)
	g := engine.NewGame(p)
	for _, tn := range turns {
		if err := g.Play(tn); err != nil {
			t.Fatal(err)
		}
	}
	b := p.Board()
	// Turn 3 is WB1-C2: the marble went on B1.
	if i, ok := Answer(b, g, "cell", 2, "", []string{"A1", "B1", "G4"}, -1); !ok || i != 1 {
		t.Errorf("answer %d, %v; want 1 (B1)", i, ok)
	}
	// From turn 1 on, the first placement is BE4-G4: E4.
	if i, ok := Answer(b, g, "cell", 1, "", []string{"B1", "E4"}, -1); !ok || i != 1 {
		t.Errorf("answer %d, %v; want 1 (E4)", i, ok)
	}
	if _, ok := Answer(b, g, "cell", 1, "", []string{"A1", "G4"}, -1); ok {
		t.Errorf("answered a socket question whose sockets held no marble put down")
	}
	// A page of sockets none of which held it: "another ring".
	if i, ok := Answer(b, g, "cell", 1, "", []string{"A1", "G4", "other"}, -1); !ok || i != 2 {
		t.Errorf("answer %d, %v; want 2 (another ring)", i, ok)
	}
}

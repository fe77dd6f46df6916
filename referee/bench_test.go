package referee

import (
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/sim/players"
)

func benchReferee(b *testing.B, pos string) *Referee {
	p, err := engine.ParsePosition(pos)
	if err != nil {
		b.Fatal(err)
	}
	r, err := New(Config{Board: p.Board(), Rules: p.Rules(), Game: engine.NewGame(p)})
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkFrameUnchanged is the cost of a scan in which nothing changed:
// the common case, 100–200 times a second.
func BenchmarkFrameUnchanged(b *testing.B) {
	r := benchReferee(b, start37)
	cells := []byte(r.Expected())
	for i := 0; i < 40; i++ {
		r.ObserveBytes(int64(i*5), cells)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.ObserveBytes(int64(200+i), cells)
	}
}

// BenchmarkInferPending is a settled change that needs inference: a marble
// set down, waiting for its ring removal, then lifted again.
func BenchmarkInferPending(b *testing.B) {
	r := benchReferee(b, start37)
	exp := r.Expected()
	c, _ := r.b.ParseCell("D4")
	placed := []byte(exp)
	placed[c] = 'w'
	obs := string(placed)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if ev := r.infer(int64(i), obs); len(ev) != 1 {
			b.Fatalf("events %v", ev)
		}
		r.infer(int64(i), exp)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/inference")
}

// BenchmarkInferCommit commits a placement and takes it back: two settled
// changes, each inferred against the whole rules.
func BenchmarkInferCommit(b *testing.B) {
	r := benchReferee(b, "48 .o.../ooo.../ooooooo/oowoowoo/ooooooo/oooooo/oowoo/.ooo 2,7,8 1,0,0 0,1,2 0")
	exp := r.Expected()
	at, _ := r.b.ParseCell("E3")
	rem, _ := r.b.ParseCell("B1")
	done := []byte(exp)
	done[at], done[rem] = 'g', '.'
	obs := string(done)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if ev := r.infer(int64(i), obs); len(ev) == 0 || ev[0].Body.Kind() != "move" {
			b.Fatalf("events %v", ev)
		}
		if ev := r.infer(int64(i), exp); len(ev) == 0 || ev[0].Body.Kind() != "takeback" {
			b.Fatalf("events %v", ev)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/inference")
}

// BenchmarkInferTwoTurns is the cost of reading a settled board as two
// turns at once (the scan stalled over the end of one), committing both
// and asking their order,
// and of the take-back that restores the start: the two-turn search runs
// only when no single turn explains a board.
func BenchmarkInferTwoTurns(b *testing.B) {
	r := benchReferee(b, start37)
	exp := r.Expected()
	two := []byte(exp)
	for _, e := range [][2]string{{"D4", "w"}, {"A1", "."}, {"F2", "g"}, {"G4", "."}} {
		c, _ := r.b.ParseCell(e[0])
		two[c] = e[1][0]
	}
	obs := string(two)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if ev := r.infer(int64(i), obs); len(ev) != 4 || ev[3].Body.Kind() != "question" {
			b.Fatalf("events %v", ev)
		}
		r.question = nil
		if ev := r.infer(int64(i), exp); len(ev) == 0 || ev[0].Body.Kind() != "takeback" {
			b.Fatalf("events %v", ev)
		}
		r.redo = nil // measure the search, not the redo shortcut
	}
}

// BenchmarkTrackLost is a settled board while the referee is lost: it
// follows every line of play it keeps (up to maxHypotheses) to explain
// the board. The lines are those of a referee that committed a wrong turn
// and then saw an illegal board; the board measured is two turns on.
func BenchmarkTrackLost(b *testing.B) {
	r := benchReferee(b, start37)
	edit := func(base string, edits ...[2]string) string {
		cells := []byte(base)
		for _, e := range edits {
			c, _ := r.b.ParseCell(e[0])
			cells[c] = e[1][0]
		}
		return string(cells)
	}
	start := r.Expected()
	placed := edit(start, [2]string{"D4", "w"}, [2]string{"A1", "."})
	wrong := edit(placed, [2]string{"D4", "g"})
	on := edit(wrong, [2]string{"F2", "b"}, [2]string{"G4", "."})
	b.ReportAllocs()
	b.ResetTimer()
	lines := 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		r.NewGame(0, 0)
		r.infer(1, placed)
		r.infer(2, wrong)
		lines = len(r.hyps)
		b.StartTimer()
		if ev := r.infer(4, on); len(ev) == 0 || ev[0].Body.Kind() != "takeback" {
			b.Fatalf("the lines did not explain the board: %v", ev)
		}
		r.question = nil
	}
	b.ReportMetric(float64(lines), "lines")
}

// benchLines is a referee with a dead cell and n live lines, each one
// placement from the start position, and a settled board two placements
// on from the first line's start, with that cell unknown.
func benchLines(b *testing.B, n int) (*Referee, []line, string) {
	r := benchReferee(b, start37)
	p := r.game.Position()
	turns := p.LegalTurns(nil)
	if len(turns) < n {
		b.Fatalf("%d turns, want %d", len(turns), n)
	}
	var lines []line
	for _, t := range turns[:n] {
		l, ok := r.play(r.rootLine(), t, false, r.Expected())
		if !ok {
			b.Fatal("illegal turn")
		}
		lines = append(lines, l)
	}
	next := lines[0].pos.LegalTurns(nil)
	q := lines[0].pos.MustPlay(next[len(next)/2])
	obs := []byte(q.Cells())
	dead, _ := r.b.ParseCell("D4")
	obs[dead] = '?'
	return r, lines, string(obs)
}

// BenchmarkLinesStep1 is a settled change checked against one live line
// (the tracker followed while a sensor is dead).
func BenchmarkLinesStep1(b *testing.B) {
	r, lines, obs := benchLines(b, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if next, _ := r.step(lines, r.current(obs), nil); len(next) == 0 {
			b.Fatal("the line does not explain the board")
		}
	}
}

// BenchmarkLinesStep64 is a settled change checked against 64 live lines.
func BenchmarkLinesStep64(b *testing.B) {
	r, lines, obs := benchLines(b, 64)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if next, _ := r.step(lines, r.current(obs), nil); len(next) == 0 {
			b.Fatal("no line explains the board")
		}
	}
	b.ReportMetric(64, "lines")
}

// benchHistory is a referee that has refereed the first turns of a sample
// game, seen whole (its settled-board history full of real boards), and a
// board that contradicts the game everywhere it can: the worst case for a
// stuck search or a relock, which then replay every board kept.
func benchHistory(b testing.TB) (*Referee, string) {
	b.Helper()
	rec, err := record.ReadFile(samples.Path(samples.BuiltinNames()[0]))
	if err != nil {
		b.Fatal(err)
	}
	rep, err := rec.Replay()
	if err != nil {
		b.Fatal(err)
	}
	start := rep.Game.Start()
	r, err := New(Config{Board: start.Board(), Rules: start.Rules(), First: rec.First})
	if err != nil {
		b.Fatal(err)
	}
	opt := players.DefaultOptions
	opt.Seed, opt.Takebacks = 3, 0
	var last []byte
	if _, err := players.Play(start, rec.Turns[:20], opt, func(ms int64, cells []byte) error {
		r.ObserveBytes(ms, cells)
		last = append(last[:0], cells...)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	// Every vacant ring gets a marble: no line of play, with any one
	// socket unknown, explains that.
	for c := range last {
		if last[c] == 'o' {
			last[c] = "wgb"[c%3]
		}
	}
	// The board settles once: illegal, and kept with the others.
	for i := int64(1); i <= 40; i++ {
		r.ObserveBytes(r.lastT+5, last)
	}
	if !r.illegal || r.hist[len(r.hist)-1].at.cells != string(last) {
		b.Fatal("the contradicting board did not settle as illegal")
	}
	return r, string(last)
}

// BenchmarkStuckSearchWorst is a stuck-sensor search that finds nothing
// after replaying the kept boards once as read and once per candidate
// socket: its cost is bounded by replayWork per replay.
func BenchmarkStuckSearchWorst(b *testing.B) {
	r, board := benchHistory(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := r.stuckSearch(r.lastT, board, false); ok {
			b.Fatal("a stuck socket explains a board full of marbles")
		}
	}
	b.ReportMetric(float64(len(r.histSince())), "boards")
}

// BenchmarkRelockWorst is a relock that finds no line of play through the
// kept boards.
func BenchmarkRelockWorst(b *testing.B) {
	r, board := benchHistory(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := r.relock(r.lastT, board); ok {
			b.Fatal("a line of play explains a board full of marbles")
		}
	}
}

// BenchmarkLinesAfterStall is the search for one settled board after a
// stall, two turns on from the start: the lines, the longer ones the stall
// may hide, and those with a marble put down and jumped away unseen, all
// within one budget (stepPlays).
func BenchmarkLinesAfterStall(b *testing.B) {
	r := benchReferee(b, start37)
	p := r.game.Position()
	q := p.MustPlay(p.LegalTurns(nil)[40])
	q = q.MustPlay(q.LegalTurns(nil)[40])
	obs := q.Cells()
	r.settled, r.stalled = obs, true
	exp := r.Expected()
	for c := 0; c < len(obs); c++ {
		if obs[c] != exp[c] {
			r.touched |= bit(engine.Cell(c))
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		work := stepPlays
		next, whole := r.step([]line{r.rootLine()}, r.current(obs), &work)
		if !whole || len(next) == 0 {
			b.Fatal("no line explains the board")
		}
		if next, _ = r.afterStall(next, obs, &work); len(next) == 0 {
			b.Fatal("no line explains the board")
		}
	}
}

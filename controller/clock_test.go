package controller

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
)

// table is a controller under test on 37 rings, with a journal, and the
// board the players show it, 5 ms per frame.
type table struct {
	t     *testing.T
	c     *Controller
	pub   *fakePub
	path  string
	j     *journal.Journal
	now   int64
	cells string
	b     *engine.Board
}

func newTable(t *testing.T, control string, mode referee.Mode) *table {
	t.Helper()
	path := filepath.Join(t.TempDir(), "j")
	j, _, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctl, err := clock.Parse(control)
	if err != nil {
		t.Fatal(err)
	}
	pub := &fakePub{}
	c, err := New(Config{BoardID: "b", Variant: "37", Mode: mode, Journal: j, Publisher: pub, Control: ctl})
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{t: t, c: c, pub: pub, path: path, j: j, b: engine.MustStandardBoard("37")}
	tb.cells = strings.Repeat(".", 37)
	t.Cleanup(func() { j.Close() })
	return tb
}

// hold shows the board for ms milliseconds (a frame every 5 ms, the first
// at the current time).
func (tb *table) hold(ms int64) {
	tb.t.Helper()
	for end := tb.now + ms; tb.now < end; tb.now += 5 {
		if err := tb.c.Frame(tb.now, []byte(tb.cells)); err != nil {
			tb.t.Fatalf("frame at %d: %v", tb.now, err)
		}
	}
}

// setUp shows the starting position.
func (tb *table) setUp() { tb.cells = strings.Repeat("o", 37); tb.hold(200) }

// play thinks for ms, then plays the first legal turn of the official
// position and holds it until committed. It returns the commit time.
func (tb *table) play(thinkMS int64) int64 {
	tb.t.Helper()
	tb.hold(thinkMS)
	g := tb.c.ref.Game()
	n := g.Len()
	p := g.Position()
	turn := p.LegalTurns(nil)[0]
	tb.cells = p.MustPlay(turn).Cells()
	for k := 0; k < 100 && tb.c.ref.Game().Len() == n; k++ {
		tb.hold(5)
	}
	if tb.c.ref.Game().Len() == n {
		tb.t.Fatalf("turn %d was not committed", n+1)
	}
	return tb.lastMoveT()
}

func (tb *table) lastMoveT() int64 {
	tb.pub.mu.Lock()
	defer tb.pub.mu.Unlock()
	return tb.pub.moves[len(tb.pub.moves)-1].Event.T
}

// illegal puts black marbles on two vacant rings: no turn does that.
func (tb *table) illegal() {
	cells := []byte(tb.cells)
	n := 0
	for i := len(cells) - 1; i >= 0 && n < 2; i-- {
		if cells[i] == 'o' {
			cells[i], n = 'b', n+1
		}
	}
	tb.cells = string(cells)
}

func (tb *table) remaining() [2]int64 {
	tb.t.Helper()
	st := tb.c.State()
	if st.Clock.Remaining == nil {
		tb.t.Fatalf("no remaining times in %+v", st.Clock)
	}
	return *st.Clock.Remaining
}

func (tb *table) running() int {
	if r := tb.c.State().Clock.Running; r != nil {
		return *r
	}
	return -1
}

func (tb *table) events(kind string) []referee.Event {
	tb.pub.mu.Lock()
	defer tb.pub.mu.Unlock()
	var out []referee.Event
	for _, e := range tb.pub.events {
		if e.Body.Kind() == kind {
			out = append(out, e)
		}
	}
	return out
}

func (tb *table) record() *record.Record {
	tb.t.Helper()
	tb.pub.mu.Lock()
	data := tb.pub.record
	tb.pub.mu.Unlock()
	rec, err := record.ReadJSON(strings.NewReader(string(data)))
	if err != nil {
		tb.t.Fatalf("record %s: %v", data, err)
	}
	return rec
}

// The first player's clock starts when the board is first seen set up;
// each turn's time is exactly the time between the commits; the Fischer
// increment goes to the mover after the commit.
func TestClockFollowsCommits(t *testing.T) {
	tb := newTable(t, "fischer:1m+5s", referee.Casual)
	st := tb.c.State()
	if st.Clock.Control != "fischer:1m+5s" || st.Clock.Running != nil || *st.Clock.Remaining != [2]int64{60000, 60000} || st.Clock.IncrementMS != 5000 {
		t.Fatalf("before the board is set up: %+v", st.Clock)
	}
	if st.GameID != "b-1" {
		t.Errorf("game_id %q", st.GameID)
	}
	tb.hold(3000) // an empty board: not set up, no clock
	if tb.running() != -1 || tb.remaining() != [2]int64{60000, 60000} {
		t.Fatalf("clock runs before the set-up: %+v", tb.c.State().Clock)
	}
	tb.cells = strings.Repeat("o", 37)
	start := tb.now
	tb.hold(5)
	if tb.running() != 0 {
		t.Fatalf("the set-up board did not start player 0's clock: %+v", tb.c.State().Clock)
	}
	commits := []int64{start}
	rem := [2]int64{60000, 60000}
	for i, think := range []int64{2000, 3000, 500, 7000} {
		commits = append(commits, tb.play(think))
		mover := i % 2
		used := commits[i+1] - commits[i]
		rem[mover] += 5000 - used
		if got := tb.remaining(); got != rem {
			t.Fatalf("after turn %d: remaining %v; want %v", i+1, got, rem)
		}
		if tb.running() != 1-mover {
			t.Fatalf("after turn %d: running %d", i+1, tb.running())
		}
	}
	rec := tb.record()
	if rec.GameID != "b-1" {
		t.Errorf("record game_id %q", rec.GameID)
	}
	if rec.Clock == nil || rec.Clock.Control != "fischer:1m+5s" || len(rec.Clock.Turns) != 4 {
		t.Fatalf("record clock %+v", rec.Clock)
	}
	for i, tt := range rec.Clock.Turns {
		if want := commits[i+1] - commits[i]; tt.UsedMS != want {
			t.Errorf("turn %d used %d ms; the commits are %d ms apart", i+1, tt.UsedMS, want)
		}
	}
	if r := rec.Clock.Turns[3].Remaining; r == nil || *r != rem {
		t.Errorf("last turn's remaining %v; want %v", r, rem)
	}
	// A viewer reading the state between frames sees the mover's time
	// as of the latest frame.
	tb.hold(1000)
	if got := tb.remaining(); got[0] != rem[0]-(tb.now-5-commits[4]) || got[1] != rem[1] {
		t.Errorf("while thinking: %v (rem %v, %d ms since the commit)", got, rem, tb.now-5-commits[4])
	}
}

// A flag fall ends the game by time for the opponent, who can always still
// complete a set with the rulebook's sets; the board then takes no turns.
func TestFlagFall(t *testing.T) {
	tb := newTable(t, "sudden:10s", referee.Casual)
	tb.setUp()
	tb.play(1000)
	tb.play(1000)
	left := tb.remaining()[0]
	tb.hold(10000) // player 0 thinks past their time
	st := tb.c.State()
	if st.Phase != "over" || st.Result != "time" || st.Winner == nil || *st.Winner != 1 || st.Clock.Running != nil {
		t.Fatalf("after the flag fell: phase %q result %q winner %v clock %+v", st.Phase, st.Result, st.Winner, st.Clock)
	}
	if got := *st.Clock.Remaining; got[0] != 0 {
		t.Errorf("the fallen flag reads %d ms", got[0])
	}
	over := tb.events("game-over")
	if len(over) != 1 || over[0].Body.(referee.GameOver).Reason != "time" {
		t.Fatalf("game-over events %v", over)
	}
	// The fall came at the first frame at which the time was gone.
	fallT := over[0].T
	if fallT-tb.lastMoveT() != left {
		t.Errorf("flag fell %d ms after player 1's commit; player 0 had %d ms left", fallT-tb.lastMoveT(), left)
	}
	seq := st.Seq
	g := tb.c.ref.Game().Position()
	tb.cells = g.MustPlay(g.LegalTurns(nil)[0]).Cells()
	tb.hold(500)
	if st := tb.c.State(); st.Turn != 2 || st.Seq != seq {
		t.Errorf("a turn after the flag fall counted: turn %d seq %d", st.Turn, st.Seq)
	}
	if rec := tb.record(); rec.Stop.Kind != record.WinOnTime || rec.Stop.Player != 1 {
		t.Errorf("record end %+v", rec.Stop)
	}
	for _, cmd := range []command.Command{command.Pause{}, command.AddTime{Player: 0, MS: 1000}, command.DeclareResult{Result: "draw"}} {
		if err := tb.c.Command(tb.now, cmd); err == nil {
			t.Errorf("%s accepted after the flag fall", command.Name(cmd))
		}
	}
	tb.j.Close()
	_, jg, err := journal.Open(tb.path)
	if err != nil || jg.End == nil || jg.End.Reason != "time" || *jg.End.Winner != 1 {
		t.Fatalf("journal end %+v, %v", jg, err)
	}
}

// A gap between frames over a second (the scan stalled, the board offline)
// is not charged.
func TestOfflineGapNotCharged(t *testing.T) {
	tb := newTable(t, "sudden:1m", referee.Casual)
	tb.setUp() // 200 ms of player 0's time... from the first frame
	before := tb.remaining()
	tb.now += 30000 // no frames for 30 s
	tb.hold(100)
	after := tb.remaining()
	if before[0]-after[0] != 95 {
		t.Errorf("30 s offline cost %d ms; want the 95 ms of frames after it", before[0]-after[0])
	}
}

// The arbiter's pause stops both clocks; resume restarts the mover's.
// Both are committed changes (seq+1), journalled.
func TestPauseResume(t *testing.T) {
	tb := newTable(t, "sudden:1m", referee.Casual)
	tb.setUp()
	tb.play(1000)
	seq := tb.c.State().Seq
	if err := tb.c.Command(tb.now, command.Resume{}); err == nil {
		t.Error("resume accepted while not paused")
	}
	if err := tb.c.FromArbiter(tb.now, command.Envelope{ID: "p1", Command: command.Pause{}}); err != nil {
		t.Fatal(err)
	}
	st := tb.c.State()
	if !st.Clock.Paused || st.Clock.Running != nil || st.Seq != seq+1 {
		t.Fatalf("paused: %+v seq %d", st.Clock, st.Seq)
	}
	if err := tb.c.Command(tb.now, command.Pause{}); err == nil {
		t.Error("pause accepted twice")
	}
	before := tb.remaining()
	tb.hold(20000)
	if got := tb.remaining(); got != before {
		t.Errorf("paused clocks moved: %v -> %v", before, got)
	}
	if err := tb.c.Command(tb.now, command.Resume{}); err != nil {
		t.Fatal(err)
	}
	if st := tb.c.State(); st.Clock.Paused || tb.running() != 1 || st.Seq != seq+2 {
		t.Fatalf("resumed: %+v seq %d", st.Clock, st.Seq)
	}
	tb.hold(1000)
	if got := tb.remaining(); got[1] != before[1]-995 || got[0] != before[0] {
		t.Errorf("after resume %v; before the pause %v", got, before)
	}
	tb.j.Close()
	_, g, err := journal.Open(tb.path)
	if err != nil || g.Clock == nil || g.Clock.Paused || g.Seq != seq+2 {
		t.Fatalf("journal clock %+v seq %d, %v", g.Clock, g.Seq, err)
	}
}

func TestAddTime(t *testing.T) {
	tb := newTable(t, "fischer:1m+2s", referee.Casual)
	tb.setUp()
	before := tb.remaining()
	if err := tb.c.Command(tb.now, command.AddTime{Player: 1, MS: 30000}); err != nil {
		t.Fatal(err)
	}
	if got := tb.remaining(); got[1] != before[1]+30000 {
		t.Errorf("add-time: %v -> %v", before, got)
	}
	for _, bad := range []command.AddTime{{Player: 2, MS: 5}, {Player: 0, MS: 0}, {Player: 0, MS: clock.MaxAddMS + 1}} {
		if err := tb.c.Command(tb.now, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	none := newTable(t, "none", referee.Casual)
	if err := none.c.Command(0, command.AddTime{Player: 0, MS: 5}); err == nil {
		t.Error("add-time accepted without a time control")
	}
	if st := none.c.State(); st.Clock.Control != "none" || st.Clock.Remaining != nil || st.Clock.Running != nil {
		t.Errorf("no time control: %+v", st.Clock)
	}
}

// Time spent fixing an illegal board goes to the player who made it: the
// last mover when the board is disturbed right after their commit, else
// the player to move.
func TestIllegalBoardTime(t *testing.T) {
	tb := newTable(t, "sudden:1m", referee.Casual)
	tb.setUp()
	tb.play(1000)
	r0 := tb.remaining()
	// Player 0's hand knocks the marble they just placed off its ring,
	// right after the commit.
	saved := tb.cells
	turn, _ := tb.c.ref.Game().Turn(0)
	cells := []byte(tb.cells)
	cells[turn.At] = 'o'
	tb.cells = string(cells)
	tb.hold(2000)
	if len(tb.events("illegal")) == 0 {
		t.Fatal("no illegal board")
	}
	if tb.running() != 0 {
		t.Fatalf("the disturbed board runs player %d's clock; want player 0's", tb.running())
	}
	tb.cells = saved
	tb.hold(300)
	if len(tb.events("restored")) == 0 || tb.running() != 1 {
		t.Fatalf("restored: events %v, running %d", tb.events("restored"), tb.running())
	}
	r1 := tb.remaining()
	if r0[0]-r1[0] < 1900 || r0[0]-r1[0] > 2100 {
		t.Errorf("player 0 was charged %d ms for the board they disturbed; want about 2000", r0[0]-r1[0])
	}
	// Player 1 makes an illegal try at once, elsewhere: their own time.
	tb.illegal()
	tb.hold(2000)
	if tb.running() != 1 {
		t.Errorf("player 1's illegal try runs player %d's clock", tb.running())
	}
	tb.cells = saved
	tb.hold(300)
	// Later, player 1's try on the last turn's cells is theirs too.
	tb.hold(4000)
	tb.cells = string(cells)
	tb.hold(2000)
	if len(tb.events("illegal")) < 3 || tb.running() != 1 {
		t.Errorf("a late disturbance runs player %d's clock (%d illegal boards)", tb.running(), len(tb.events("illegal")))
	}
}

// In tournament mode the take-back button asks; the arbiter answers. A
// demanded take-back runs the clock of the player who placed over the
// capture.
func TestTakebackRequest(t *testing.T) {
	tb := newTable(t, "sudden:1m", referee.Tournament)
	tb.setUp()
	if err := tb.c.Command(tb.now, command.TakebackRequest{}); err == nil {
		t.Error("a request with no turn played was accepted")
	}
	tb.play(500)
	if err := tb.c.Command(tb.now, command.TakebackAnswer{Accept: true}); err != ErrNoRequest {
		t.Errorf("answer without a request: %v", err)
	}
	if err := tb.c.Command(tb.now, command.TakebackRequest{}); err != nil {
		t.Fatal(err)
	}
	st := tb.c.State()
	if st.TakebackRequest == nil || st.TakebackRequest.Turn != 1 || st.TakebackRequest.By != 1 {
		t.Fatalf("state takeback_request %+v", st.TakebackRequest)
	}
	if err := tb.c.Command(tb.now, command.TakebackRequest{}); err == nil {
		t.Error("a second request was accepted")
	}
	if err := tb.c.Command(tb.now, command.TakebackAnswer{Accept: false}); err != nil {
		t.Fatal(err)
	}
	if ev := tb.events("takeback-refused"); len(ev) != 1 || tb.c.State().TakebackRequest != nil {
		t.Fatalf("refused: %v, %+v", ev, tb.c.State().TakebackRequest)
	}
	tb.c.Command(tb.now, command.TakebackRequest{})
	if err := tb.c.Command(tb.now, command.TakebackAnswer{Accept: true}); err != nil {
		t.Fatal(err)
	}
	if ev := tb.events("takeback-demand"); len(ev) != 1 || tb.running() != 0 {
		t.Fatalf("accepted: demand events %v, running %d (want player 0, who must put the turn back)", ev, tb.running())
	}
	tb.cells = strings.Repeat("o", 37)
	tb.hold(300)
	if st := tb.c.State(); st.Turn != 0 || tb.running() != 0 {
		t.Errorf("after the take-back: turn %d, running %d", st.Turn, tb.running())
	}
	casual := newTable(t, "none", referee.Casual)
	if err := casual.c.Command(0, command.TakebackRequest{}); err == nil {
		t.Error("a take-back request in casual mode was accepted")
	}
}

// declare-result ends the game off the board with each reason; the note
// reaches the state, the events, the journal and the record.
func TestDeclareResult(t *testing.T) {
	one, zero := 1, 0
	cases := []struct {
		cmd  command.DeclareResult
		kind record.StopKind
		who  int
	}{
		{command.DeclareResult{Result: "resignation", Winner: &one, Note: "P0 resigned"}, record.Resign, 0},
		{command.DeclareResult{Result: "adjudication", Winner: &zero}, record.Adjudication, 0},
		{command.DeclareResult{Result: "time", Winner: &one}, record.WinOnTime, 1},
		{command.DeclareResult{Result: "draw", Note: "agreed"}, record.DrawDeclared, 0},
	}
	for _, tc := range cases {
		tb := newTable(t, "sudden:5m", referee.Casual)
		tb.setUp()
		tb.play(700)
		bad := tc.cmd
		if bad.Winner == nil {
			bad.Winner = &one
		} else {
			bad.Winner = nil
		}
		if err := tb.c.Command(tb.now, bad); err == nil {
			t.Errorf("%s with winner %v accepted", bad.Result, bad.Winner)
		}
		arb := command.Envelope{ID: "r1", Command: tc.cmd}
		if err := tb.c.FromArbiter(tb.now, arb); err != nil {
			t.Fatal(err)
		}
		st := tb.c.State()
		if st.Phase != "over" || st.Result != tc.cmd.Result || st.ResultNote != tc.cmd.Note || (st.Winner == nil) != (tc.cmd.Winner == nil) {
			t.Errorf("%s: state phase %q result %q note %q winner %v", tc.cmd.Result, st.Phase, st.Result, st.ResultNote, st.Winner)
		}
		if rec := tb.record(); rec.Stop.Kind != tc.kind || rec.Stop.Player != tc.who || rec.Stop.Note != tc.cmd.Note || len(rec.Clock.Turns) != 1 {
			t.Errorf("%s: record end %+v clock %+v", tc.cmd.Result, rec.Stop, rec.Clock)
		}
		if err := tb.c.FromArbiter(tb.now, arb); err == nil {
			t.Errorf("%s declared twice", tc.cmd.Result)
		}
		tb.j.Close()
		_, g, err := journal.Open(tb.path)
		if err != nil || g.End == nil || g.End.Reason != tc.cmd.Result {
			t.Errorf("%s: journal %+v, %v", tc.cmd.Result, g, err)
		}
	}
}

// A crash loses no committed clock change and at most a checkpoint's
// worth of the mover's time; the restarted process's frames start from 0
// again, and the time the board was down is nobody's.
func TestClockSurvivesCrash(t *testing.T) {
	tb := newTable(t, "fischer:5m+3s", referee.Casual)
	tb.setUp()
	tb.play(4000)
	tb.play(6000)
	tb.hold(25000) // player 0 thinks: checkpoints at most every 10 s
	want := tb.remaining()
	// The crash: the journal as it is on disk, a new controller.
	tb.j.Close()
	j, g, err := journal.Open(tb.path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	pub := &fakePub{}
	c, err := New(Config{BoardID: "b", Variant: "37", Journal: j, Resume: g, Publisher: pub})
	if err != nil {
		t.Fatal(err)
	}
	st := c.State()
	got := *st.Clock.Remaining
	if st.Clock.Control != "fischer:5m+3s" || got[1] != want[1] || got[0] < want[0] || got[0]-want[0] > DefaultCheckpointMS {
		t.Fatalf("resumed clock %+v (remaining %v); before the crash %v", st.Clock, got, want)
	}
	if st.Clock.Running == nil || *st.Clock.Running != 0 {
		t.Fatalf("resumed running %v; want 0", st.Clock.Running)
	}
	// The new run's frames: the first is not charged; then they are.
	for ms := int64(0); ms <= 1000; ms += 5 {
		c.Frame(ms, []byte(tb.cells))
	}
	if after := *c.State().Clock.Remaining; after[0] != got[0]-1000 {
		t.Errorf("after the restart: %v; want player 0 charged 1000 ms from %v", after, got)
	}
	rec, err := record.ReadJSON(strings.NewReader(string(pub.record)))
	if err != nil || len(rec.Clock.Turns) != 2 {
		t.Fatalf("resumed record clock: %+v, %v", rec, err)
	}
	if rec.Clock.Turns[1].UsedMS < 6000 || rec.Clock.Turns[1].UsedMS > 6200 {
		t.Errorf("turn 2 used %d ms", rec.Clock.Turns[1].UsedMS)
	}
}

// A whole real game as hands play it (hovering, glitches, illegal tries,
// take-backs, scan stalls), on sudden death: every millisecond charged is
// accounted for. Each player's time left is the base minus the time of
// their turns, minus any illegal board they were charged for outside
// their turns; a turn's time is the gap between its commit and the one
// before, less the other player's illegal-board time and the offline gaps
// within it. And with no illegal board and no gap in it, exactly the gap.
func TestClockAccountsForAWholeGame(t *testing.T) {
	for _, tc := range []struct {
		game string
		seed uint64
	}{
		{"032_Z11-ddyer-pmolz-2023-11-27-2100.sgf", 7},
		{"032_Z11-ddyer-pmolz-2023-11-27-2100.sgf", 21},
		{"001_Z-shoto-Dumbot-2005-01-17-2004.sgf", 3},
		{"034_T_Z24-Raccoons-preve-2022-12-23-1715.sgf", 5},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.game[:8], tc.seed), func(t *testing.T) { accountWholeGame(t, tc.game, tc.seed) })
	}
}

func accountWholeGame(t *testing.T, game string, seed uint64) {
	rec, frames := playFrames(t, game, seed)
	ctl, _ := clock.Parse("sudden:6h")
	pub := &fakePub{}
	c, err := New(Config{BoardID: "b", Variant: rec.Variant, First: rec.First, Players: rec.Players, Publisher: pub, Control: ctl})
	if err != nil {
		t.Fatal(err)
	}
	var prev, start int64 = -1, -1
	var gaps []int64 // frame times after a gap over a second
	setUp, _ := rec.Start()
	for _, f := range frames {
		if start < 0 && string(f.cells) == setUp.Cells() {
			start = f.t // the first player's clock starts here
		}
		if prev >= 0 && f.t-prev > clock.DefaultMaxGapMS {
			gaps = append(gaps, f.t)
		}
		prev = f.t
		if err := c.Frame(f.t, f.cells); err != nil {
			t.Fatal(err)
		}
	}
	st := c.State()
	if st.Turn < len(rec.Turns) {
		t.Fatalf("the game stopped at turn %d of %d", st.Turn, len(rec.Turns))
	}
	recJSON, err := record.ReadJSON(strings.NewReader(string(pub.record)))
	if err != nil {
		t.Fatal(err)
	}
	turns := recJSON.Clock.Turns
	if len(turns) != st.Turn {
		t.Fatalf("%d turn times for %d turns", len(turns), st.Turn)
	}
	// The commits of the turns that stand (a take-back undoes some).
	var commits []int64
	for _, m := range pub.moves {
		n := m.Event.Body.(referee.Move).Turn
		commits = append(commits[:n-1], m.Event.T)
	}
	illegal := 0
	for _, e := range pub.events {
		if e.Body.Kind() == "illegal" {
			illegal++
		}
	}
	exact, total := 0, [2]int64{}
	for i, tt := range turns {
		from := start
		if i > 0 {
			from = commits[i-1]
		}
		gap := commits[i] - from
		if tt.UsedMS > gap {
			t.Errorf("turn %d used %d ms; only %d ms passed since the last commit", i+1, tt.UsedMS, gap)
		}
		if tt.UsedMS == gap {
			exact++
		}
		mover := (rec.First + i) % 2
		total[mover] += tt.UsedMS
	}
	rem := *st.Clock.Remaining
	for p := 0; p < 2; p++ {
		charged := ctl.BaseMS() - rem[p]
		if charged < total[p] || exact == len(turns) && charged != total[p] {
			t.Errorf("player %d: %d ms charged; their turns took %d ms", p, charged, total[p])
		}
	}
	t.Logf("%d turns, %d exactly the gap between commits; %d illegal boards, %d offline gaps; remaining %v", len(turns), exact, illegal, len(gaps), rem)
	if exact < len(turns)*3/4 {
		t.Errorf("only %d of %d turns took exactly the time between commits", exact, len(turns))
	}
}

// A player who takes back their own turn has used the time since it too;
// the opponent is charged nothing, and the increment is returned.
func TestTakebackTime(t *testing.T) {
	tb := newTable(t, "fischer:1m+5s", referee.Casual)
	tb.setUp()
	startT := tb.now - 200
	before := tb.cells
	tb.play(2000)
	tb.hold(1500) // player 1's clock runs...
	tb.cells = before
	tb.hold(300) // ...until player 0 takes the turn back
	if len(tb.events("takeback")) != 1 || tb.running() != 0 {
		t.Fatalf("take-back: %v, running %d", tb.events("takeback"), tb.running())
	}
	if got := tb.remaining(); got[1] != 60000 {
		t.Errorf("player 1 was charged %d ms for player 0's take-back", 60000-got[1])
	}
	commit := tb.play(1000)
	rec := tb.record()
	if len(rec.Clock.Turns) != 1 || rec.Clock.Turns[0].UsedMS != commit-startT {
		t.Errorf("turn 1 used %+v; from the start to the commit is %d ms", rec.Clock.Turns, commit-startT)
	}
	if got := tb.remaining(); got[0] != 60000-(commit-startT)+5000 {
		t.Errorf("player 0 has %d ms; want one increment", got[0])
	}
}

// A flag fall when the opponent could no longer win is a draw: winner
// null with result time, the record's draw-on-time. (With the rulebook's
// marble sets it cannot happen, see clock.CanWin; this is the path.)
func TestFlagFallDrawn(t *testing.T) {
	tb := newTable(t, "sudden:1m", referee.Casual)
	tb.setUp()
	tb.play(500)
	tb.c.mu.Lock()
	err := tb.c.end(tb.now, referee.Ending{Reason: referee.EndTime})
	tb.c.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	st := tb.c.State()
	if st.Phase != "over" || st.Result != "time" || st.Winner != nil {
		t.Errorf("drawn on time: phase %q result %q winner %v", st.Phase, st.Result, st.Winner)
	}
	if rec := tb.record(); rec.Stop.Kind != record.DrawOnTime {
		t.Errorf("record end %+v", rec.Stop)
	}
	over := tb.events("game-over")
	if len(over) != 1 || over[0].Body.(referee.GameOver).Winner != nil {
		t.Errorf("game-over %v", over)
	}
}

// A take-back request waiting for the arbiter survives a crash; a refused
// one, and one answered by the next turn, do not come back.
func TestTakebackRequestSurvivesCrash(t *testing.T) {
	tb := newTable(t, "sudden:5m", referee.Tournament)
	tb.setUp()
	tb.play(500)
	if err := tb.c.Command(tb.now, command.TakebackRequest{}); err != nil {
		t.Fatal(err)
	}
	restart := func() *Controller {
		t.Helper()
		tb.j.Close()
		j, g, err := journal.Open(tb.path)
		if err != nil {
			t.Fatal(err)
		}
		tb.j = j
		c, err := New(Config{BoardID: "b", Variant: "37", Mode: referee.Tournament, Journal: j, Resume: g, Publisher: &fakePub{}})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := restart()
	if r := c.State().TakebackRequest; r == nil || r.Turn != 1 || r.By != 1 {
		t.Fatalf("after a crash the request is %+v; want turn 1 by player 1", r)
	}
	// The arbiter answers it on the restarted board.
	if err := c.Command(0, command.TakebackAnswer{Accept: false}); err != nil {
		t.Fatalf("answering the restored request: %v", err)
	}
	c = restart()
	if r := c.State().TakebackRequest; r != nil {
		t.Fatalf("a refused request came back after a crash: %+v", r)
	}
	if err := c.Command(0, command.TakebackRequest{}); err != nil {
		t.Fatal(err)
	}
	// The take-back answers a request: the journal's take-back clears it.
	_, g, err := journal.Open(tb.path)
	if err != nil || g.Request == nil {
		t.Fatalf("journal request %+v, %v", g, err)
	}
	tb.j.Close()
	j, _, _ := journal.Open(tb.path)
	if err := j.Append(journal.Takeback{Seq: g.Seq + 1, T: 10_000, N: 1}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	_, g, err = journal.Open(tb.path)
	if err != nil || g.Request != nil || g.Game.Len() != 0 {
		t.Fatalf("after the take-back: request %+v, %d turns, %v", g.Request, g.Game.Len(), err)
	}
	tb.j, _, _ = journal.Open(tb.path)
}

package board

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/buttons"
	"github.com/zertzboard/zertzboard/hardware/open"
	"github.com/zertzboard/zertzboard/hardware/timebase"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/internal/logguard"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/sensors/classify"
	"github.com/zertzboard/zertzboard/sim"
	"github.com/zertzboard/zertzboard/sim/players"
	"github.com/zertzboard/zertzboard/wire"
)

type pub struct {
	mu    sync.Mutex
	moves []wire.MoveMessage
	last  wire.State
}

func (p *pub) State(s wire.State)      { p.mu.Lock(); p.last = s; p.mu.Unlock() }
func (p *pub) Move(m wire.MoveMessage) { p.mu.Lock(); p.moves = append(p.moves, m); p.mu.Unlock() }
func (p *pub) Event(referee.Event)     {}
func (p *pub) Record([]byte)           {}

// simRig opens the simulated base of wiring w (its board is hw.Board)
// through the real drivers on a fake clock, calibrated, and closes it when
// the test ends.
func simRig(t *testing.T, w *wiring.Wiring) (*sim.Hardware, *open.Rig, *timebase.Fake, *classify.Calibration) {
	t.Helper()
	board := sim.NewBoard(w.Base, nil)
	hw, err := sim.New(w, board)
	if err != nil {
		t.Fatal(err)
	}
	clk := timebase.NewFake(time.Unix(0, 0))
	rig, err := open.Open(w, hw, &open.Opts{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rig.Close() })
	return hw, rig, clk, calibrateSim(t, rig, board)
}

func calibrateSim(t *testing.T, r *open.Rig, b *sim.Board) *classify.Calibration {
	t.Helper()
	cal, err := b.Calibrate(r.Scanner.ScanOnce, r.Bits(), 40)
	if err != nil {
		t.Fatal(err)
	}
	return cal
}

// TestGameThroughTheSimulatedHardware plays a real 48-ring game with hands
// onto the virtual base and checks that the board, read through the real
// drivers, the classifier and the mount, is refereed into the recorded
// game, journalled and broadcast.
func TestGameThroughTheSimulatedHardware(t *testing.T) {
	rec, err := record.ReadFile(samples.Path("032_Z11-ddyer-pmolz-2023-11-27-2100.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	w := wiring.Reference()
	hw, rig, clk, cal := simRig(t, w)
	board := hw.Board
	start, _ := rec.Start()
	m, err := w.Mount(start.Board())
	if err != nil {
		t.Fatal(err)
	}
	// The base starts as the game's start: rings on the game's sockets.
	place := func(cells []byte) {
		for c, s := range m.Sockets {
			if cells[c] != '?' { // a hand over the ring: the magnet is between
				board.Set(s, engine.Content(cells[c]))
			}
		}
	}
	board.SetAll(engine.NoRing)
	place([]byte(start.Cells()))

	scanned := make(chan struct{})
	p := &pub{}
	jpath := filepath.Join(t.TempDir(), "board.journal")
	n, err := New(Options{BoardID: "t", Variant: rec.Variant, First: rec.First, Rig: rig, Calibration: cal, JournalPath: jpath, Publisher: p,
		OnFrame: func(int64, []byte) { scanned <- struct{}{} }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	// tick advances the fake clock until one scan has happened.
	tick := func() {
		for {
			clk.Advance(rig.Scanner.Period())
			select {
			case <-scanned:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	opt := players.DefaultOptions
	opt.Seed = 2
	opt.ScanMS = rig.Scanner.Period().Milliseconds()
	if _, err := players.Play(start, rec.Turns, opt, func(_ int64, cells []byte) error {
		place(cells)
		tick()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	cancel()
	go func() {
		for range scanned { // let a last scan finish
		}
	}()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	n.Close()
	st := n.Controller().State()
	if st.Turn != len(rec.Turns) || st.Phase != "over" {
		t.Fatalf("refereed %d turns of %d; phase %s; moves %v", st.Turn, len(rec.Turns), st.Phase, st.Moves)
	}
	_, g, err := journal.Open(jpath)
	if err != nil || g.Game.Len() != len(rec.Turns) || g.Seq != st.Seq {
		t.Fatalf("journal: %v, %d turns, seq %d; want %d turns, seq %d", err, g.Game.Len(), g.Seq, len(rec.Turns), st.Seq)
	}
	if p.last.Seq != st.Seq || p.last.Phase != "over" {
		t.Errorf("last published state seq %d phase %s", p.last.Seq, p.last.Phase)
	}
	// The LEDs showed guidance during the game and are dark after it.
	ledsShownThenDark(t, hw)
}

func TestButtons(t *testing.T) {
	w := wiring.Reference()
	_, rig, _, cal := simRig(t, w)
	p := &pub{}
	n, err := New(Options{BoardID: "b", Variant: "37", First: 0, Rig: rig, Calibration: cal, Publisher: p})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	press := func(b buttons.Button, at time.Duration) {
		n.button(buttons.Event{Button: b, T: time.Unix(0, 0).Add(at)})
	}
	seq := func() uint64 { return n.Controller().State().Seq }

	// No game under way: new game starts at once, the other player first.
	before := seq()
	press(buttons.NewGame, 0)
	if s := n.Controller().State(); s.Seq != before+1 || n.Controller().First() != 1 {
		t.Fatalf("new game from the start: seq %d→%d, first %d", before, s.Seq, n.Controller().First())
	}
	// Mid-game a press only arms; confirm within the window starts it.
	d4, _ := n.Controller().Board().ParseCell("D4")
	a1, _ := n.Controller().Board().ParseCell("A1")
	cells := []byte(n.Controller().State().Cells)
	cells[d4], cells[a1] = 'w', '.'
	for ms := int64(0); ms <= 300; ms += 5 {
		n.ctrl.Frame(ms, cells)
	}
	if n.Controller().State().Turn != 1 {
		t.Fatal("setup: the placement was not committed")
	}
	before = seq()
	press(buttons.NewGame, time.Second)
	if seq() != before || n.Controller().State().Turn != 1 {
		t.Fatal("a single new-game press mid-game started a new game")
	}
	press(buttons.Confirm, 7*time.Second) // too late
	if seq() != before {
		t.Fatal("a late confirm started a new game")
	}
	press(buttons.NewGame, 8*time.Second)
	press(buttons.Confirm, 10*time.Second)
	if s := n.Controller().State(); s.Turn != 0 || s.Seq != before+1 || n.Controller().First() != 0 {
		t.Fatalf("confirmed new game: turn %d, seq %d, first %d", s.Turn, s.Seq, n.Controller().First())
	}
	// Take-back is the opponent's demand, guided by the referee.
	for ms := int64(400); ms <= 700; ms += 5 {
		n.ctrl.Frame(ms, cells)
	}
	if n.Controller().State().Turn != 1 {
		t.Fatal("setup: the placement was not committed")
	}
	press(buttons.Takeback, 12*time.Second)
	if g := n.ctrl.State().Status; !strings.HasPrefix(g, "Take back turn 1: restore A1 (empty ring), D4 (empty ring)") {
		t.Errorf("status after the take-back demand: %q", g)
	}
}

// evPub records the kinds of the events a node publishes.
type evPub struct {
	pub
	kinds []string
}

func (p *evPub) Event(e referee.Event) {
	p.mu.Lock()
	p.kinds = append(p.kinds, e.Body.Kind())
	p.mu.Unlock()
}

// A damaged journal never stops the board: it resumes from the last good
// entry and says so on MQTT events, the screen and the log.
func TestDamagedJournalIsReportedLoudly(t *testing.T) {
	jpath := filepath.Join(t.TempDir(), "j")
	j, _, _ := journal.Open(jpath)
	j.Append(journal.NewGame{Seq: 1, T: 0, Variant: "37", First: 0, Mode: "casual", Players: [2]string{}})
	j.Append(journal.Turn{Seq: 2, T: 10, Notation: "WD4-A1", Missed: false})
	j.Append(journal.Turn{Seq: 3, T: 20, Notation: "GF2-G4", Missed: false})
	j.Close()
	data, _ := os.ReadFile(jpath)
	os.WriteFile(jpath, []byte(strings.Replace(string(data), "GF2-G4", "GF2-G3", 1)), 0o644)

	w := wiring.Reference()
	_, rig, _, cal := simRig(t, w)
	p := &evPub{}
	var log strings.Builder
	// Through logguard, as the daemon logs: the line must not be cut.
	n, err := New(Options{BoardID: "b", Variant: "37", Rig: rig, Calibration: cal, JournalPath: jpath, Publisher: p,
		Logger: slog.New(logguard.New(slog.NewTextHandler(&log, nil), nil))})
	if err != nil {
		t.Fatalf("a damaged journal stopped the board: %v", err)
	}
	defer n.Close()
	if s := n.Controller().State(); s.Turn != 1 {
		t.Errorf("resumed at turn %d; want 1, the last good entry", s.Turn)
	}
	if len(p.kinds) == 0 || p.kinds[0] != "journal-damaged" {
		t.Errorf("events %v; want journal-damaged first", p.kinds)
	}
	if !strings.Contains(n.disp.warn, "BAD JOURNAL") {
		t.Errorf("screen warning %q", n.disp.warn)
	}
	// Finding: the ERROR line was cut at about 200 characters, so it never
	// said what was resumed or where the damaged lines went.
	for _, want := range []string{"journal damaged", "turns_resumed=1", "lines_not_resumed=1", "moved_to=" + jpath + ".damaged"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

// Finding: a journal that cannot be written left the board running
// without one; --journal off is how to run without one, and says so.
func TestJournalOffOrUnusable(t *testing.T) {
	w := wiring.Reference()
	_, rig, _, cal := simRig(t, w)
	if _, err := New(Options{BoardID: "b", Variant: "37", Rig: rig, Calibration: cal, JournalPath: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "--journal off") {
		t.Errorf("a directory as the journal: %v; want a refusal naming --journal off", err)
	}
	n, err := New(Options{BoardID: "b", Variant: "37", Rig: rig, Calibration: cal, JournalPath: JournalOff})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if !strings.Contains(n.disp.warn, "NO JOURNAL") {
		t.Errorf("screen warning %q; want NO JOURNAL", n.disp.warn)
	}
}

// In tournament mode the take-back button asks the arbiter: a request, in
// the state and on events, not a demand; the answer decides.
func TestTakebackButtonAsksInTournament(t *testing.T) {
	w := wiring.Reference()
	_, rig, _, cal := simRig(t, w)
	p := &evPub{}
	n, err := New(Options{BoardID: "b", Variant: "37", Mode: referee.Tournament, Rig: rig, Calibration: cal, Publisher: p})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	d4, _ := n.Controller().Board().ParseCell("D4")
	a1, _ := n.Controller().Board().ParseCell("A1")
	cells := []byte(n.Controller().State().Cells)
	cells[d4], cells[a1] = 'w', '.'
	for ms := int64(0); ms <= 300; ms += 5 {
		n.ctrl.Frame(ms, cells)
	}
	n.button(buttons.Event{Button: buttons.Takeback, T: time.Unix(1, 0)})
	st := n.Controller().State()
	if st.TakebackRequest == nil || st.TakebackRequest.Turn != 1 || strings.HasPrefix(st.Status, "Take back") {
		t.Fatalf("after the button: request %+v, status %q", st.TakebackRequest, st.Status)
	}
	if err := n.Do(command.TakebackAnswer{Accept: true}); err != nil {
		t.Fatal(err)
	}
	if st := n.Controller().State(); st.TakebackRequest != nil || !strings.HasPrefix(st.Status, "Take back turn 1") {
		t.Errorf("after the answer: request %+v, status %q", st.TakebackRequest, st.Status)
	}
	p.mu.Lock()
	kinds := strings.Join(p.kinds, " ")
	p.mu.Unlock()
	if !strings.Contains(kinds, "takeback-request") || !strings.Contains(kinds, "takeback-demand") {
		t.Errorf("events %s", kinds)
	}
}

// The buttons answer the referee's questions: take-back steps through the
// options (the screen names each), confirm answers the one offered.
func TestButtonsAnswerAQuestion(t *testing.T) {
	w := wiring.Reference()
	_, rig, _, cal := simRig(t, w)
	p := &pub{}
	n, err := New(Options{BoardID: "b", Variant: "37", First: 0, Rig: rig, Calibration: cal, Publisher: p})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	var seen []buttons.Button
	n.opt.OnButton = func(e buttons.Event) { seen = append(seen, e.Button) }
	press := func(b buttons.Button, at time.Duration) {
		n.button(buttons.Event{Button: b, T: time.Unix(0, 0).Add(at)})
	}
	cells := []byte(n.Controller().State().Cells)
	for _, e := range [][2]string{{"D4", "w"}, {"A1", "."}, {"F2", "g"}, {"G4", "."}} {
		c, _ := n.Controller().Board().ParseCell(e[0])
		cells[c] = e[1][0]
	}
	for ms := int64(0); ms <= 300; ms += 5 {
		n.ctrl.Frame(ms, cells)
	}
	q, ok := n.Controller().Asking()
	if !ok || len(q.Options) != 4 {
		t.Fatalf("no question about two placements seen at once: %+v", q)
	}
	for i := 1; i <= 3; i++ {
		press(buttons.Takeback, time.Duration(i)*time.Second)
		if id, at := n.Offered(); id != q.ID || at != i {
			t.Fatalf("after %d take-back presses the screen offers question %d option %d", i, id, at)
		}
	}
	n.disp.mu.Lock()
	got := n.disp.notice
	n.disp.mu.Unlock()
	if !strings.HasPrefix(got, "4/4 GF2-G4 WD4") {
		t.Errorf("the screen says %q; want the fourth option", got)
	}
	if st := n.Controller().State(); st.Turn != 2 || st.Moves[0] != "WD4-A1" {
		t.Fatalf("take-back presses changed the game: %v", st.Moves)
	}
	press(buttons.Confirm, 5*time.Second)
	st := n.Controller().State()
	if st.Question != nil || len(st.Moves) != 2 || st.Moves[0] != "GF2-G4" || st.Moves[1] != "WD4-A1" || len(st.Answered) != 2 {
		t.Fatalf("after confirm: question %v, moves %v, answered %v; want GF2-G4 WD4-A1 answered", st.Question, st.Moves, st.Answered)
	}
	if len(seen) != 4 || seen[3] != buttons.Confirm {
		t.Errorf("OnButton saw %v", seen)
	}
}

// ledsShownThenDark checks that the LED chain showed guidance during the
// game and is dark after Run returned.
func ledsShownThenDark(t *testing.T, hw *sim.Hardware) {
	t.Helper()
	if hw.LEDs.Frames() < 2 {
		t.Errorf("the LED chain was written %d times", hw.LEDs.Frames())
	}
	for i, c := range hw.LEDs.Colors() {
		if c.R|c.G|c.B != 0 {
			t.Fatalf("LED %d is %v after Run returned; want dark", i, c)
		}
	}
}

package controller

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/sim/players"
	"github.com/zertzboard/zertzboard/wire"
)

// fakePub records what would be broadcast.
type fakePub struct {
	mu     sync.Mutex
	states []wire.State
	moves  []wire.MoveMessage
	events []referee.Event
	record []byte
}

func (f *fakePub) State(s wire.State)      { f.mu.Lock(); f.states = append(f.states, s); f.mu.Unlock() }
func (f *fakePub) Move(m wire.MoveMessage) { f.mu.Lock(); f.moves = append(f.moves, m); f.mu.Unlock() }
func (f *fakePub) Event(e referee.Event)   { f.mu.Lock(); f.events = append(f.events, e); f.mu.Unlock() }
func (f *fakePub) Record(b []byte)         { f.mu.Lock(); f.record = b; f.mu.Unlock() }

type frame struct {
	t     int64
	cells []byte
}

func playFrames(t *testing.T, game string, seed uint64) (*record.Record, []frame) {
	t.Helper()
	rec, err := record.ReadFile(samples.Path(game))
	if err != nil {
		t.Fatal(err)
	}
	start, _ := rec.Start()
	var frames []frame
	opt := players.DefaultOptions
	opt.Seed = seed
	if _, err := players.Play(start, rec.Turns, opt, func(ms int64, cells []byte) error {
		frames = append(frames, frame{ms, append([]byte(nil), cells...)})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return rec, frames
}

func TestCrashLosesNothing(t *testing.T) {
	rec, frames := playFrames(t, "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf", 4)
	path := filepath.Join(t.TempDir(), "board.journal")
	j, _, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	pub := &fakePub{}
	cfg := Config{BoardID: "b1", Variant: rec.Variant, First: rec.First, Players: rec.Players, Journal: j, Publisher: pub}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	half := len(frames) / 2
	for _, f := range frames[:half] {
		if err := c.Frame(f.t, f.cells); err != nil {
			t.Fatal(err)
		}
	}
	before := c.State()
	if before.Turn == 0 || before.Turn == len(rec.Turns) {
		t.Fatalf("the crash should come mid-game; turn %d of %d", before.Turn, len(rec.Turns))
	}
	// Crash: no Close, no flush; a new process opens the journal.
	j2, g, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	pub2 := &fakePub{}
	cfg.Journal, cfg.Resume, cfg.Publisher = j2, g, pub2
	c2, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	after := c2.State()
	a, _ := json.Marshal(before)
	b, _ := json.Marshal(after)
	after.Status, before.Status = "", "" // the status line may differ before the board is seen again
	if before.Seq != after.Seq || before.Cells != after.Cells || before.Turn != after.Turn || before.Captures != after.Captures || g.Seq != before.Seq {
		t.Fatalf("after the crash the state differs:\n%s\n%s", a, b)
	}
	for _, f := range frames[half:] {
		if err := c2.Frame(f.t, f.cells); err != nil {
			t.Fatal(err)
		}
	}
	end := c2.State()
	if end.Turn != len(rec.Turns) || end.Phase != "over" {
		t.Fatalf("after resuming: %d turns of %d, phase %s", end.Turn, len(rec.Turns), end.Phase)
	}
	// Every move was broadcast exactly once across the crash, and every
	// committed change (a move or a take-back) took the next seq.
	all := append(append([]wire.MoveMessage(nil), pub.moves...), pub2.moves...)
	takebacks := 0
	seqs := map[uint64]bool{}
	for _, m := range all {
		seqs[m.Seq] = true
	}
	for _, st := range append(append([]wire.State(nil), pub.states...), pub2.states...) {
		seqs[st.Seq] = true
	}
	for _, e := range append(append([]referee.Event(nil), pub.events...), pub2.events...) {
		if tb, ok := e.Body.(referee.Takeback); ok {
			takebacks += len(tb.Undone)
		}
	}
	if len(all)-takebacks != len(rec.Turns) {
		t.Fatalf("%d moves broadcast and %d taken back; want %d turns", len(all), takebacks, len(rec.Turns))
	}
	last := pub2.states[len(pub2.states)-1]
	for s := uint64(1); s <= last.Seq; s++ {
		if !seqs[s] {
			t.Fatalf("seq %d was never broadcast (last %d)", s, last.Seq)
		}
	}
	if last.Seq != all[len(all)-1].Seq || last.Winner == nil {
		t.Errorf("final state seq %d, winner %v; last move seq %d", last.Seq, last.Winner, all[len(all)-1].Seq)
	}
	if r, err := record.ReadJSON(bytes.NewReader(pub2.record)); err != nil || len(r.Turns) != len(rec.Turns) {
		t.Errorf("record: %v, %v", r, err)
	}
}

func TestCommands(t *testing.T) {
	j, _, err := journal.Open(filepath.Join(t.TempDir(), "j"))
	if err != nil {
		t.Fatal(err)
	}
	pub := &fakePub{}
	c, err := New(Config{BoardID: "b", Variant: "37", Journal: j, Publisher: pub})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetPlayers(10, [2]string{"ann", "bob"}); err != nil {
		t.Fatal(err)
	}
	if err := c.NewGame(20, "61", 1); err != nil {
		t.Fatal(err)
	}
	s := c.State()
	if s.Variant != "61" || s.ToMove != 1 || s.Players != [2]string{"ann", "bob"} || s.Seq != 3 {
		t.Errorf("state %+v", s)
	}
	if err := c.NewGame(30, "39", 0); err == nil {
		t.Error("NewGame accepted variant 39")
	}
	seqs := []uint64{}
	for _, st := range pub.states {
		seqs = append(seqs, st.Seq)
	}
	if len(seqs) != 3 || seqs[0] != 1 || seqs[2] != 3 {
		t.Errorf("published state seqs %v; want 1 2 3", seqs)
	}
}

// After a restart the physical board may not match the journal's game
// (pieces knocked over during the outage): the players are shown, cell by
// cell, how to restore it, and play goes on once they have.
func TestResumeGuidesRestoringTheBoard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, _ := journal.Open(path)
	j.Append(journal.NewGame{Seq: 1, Variant: "37", Mode: "casual", Players: [2]string{"ann", "bob"}})
	j.Append(journal.Turn{Seq: 2, T: 100, Notation: "WD4-A1"})
	j.Close()
	j, g, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	pub := &fakePub{}
	c, err := New(Config{BoardID: "b", Variant: "37", Journal: j, Resume: g, Publisher: pub})
	if err != nil {
		t.Fatal(err)
	}
	want := []byte(c.State().Cells)
	knocked := append([]byte(nil), want...)
	d4 := mustCell(t, c, "D4")
	knocked[d4] = 'o' // the white marble rolled off
	for ms := int64(0); ms < 300; ms += 5 {
		c.Frame(ms, knocked)
	}
	var ill *referee.Illegal
	for _, e := range pub.events {
		if b, ok := e.Body.(referee.Illegal); ok {
			ill = &b
		}
	}
	if ill == nil || len(ill.Cells) != 1 || ill.Cells[0] != (referee.CellFix{Cell: "D4", Is: "o", Should: "w"}) {
		t.Fatalf("illegal event %+v; want D4 to be restored to white", ill)
	}
	for ms := int64(300); ms < 600; ms += 5 {
		c.Frame(ms, want)
	}
	if e := pub.events[len(pub.events)-1]; e.Body.Kind() != "restored" {
		t.Errorf("last event %v; want restored", e)
	}
}

func mustCell(t *testing.T, c *Controller, label string) engine.Cell {
	cell, err := c.Board().ParseCell(label)
	if err != nil {
		t.Fatal(err)
	}
	return cell
}

// orderPub records the order of what is published.
type orderPub struct{ got []string }

func (o *orderPub) State(wire.State)      { o.got = append(o.got, "state") }
func (o *orderPub) Move(wire.MoveMessage) { o.got = append(o.got, "move") }
func (o *orderPub) Event(e referee.Event) { o.got = append(o.got, e.Body.Kind()) }
func (o *orderPub) Record([]byte)         { o.got = append(o.got, "record") }

// A viewer ties each notice to the state it holds, so a change is
// published as its moves, then its state, then the other events.
func TestPublishOrder(t *testing.T) {
	p := &orderPub{}
	c, err := New(Config{BoardID: "b", Variant: "37", Publisher: p})
	if err != nil {
		t.Fatal(err)
	}
	// White on D4 and ring A1 off, then grey on E4 (next to it) and G4 off:
	// the second turn leaves a capture compulsory.
	cells := []byte(c.State().Cells)
	ms := int64(0)
	for _, step := range []map[string]byte{{"D4": 'w', "A1": '.'}, {"E4": 'g', "G4": '.'}} {
		for l, v := range step {
			cells[mustCell(t, c, l)] = v
		}
		for end := ms + 300; ms <= end; ms += 5 {
			c.Frame(ms, cells)
		}
	}
	want := "state record move state record move state record forced-capture"
	if got := strings.Join(p.got, " "); got != want {
		t.Errorf("published %q; want %q", got, want)
	}
}

// After a finished game, the next begins only once the players have
// cleared the board and set it up: the controller then starts it, the
// other player first, journalled.
func TestNewGameOnceClearedAndSetUp(t *testing.T) {
	rec, frames := playFrames(t, "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf", 5)
	path := filepath.Join(t.TempDir(), "j")
	j, _, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(Config{BoardID: "b", Variant: rec.Variant, First: rec.First, Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	var ms int64
	for _, f := range frames {
		ms = f.t
		c.Frame(ms, f.cells)
	}
	end := c.State()
	if end.Phase != "over" {
		t.Fatalf("setup: the game is not over (%s after %d turns)", end.Phase, end.Turn)
	}
	hold := func(cells string) {
		for i := 0; i < 60; i++ {
			ms += 5
			c.Frame(ms, []byte(cells))
		}
	}
	n := len(end.Cells)
	hold(strings.Repeat(".", n))
	if s := c.State(); s.Phase != "over" || s.Seq != end.Seq {
		t.Fatalf("a cleared board changed the finished game: %+v", s)
	}
	hold(strings.Repeat("o", n))
	s := c.State()
	if s.Phase == "over" || s.Turn != 0 || s.Seq != end.Seq+1 || c.First() != 1-rec.First {
		t.Fatalf("after clearing and setting up: phase %s turn %d seq %d first %d; want a new game, seq %d, first %d",
			s.Phase, s.Turn, s.Seq, c.First(), end.Seq+1, 1-rec.First)
	}
	j.Close()
	_, g, err := journal.Open(path)
	if err != nil || g == nil || g.Game.Len() != 0 || g.Seq != s.Seq {
		t.Fatalf("journal after the new game: %+v, %v", g, err)
	}
}

// A question and its answer: two placements seen at once (a scan stall)
// are asked about; the state shows the question; the answer command
// checks its id and option, rewrites the game, marks the turns answered
// and journals it all, so a restarted board has the answered game.
func TestAnswerCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	pub := &fakePub{}
	c, err := New(Config{BoardID: "b", Variant: "37", Journal: j, Publisher: pub})
	if err != nil {
		t.Fatal(err)
	}
	cells := []byte(c.State().Cells)
	for _, e := range [][2]string{{"D4", "w"}, {"A1", "."}, {"F2", "g"}, {"G4", "."}} {
		cells[mustCell(t, c, e[0])] = e[1][0]
	}
	for ms := int64(0); ms < 300; ms += 5 {
		c.Frame(ms, cells)
	}
	st := c.State()
	if st.Question == nil || len(st.Question.Options) != 4 || st.Turn != 2 {
		t.Fatalf("state question %+v after %d turns; want the four orders asked", st.Question, st.Turn)
	}
	q := *st.Question
	if err := c.Command(400, command.Answer{Question: q.ID + 1, Option: 0}); err == nil {
		t.Error("an answer to another question was accepted")
	}
	if err := c.Command(400, command.Answer{Question: q.ID, Option: 4}); err == nil {
		t.Error("option 4 of 4 was accepted")
	}
	if err := c.Command(400, command.Answer{Question: q.ID, Option: 3}); err != nil {
		t.Fatal(err)
	}
	st = c.State()
	if st.Question != nil || len(st.Moves) != 2 || st.Moves[0] != "GF2-G4" || st.Moves[1] != "WD4-A1" {
		t.Fatalf("after the answer: question %v, moves %v; want GF2-G4 WD4-A1", st.Question, st.Moves)
	}
	if len(st.Answered) != 2 || st.Answered[0] != 1 || st.Answered[1] != 2 {
		t.Errorf("answered turns %v; want [1 2]", st.Answered)
	}
	if err := c.Command(500, command.Answer{Question: q.ID, Option: 0}); !errors.Is(err, ErrNoQuestion) {
		t.Errorf("a second answer: %v; want ErrNoQuestion", err)
	}
	c.Close()
	j.Close()
	j, g, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if g.Game.Len() != 2 || len(g.Answered) != 2 {
		t.Fatalf("the journal's game: %d turns, answered %v", g.Game.Len(), g.Answered)
	}
	raw, _ := os.ReadFile(path)
	if !strings.Contains(string(raw), `"op":"question"`) || !strings.Contains(string(raw), `"op":"answer"`) {
		t.Errorf("the journal has no question or answer entry:\n%s", raw)
	}
}

// The configured event goes into every record the board publishes, and
// from there into its SGF.
func TestRecordCarriesTheEvent(t *testing.T) {
	for _, event := range []string{"Club Open 2026", ""} {
		pub := &fakePub{}
		c, err := New(Config{BoardID: "b", Variant: "37", Publisher: pub, Event: event})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.SetPlayers(10, [2]string{"ann", "bob"}); err != nil {
			t.Fatal(err)
		}
		pub.mu.Lock()
		data := pub.record
		pub.mu.Unlock()
		r, err := record.ReadJSON(bytes.NewReader(data))
		if err != nil || r.Event != event {
			t.Fatalf("event %q: the record %s: %v", event, data, err)
		}
		if has := bytes.Contains(data, []byte(`"event"`)); has != (event != "") {
			t.Errorf("event %q: the record has an event field: %v", event, has)
		}
		var sgf bytes.Buffer
		if err := record.WriteSGF(&sgf, r); err != nil {
			t.Fatal(err)
		}
		if has := bytes.Contains(sgf.Bytes(), []byte("EV["+event+"]")); has != (event != "") {
			t.Errorf("event %q: SGF:\n%s", event, sgf.String())
		}
	}
}

// The arbiter names the tournament and round with set-players (or
// new-game): the state, the record and its SGF carry them, a later game
// keeps them, "" clears one, absent keeps it, and a restarted board
// resumes them from its journal, also after the journal compacts.
func TestArbiterNamesEventAndRound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.journal")
	j, _, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	pub := &fakePub{}
	cfg := Config{BoardID: "b", Variant: "37", Publisher: pub, Journal: j, Event: "Configured Open"}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	str := func(s string) *string { return &s }
	check := func(when, event, round string) {
		t.Helper()
		st := c.State()
		if st.Event != event || st.Round != round {
			t.Errorf("%s: state event %q round %q; want %q %q", when, st.Event, st.Round, event, round)
		}
		pub.mu.Lock()
		data := pub.record
		pub.mu.Unlock()
		r, err := record.ReadJSON(bytes.NewReader(data))
		if err != nil || r.Event != event || r.Round != round {
			t.Fatalf("%s: the record %s: %v", when, data, err)
		}
		var sgf bytes.Buffer
		if err := record.WriteSGF(&sgf, r); err != nil {
			t.Fatal(err)
		}
		if has := bytes.Contains(sgf.Bytes(), []byte("RO["+round+"]")); has != (round != "") {
			t.Errorf("%s: round %q in the SGF: %v\n%s", when, round, has, sgf.String())
		}
	}
	if err := c.SetPlayers(10, [2]string{"ann", "bob"}); err != nil {
		t.Fatal(err)
	}
	check("unnamed", "Configured Open", "")
	if err := c.Command(20, command.SetPlayers{Players: [2]string{"ann", "cat"}, Event: str("Club Open 2026"), Round: str("3")}); err != nil {
		t.Fatal(err)
	}
	check("named", "Club Open 2026", "3")
	if err := c.Command(30, command.SetPlayers{Players: [2]string{"ann", "dan"}}); err != nil {
		t.Fatal(err)
	}
	check("players renamed", "Club Open 2026", "3")
	if err := c.Command(40, command.NewGame{}); err != nil {
		t.Fatal(err)
	}
	check("a new game", "Club Open 2026", "3")
	if err := c.Command(50, command.NewGame{Round: str("4")}); err != nil {
		t.Fatal(err)
	}
	check("the next round", "Club Open 2026", "4")
	if err := c.Command(60, command.SetPlayers{Players: [2]string{"ann", "dan"}, Event: str("")}); err != nil {
		t.Fatal(err)
	}
	check("event cleared", "", "4")
	j.CompactAt = 1 // the next entry compacts the journal to the current game
	if err := c.Command(70, command.SetPlayers{Players: [2]string{"eve", "dan"}}); err != nil {
		t.Fatal(err)
	}
	c.Close()
	j.Close()
	for range 2 { // resumed, then resumed from the journal the first reopening compacted
		j2, g, err := journal.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if g.Naming.Event == nil || *g.Naming.Event != "" || g.Naming.Round == nil || *g.Naming.Round != "4" {
			t.Errorf("the journal's naming %v %v", g.Naming.Event, g.Naming.Round)
		}
		cfg.Journal, cfg.Resume, pub = j2, g, &fakePub{}
		cfg.Publisher = pub
		if c, err = New(cfg); err != nil {
			t.Fatal(err)
		}
		if err := c.SetPlayers(80, [2]string{"eve", "dan"}); err != nil {
			t.Fatal(err)
		}
		check("resumed", "", "4")
		c.Close()
		j2.Close()
	}
}

package controller

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
)

// note gives the arbiter's note and returns the record published with it
// (the record alone: the state is the same).
func (tb *table) note(text string) *record.Record {
	tb.t.Helper()
	tb.pub.mu.Lock()
	tb.pub.record = nil
	states := len(tb.pub.states)
	tb.pub.mu.Unlock()
	if err := tb.c.FromArbiter(tb.now, command.Envelope{ID: "n", Command: command.Note{Text: text}}); err != nil {
		tb.t.Fatalf("note %q: %v", text, err)
	}
	tb.pub.mu.Lock()
	published, restated := tb.pub.record != nil, len(tb.pub.states) != states
	tb.pub.mu.Unlock()
	if !published || restated {
		tb.t.Fatalf("note %q: record published %v, state published %v; want the record alone", text, published, restated)
	}
	return tb.record()
}

// TestNotesInTheRecord: the arbiter's notes given mid-game are in the
// record the board publishes, at the turns played when they were given;
// a take-back brings a note after the turn taken back to the turns left;
// a note after the end is in it too.
func TestNotesInTheRecord(t *testing.T) {
	tb := newTable(t, "sudden:5m", referee.Casual)
	if rec := tb.note("before the start"); !reflect.DeepEqual(rec.Notes, []record.Note{{Turn: 0, Text: "before the start"}}) {
		t.Fatalf("notes %q", rec.Notes)
	}
	tb.setUp()
	tb.play(700)
	before := tb.cells
	tb.play(700)
	rec := tb.note(`player 1 warned for touch-move: "]" \ ☺`)
	want := []record.Note{{Turn: 0, Text: "before the start"}, {Turn: 2, Text: `player 1 warned for touch-move: "]" \ ☺`}}
	if !reflect.DeepEqual(rec.Notes, want) || len(rec.Turns) != 2 {
		t.Fatalf("after turn 2: %d turns, notes %q; want %q", len(rec.Turns), rec.Notes, want)
	}
	tb.cells = before
	tb.hold(300) // turn 2 taken back
	if len(tb.events("takeback")) != 1 {
		t.Fatalf("take-back events %v", tb.events("takeback"))
	}
	want[1].Turn = 1
	if rec := tb.record(); !reflect.DeepEqual(rec.Notes, want) || len(rec.Turns) != 1 {
		t.Fatalf("after the take-back: %d turns, notes %q; want %q", len(rec.Turns), rec.Notes, want)
	}
	tb.play(700)
	zero := 0
	if err := tb.c.FromArbiter(tb.now, command.Envelope{Command: command.DeclareResult{Result: "resignation", Winner: &zero}}); err != nil {
		t.Fatal(err)
	}
	rec = tb.note("P1 resigned after the flag dispute")
	want = append(want, record.Note{Turn: 2, Text: "P1 resigned after the flag dispute"})
	if !reflect.DeepEqual(rec.Notes, want) || rec.Stop.Kind != record.Resign {
		t.Fatalf("after the end: notes %q, stop %+v; want %q", rec.Notes, rec.Stop, want)
	}
	// The record goes to SGF with them, as the results pages serve it.
	var sgf strings.Builder
	if err := record.WriteSGF(&sgf, rec); err != nil || !strings.Contains(sgf.String(), `C[Arbiter: player 1 warned for touch-move: "\]" \\ ☺]`) {
		t.Errorf("SGF: %v\n%s", err, sgf.String())
	}

	// A new game starts without them.
	if err := tb.c.FromArbiter(tb.now, command.Envelope{Command: command.NewGame{Variant: "37"}}); err != nil {
		t.Fatal(err)
	}
	if rec := tb.record(); rec.Notes != nil {
		t.Errorf("a new game's record has notes %q", rec.Notes)
	}
}

// TestNotesSurviveRestart: a board resumed from its journal has the same
// notes in its record, and takes more.
func TestNotesSurviveRestart(t *testing.T) {
	tb := newTable(t, "fischer:5m+3s", referee.Tournament)
	tb.note("before the start")
	tb.setUp()
	tb.play(700)
	tb.note("clock replaced after turn 1")
	tb.play(700)
	tb.note("after turn 2")
	tb.note("also after turn 2 – é")
	want := tb.record().Notes
	if len(want) != 4 {
		t.Fatalf("notes before the restart %q", want)
	}
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
	rec, err := record.ReadJSON(strings.NewReader(string(pub.record)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rec.Notes, want) || len(rec.Turns) != 2 {
		t.Fatalf("resumed: %d turns, notes %q; want %q", len(rec.Turns), rec.Notes, want)
	}
	if err := c.FromArbiter(0, command.Envelope{Command: command.Note{Text: "after the restart"}}); err != nil {
		t.Fatal(err)
	}
	rec, err = record.ReadJSON(strings.NewReader(string(pub.record)))
	if err != nil || len(rec.Notes) != 5 || rec.Notes[4] != (record.Note{Turn: 2, Text: "after the restart"}) {
		t.Errorf("a note after the restart: %q, %v", rec.Notes, err)
	}
}

// TestNotesBounded: a game takes MaxGameNotes notes; the next is refused
// with the limit named, and not journalled.
func TestNotesBounded(t *testing.T) {
	tb := newTable(t, "none", referee.Casual)
	// A note the wire's decoder did not check is checked all the same.
	if err := tb.c.Command(tb.now, command.Note{Text: ""}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("an empty note: %v; want it refused", err)
	}
	for i := range MaxGameNotes {
		if err := tb.c.FromArbiter(tb.now, command.Envelope{Command: command.Note{Text: fmt.Sprintf("note %d %s", i, strings.Repeat("<&>", 60))}}); err != nil {
			t.Fatalf("note %d: %v", i+1, err)
		}
	}
	err := tb.c.FromArbiter(tb.now, command.Envelope{Command: command.Note{Text: "one too many"}})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("at most %d", MaxGameNotes)) {
		t.Fatalf("note %d: %v; want it refused", MaxGameNotes+1, err)
	}
	rec := tb.record()
	if len(rec.Notes) != MaxGameNotes {
		t.Errorf("the record has %d notes; want %d", len(rec.Notes), MaxGameNotes)
	}
	if n := len(tb.pub.record); n > 200<<10 {
		t.Errorf("a record with %d notes of 180 escaped bytes is %d bytes", MaxGameNotes, n)
	}
	tb.j.Close()
	_, g, err := journal.Open(tb.path)
	if err != nil || len(g.Notes) != MaxGameNotes {
		t.Errorf("the journal has %v notes, %v; want %d", len(g.Notes), err, MaxGameNotes)
	}
	// The board's bound on a note is the record's.
	if command.MaxNote != record.MaxNote {
		t.Errorf("command.MaxNote %d, record.MaxNote %d", command.MaxNote, record.MaxNote)
	}
}

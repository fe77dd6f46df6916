package controller

import (
	"os"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/referee"
)

// TestArbiterNote: the arbiter's note is journalled with the game, sent
// as an arbiter-note event at the turns played, changes nothing of the
// game, and is taken after the end too.
func TestArbiterNote(t *testing.T) {
	tb := newTable(t, "sudden:5m", referee.Tournament)
	tb.setUp()
	tb.play(700)
	before := tb.c.State()
	if err := tb.c.FromArbiter(tb.now, command.Envelope{ID: "n1", Command: command.Note{Text: "clock replaced"}}); err != nil {
		t.Fatal(err)
	}
	ev := tb.events("arbiter-note")
	if len(ev) != 1 {
		t.Fatalf("arbiter-note events %v; want one", ev)
	}
	if n := ev[0].Body.(ArbiterNote); n.Text != "clock replaced" || n.Turn != 1 || ev[0].T != tb.now {
		t.Errorf("event %+v at %d; want the text at turn 1, t=%d", n, ev[0].T, tb.now)
	}
	if after := tb.c.State(); after.Seq != before.Seq || after.Turn != before.Turn || after.Phase != before.Phase {
		t.Errorf("the note changed the game: seq %d→%d turn %d→%d phase %s→%s", before.Seq, after.Seq, before.Turn, after.Turn, before.Phase, after.Phase)
	}
	zero := 0
	if err := tb.c.FromArbiter(tb.now, command.Envelope{Command: command.DeclareResult{Result: "resignation", Winner: &zero}}); err != nil {
		t.Fatal(err)
	}
	if err := tb.c.FromArbiter(tb.now, command.Envelope{ID: "n2", Command: command.Note{Text: "P1 resigned after the flag dispute"}}); err != nil {
		t.Errorf("a note after the end: %v", err)
	}
	tb.j.Close()
	data, err := os.ReadFile(tb.path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"command":"note","id":"n1","fields":{"text":"clock replaced"}`, `"id":"n2","fields":{"text":"P1 resigned after the flag dispute"}`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the journal has no %s:\n%s", want, data)
		}
	}
}

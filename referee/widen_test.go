package referee

import (
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// A question about later turns, asked while one about earlier turns is
// still open, asks about both: the open one's guess never stands
// unanswered. The game goes on along the lines it followed, without a
// take-back, and an answer to the wider question rewrites both parts.
func TestNewQuestionKeepsTheOpenOne(t *testing.T) {
	b := newBench(t, start37, Casual)
	parse := func(s string) []engine.Turn {
		var out []engine.Turn
		for _, x := range strings.Fields(s) {
			tn, err := engine.ParseTurn(b.r.b, x)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, tn)
		}
		return out
	}
	game := func() string { return strings.Join(b.gameTurns(), " ") }
	obs := b.r.Expected()
	b.r.ask(b.now, obs, 0, []option{{turns: parse("WD4-A1")}, {turns: parse("WD4-G4")}}, "test")
	first, _ := b.r.Asking()
	ev := b.r.ask(b.now, obs, 0, []option{{turns: parse("BD3-B1")}, {turns: parse("BD3-G1")}}, "test")
	for _, e := range ev {
		if e.Body.Kind() == "takeback" {
			t.Fatalf("the wider question took back turns the game follows: %v", ev)
		}
	}
	q, ok := b.r.Asking()
	want := "WD4-A1 BD3-B1|WD4-A1 BD3-G1|WD4-G4 BD3-B1|WD4-G4 BD3-G1"
	if !ok || q.ID == first.ID || q.Turn != 1 || strings.Join(q.Options, "|") != want || q.Provisional != 0 {
		t.Fatalf("question %+v; want one from turn 1 with options %s", q, want)
	}
	if got := game(); got != "WD4-A1 BD3-B1" {
		t.Fatalf("the game is %s; want WD4-A1 BD3-B1 meanwhile", got)
	}
	b.r.Answer(b.now, q.ID, 2)
	if got := game(); got != "WD4-G4 BD3-B1" {
		t.Fatalf("after the answer the game is %s; want WD4-G4 BD3-B1", got)
	}
}

package referee

import (
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// A question offers at most 24 options (docs/CONTRACTS.md). More lines
// are asked about by the turns they begin with, then, once answered, the
// lines that begin so; the line played is always one the answers lead to.
func TestQuestionAsksByBeginnings(t *testing.T) {
	b := newBench(t, start37, Casual)
	p := b.r.Game().Position()
	firsts := p.LegalTurns(nil)[:3]
	var opts []option
	for _, f := range firsts {
		q := p.MustPlay(f)
		for _, s := range q.LegalTurns(nil)[:10] {
			opts = append(opts, option{turns: []engine.Turn{f, s}})
		}
	}
	played := opts[27] // the third first turn, its eighth second
	b.r.ask(b.now, b.r.Expected(), 0, opts, "test")
	q, ok := b.r.Asking()
	if !ok || len(q.Options) != 3 {
		t.Fatalf("question %+v; want the three first turns", q)
	}
	if b.r.Game().Len() != 2 {
		t.Fatalf("the game follows %d turns; want a whole line (2)", b.r.Game().Len())
	}
	b.r.Answer(b.now, q.ID, 2)
	q2, ok := b.r.Asking()
	if !ok || q2.ID == q.ID || len(q2.Options) != 10 || !strings.HasPrefix(q2.Options[0], engine.FormatTurn(b.r.b, firsts[2])+" ") {
		t.Fatalf("after the first answer, question %+v; want the ten lines that begin with it", q2)
	}
	want := b.r.notation(played.turns)
	i := 0
	for i < len(q2.Options) && q2.Options[i] != want {
		i++
	}
	if i == len(q2.Options) {
		t.Fatalf("the line played %s is not offered: %v", want, q2.Options)
	}
	b.r.Answer(b.now, q2.ID, i)
	if got := strings.Join(b.gameTurns(), " "); got != want {
		t.Fatalf("the game is %s; want %s", got, want)
	}
	if _, ok := b.r.Asking(); ok {
		t.Fatalf("a question is still open")
	}
}

// Lines whose first turns alone differ more than a question offers are
// asked about a page at a time: 23 of them and "other", the next ones.
func TestQuestionPagesLines(t *testing.T) {
	b := newBench(t, start37, Casual)
	p := b.r.Game().Position()
	var opts []option
	for _, f := range p.LegalTurns(nil)[:30] {
		opts = append(opts, option{turns: []engine.Turn{f}})
	}
	b.r.ask(b.now, b.r.Expected(), 0, opts, "test")
	q, ok := b.r.Asking()
	if !ok || len(q.Options) != 24 || q.Options[23] != OtherRing {
		t.Fatalf("question %+v; want 23 lines and %q", q, OtherRing)
	}
	b.r.Answer(b.now, q.ID, 23)
	q2, ok := b.r.Asking()
	if !ok || len(q2.Options) != 7 || q2.Options[0] != b.r.notation(opts[23].turns) {
		t.Fatalf("the next page %+v; want the other 7 lines", q2)
	}
	b.r.Answer(b.now, q2.ID, 6)
	if got, want := strings.Join(b.gameTurns(), " "), b.r.notation(opts[29].turns); got != want {
		t.Fatalf("the game is %s; want %s", got, want)
	}
}

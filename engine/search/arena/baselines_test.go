package arena

import (
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// randomLine plays a random game from an opening and returns every
// position on the way, the last one over.
func randomLine(t *testing.T, board string, seed uint64) []engine.Position {
	t.Helper()
	b := engine.MustStandardBoard(board)
	p := Openings(b, engine.Standard, 1, seed)[0]
	r := &Random{Seed: seed}
	line := []engine.Position{p}
	for n := 0; n < MaxTurns && !p.Result().Over; n++ {
		turn := r.Turn(p)
		q, err := p.Play(turn)
		if err != nil {
			t.Fatal(err)
		}
		p = q
		line = append(line, p)
	}
	return line
}

// Kartoved's evaluation counts captures and nothing else: it is 0 on
// every quiet opening whatever the board holds, it only changes sign
// between two positions with the same captures, and a capture makes it
// worse for the side that did not capture.
func TestKartovedEvalCountsOnlyCaptures(t *testing.T) {
	for _, p := range Openings(engine.MustStandardBoard("48"), engine.Standard, 8, 9) {
		if v := KartovedEval(p); v != 0 {
			t.Errorf("opening %s: evaluation %d; want 0 (nobody has captured)", p, v)
		}
	}
	captures := 0
	for seed := uint64(1); seed <= 4; seed++ {
		line := randomLine(t, "37", seed)
		for i := 1; i < len(line); i++ {
			p, q := line[i-1], line[i]
			if p.ToMove() == q.ToMove() || q.Result().Over {
				continue
			}
			same := p.Captures(0) == q.Captures(0) && p.Captures(1) == q.Captures(1)
			vp, vq := KartovedEval(p), KartovedEval(q)
			switch {
			case same && vq != -vp:
				t.Errorf("seed %d, turn %d: no capture, yet the evaluation went from %d to %d (want %d)", seed, i, vp, vq, -vp)
			case !same && q.Captures(1-q.ToMove()) != p.Captures(1-q.ToMove()):
				// p's mover captured: worse for q's mover than before.
				captures++
				if vq >= -vp {
					t.Errorf("seed %d, turn %d: after a capture by %d the evaluation for %d is %d, not below %d", seed, i, p.ToMove(), q.ToMove(), vq, -vp)
				}
			}
		}
	}
	if captures == 0 {
		t.Fatal("no capture in four random games: the test saw nothing")
	}
}

// Kartoved without a node budget is a plain fixed-depth search over the
// generator's order: at depth 1 it plays the first turn, in LegalTurns'
// order, of those best by its evaluation. With a budget it finishes odd
// depths only, up to its Depth.
func TestKartovedSearchesPlainly(t *testing.T) {
	checked := 0
	for _, p := range randomLine(t, "37", 3) {
		if p.Result().Over {
			continue
		}
		k := &Kartoved{Depth: 1}
		got := k.Turn(p)
		turns := p.LegalTurns(nil)
		want, best := turns[0], -(1 << 30)
		for i := range turns {
			q := p.Apply(&turns[i])
			v := -KartovedEval(q)
			if r := q.Result(); r.Over {
				v = -(dumbWin - 1)
				if r.Winner == p.ToMove() {
					v = dumbWin - 1
				} else if r.Winner < 0 {
					v = 0
				}
			}
			if v > best {
				want, best = turns[i], v
			}
		}
		g, w := engine.FormatTurn(p.Board(), got), engine.FormatTurn(p.Board(), want)
		if g != w || k.Reached != 1 {
			t.Errorf("%s: depth 1 played %s (reached %d); want %s", p, g, k.Reached, w)
		}
		checked++
	}
	if checked < 5 {
		t.Fatalf("only %d positions checked", checked)
	}
	p := Openings(engine.MustStandardBoard("37"), engine.Standard, 1, 5)[0]
	k := &Kartoved{Depth: 5, MaxNodes: 30000}
	k.Turn(p)
	if k.Reached != 1 && k.Reached != 3 && k.Reached != 5 {
		t.Errorf("with a budget Kartoved finished depth %d; want 1, 3 or 5", k.Reached)
	}
}

// Kartoved and Holtz play legal turns (PlayGame checks each) and beat a
// random player.
func TestKartovedAndHoltzPlay(t *testing.T) {
	ops := Openings(engine.MustStandardBoard("37"), engine.Standard, 1, 2)
	for _, p := range []Player{&Kartoved{Depth: 3, MaxNodes: 20000}, &Holtz{MaxNodes: 20000}} {
		s, err := Match(ops, p, &Random{Seed: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s.Wins < 1 {
			t.Errorf("%s against random: %s", p.Name(), s)
		}
	}
}

// Holtz deepens while its budget lasts (more nodes, a deeper search), and
// at the horizon it searches on through captures instead of evaluating:
// with the extension it counts extended positions and spends more nodes
// at depth 1 than without it, in positions where a capture can follow.
func TestHoltzDeepensAndExtendsCaptures(t *testing.T) {
	p := Openings(engine.MustStandardBoard("37"), engine.Standard, 1, 7)[0]
	small, large := &Holtz{MaxNodes: 2000}, &Holtz{MaxNodes: 100000}
	small.Turn(p)
	large.Turn(p)
	if small.Reached < 1 || large.Reached <= small.Reached {
		t.Errorf("2,000 nodes reached depth %d, 100,000 depth %d; want deeper with more", small.Reached, large.Reached)
	}
	extended := 0
	for _, q := range randomLine(t, "37", 11) {
		if q.Result().Over || q.HasCapture() {
			continue
		}
		ext, plain := &Holtz{MaxDepth: 1}, &Holtz{MaxDepth: 1, MaxExtension: -1}
		ext.Turn(q)
		plain.Turn(q)
		if plain.Extended != 0 {
			t.Fatalf("without the extension %d positions were extended", plain.Extended)
		}
		if ext.Extended > 0 {
			extended++
			if ext.Nodes <= plain.Nodes {
				t.Errorf("%s: %d nodes with the extension, %d without", q, ext.Nodes, plain.Nodes)
			}
		}
	}
	if extended == 0 {
		t.Error("no position of a random game was extended at depth 1")
	}
}

package engine

import (
	"math/rand/v2"
	"testing"
)

// forEachRandomPosition visits every position of seeded random games on
// every standard board, standard and blitz rules.
func forEachRandomPosition(t *testing.T, games int, visit func(p Position, turns []Turn)) {
	t.Helper()
	if testing.Short() {
		games = 2
	}
	for _, name := range StandardBoardNames {
		for _, rules := range []*Rules{Standard, Blitz} {
			for seed := uint64(1); seed <= uint64(games); seed++ {
				g := randomGame(MustStandardBoard(name), rules, seed, 400, func(p Position, turns []Turn, _ int) {
					visit(p, turns)
				})
				visit(g.Position(), g.Position().LegalTurns(nil))
			}
		}
	}
}

func TestCountTurnsMatchesLegalTurns(t *testing.T) {
	forEachRandomPosition(t, 20, func(p Position, turns []Turn) {
		if got := p.CountTurns(); got != len(turns) {
			t.Fatalf("%s: CountTurns = %d; LegalTurns lists %d", p, got, len(turns))
		}
	})
}

// TestApplyShortcut: apply skips the isolation flood fill when local facts
// prove nothing was cut off. Played from an unsettled copy (which always
// floods), every turn must give the same position, claims and hash.
func TestApplyShortcut(t *testing.T) {
	forEachRandomPosition(t, 6, func(p Position, turns []Turn) {
		slow := p
		slow.unsettled = true
		for i := range turns {
			a, b := p.apply(&turns[i]), slow.apply(&turns[i])
			if !a.Equal(b) || a.claimed != b.claimed || a.hash != b.hash {
				t.Fatalf("%s: %s: shortcut gives %s (claimed %v); flood fill %s (claimed %v)",
					p, FormatTurn(p.b, turns[i]), a, a.Claimed(), b, b.Claimed())
			}
		}
	})
}

func TestHashIncremental(t *testing.T) {
	seen := map[uint64]posKey{}
	forEachRandomPosition(t, 4, func(p Position, turns []Turn) {
		if p.edge != p.b.edges(p.rings) {
			t.Fatalf("%s: incremental edge rings %x; from scratch %x", p, p.edge, p.b.edges(p.rings))
		}
		if p.hash != p.zobrist() {
			t.Fatalf("%s: incremental hash %x; from scratch %x", p, p.hash, p.zobrist())
		}
		if k, ok := seen[p.hash]; ok && k != p.key() && p.b.n == 37 {
			t.Fatalf("hash collision at %x: %s", p.hash, p)
		}
		seen[p.hash] = p.key()
		for i := range turns {
			if q := p.apply(&turns[i]); q.hash != q.zobrist() || q.edge != q.b.edges(q.rings) {
				t.Fatalf("%s then %s: incremental hash %x; from scratch %x", p, FormatTurn(p.b, turns[i]), q.hash, q.zobrist())
			}
		}
		if q, err := ParsePosition(p.String()); err != nil || q.Hash() != p.Hash() {
			t.Fatalf("%s: parsed back hashes %x, %v; want %x", p, q.Hash(), err, p.Hash())
		}
	})
}

// winsAt reports whether turn t wins for the mover.
func winsAt(p Position, t *Turn) bool {
	q := p.apply(t)
	return q.result.Over && q.result.Winner == int(p.toMove)
}

// TestWinningTurn compares WinningTurn with playing every legal turn, over
// random games and over positions one turn from their end.
func TestWinningTurn(t *testing.T) {
	wins := 0
	check := func(p Position, turns []Turn) {
		want := false
		for i := range turns {
			if winsAt(p, &turns[i]) {
				want = true
				break
			}
		}
		got, ok := p.WinningTurn()
		if ok != want {
			t.Fatalf("%s: WinningTurn found a win: %v; playing every turn: %v", p, ok, want)
		}
		if !ok {
			return
		}
		wins++
		if err := p.Check(got); err != nil {
			t.Fatalf("%s: WinningTurn gave illegal %s: %v", p, FormatTurn(p.b, got), err)
		}
		if !winsAt(p, &got) {
			t.Fatalf("%s: WinningTurn's %s does not win", p, FormatTurn(p.b, got))
		}
	}
	forEachRandomPosition(t, 12, check)
	// Random games rarely end in a win by captures; make positions that
	// do by letting one side hold near-winning captures.
	rng := rand.New(rand.NewPCG(3, 4))
	forEachRandomPosition(t, 6, func(p Position, turns []Turn) {
		if p.result.Over || p.poolEmpty() {
			return
		}
		q := p
		for c := range q.caps[q.toMove] {
			take := min(int(q.pool[c]), q.r.Win[c]-1-int(q.caps[q.toMove][c]), rng.IntN(q.r.Win[c]))
			if take > 0 && int(q.pool[c]) > take {
				q.pool[c] -= int8(take)
				q.caps[q.toMove][c] += int8(take)
			}
		}
		q.hash = q.zobrist()
		q.result = q.evaluate()
		if q.result.Over {
			return
		}
		check(q, q.LegalTurns(nil))
	})
	if wins < 50 {
		t.Errorf("only %d positions with a winning turn were checked", wins)
	}
	t.Logf("%d winning positions checked", wins)
}

func TestTurnsMatchesLegalTurns(t *testing.T) {
	forEachRandomPosition(t, 10, func(p Position, turns []Turn) {
		i := 0
		for turn := range p.Turns() {
			if i >= len(turns) || turn != turns[i] {
				t.Fatalf("%s: Turns yields %s as turn %d; LegalTurns lists %v", p, FormatTurn(p.b, turn), i, len(turns))
			}
			i++
		}
		if i != len(turns) {
			t.Fatalf("%s: Turns yields %d; LegalTurns lists %d", p, i, len(turns))
		}
	})
}

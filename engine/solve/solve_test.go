package solve

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
)

func mustParse(t testing.TB, s string) engine.Position {
	t.Helper()
	p, err := engine.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func notation(p engine.Position, line []engine.Turn) string {
	var out []string
	for _, t := range line {
		out = append(out, engine.FormatTurn(p.Board(), t))
	}
	return strings.Join(out, " ")
}

// diagram5 is the rulebook's diagram 5 (engine.TestDiagram5SacrificeWins
// explains the encoding): ring 1 = E4, ring 2 = D2, ring 3 = B1, ring 4 =
// C2.
const diagram5 = "37 w.oo/o.ooo/.ooooo/.oooooo/o.gooo/ooooo/oooo 1,3,9 2,0,0 2,4,1 0"

// TestDiagram5 finds the rulebook's sacrifice: the position, the line and
// the result. It is the only win within two of A's turns, and none exists
// within one.
func TestDiagram5(t *testing.T) {
	p := mustParse(t, diagram5)
	res := Solve(context.Background(), p, Options{MaxTurns: 3})
	if res.Win == nil {
		t.Fatalf("Solve(diagram 5) found no win: %+v", res)
	}
	got := notation(p, res.Win.Line)
	if res.Win.Player != 0 || res.Win.Turns != 2 || !res.Complete || res.Depth != 1 {
		t.Errorf("Solve(diagram 5) = player %d in %d (complete %v, depth %d), line %s; want player 0 in 2, complete, depth 1",
			res.Win.Player, res.Win.Turns, res.Complete, res.Depth, got)
	}
	if got != "BE4-D2 E3xE5 WB1-C2" {
		t.Errorf("line %s; want the rulebook's BE4-D2 E3xE5 WB1-C2", got)
	}
	if !Wins(p, res.Win.Line) {
		t.Errorf("line %s does not replay to a win", got)
	}
	// Brute force agrees: exactly one first turn forces the win.
	var forcing []string
	for _, m := range p.LegalTurns(nil) {
		if bruteForced(p, m, 2) {
			forcing = append(forcing, engine.FormatTurn(p.Board(), m))
		}
	}
	if strings.Join(forcing, " ") != "BE4-D2" {
		t.Errorf("by brute force the forcing first turns are %v; want only BE4-D2", forcing)
	}
	// One turn is not enough.
	if r := Solve(context.Background(), p, Options{MaxTurns: 1}); r.Win != nil || !r.Complete || r.Depth != 1 {
		t.Errorf("Solve(diagram 5, 1 turn) = %+v; want no win, complete, depth 1", r)
	}
}

// bruteWinsNow plays every turn: does one win for the mover at once?
func bruteWinsNow(p engine.Position) bool {
	for _, t := range p.LegalTurns(nil) {
		q, err := p.Play(t)
		if err != nil {
			panic(err)
		}
		if r := q.Result(); r.Over && r.Winner == p.ToMove() {
			return true
		}
	}
	return false
}

// bruteForced checks, by playing every turn with Play and nothing from the
// solver (no table, no WinningTurn), that first turn m wins within k ≤ 2
// turns against every reply.
func bruteForced(p engine.Position, m engine.Turn, k int) bool {
	q, err := p.Play(m)
	if err != nil {
		panic(err)
	}
	if r := q.Result(); r.Over {
		return r.Winner == p.ToMove()
	}
	if k == 1 {
		return false
	}
	for _, u := range q.LegalTurns(nil) {
		r, err := q.Play(u)
		if err != nil {
			panic(err)
		}
		if r.Result().Over || !bruteWinsNow(r) {
			return false
		}
	}
	return true
}

// sampleGames replays the sample games that end in a win by captures:
// the built-in ones, and with all the larger sample too.
func sampleGames(t *testing.T, all bool) []*engine.Game {
	t.Helper()
	files, err := samples.Records(samples.BuiltinDir())
	if all {
		files, err = samples.All()
	}
	if err != nil {
		t.Fatal(err)
	}
	var games []*engine.Game
	for _, f := range files {
		rec, err := record.ReadFile(f)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(f), err)
		}
		rep, err := rec.Replay()
		if err != nil {
			continue // records with illegal turns are the record package's tests
		}
		if r := rep.Game.Position().Result(); r.Over && r.Reason == engine.ReasonCaptures {
			games = append(games, rep.Game)
		}
	}
	if len(games) < 5 {
		t.Fatalf("only %d sample games end in a win by captures", len(games))
	}
	return games
}

// TestSampleWinsInOne: one turn before a game's winning turn, the winner
// to move has a forced win in 1, and its line wins.
func TestSampleWinsInOne(t *testing.T) {
	for _, g := range sampleGames(t, true) {
		n := g.Len()
		p := g.PositionAfter(n - 1)
		winner := g.Position().Result().Winner
		res := Solve(context.Background(), p, Options{MaxTurns: 2})
		if res.Win == nil || res.Win.Player != winner || res.Win.Turns != 1 || !res.Complete || len(res.Win.Line) != 1 {
			t.Errorf("%s: Solve = %+v; want a forced win in 1 for player %d", p, res, winner)
			continue
		}
		if !Wins(p, res.Win.Line) {
			t.Errorf("%s: line %s does not win", p, notation(p, res.Win.Line))
		}
	}
}

// TestNoFalseWins: where the mover has no winning turn, a search within one
// turn reports none; where a search within two turns reports a win, brute
// force confirms every defence loses; where it reports none, brute force
// finds an escape from every first turn. Positions: the last turns of the
// sample games (within two turns: the built-in games, brute force being
// slow).
func TestNoFalseWins(t *testing.T) {
	for _, g := range sampleGames(t, true) {
		for back := 1; back <= 4 && back <= g.Len(); back++ {
			p := g.PositionAfter(g.Len() - back)
			res := Solve(context.Background(), p, Options{MaxTurns: 1})
			if want := bruteWinsNow(p); (res.Win != nil) != want || !res.Complete {
				t.Errorf("%s: Solve(1 turn) = %+v; brute force finds a win: %v", p, res, want)
			}
		}
	}
	if testing.Short() {
		return
	}
	checked, wins2 := 0, 0
	for _, g := range sampleGames(t, false) {
		for back := 1; back <= 3 && back <= g.Len(); back++ {
			p := g.PositionAfter(g.Len() - back)
			res := Solve(context.Background(), p, Options{MaxTurns: 2})
			if !res.Complete {
				t.Errorf("%s: two turns not searched: %+v", p, res)
				continue
			}
			checked++
			switch {
			case res.Win == nil:
				for _, m := range p.LegalTurns(nil) {
					if bruteForced(p, m, 2) {
						t.Errorf("%s: Solve found no win within 2; brute force: %s forces one", p, engine.FormatTurn(p.Board(), m))
						break
					}
				}
			default:
				if res.Win.Turns == 2 {
					wins2++
				}
				if !bruteForced(p, res.Win.Line[0], res.Win.Turns) || !Wins(p, res.Win.Line) {
					t.Errorf("%s: Solve claims %s wins in %d; brute force disagrees", p, notation(p, res.Win.Line), res.Win.Turns)
				}
			}
		}
	}
	if wins2 < 5 {
		t.Errorf("only %d wins in 2 among %d positions: the test checks too little", wins2, checked)
	}
	t.Logf("%d positions checked within 2 turns; %d wins in 2", checked, wins2)
}

// TestDefenderEscapes: a sacrifice that does not force: in diagram 5 with
// ring E5 gone, B's capture of the black cannot happen, so B is free to
// answer, and must not be reported lost.
func TestDefenderEscapes(t *testing.T) {
	tests := []struct{ name, pos string }{
		// E5 removed: black on E4 forces nothing.
		{"no landing ring", "37 w.oo/o.ooo/.ooooo/.oooooo/o.go.o/ooooo/oooo 1,3,9 2,0,0 2,4,1 0"},
		// B holds 5 black: the captured black is B's sixth, and wins.
		{"capture wins for B", "37 w.oo/o.ooo/.ooooo/.oooooo/o.gooo/ooooo/oooo 1,3,5 2,0,0 2,4,5 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParse(t, tt.pos)
			if p.Result().Over {
				t.Fatalf("%s is over: %v", p, p.Result())
			}
			res := Solve(context.Background(), p, Options{MaxTurns: 2})
			if res.Win != nil || !res.Complete {
				t.Fatalf("Solve = win %s in %d (complete %v); want no forced win", notation(p, res.Win.Line), res.Win.Turns, res.Complete)
			}
			// The rulebook's first turn has an escape.
			m, err := engine.ParseTurn(p.Board(), "BE4-D2")
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Check(m); err == nil && bruteForced(p, m, 2) {
				t.Errorf("brute force says BE4-D2 forces a win here")
			}
		})
	}
}

func TestBudget(t *testing.T) {
	p := mustParse(t, diagram5)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res := Solve(ctx, p, Options{MaxTurns: 3}); res.Win != nil || res.Complete {
		t.Errorf("Solve with a cancelled context = %+v; want nothing, incomplete", res)
	}
	if res := Solve(context.Background(), p, Options{MaxTurns: 3, MaxNodes: 100}); res.Complete || res.Win != nil || res.Nodes > 100+pollEvery {
		t.Errorf("Solve with 100 nodes = %+v; want nothing, incomplete, about 100 nodes", res)
	}
	over := mustParse(t, "37 ..../...../....../..wg.../..o.../...../.... 5,7,10 0,0,0 0,0,0 1").MustPlay(mustTurn(t, "BE3"))
	if res := Solve(context.Background(), over, Options{MaxTurns: 2}); res.Win != nil || !res.Complete {
		t.Errorf("Solve(game over) = %+v; want nothing, complete", res)
	}
}

func mustTurn(t *testing.T, s string) engine.Turn {
	t.Helper()
	turn, err := engine.ParseTurn(engine.MustStandardBoard("37"), s)
	if err != nil {
		t.Fatal(err)
	}
	return turn
}

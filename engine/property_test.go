package engine

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// randomGame plays seeded random legal turns from the start until the game
// ends or maxTurns, calling visit before each turn.
func randomGame(b *Board, r *Rules, seed uint64, maxTurns int, visit func(p Position, turns []Turn, pick int)) *Game {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	g := NewGame(NewPosition(b, r, int(seed&1)))
	var buf []Turn
	for i := 0; i < maxTurns && !g.Position().Result().Over; i++ {
		buf = g.Position().LegalTurns(buf[:0])
		pick := rng.IntN(len(buf))
		if visit != nil {
			visit(g.Position(), buf, pick)
		}
		if err := g.Play(buf[pick]); err != nil {
			panic(err)
		}
	}
	return g
}

// TestRandomGames checks the engine's invariants over many random legal
// games on every board, standard and blitz.
func TestRandomGames(t *testing.T) {
	games := 150
	if testing.Short() {
		games = 4
	}
	for _, name := range StandardBoardNames {
		for _, rules := range []*Rules{Standard, Blitz} {
			b := MustStandardBoard(name)
			t.Run(Variant(b, rules), func(t *testing.T) {
				t.Parallel()
				ended, emptyPool := 0, 0
				for seed := uint64(1); seed <= uint64(games); seed++ {
					rng := rand.New(rand.NewPCG(seed, 7))
					var history []Position
					g := randomGame(b, rules, seed, 400, func(p Position, turns []Turn, pick int) {
						checkTurn(t, p, turns, pick, rng)
						history = append(history, p)
						if p.poolEmpty() {
							emptyPool++
						}
					})
					end := g.Position()
					history = append(history, end)
					checkRepetition(t, history)
					if end.Result().Over {
						ended++
						if n := len(end.LegalTurns(nil)); n != 0 {
							t.Errorf("seed %d: game over but %d legal turns", seed, n)
						}
					}
					// Undo restores every earlier position exactly.
					for i := len(history) - 2; i >= 0; i-- {
						if err := g.Undo(1); err != nil {
							t.Fatal(err)
						}
						if !g.Position().Equal(history[i]) {
							t.Fatalf("seed %d: undo to turn %d gave %s; want %s", seed, i, g.Position(), history[i])
						}
					}
				}
				if ended == 0 {
					t.Errorf("no random game ended within 400 turns")
				}
				t.Logf("%d/%d games ended; %d positions with an empty pool", ended, games, emptyPool)
			})
		}
	}
}

// checkTurn checks one position and the turn picked in it.
func checkTurn(t *testing.T, p Position, turns []Turn, pick int, rng *rand.Rand) {
	t.Helper()
	b := p.Board()
	before := p.String()
	legalSet := make(map[Turn]bool, len(turns))
	for _, turn := range turns {
		legalSet[turn] = true
	}
	if len(legalSet) != len(turns) {
		t.Fatalf("%s: LegalTurns lists a turn twice", before)
	}
	// Check agrees with LegalTurns, on the legal turns and on near misses.
	for k := 0; k < 12; k++ {
		m := mutate(b, turns[rng.IntN(len(turns))], rng)
		if err := p.Check(m); (err == nil) != legalSet[m] {
			t.Fatalf("%s: Check(%s) = %v, but LegalTurns says legal=%v", before, FormatTurn(b, m), err, legalSet[m])
		}
	}
	turn := turns[pick]
	q, err := p.Play(turn)
	if err != nil {
		t.Fatalf("%s: Play(%s): %v", before, FormatTurn(b, turn), err)
	}
	if p.String() != before {
		t.Fatalf("Play changed its receiver: %s became %s", before, p)
	}
	// Notation and the JSON move object read back.
	if back, err := ParseTurn(b, FormatTurn(b, turn)); err != nil || back != turn {
		t.Fatalf("ParseTurn(%q) = %v, %v", FormatTurn(b, turn), back, err)
	}
	data, err := json.Marshal(NewMoveObject(b, turn, q.Claimed()))
	if err != nil {
		t.Fatal(err)
	}
	var mo MoveObject
	if err := json.Unmarshal(data, &mo); err != nil {
		t.Fatal(err)
	}
	if back, err := mo.Turn(b); err != nil || back != turn {
		t.Fatalf("move object %s reads back as %v, %v", data, back, err)
	}
	// The text form round-trips.
	if r, err := ParsePosition(q.String()); err != nil || !r.Equal(q) {
		t.Fatalf("ParsePosition(%q) = %v, %v", q.String(), r, err)
	}
	checkInvariants(t, p, q, turn)
}

// mutate returns turn or a near miss of it: another removal, another ring,
// another colour or source, a shortened or lengthened chain.
func mutate(b *Board, turn Turn, rng *rand.Rand) Turn {
	randCell := func() Cell { return Cell(rng.IntN(b.Len()+1) - 1) }
	switch turn.Kind {
	case Place:
		switch rng.IntN(5) {
		case 0:
			turn.Remove = randCell()
		case 1:
			turn.At = Cell(rng.IntN(b.Len()))
		case 2:
			turn.Color = Color(rng.IntN(3))
		case 3:
			turn.From = Source(rng.IntN(2))
		}
	case Capture:
		path := turn.Path()
		switch rng.IntN(4) {
		case 0:
			if len(path) > 2 {
				path = path[:len(path)-1]
			}
		case 1:
			path = append(path, Cell(rng.IntN(b.Len())))
		case 2:
			path[rng.IntN(len(path))] = Cell(rng.IntN(b.Len()))
		}
		turn = CaptureTurn(path...)
	}
	if rng.IntN(8) == 0 {
		return PassTurn()
	}
	return turn
}

func checkInvariants(t *testing.T, p, q Position, turn Turn) {
	t.Helper()
	b := p.Board()
	mover, other := p.ToMove(), 1-p.ToMove()
	// Marbles are conserved: pool + board + captures.
	var onBoard [3]int
	for c := 0; c < b.Len(); c++ {
		if col, ok := q.At(Cell(c)).Marble(); ok {
			onBoard[col]++
		}
		if p.At(Cell(c)) == NoRing && q.At(Cell(c)) != NoRing {
			t.Fatalf("%s: ring %s came back after %s", p, b.Label(Cell(c)), FormatTurn(b, turn))
		}
	}
	for c := range onBoard {
		if n := q.Pool()[c] + onBoard[c] + q.Captures(0)[c] + q.Captures(1)[c]; n != p.Rules().Pool[c] {
			t.Fatalf("%s after %s: %d %s marbles; want %d", q, FormatTurn(b, turn), n, Color(c), p.Rules().Pool[c])
		}
	}
	// Only the mover's captures grow; the other player's never change.
	if q.Captures(other) != p.Captures(other) {
		t.Fatalf("%s: %s changed the other player's captures", p, FormatTurn(b, turn))
	}
	pc, qc := p.Captures(mover), q.Captures(mover)
	if turn.Kind == Place && turn.From == FromCaptures {
		pc[turn.Color]-- // the marble placed from them
	}
	for c := range pc {
		if qc[c] < pc[c] {
			t.Fatalf("%s: %s shrank the mover's captures", p, FormatTurn(b, turn))
		}
	}
	// Claimed rings were on the board and are gone.
	for _, c := range q.Claimed() {
		if p.At(c) == NoRing || q.At(c) != NoRing {
			t.Fatalf("%s: %s claimed %s wrongly", p, FormatTurn(b, turn), b.Label(c))
		}
	}
	if turn.Kind != Place && len(q.Claimed()) > 0 {
		t.Fatalf("%s: a %s claimed rings", p, turn.Kind)
	}
	if turn.Kind == Capture && q.Rings() != p.Rings() {
		t.Fatalf("%s: a capture removed a ring", p)
	}
}

// checkRepetition recounts repetitions independently of the engine's own
// history list: a game ends by repetition exactly when a position occurs
// for the third time.
func checkRepetition(t *testing.T, history []Position) {
	t.Helper()
	for i, p := range history {
		seen := 0
		for _, q := range history[:i] {
			if q.SameBoard(p) {
				seen++
			}
		}
		byRep := p.Result().Over && p.Result().Reason == ReasonRepetition
		if (seen >= 2) != byRep && !(p.Result().Over && !byRep) {
			t.Fatalf("position %d %s seen %d times before; result %v", i, p, seen, p.Result())
		}
	}
}

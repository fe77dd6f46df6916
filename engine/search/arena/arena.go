// Package arena plays ZÈRTZ games between players (the engine at any
// budget, a random player, and Dumbot, a baseline after Boardspace's
// robot) and scores matches, for the strength tests and `make strength`.
// It is pure: no I/O, no goroutines, no clocks; every player here is
// deterministic for its seed, so a match is too.
//
// Layer: game. May import: base, game.
package arena

import (
	"context"
	"fmt"
	"math"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
)

// Player chooses turns.
type Player interface {
	// Name says who plays, e.g. "level 5".
	Name() string
	// Turn returns a legal turn in p, whose game is not over.
	Turn(p engine.Position) engine.Turn
}

// Engine is engine/search with fixed options.
type Engine struct {
	Label string
	Opt   search.Options
	// Nodes counts the positions searched over every turn, for the
	// figures.
	Nodes int64
}

// Name implements Player.
func (e *Engine) Name() string { return e.Label }

// Turn implements Player.
func (e *Engine) Turn(p engine.Position) engine.Turn {
	r := search.Search(context.Background(), p, e.Opt)
	e.Nodes += r.Nodes
	return r.Move
}

// Random plays a uniformly random legal turn (captures are compulsory, so
// it must capture when it can, like everybody).
type Random struct {
	Seed  uint64
	state uint64
}

// Name implements Player.
func (r *Random) Name() string { return "random" }

// Turn implements Player.
func (r *Random) Turn(p engine.Position) engine.Turn {
	turns := p.LegalTurns(nil)
	r.state = mix(r.state + r.Seed + 0x9e3779b97f4a7c15)
	return turns[r.state%uint64(len(turns))]
}

func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Outcome of one game, for player 0 of the match (not of the game).
type Outcome struct {
	Winner int // the match's player 0 or 1 who won, -1 for a draw
	Reason string
	Turns  int
	Line   []engine.Turn
}

// MaxTurns ends a game that goes on longer as a draw (no real game comes
// close: each placement removes a ring).
const MaxTurns = 400

// PlayGame plays start to the end between players[0] (who is player 0 of
// the position) and players[1].
func PlayGame(start engine.Position, players [2]Player) (Outcome, error) {
	p := start
	var line []engine.Turn
	for n := 0; n < MaxTurns; n++ {
		if r := p.Result(); r.Over {
			return Outcome{Winner: r.Winner, Reason: string(r.Reason), Turns: n, Line: line}, nil
		}
		who := players[p.ToMove()]
		t := who.Turn(p)
		q, err := p.Play(t)
		if err != nil {
			return Outcome{}, fmt.Errorf("%s played an illegal turn in %s: %w", who.Name(), p, err)
		}
		line = append(line, t)
		p = q
	}
	return Outcome{Winner: -1, Reason: "turn limit", Turns: MaxTurns, Line: line}, nil
}

// Openings returns n fixed openings on board b with rules r: the start
// after two seeded random placements (one each), none of which gives a
// capture, so every opening is a quiet, fair start. The same n and seed
// give the same openings everywhere.
func Openings(b *engine.Board, r *engine.Rules, n int, seed uint64) []engine.Position {
	var out []engine.Position
	state := seed
	for len(out) < n {
		p := engine.NewPosition(b, r, 0)
		ok := true
		for k := 0; k < 2 && ok; k++ {
			turns := p.LegalTurns(nil)
			var quiet []engine.Turn
			for _, t := range turns {
				if q := p.Apply(&t); !q.HasCapture() && !q.Result().Over {
					quiet = append(quiet, t)
				}
			}
			if len(quiet) == 0 {
				ok = false
				break
			}
			state = mix(state + 0x9e3779b97f4a7c15)
			t := quiet[state%uint64(len(quiet))]
			p = p.Apply(&t)
		}
		if ok {
			out = append(out, p)
		}
	}
	return out
}

// Score is a match's result for its first player.
type Score struct {
	Games, Wins, Draws, Losses int
}

// Points is wins plus half the draws.
func (s Score) Points() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// Fraction is the share of the points, 0 to 1.
func (s Score) Fraction() float64 {
	if s.Games == 0 {
		return 0
	}
	return s.Points() / float64(s.Games)
}

// Wilson returns the Wilson score interval at 95 % (z = 1.96) of the
// points fraction, draws counting half a game won.
func (s Score) Wilson() (lo, hi float64) {
	if s.Games == 0 {
		return 0, 1
	}
	const z = 1.96
	n := float64(s.Games)
	ph := s.Fraction()
	den := 1 + z*z/n
	c := (ph + z*z/(2*n)) / den
	h := z * math.Sqrt(ph*(1-ph)/n+z*z/(4*n*n)) / den
	return max(0, c-h), min(1, c+h)
}

// Elo is the rating difference the fraction stands for (±Inf at 0 or 1).
func Elo(f float64) float64 {
	switch {
	case f <= 0:
		return math.Inf(-1)
	case f >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/f-1)
}

func (s Score) String() string {
	lo, hi := s.Wilson()
	return fmt.Sprintf("%+d =%d -%d of %d: %.1f%% (95%% Wilson interval %.1f%%–%.1f%%)",
		s.Wins, s.Draws, s.Losses, s.Games, 100*s.Fraction(), 100*lo, 100*hi)
}

// Match plays every opening twice, a and b swapping colours (who moves
// first), and scores it for a. progress, if set, hears of each game.
func Match(openings []engine.Position, a, b Player, progress func(game int, o Outcome, aFirst bool)) (Score, error) {
	var s Score
	for i, op := range openings {
		for swap := 0; swap < 2; swap++ {
			players := [2]Player{a, b}
			aSide := 0
			if swap == 1 {
				players = [2]Player{b, a}
				aSide = 1
			}
			o, err := PlayGame(op, players)
			if err != nil {
				return s, err
			}
			s.Games++
			switch o.Winner {
			case -1:
				s.Draws++
			case aSide:
				s.Wins++
			default:
				s.Losses++
			}
			if progress != nil {
				progress(2*i+swap, o, swap == 0)
			}
		}
	}
	return s, nil
}

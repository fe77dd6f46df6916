package table

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
)

// Random is the game spec of a game of random legal moves (Games).
const Random = "random"

// Games returns the games to play, and a line that says which for the
// log ("" for one record): for spec Random a game of random legal moves
// (from seed), for a path that record (SGF or JSON), and for "" the
// built-in Boardspace games in order. Every game is replayed first: a
// record the rules refuse is an error that names it.
func Games(spec string, seed uint64) ([]*record.Record, string, error) {
	if spec == Random {
		return []*record.Record{RandomGame(seed)}, "playing a game of random legal moves on 37 rings", nil
	}
	if spec != "" {
		rec, err := record.ReadFile(spec)
		if err != nil {
			return nil, "", err
		}
		if _, err := rec.Replay(); err != nil {
			return nil, "", fmt.Errorf("%s: %w", spec, err)
		}
		return []*record.Record{rec}, "", nil
	}
	var games []*record.Record
	for _, name := range samples.BuiltinNames() {
		data, err := fs.ReadFile(samples.Builtin(), name)
		if err != nil {
			return nil, "", err
		}
		rec, err := record.Read(bytes.NewReader(data))
		if err != nil {
			return nil, "", fmt.Errorf("built-in game %s: %w", name, err)
		}
		if _, err := rec.Replay(); err != nil {
			return nil, "", fmt.Errorf("built-in game %s: %w", name, err)
		}
		games = append(games, rec)
	}
	return games, fmt.Sprintf("playing the %d built-in Boardspace games", len(games)), nil
}

// RandomGame plays random legal turns on 37 rings to the end (at most 200
// turns), the same for the same seed.
func RandomGame(seed uint64) *record.Record {
	rng := rand.New(rand.NewPCG(seed, 37))
	p := engine.NewPosition(engine.MustStandardBoard("37"), engine.Standard, 0)
	rec := &record.Record{Variant: "37", Players: [2]string{"random", "chance"}}
	for !p.Result().Over && len(rec.Turns) < 200 {
		turns := p.LegalTurns(nil)
		t := turns[rng.IntN(len(turns))]
		p = p.MustPlay(t)
		rec.Turns = append(rec.Turns, t)
	}
	return rec
}

// Describe says what a game is in a few words, for people: its rings,
// its length and its players.
func Describe(r *record.Record) string {
	turns := fmt.Sprintf("%d turns", len(r.Turns))
	if len(r.Turns) == 1 {
		turns = "1 turn"
	}
	s := fmt.Sprintf("a %s-ring game of %s", strings.TrimSuffix(r.Variant, "b"), turns)
	if r.Players[0] != "" || r.Players[1] != "" {
		s += fmt.Sprintf(" (%s v %s)", r.Players[0], r.Players[1])
	}
	return s
}

// isPrefix reports whether moves (in notation) begin rec's turns.
func isPrefix(moves []string, rec *record.Record) bool {
	b, _, err := rec.Board()
	if err != nil || len(moves) > len(rec.Turns) {
		return false
	}
	for i, m := range moves {
		if engine.FormatTurn(b, rec.Turns[i]) != m {
			return false
		}
	}
	return true
}

package results

import (
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/record"
)

// Finding: CSV formula defusing missed a leading space, a no-break space
// and the fullwidth ＝.
func TestCSVDefusesDisguisedFormulas(t *testing.T) {
	for _, cell := range []string{"=1+1", " =1+1", "\u00a0=1+1", "＝1+1", "\u200b=1", "\t=1", " ＋A1", "@SUM(A1)"} {
		if !formulaLike(cell) {
			t.Errorf("%q is not defused", cell)
		}
	}
	for _, cell := range []string{"ann", "", "Zoë = best", "1200"} {
		if formulaLike(cell) {
			t.Errorf("%q is defused; it is no formula", cell)
		}
	}
}

// A game whose answered turns the players corrected after it ended is
// the same game: its result is replaced, on disk too. The same ID with
// another game (a board whose journal started afresh) is kept apart.
func TestCorrectedResultReplaces(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(0, slog.New(slog.NewTextHandler(io.Discard, nil)), time.Now)
	s.dir = dir
	rec := func(turns, answered string) []byte {
		return []byte(`{"format":"zertzboard-record","version":1,"variant":"37","first":0,"players":["ann","bob"],"date":"2026-11-26","turns":[` + turns + `],"answered_turns":[` + answered + `]}`)
	}
	one := 1
	s.Add(Finished{Board: "b1", GameID: "b1-7", Published: 1e12, Variant: "37", Winner: &one, Reason: "captures", Turns: 2, Record: rec(`"WD4-A1","*WE2-E4"`, ``)})
	s.Add(Finished{Board: "b1", GameID: "b1-7", Published: 1e12 + 5, Variant: "37", Winner: &one, Reason: "captures", Turns: 2, Record: rec(`"WD4-A1","*BE2-E4"`, `2`)})
	games, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 || !strings.Contains(string(games[0].Record), "*BE2-E4") {
		t.Fatalf("after a correction the store holds %d games: %v", len(games), games)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"+resultExt))
	if len(files) != 1 {
		t.Fatalf("the results directory holds %v", files)
	}
	data, err := os.ReadFile(filepath.Join(dir, "b1-7.json"))
	if err != nil || !strings.Contains(string(data), "*BE2-E4") {
		t.Fatalf("the record on disk is not the corrected one: %s, %v", data, err)
	}
	// A turn changed that nobody answered: another game.
	s.Add(Finished{Board: "b1", GameID: "b1-7", Published: 1e12 + 9, Variant: "37", Winner: &one, Reason: "captures", Turns: 2, Record: rec(`"WD4-A1","*GE2-E4"`, ``)})
	if games, _ := s.List(); len(games) != 2 {
		t.Fatalf("a record changed in a turn nobody answered replaced the result: %d games", len(games))
	}
}

// A note the arbiter gives after the end changes the game's record and
// nothing else: the same game, its record replaced (on disk too), its
// finishing time kept. Notes and a changed turn are another game.
func TestNotesAfterTheEndKeepTheGame(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(0, slog.New(slog.NewTextHandler(io.Discard, nil)), time.Now)
	s.dir = dir
	rec := func(turns, notes string) []byte {
		r := `{"format":"zertzboard-record","version":1,"variant":"37","first":0,"players":["ann","bob"],"turns":[` + turns + `],"end":{"kind":"resign","player":1}`
		if notes != "" {
			r += `,"notes":[` + notes + `]`
		}
		return []byte(r + "}")
	}
	zero := 0
	add := func(published int64, turns, notes string) {
		s.Add(Finished{Board: "b1", GameID: "b1-3", Published: published, Variant: "37", Winner: &zero, Reason: "resignation", Turns: 1, Record: rec(turns, notes)})
	}
	add(1e12, `"WD4-A1"`, `{"turn":1,"text":"clock replaced"}`)
	if games, _ := s.List(); len(games) != 1 {
		t.Fatalf("%d games", len(games))
	} else if sgf, err := games[0].SGF(); err != nil || !strings.Contains(string(sgf), "C[Arbiter: clock replaced]") {
		t.Fatalf("SGF before the note: %v\n%s", err, sgf) // and made: a later note must not find it stale
	}
	add(1e12+5000, `"WD4-A1"`, `{"turn":1,"text":"clock replaced"},{"turn":1,"text":"P1 resigned after the flag dispute"}`)
	games, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 || !strings.Contains(string(games[0].Record), "flag dispute") || games[0].Finished.UnixMilli() != 1e12 {
		t.Fatalf("after a note the store holds %d games: %+v", len(games), games)
	}
	if sgf, err := games[0].SGF(); err != nil || !strings.Contains(string(sgf), "Arbiter: P1 resigned after the flag dispute]") {
		t.Errorf("SGF after the note: %v\n%s", err, sgf)
	}
	data, err := os.ReadFile(filepath.Join(dir, "b1-3.json"))
	if err != nil || !strings.Contains(string(data), "flag dispute") {
		t.Fatalf("the record on disk has not the note: %s, %v", data, err)
	}
	add(1e12+9000, `"GD4-A1"`, `{"turn":1,"text":"another game"}`)
	if games, _ := s.List(); len(games) != 2 {
		t.Fatalf("a record with another turn and notes replaced the result: %d games", len(games))
	}
}

// A result's notes are its record's, in order; none for a record without
// them or whose notes cannot be read (the result is kept all the same).
func TestResultNotes(t *testing.T) {
	for _, c := range []struct {
		record string
		want   []record.Note
	}{
		{`{"turns":[],"notes":[{"turn":0,"text":"before"},{"turn":3,"text":"<b>x</b>"}]}`, []record.Note{{Turn: 0, Text: "before"}, {Turn: 3, Text: "<b>x</b>"}}},
		{`{"turns":[]}`, nil},
		{`{"turns":[],"notes":"not a list"}`, nil},
		{`not JSON`, nil},
	} {
		g := &GameResult{Record: json.RawMessage(c.record)}
		if got := g.Notes(); !slices.Equal(got, c.want) {
			t.Errorf("%s: notes %q; want %q", c.record, got, c.want)
		}
	}
}

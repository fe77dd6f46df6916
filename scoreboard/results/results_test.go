package results

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

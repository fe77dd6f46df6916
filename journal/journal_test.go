package journal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

func TestJournalResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.journal")
	j, g, err := Open(path)
	if err != nil || g != nil {
		t.Fatalf("Open(new) = %v, %v", g, err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(j.NewGame(1, 0, "37", 1, "tournament", [2]string{"ann", "bob"}))
	must(j.Turn(2, 100, "WD4-A1", false))
	must(j.Turn(3, 200, "GE4-G4", false))
	must(j.Turn(4, 300, "BA4-A3", true)) // over D4/E4's capture
	must(j.Takeback(5, 400, 1))
	must(j.Players(6, 500, [2]string{"ann", "cat"}))
	if err := j.Turn(7, 600, "WD5-A2", false); err == nil || !strings.Contains(err.Error(), "capture is compulsory") {
		t.Fatalf("an illegal turn was journalled: %v", err)
	}
	must(j.Close())

	j, g, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if g.Variant != "37" || g.Mode != "tournament" || g.Players != [2]string{"ann", "cat"} || g.Seq != 6 || g.T != 500 {
		t.Errorf("resumed %+v", g)
	}
	if g.Game.Len() != 2 || g.Game.Start().ToMove() != 1 || len(g.Missed) != 0 {
		t.Errorf("resumed game: %d turns, first %d, missed %v", g.Game.Len(), g.Game.Start().ToMove(), g.Missed)
	}
	turn, _ := g.Game.Turn(1)
	if got := engine.FormatTurn(g.Game.Position().Board(), turn); got != "GE4-G4" {
		t.Errorf("last turn %s", got)
	}
}

func TestTornLastLineIsDropped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, _ := Open(path)
	j.NewGame(1, 0, "37", 0, "casual", [2]string{})
	j.Turn(2, 10, "WD4-A1", false)
	j.Close()
	// A crash in the middle of writing the next entry.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"op":"turn","seq":3,"t":20,"tu`)
	f.Close()
	j, g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if g.Game.Len() != 1 || g.Seq != 2 {
		t.Errorf("after a torn line: %d turns, seq %d", g.Game.Len(), g.Seq)
	}
	// The journal goes on cleanly after it.
	if err := j.Turn(3, 30, "GE4-G4", false); err != nil {
		t.Fatal(err)
	}
	j.Close()
	_, g, err = Open(path)
	if err != nil || g.Game.Len() != 2 || g.Seq != 3 {
		t.Fatalf("reopened: %v, %+v", err, g)
	}
}

func TestOpenCompactsToTheCurrentGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, _ := Open(path)
	j.NewGame(1, 0, "37", 0, "casual", [2]string{})
	j.Turn(2, 10, "WD4-A1", false)
	j.NewGame(3, 20, "48", 0, "casual", [2]string{})
	j.Close()
	_, g, err := Open(path)
	if err != nil || g.Variant != "48" || g.Game.Len() != 0 || g.Seq != 3 {
		t.Fatalf("Open = %+v, %v", g, err)
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), "\n"); n != 1 {
		t.Errorf("compacted journal has %d lines:\n%s", n, data)
	}
}

func TestBadJournal(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ content, want string }{
		{"{\"op\":\"game\",\"seq\":1,\"variant\":\"37\"}\nnonsense\n", ":2: not a journal entry"},
		{"{\"op\":\"turn\",\"seq\":1,\"turn\":\"WD4-A1\"}\n", "before any game"},
		{"{\"op\":\"game\",\"seq\":1,\"variant\":\"39\"}\n", "unknown variant"},
		{"{\"op\":\"game\",\"seq\":1,\"variant\":\"37\"}\n{\"op\":\"turn\",\"seq\":2,\"turn\":\"WD4-D5\"}\n", "entry 2 (turn)"},
	}
	for i, tt := range tests {
		path := filepath.Join(dir, string(rune('a'+i)))
		os.WriteFile(path, []byte(tt.content), 0o644)
		if _, _, err := Open(path); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%q) = %v; want %q", tt.content, err, tt.want)
		}
	}
}

package journal

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/record"
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
	must(j.Append(NewGame{Seq: 1, T: 0, Variant: "37", First: 1, Mode: "tournament", Players: [2]string{"ann", "bob"}}))
	must(j.Append(Turn{Seq: 2, T: 100, Notation: "WD4-A1", Missed: false}))
	must(j.Append(Turn{Seq: 3, T: 200, Notation: "GE4-G4", Missed: false}))
	must(j.Append(Turn{Seq: 4, T: 300, Notation: "BA4-A3", Missed: true})) // over D4/E4's capture
	must(j.Append(Takeback{Seq: 5, T: 400, N: 1}))
	must(j.Append(Players{Seq: 6, T: 500, Players: [2]string{"ann", "cat"}}))
	// An entry wrong on its own is refused and not kept.
	if err := j.Append(Turn{Seq: 7, T: 600}); err == nil {
		t.Fatal("a turn without notation was journalled")
	}
	// Whether a turn fits the game is the controller's to know (it owns
	// the game); one that does not, if a bug wrote it, is damage at Open
	// and never part of the game.
	must(j.Append(Turn{Seq: 7, T: 600, Notation: "WD5-A2", Missed: false}))
	must(j.Close())

	j, g, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if d := j.Damage(); d == nil || d.Line != 7 || !strings.Contains(d.Reason, "capture is compulsory") || d.Turns != 2 {
		t.Errorf("damage %+v; want the illegal turn at line 7, 2 turns resumed", d)
	}
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
	j.Append(NewGame{Seq: 1, T: 0, Variant: "37", First: 0, Mode: "casual", Players: [2]string{}})
	j.Append(Turn{Seq: 2, T: 10, Notation: "WD4-A1", Missed: false})
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
	if err := j.Append(Turn{Seq: 3, T: 30, Notation: "GE4-G4", Missed: false}); err != nil {
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
	j.Append(NewGame{Seq: 1, T: 0, Variant: "37", First: 0, Mode: "casual", Players: [2]string{}})
	j.Append(Turn{Seq: 2, T: 10, Notation: "WD4-A1", Missed: false})
	j.Append(NewGame{Seq: 3, T: 20, Variant: "48", First: 0, Mode: "casual", Players: [2]string{}})
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

// Damage never stops Open: the good entries before the first bad line are
// kept, the rest moved to PATH.damaged, and the damage reported.
func TestBadJournal(t *testing.T) {
	dir := t.TempDir()
	legacyGame := "{\"op\":\"game\",\"seq\":1,\"variant\":\"37\"}\n"
	tests := []struct {
		content    string
		line, kept int
		want       string
	}{
		{legacyGame + "nonsense\n", 2, 1, "not a journal entry"},
		{"{\"op\":\"turn\",\"seq\":1,\"turn\":\"WD4-A1\"}\n", 1, 0, "before any game"},
		{"{\"op\":\"game\",\"seq\":1,\"variant\":\"39\"}\n", 1, 0, "unknown variant"},
		{legacyGame + "{\"op\":\"turn\",\"seq\":2,\"turn\":\"WD4-D5\"}\n", 2, 1, "entry turn does not apply"},
	}
	for i, tt := range tests {
		path := filepath.Join(dir, string(rune('a'+i)))
		os.WriteFile(path, []byte(tt.content), 0o644)
		j, _, err := Open(path)
		if err != nil {
			t.Errorf("Open(%q) refused: %v", tt.content, err)
			continue
		}
		d := j.Damage()
		if d == nil || d.Line != tt.line || d.Kept != tt.kept || !strings.Contains(d.Reason, tt.want) || d.Moved != path+".damaged" {
			t.Errorf("Open(%q): damage %+v; want line %d, %d kept, %q", tt.content, d, tt.line, tt.kept, tt.want)
		}
		j.Close()
		moved, _ := os.ReadFile(path + ".damaged")
		if !strings.Contains(string(moved), strings.Split(tt.content, "\n")[tt.line-1]) {
			t.Errorf("%s.damaged holds %q", path, moved)
		}
	}
}

// The finding: a one-byte corruption that keeps the JSON valid and the
// game legal. The checksum catches it; the game resumes from the entry
// before, and nothing after it is lost without a word.
func TestChecksumCatchesValidLookingCorruption(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, _ := Open(path)
	j.Append(NewGame{Seq: 1, T: 0, Variant: "37", First: 0, Mode: "casual", Players: [2]string{}})
	turns := []string{"WD4-A1", "GF2-G4", "BB3-A4", "WC3-G1"}
	for i, turn := range turns {
		if err := j.Append(Turn{Seq: uint64(i + 2), T: int64(10 * i), Notation: turn, Missed: false}); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	data, _ := os.ReadFile(path)
	// Turn 2's time 10 becomes 19: still JSON, still a legal game.
	bad := strings.Replace(string(data), `"seq":3,"t":10`, `"seq":3,"t":19`, 1)
	if bad == string(data) {
		t.Fatalf("the test's corruption did not apply to:\n%s", data)
	}
	os.WriteFile(path, []byte(bad), 0o644)
	j, g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	d := j.Damage()
	if d == nil || d.Line != 3 || !strings.Contains(d.Reason, "checksum") || g.Game.Len() != 1 || d.Turns != 1 {
		t.Fatalf("damage %+v, resumed %d turns; want checksum damage at line 3 and 1 turn", d, g.Game.Len())
	}
	if !strings.Contains(d.Error(), "moved to "+path+".damaged") {
		t.Errorf("message %q", d.Error())
	}
	moved, _ := os.ReadFile(path + ".damaged")
	if !strings.Contains(string(moved), `"seq":3,"t":19`) || !strings.Contains(string(moved), "WC3-G1") {
		t.Errorf(".damaged holds %q; want the damaged line and the ones after", moved)
	}
	// The journal goes on from the good prefix.
	if err := j.Append(Turn{Seq: 3, T: 50, Notation: "GF2-G4", Missed: false}); err != nil {
		t.Fatal(err)
	}
}

// Journals written before checksums load as they are, and are written
// with checksums from then on.
func TestLegacyJournalLoads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	legacy := "{\"op\":\"game\",\"seq\":1,\"t\":0,\"variant\":\"37\",\"mode\":\"casual\",\"players\":[\"a\",\"b\"]}\n" +
		"{\"op\":\"turn\",\"seq\":2,\"t\":10,\"turn\":\"WD4-A1\"}\n"
	os.WriteFile(path, []byte(legacy), 0o644)
	j, g, err := Open(path)
	if err != nil || j.Damage() != nil || g == nil || g.Game.Len() != 1 {
		t.Fatalf("Open(legacy) = %+v, damage %v, %v", g, j.Damage(), err)
	}
	j.Close()
	data, _ := os.ReadFile(path)
	if strings.Count(string(data), `"crc":"`) != 2 {
		t.Errorf("rewritten journal without checksums:\n%s", data)
	}
}

// A take-back request names the last turn and a player; it is kept until
// answered, a turn or a take-back answers it, and a bad one is refused.
func TestTakebackRequestEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { j.Close() }()
	if err := j.Append(NewGame{Seq: 1, T: 0, Variant: "37", First: 0, Mode: "tournament", Players: [2]string{}}); err != nil {
		t.Fatal(err)
	}
	if g, _, _ := Read(path); checkRequest(g, &Request{Turn: 1, By: 1}) == nil {
		t.Error("a request with no turn played would replay")
	}
	if err := j.Append(Turn{Seq: 2, T: 10, Notation: "WD4-A1", Missed: false}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Request{{Turn: 1, By: 2}, {Turn: 0, By: 0}} {
		if err := j.Append(TakebackRequest{Seq: 2, T: 20, Request: &bad}); err == nil {
			t.Errorf("request %+v written", bad)
		}
	}
	if g, _, _ := Read(path); checkRequest(g, &Request{Turn: 2, By: 1}) == nil {
		t.Error("a request for turn 2 of 1 would replay")
	}
	if err := j.Append(TakebackRequest{Seq: 2, T: 20, Request: &Request{Turn: 1, By: 1}}); err != nil {
		t.Fatal(err)
	}
	reopen := func() *Game {
		t.Helper()
		j.Close()
		var g *Game
		j, g, err = Open(path)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	if g := reopen(); g.Request == nil || *g.Request != (Request{Turn: 1, By: 1}) || g.Seq != 2 {
		t.Fatalf("reopened: request %+v, seq %d", g.Request, g.Seq)
	}
	if err := j.Append(TakebackRequest{Seq: 2, T: 30, Request: nil}); err != nil {
		t.Fatal(err)
	}
	if g := reopen(); g.Request != nil {
		t.Fatalf("a refused request came back: %+v", g.Request)
	}
	j.Append(TakebackRequest{Seq: 2, T: 40, Request: &Request{Turn: 1, By: 1}})
	if err := j.Append(Turn{Seq: 3, T: 50, Notation: "GC3-A2", Missed: false}); err != nil {
		t.Fatal(err)
	}
	if g := reopen(); g.Request != nil || g.Game.Len() != 2 {
		t.Fatalf("after the next turn: request %+v, %d turns", g.Request, g.Game.Len())
	}
}

// Questions and answers: an answer marks its turns answered; a take-back
// unmarks them; a compaction keeps them, and so does reopening.
func TestQuestionAndAnswerEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(j.Append(NewGame{Seq: 1, T: 0, Variant: "37", First: 0, Mode: "casual", Players: [2]string{"a", "b"}}))
	must(j.Append(Turn{Seq: 2, T: 10, Notation: "WD4-A1", Missed: false}))
	must(j.Append(Turn{Seq: 3, T: 10, Notation: "GF2-G4", Missed: false}))
	must(j.Append(Question{Seq: 3, T: 10, QA: QA{ID: 1, Turn: 1, About: "turns", Options: []string{"WD4-A1 GF2-G4", "GF2-G4 WD4-A1"}}}))
	must(j.Append(Answer{Seq: 3, T: 20, QA: QA{ID: 1, Option: 0, Turns: []int{1, 2}}}))
	answered := func() []int {
		t.Helper()
		g, d, err := Read(path)
		if err != nil || d != nil {
			t.Fatalf("Read = %v, %v", d, err)
		}
		return g.Answered
	}
	if a := answered(); len(a) != 2 || a[1] != 2 {
		t.Fatalf("answered %v; want [1 2]", a)
	}
	if g, _, _ := Read(path); checkQAFits(g, &QA{ID: 2, Turns: []int{3}}) == nil {
		t.Error("an answer for turn 3 of 2 would replay")
	}
	if err := j.Append(Question{Seq: 3, T: 20, QA: QA{ID: 3, Options: make([]string, 17)}}); err == nil {
		t.Error("a question of 17 options was written")
	}
	must(j.Append(Takeback{Seq: 4, T: 30, N: 1}))
	if a := answered(); len(a) != 1 {
		t.Fatalf("after a take-back answered %v; want [1]", a)
	}
	j.compact()
	if a := answered(); len(a) != 1 || a[0] != 1 || j.Compactions != 1 {
		t.Fatalf("after compaction: answered %v, %d compactions", a, j.Compactions)
	}
	must(j.Close())
	j, g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if g.Game.Len() != 1 || len(g.Answered) != 1 {
		t.Errorf("reopened: %d turns, answered %v", g.Game.Len(), g.Answered)
	}
}

// TestNamingSurvives: the tournament and round named with the players
// apply field by field (a nil one stays), a game entry carries them on,
// and Open (which compacts to the current game) keeps them.
func TestNamingSurvives(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.journal")
	j, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	str := func(s string) *string { return &s }
	must(j.Append(NewGame{Seq: 1, T: 0, Variant: "37", First: 0, Mode: "tournament", Players: [2]string{"ann", "bob"}}))
	naming := func() Naming {
		t.Helper()
		g, _, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		return g.Naming
	}
	if n := naming(); n.Event != nil || n.Round != nil {
		t.Fatalf("a new journal names %v %v", n.Event, n.Round)
	}
	must(j.Append(Players{Seq: 2, T: 10, Players: [2]string{"ann", "bob"}, Naming: Naming{Event: str("Open"), Round: str("1")}}))
	must(j.Append(Players{Seq: 3, T: 20, Players: [2]string{"ann", "cat"}, Naming: Naming{Round: str("2")}}))
	must(j.Append(NewGame{Seq: 4, T: 30, Variant: "37", First: 0, Mode: "tournament", Players: [2]string{"ann", "cat"}, Naming: naming(), Control: "none", Clock: nil, Engine: nil}))
	must(j.Append(Turn{Seq: 5, T: 40, Notation: "WD4-A1", Missed: false}))
	must(j.Close())
	for range 2 { // reopened, then reopened after that compaction
		j, g, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := g.Naming; n.Event == nil || *n.Event != "Open" || n.Round == nil || *n.Round != "2" || g.Players[1] != "cat" || g.Game.Len() != 1 {
			t.Fatalf("reopened: naming %v %v, players %v, %d turns", n.Event, n.Round, g.Players, g.Game.Len())
		}
		must(j.Close())
	}
	raw, _ := os.ReadFile(path)
	if !strings.Contains(string(raw), `"event":"Open","round":"2"`) {
		t.Errorf("the compacted journal does not name them:\n%s", raw)
	}
}

// The arbiter's notes are kept with the game at the turns played when
// they were given: across a reopen, a take-back (the notes after the
// turns taken back come to the turns left) and a compaction.
func TestNotesSurvive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.journal")
	j, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	note := func(seq uint64, text string) Arbiter {
		fields, _ := json.Marshal(map[string]string{"text": text})
		return Arbiter{Seq: seq, T: int64(seq) * 10, Command: "note", ID: "n", Fields: fields}
	}
	must(j.Append(NewGame{Seq: 1, Variant: "37", Mode: "tournament", Players: [2]string{"ann", "bob"}}))
	must(j.Append(Turn{Seq: 2, T: 10, Notation: "WD4-A1"}))
	must(j.Append(NewGame{Seq: 3, T: 20, Variant: "37", Mode: "tournament", Players: [2]string{"ann", "bob"}}))
	must(j.Append(note(3, "before the start")))
	must(j.Append(Turn{Seq: 4, T: 40, Notation: "WD4-A1"}))
	must(j.Append(Arbiter{Seq: 4, T: 45, Command: "pause", Fields: json.RawMessage(`{}`)}))
	must(j.Append(note(4, `after turn 1: "quotes" ] \ é`)))
	must(j.Append(Turn{Seq: 5, T: 50, Notation: "BE2-G1"}))
	must(j.Append(note(5, "after turn 2, which is taken back")))
	must(j.Append(Takeback{Seq: 6, T: 60, N: 1}))
	must(j.Append(Turn{Seq: 7, T: 70, Notation: "GE2-G1"}))
	must(j.Append(note(7, "after turn 2 again")))
	must(j.Close())
	want := []record.Note{{Turn: 0, Text: "before the start"}, {Turn: 1, Text: `after turn 1: "quotes" ] \ é`}, {Turn: 1, Text: "after turn 2, which is taken back"}, {Turn: 2, Text: "after turn 2 again"}}
	j, g, err := Open(path) // the older game is compacted away
	must(err)
	if !reflect.DeepEqual(g.Notes, want) || g.Game.Len() != 2 {
		t.Fatalf("reopened: %d turns, notes %q; want %q", g.Game.Len(), g.Notes, want)
	}
	// The next append compacts the file to a snapshot of the game.
	j.CompactAt = 1
	must(j.Append(note(7, "once more")))
	must(j.Close())
	if j.Compactions == 0 {
		t.Fatal("the journal was not compacted")
	}
	want = append(want, record.Note{Turn: 2, Text: "once more"})
	raw, _ := os.ReadFile(path)
	if n := strings.Count(string(raw), `"command":"note"`); n != 5 || strings.Contains(string(raw), `"pause"`) || strings.Contains(string(raw), `"takeback"`) {
		t.Errorf("the snapshot has %d notes (want 5, and no other arbiter entry or take-back):\n%s", n, raw)
	}
	j, g, err = Open(path)
	must(err)
	if !reflect.DeepEqual(g.Notes, want) || g.Game.Len() != 2 {
		t.Fatalf("reopened after the compaction: %d turns, notes %q; want %q\n%s", g.Game.Len(), g.Notes, want, raw)
	}
	must(j.Close())

	// A note out of bounds is refused, and in a file it does not apply:
	// it is damage.
	for _, bad := range []string{strings.Repeat("x", record.MaxNote+1), "", "a\tb"} {
		path := filepath.Join(t.TempDir(), "bad.journal")
		j, _, _ := Open(path)
		must(j.Append(NewGame{Seq: 1, Variant: "37", Mode: "casual"}))
		if err := j.Append(note(1, bad)); err == nil || !strings.Contains(err.Error(), "note") {
			t.Errorf("Append(note %q) = %v; want it refused", bad, err)
		}
		must(j.Close())
		fields, _ := json.Marshal(map[string]string{"text": bad})
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		must(err)
		fmt.Fprintf(f, `{"op":"arbiter","seq":1,"t":5,"command":"note","fields":%s}`+"\n", fields)
		must(f.Close())
		j, g, err := Open(path)
		must(err)
		if d := j.Damage(); d == nil || !strings.Contains(d.Reason, "note") || len(g.Notes) != 0 {
			t.Errorf("note %q in the file: damage %+v, notes %q", bad, d, g.Notes)
		}
		must(j.Close())
	}
}

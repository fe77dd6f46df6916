package journal

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The clocks, an arbiter's command and an ending off the board survive a
// restart, with every turn's time.
func TestJournalKeepsClocks(t *testing.T) {
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
	ck := func(a, b int64, run int, turn int64) *Clock {
		return &Clock{Remaining: [2]int64{a, b}, Running: run, Flag: -1, TurnMS: turn}
	}
	must(j.Append(NewGame{Seq: 1, T: 0, Variant: "37", First: 0, Mode: "tournament", Players: [2]string{"ann", "bob"}, Control: "fischer:1m+5s", Clock: ck(60000, 60000, 0, 0)}))
	must(j.Append(Turn{Seq: 2, T: 3000, Notation: "WD4-A1", Missed: false, Clock: ck(62000, 60000, 1, 3000)}))
	must(j.Append(Turn{Seq: 3, T: 7000, Notation: "GE4-G4", Missed: false, Clock: ck(62000, 61000, 0, 4000)}))
	must(j.Append(Turn{Seq: 4, T: 8000, Notation: "BA4-A3", Missed: true, Clock: ck(66000, 61000, 1, 1000)}))
	must(j.Append(Takeback{Seq: 5, T: 9000, N: 1, Clock: ck(66000, 60000, 0, 0)}))
	must(j.Append(ClockEvent{Seq: 5, T: 19000, Clock: *ck(56000, 60000, 0, 0)})) // checkpoint: same seq
	must(j.Append(Arbiter{Seq: 5, T: 19500, Command: "pause", ID: "c1", Fields: json.RawMessage(`{}`)}))
	paused := ck(55500, 60000, 0, 0)
	paused.Paused = true
	must(j.Append(ClockEvent{Seq: 6, T: 19500, Clock: *paused}))
	if err := j.Append(Arbiter{Seq: 6, T: 19600, Command: "add-time", ID: "", Fields: json.RawMessage(`{"player":`)}); err == nil {
		t.Error("an arbiter entry with broken fields was journalled")
	}
	w := 1
	must(j.Append(Ended{Seq: 7, T: 20000, End: End{Winner: &w, Reason: "resignation", Note: "felt ill"}, Clock: paused}))
	// A turn after the end, if a bug wrote one, is damage at Open: never
	// part of the game.
	must(j.Append(Turn{Seq: 8, T: 21000, Notation: "BA4-A3", Missed: false, Clock: nil}))
	must(j.Close())

	j, g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if d := j.Damage(); d == nil || !strings.Contains(d.Reason, "ended") || d.Dropped != 1 {
		t.Errorf("damage %+v; want the turn after the end", d)
	}
	if g.Control != "fischer:1m+5s" || g.GameSeq != 1 || g.Seq != 7 || g.Game.Len() != 2 {
		t.Errorf("resumed control %q, game seq %d, seq %d, %d turns", g.Control, g.GameSeq, g.Seq, g.Game.Len())
	}
	if g.Clock == nil || g.Clock.Remaining != [2]int64{55500, 60000} || !g.Clock.Paused {
		t.Errorf("resumed clock %+v", g.Clock)
	}
	want := []TurnClock{{3000, [2]int64{62000, 60000}}, {4000, [2]int64{62000, 61000}}}
	if len(g.Clocks) != 2 || g.Clocks[0] != want[0] || g.Clocks[1] != want[1] {
		t.Errorf("turn clocks %+v; want %+v", g.Clocks, want)
	}
	if g.End == nil || *g.End.Winner != 1 || g.End.Reason != "resignation" || g.End.Note != "felt ill" {
		t.Errorf("end %+v", g.End)
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), `"op":"arbiter"`); n != 1 {
		t.Errorf("%d arbiter entries after compaction; want 1:\n%s", n, data)
	}
}

// Turns journalled before clocks existed leave the turn times unknown, not
// wrong.
func TestJournalTurnTimesIncomplete(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.journal")
	j, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Append(NewGame{Seq: 1, T: 0, Variant: "37", First: 0, Mode: "casual", Players: [2]string{}})
	j.Append(Turn{Seq: 2, T: 100, Notation: "WD4-A1", Missed: false})
	j.Append(Turn{Seq: 3, T: 200, Notation: "GE4-G4", Missed: false, Clock: &Clock{Running: 0, Flag: -1, TurnMS: 100}})
	j.Close()
	_, g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if g.Clocks != nil || g.Control != "" || g.Clock == nil {
		t.Errorf("clocks %+v, control %q, clock %+v", g.Clocks, g.Control, g.Clock)
	}
}

func TestJournalRefusesBadEnds(t *testing.T) {
	j, _, err := Open(filepath.Join(t.TempDir(), "j"))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	j.Append(NewGame{Seq: 1, T: 0, Variant: "37", First: 0, Mode: "casual", Players: [2]string{}})
	two := 2
	for _, e := range []End{{Reason: "boredom"}, {Reason: "time", Winner: &two}} {
		if err := j.Append(Ended{Seq: 2, T: 0, End: e, Clock: nil}); err == nil {
			t.Errorf("End(%+v) journalled", e)
		}
	}
	if err := j.Append(ClockEvent{Seq: 2, T: 0, Clock: Clock{}}); err != nil {
		t.Error(err)
	}
}

// A clock checkpoint damaged on disk (a bit flipped in the time) is caught
// by its checksum: the clocks resume from the entry before it.
func TestDamagedClockCheckpoint(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Append(NewGame{Seq: 1, T: 0, Variant: "37", First: 0, Mode: "casual", Players: [2]string{}, Control: "sudden:5m", Clock: nil})
	j.Append(ClockEvent{Seq: 1, T: 10000, Clock: Clock{Remaining: [2]int64{290000, 300000}, Running: 0, Flag: -1}})
	j.Append(ClockEvent{Seq: 1, T: 20000, Clock: Clock{Remaining: [2]int64{280000, 300000}, Running: 0, Flag: -1}})
	j.Close()
	data, _ := os.ReadFile(path)
	bad := strings.Replace(string(data), "280000", "980000", 1) // valid JSON, wrong time
	os.WriteFile(path, []byte(bad), 0o644)
	j, g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if d := j.Damage(); d == nil || d.Line != 3 || !strings.Contains(d.Reason, "checksum") {
		t.Errorf("damage %+v", d)
	}
	if g.Clock == nil || g.Clock.Remaining != [2]int64{290000, 300000} {
		t.Errorf("resumed clock %+v; want the checkpoint before the damage", g.Clock)
	}
}

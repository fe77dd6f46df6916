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
	must(j.NewTimedGame(1, 0, "37", 0, "tournament", [2]string{"ann", "bob"}, "fischer:1m+5s", ck(60000, 60000, 0, 0)))
	must(j.TimedTurn(2, 3000, "WD4-A1", false, ck(62000, 60000, 1, 3000)))
	must(j.TimedTurn(3, 7000, "GE4-G4", false, ck(62000, 61000, 0, 4000)))
	must(j.TimedTurn(4, 8000, "BA4-A3", true, ck(66000, 61000, 1, 1000)))
	must(j.TimedTakeback(5, 9000, 1, ck(66000, 60000, 0, 0)))
	must(j.Clock(5, 19000, *ck(56000, 60000, 0, 0))) // checkpoint: same seq
	must(j.Arbiter(5, 19500, "pause", "c1", json.RawMessage(`{}`)))
	paused := ck(55500, 60000, 0, 0)
	paused.Paused = true
	must(j.Clock(6, 19500, *paused))
	if err := j.Arbiter(6, 19600, "add-time", "", json.RawMessage(`{"player":`)); err == nil {
		t.Error("an arbiter entry with broken fields was journalled")
	}
	w := 1
	must(j.End(7, 20000, End{Winner: &w, Reason: "resignation", Note: "felt ill"}, paused))
	if err := j.TimedTurn(8, 21000, "BA4-A3", false, nil); err == nil || !strings.Contains(err.Error(), "ended") {
		t.Errorf("a turn after the end was journalled: %v", err)
	}
	must(j.Close())

	j, g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
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
	j.NewGame(1, 0, "37", 0, "casual", [2]string{})
	j.Turn(2, 100, "WD4-A1", false)
	j.TimedTurn(3, 200, "GE4-G4", false, &Clock{Running: 0, Flag: -1, TurnMS: 100})
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
	j.NewGame(1, 0, "37", 0, "casual", [2]string{})
	two := 2
	for _, e := range []End{{Reason: "boredom"}, {Reason: "time", Winner: &two}} {
		if err := j.End(2, 0, e, nil); err == nil {
			t.Errorf("End(%+v) journalled", e)
		}
	}
	if err := j.Clock(2, 0, Clock{}); err != nil {
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
	j.NewTimedGame(1, 0, "37", 0, "casual", [2]string{}, "sudden:5m", nil)
	j.Clock(1, 10000, Clock{Remaining: [2]int64{290000, 300000}, Running: 0, Flag: -1})
	j.Clock(1, 20000, Clock{Remaining: [2]int64{280000, 300000}, Running: 0, Flag: -1})
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

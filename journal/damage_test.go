package journal

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// twoGames writes an older game of two turns and a current one of four,
// and returns the file's lines.
func twoGames(t *testing.T, path string) []string {
	t.Helper()
	j, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	j.CompactAt = 0
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(j.Append(NewGame{Seq: 1, T: 0, Variant: "37", First: 0, Mode: "casual", Players: [2]string{"old", "game"}}))
	must(j.Append(Turn{Seq: 2, T: 10, Notation: "WD4-A1", Missed: false}))
	must(j.Append(Turn{Seq: 3, T: 20, Notation: "GF2-G4", Missed: false}))
	must(j.Append(NewGame{Seq: 4, T: 30, Variant: "37", First: 0, Mode: "casual", Players: [2]string{"ann", "bob"}}))
	for i, turn := range []string{"WD4-A1", "GF2-G4", "BB3-A4", "WC3-G1"} {
		must(j.Append(Turn{Seq: uint64(5 + i), T: int64(40 + 10*i), Notation: turn, Missed: false}))
	}
	j.Close()
	data, _ := os.ReadFile(path)
	return strings.SplitAfter(string(data), "\n")
}

// Finding: a flipped byte in an older game dropped the current game.
// Each game is checked on its own: the current one resumes whole, and the
// damage is still reported and moved aside.
func TestDamageInAnOlderGameKeepsTheCurrentGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	lines := twoGames(t, path)
	lines[1] = strings.Replace(lines[1], `"t":10`, `"t":11`, 1) // the older game's first turn
	os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
	j, g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if g == nil || g.Players != [2]string{"ann", "bob"} || g.Game.Len() != 4 {
		t.Fatalf("resumed %+v; want the current game's 4 turns", g)
	}
	d := j.Damage()
	if d == nil || !d.Older || d.Line != 2 || d.Lines != 1 || d.Turns != 4 || d.Dropped != 0 || d.Moved != path+".damaged" {
		t.Fatalf("damage %+v; want line 2 in an older game, the current game whole, moved aside", d)
	}
	moved, _ := os.ReadFile(d.Moved)
	if !strings.Contains(string(moved), `"t":11`) {
		t.Errorf(".damaged holds %q; want the bad line", moved)
	}
}

// Finding: a truncation in mid-file (bytes lost across two lines)
// silently resumed an older game. In the older game it costs nothing;
// inside the current game the game resumes up to it and says how many
// lines it did not resume.
func TestTruncationInMidFile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cut     int // the line whose end is lost with the next line's start
		turns   int
		older   bool
		dropped int
	}{
		{"in the older game", 1, 4, true, 0},
		{"in the current game", 5, 1, false, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "j")
			lines := twoGames(t, path)
			joined := lines[tc.cut][:len(lines[tc.cut])/2] + lines[tc.cut+1][len(lines[tc.cut+1])/2:]
			out := append(append(append([]string(nil), lines[:tc.cut]...), joined), lines[tc.cut+2:]...)
			os.WriteFile(path, []byte(strings.Join(out, "")), 0o644)
			j, g, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			d := j.Damage()
			if d == nil {
				t.Fatal("no damage reported")
			}
			if g.Players != [2]string{"ann", "bob"} || g.Game.Len() != tc.turns || d.Older != tc.older || d.Dropped != tc.dropped || d.Turns != tc.turns {
				t.Errorf("resumed %v with %d turns, damage %+v; want the current game with %d turns, older %v, %d dropped", g.Players, g.Game.Len(), d, tc.turns, tc.older, tc.dropped)
			}
			if !strings.Contains(d.Error(), fmt.Sprintf("%d turns", tc.turns)) || !strings.Contains(d.Error(), d.Moved) {
				t.Errorf("message %q lacks the counts or the path", d.Error())
			}
		})
	}
}

// Finding: when PATH.damaged could not be written, the damaged lines were
// thrown away. Now the journal refuses to open, naming the path.
func TestDamageThatCannotBeMovedAsideRefusesToOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	lines := twoGames(t, path)
	lines[6] = strings.Replace(lines[6], `"t":60`, `"t":61`, 1)
	os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
	os.Mkdir(path+".damaged", 0o755) // cannot be appended to
	before, _ := os.ReadFile(path)
	if _, _, err := Open(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("Open = %v; want a refusal naming %s", err, path)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the journal was rewritten although its damage could not be moved aside")
	}
}

// Finding: a journal path that is a directory, or that cannot be written,
// left the board without a journal. Open refuses both.
func TestUnwritableJournalRefused(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := Open(dir); err == nil {
		t.Error("Open(a directory) succeeded")
	}
	// /proc/self is not writable even for root.
	if _, _, err := Open("/proc/self/zertzboard-journal"); err == nil {
		t.Error("Open in an unwritable directory succeeded")
	}
}

// Finding: the journal was compacted only at start, so a flood of
// set-players grew it without bound (54 MB: 390 MB and 2.8 s to start).
// It now compacts while running, and the compacted file replays to the
// same game, clocks, request and all.
func TestCompactsWhileRunning(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	j.CompactAt = 8 << 10
	m := &model{j: j}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	ck := func(a, b int64, run int, turn int64) *Clock {
		return &Clock{Remaining: [2]int64{a, b}, Running: run, Flag: -1, TurnMS: turn}
	}
	must(m.add(NewGame{Seq: 1, T: 0, Variant: "37", First: 1, Mode: "tournament", Players: [2]string{"ann", "bob"}, Control: "fischer:1m+5s", Clock: ck(60000, 60000, 0, 0)}))
	must(m.add(Turn{Seq: 2, T: 3000, Notation: "WD4-A1", Missed: false, Clock: ck(62000, 60000, 1, 3000)}))
	must(m.add(Turn{Seq: 3, T: 7000, Notation: "GE4-G4", Missed: false, Clock: ck(62000, 61000, 0, 4000)}))
	must(m.add(Takeback{Seq: 4, T: 7500, N: 1, Clock: ck(62000, 60000, 1, 0)}))
	must(m.add(Turn{Seq: 5, T: 8000, Notation: "GE4-G4", Missed: false, Clock: ck(62000, 61000, 0, 4000)}))
	must(m.add(Turn{Seq: 6, T: 9000, Notation: "BA4-A3", Missed: true, Clock: ck(66000, 61000, 1, 1000)}))
	must(m.add(TakebackRequest{Seq: 6, T: 9600, Request: &Request{Turn: 3, By: 1}}))
	maxSize := int64(0)
	for i := 0; i < 300; i++ {
		must(m.add(Arbiter{Seq: 6 + uint64(i), T: int64(10000 + i), Command: "set-players", ID: fmt.Sprint("c", i), Fields: json.RawMessage(`{"players":["x","y"]}`)}))
		must(m.add(Players{Seq: 7 + uint64(i), T: int64(10000 + i), Players: [2]string{"ann", fmt.Sprint("bob-", i)}}))
		fi, _ := os.Stat(path)
		maxSize = max(maxSize, fi.Size())
	}
	if j.Compactions == 0 {
		t.Fatal("never compacted while running")
	}
	if maxSize > 2*j.CompactAt {
		t.Errorf("the file reached %d bytes; want it kept near %d", maxSize, j.CompactAt)
	}
	want := m.g
	j.Close()
	j2, got, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j2.Close()
	if j2.Damage() != nil {
		t.Fatalf("damage after compaction: %v", j2.Damage())
	}
	if !sameGame(got, want) {
		t.Errorf("reopened after compaction:\n%+v\nwant\n%+v", got, want)
	}
	if got.Game.Len() != 3 || got.Request == nil || got.Clock == nil || len(got.Clocks) != 3 || len(got.Missed) != 1 || got.Players[1] != "bob-299" {
		t.Errorf("reopened game lost something: %+v", got)
	}
}

// BenchmarkOpenAfterFlood: start time after a flood of set-players, which
// the compaction keeps bounded (it was 2.8 s for a 54 MB journal).
func BenchmarkOpenAfterFlood(b *testing.B) {
	path := filepath.Join(b.TempDir(), "j")
	j, _, _ := Open(path)
	j.Append(NewGame{Seq: 1, T: 0, Variant: "37", First: 0, Mode: "casual", Players: [2]string{"ann", "bob"}})
	for i := 0; i < 5000; i++ {
		j.Append(Players{Seq: uint64(2 + i), T: int64(i), Players: [2]string{"ann", fmt.Sprint("bob-", i)}})
	}
	j.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j, _, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		j.Close()
	}
	fi, _ := os.Stat(path)
	b.ReportMetric(float64(fi.Size()), "journal-bytes")
}

// Random games with take-backs, renamed players, clocks and ends: every
// compaction's snapshot replays to the very game (else compact would
// leave the file as it was and Compactions would not count it).
func TestSnapshotReplaysRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 19))
	for game := 0; game < 15; game++ {
		path := filepath.Join(t.TempDir(), "j")
		j, _, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		j.CompactAt = 1 // compact after every entry
		m := &model{j: j}
		seq, ms := uint64(1), int64(0)
		variant := []string{"37", "48", "61", "37b"}[rng.IntN(4)]
		clk := func() *Clock {
			return &Clock{Remaining: [2]int64{rng.Int64N(600000), rng.Int64N(600000)}, Running: rng.IntN(3) - 1, Flag: -1, Used: [2]int64{rng.Int64N(9000), 0}, TurnMS: rng.Int64N(9000)}
		}
		if err := m.add(NewGame{Seq: seq, T: ms, Variant: variant, First: rng.IntN(2), Mode: "tournament", Players: [2]string{"a", "b"}, Control: "fischer:10m+5s", Clock: clk()}); err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 40; step++ {
			seq++
			ms += rng.Int64N(5000)
			g := m.g
			var err error
			switch r := rng.IntN(10); {
			case r < 6 && g.End == nil:
				turns := g.Game.Position().LegalTurns(nil)
				if len(turns) == 0 {
					continue
				}
				tn := turns[rng.IntN(len(turns))]
				err = m.add(Turn{Seq: seq, T: ms, Notation: engine.FormatTurn(g.Game.Position().Board(), tn), Missed: false, Clock: clk()})
			case r == 6 && g.End == nil && g.Game.Len() > 0:
				err = m.add(Takeback{Seq: seq, T: ms, N: 1 + rng.IntN(g.Game.Len()), Clock: clk()})
			case r == 7:
				err = m.add(Players{Seq: seq, T: ms, Players: [2]string{fmt.Sprint("p", rng.IntN(99)), "q"}})
			case r == 8:
				err = m.add(ClockEvent{Seq: seq, T: ms, Clock: *clk()})
			case r == 9 && g.End == nil && g.Game.Len() > 0 && rng.IntN(4) == 0:
				err = m.add(TakebackRequest{Seq: seq, T: ms, Request: &Request{Turn: g.Game.Len(), By: rng.IntN(2)}})
			}
			if err != nil {
				t.Fatalf("game %d step %d: %v", game, step, err)
			}
			if snapshot(m.g) == nil {
				t.Fatalf("game %d step %d: the snapshot does not replay to the game", game, step)
			}
		}
		want := m.g
		n := j.Compactions
		j.Close()
		if n == 0 {
			t.Fatalf("game %d: never compacted", game)
		}
		j2, got, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if !sameGame(got, want) {
			t.Fatalf("game %d: reopened game differs from the one journalled", game)
		}
		j2.Close()
	}
}

// model appends to a journal and replays each entry apart from it: the
// game the journal's file must hold.
type model struct {
	j *Journal
	g *Game
}

func (m *model) add(e Entry) error {
	if err := m.j.Append(e); err != nil {
		return err
	}
	g, err := apply(m.g, e.Line())
	if err != nil {
		return fmt.Errorf("the test's entry %+v does not fit its game: %w", e.Line(), err)
	}
	m.g = g
	return nil
}

// BenchmarkAppendFlood: one set-players entry (the arbiter's command and
// the names) appended and synced, compactions included: the cost of a
// flood of commands.
func BenchmarkAppendFlood(b *testing.B) {
	path := filepath.Join(b.TempDir(), "j")
	j, _, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	j.CompactAt = 64 << 10
	if err := j.Append(NewGame{Seq: 1, Variant: "37", Mode: "casual"}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		seq := uint64(2 + i)
		j.Append(Arbiter{Seq: seq - 1, T: int64(i), Command: "set-players", ID: "c", Fields: json.RawMessage(`{"players":["ann","bob"]}`)})
		if err := j.Append(Players{Seq: seq, T: int64(i), Players: [2]string{"ann", fmt.Sprint("bob-", i)}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(j.Compactions), "compactions")
}

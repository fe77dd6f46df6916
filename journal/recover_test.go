package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// Journals written by the journal before typed entries (testdata, see
// PROVENANCE.md) open and resume exactly as they did: the same game, and
// the file rewritten to the same bytes. A torn last line is still
// dropped, and the journal goes on after them.
func TestV1JournalsResumeAsBefore(t *testing.T) {
	for _, name := range []string{"v1-every-entry.jsonl", "v1-sim-tournament.jsonl"} {
		for _, torn := range []string{"", `{"op":"turn","seq":99,"t":1,"tu`} {
			data, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			resumed, _ := os.ReadFile(filepath.Join("testdata", name+".resumed"))
			opened, _ := os.ReadFile(filepath.Join("testdata", name+".opened"))
			path := filepath.Join(t.TempDir(), "journal.jsonl")
			os.WriteFile(path, append(data, torn...), 0o644)
			j, g, err := Open(path)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if d := j.Damage(); d != nil {
				t.Errorf("%s: damage %v", name, d)
			}
			if got := describe(g); got != string(resumed) {
				t.Errorf("%s (torn tail %q) resumed\n%s\nwant (as commit 2eb6886 did)\n%s", name, torn, got, resumed)
			}
			if got, _ := os.ReadFile(path); string(got) != string(opened) {
				t.Errorf("%s: Open rewrote the file as\n%s\nwant\n%s", name, got, opened)
			}
			// It goes on: a turn of the resumed game (the players renamed
			// when it is over), then reopened.
			var e Entry = Players{Seq: g.Seq + 1, T: g.T + 1, Players: [2]string{"x", "y"}}
			turns := g.Game.Len()
			if p := g.Game.Position(); len(p.LegalTurns(nil)) > 0 {
				e, turns = Turn{Seq: g.Seq + 1, T: g.T + 1, Notation: formatTurn(p, p.LegalTurns(nil)[0])}, turns+1
			}
			if err := j.Append(e); err != nil {
				t.Fatal(err)
			}
			j.Close()
			j, g2, err := Open(path)
			if err != nil || j.Damage() != nil || g2.Game.Len() != turns || g2.Seq != g.Seq+1 {
				t.Fatalf("%s: after %+v: %v, damage %v", name, e, err, j.Damage())
			}
			j.Close()
		}
	}
}

// devFull opens /dev/full, the disk that is always full, or skips.
func devFull(t *testing.T) *os.File {
	t.Helper()
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	return f
}

// A journal whose file is swapped for /dev/full in mid-game: the failed
// write says so (ENOSPC, the entries kept), the file keeps what it held,
// and the next append resyncs and writes the lost entry before its own:
// the journal is whole and the game goes on.
func TestFailedWriteRecoversOnTheNextAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	m := &model{j: j}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(m.add(NewGame{Seq: 1, Variant: "37", Mode: "casual", Players: [2]string{"ann", "bob"}}))
	must(m.add(Turn{Seq: 2, T: 10, Notation: "WD4-A1"}))
	j.f.Close()
	j.f = devFull(t) // the disk fills up

	err = j.Append(Turn{Seq: 3, T: 20, Notation: "GF2-G4"})
	var we *WriteError
	if !errors.As(err, &we) || !errors.Is(err, syscall.ENOSPC) || we.Pending != 1 || !strings.Contains(err.Error(), path) {
		t.Fatalf("Append on a full disk = %v; want a *WriteError naming %s, ENOSPC, 1 entry kept", err, path)
	}
	if j.Fault() == nil {
		t.Error("Fault() = nil while an entry is not on disk")
	}
	if g, d, err := Read(path); err != nil || d != nil || g.Game.Len() != 1 {
		t.Fatalf("the file after the failed write: %v, damage %v", err, d)
	}
	// The disk works again: the next append writes both turns.
	must(j.Append(Turn{Seq: 4, T: 30, Notation: "BB3-A4"}))
	if j.Fault() != nil {
		t.Errorf("Fault() = %v after the write succeeded", j.Fault())
	}
	applyModel(t, m, Turn{Seq: 3, T: 20, Notation: "GF2-G4"}, Turn{Seq: 4, T: 30, Notation: "BB3-A4"})
	checkWhole(t, path, m.g)
}

// switchable is a journal file on a disk that can fill up: while on is
// set, its writes go to /dev/full; with cut set, the first such write
// lands in part first (half its bytes), as a write the disk fills up in
// the middle of.
type switchable struct {
	*os.File
	full    *os.File
	on, cut *atomic.Bool
}

func (s switchable) Write(b []byte) (int, error) {
	if !s.on.Load() {
		return s.File.Write(b)
	}
	if s.cut.CompareAndSwap(true, false) {
		n, _ := s.File.Write(b[:len(b)/2])
		_, err := s.full.Write(b[n:])
		return n, err
	}
	return s.full.Write(b)
}

// openSwitchable opens a journal on a new file whose writes go to
// /dev/full while on is set (cut short if cut is set too), with a game
// begun; m models what it should hold.
func openSwitchable(t *testing.T) (j *Journal, path string, m *model, on, cut *atomic.Bool) {
	t.Helper()
	full := devFull(t)
	t.Cleanup(func() { full.Close() })
	on, cut = new(atomic.Bool), new(atomic.Bool)
	path = filepath.Join(t.TempDir(), "j")
	j, _, err := Open(path, WithOpenFile(func(p string) (File, error) {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, err
		}
		return switchable{f, full, on, cut}, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	m = &model{j: j}
	if err := m.add(NewGame{Seq: 1, Variant: "37", Mode: "casual"}); err != nil {
		t.Fatal(err)
	}
	return j, path, m, on, cut
}

// A disk that stays full for a while: every retry (append or Retry)
// fails loudly and keeps the entries; a torn line the failure left is
// truncated; once the disk works, Retry writes them all, in order, and the
// file replays to the game.
func TestFailedWritesResyncOnceTheDiskWorks(t *testing.T) {
	j, path, m, on, cut := openSwitchable(t)
	on.Store(true)
	cut.Store(true)
	kept := []Entry{Turn{Seq: 2, T: 10, Notation: "WD4-A1"}, Players{Seq: 3, T: 15, Players: [2]string{"ann", "cat"}}, Turn{Seq: 4, T: 20, Notation: "GF2-G4"}}
	for i, e := range kept {
		var we *WriteError
		if err := j.Append(e); !errors.As(err, &we) || we.Pending != i+1 {
			t.Fatalf("append %d on a full disk = %v; want a *WriteError with %d entries kept", i, err, i+1)
		}
		if data, _ := os.ReadFile(path); i == 0 && strings.HasSuffix(string(data), "\n") {
			t.Fatalf("the first failed write left no torn line (%q): the test tests nothing", data)
		}
	}
	if err := j.Retry(); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Retry on a full disk = %v; want ENOSPC", err)
	}
	on.Store(false)
	if err := j.Retry(); err != nil {
		t.Fatalf("Retry once the disk works = %v", err)
	}
	if err := j.Retry(); err != nil || j.Fault() != nil {
		t.Fatalf("Retry with nothing kept = %v, fault %v", err, j.Fault())
	}
	applyModel(t, m, kept...)
	checkWhole(t, path, m.g)
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), "\n"); n != 4 || strings.Contains(string(data), `"tu`+"\n") {
		t.Errorf("the file holds %d lines; want 4 whole ones:\n%s", n, data)
	}
}

// Close writes what a failed write kept, if the disk takes it, and says
// so when it cannot.
func TestCloseWritesWhatWasKept(t *testing.T) {
	for _, stillFull := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "j")
		j, _, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		j.Append(NewGame{Seq: 1, Variant: "37", Mode: "casual"})
		j.f.Close()
		j.f = devFull(t)
		if err := j.Append(Turn{Seq: 2, T: 10, Notation: "WD4-A1"}); err == nil {
			t.Fatal("a write to /dev/full succeeded")
		}
		if stillFull {
			j.open = func(string) (File, error) { return os.OpenFile("/dev/full", os.O_WRONLY, 0) }
		}
		err = j.Close()
		g, _, _ := Read(path)
		if stillFull && (!errors.Is(err, syscall.ENOSPC) || g.Game.Len() != 0) {
			t.Errorf("Close on a full disk = %v, %d turns on disk; want ENOSPC", err, g.Game.Len())
		}
		if !stillFull && (err != nil || g.Game.Len() != 1) {
			t.Errorf("Close = %v, %d turns on disk; want the kept turn written", err, g.Game.Len())
		}
	}
}

// applyModel replays entries onto the model's game (entries the journal
// took while failing).
func applyModel(t *testing.T, m *model, es ...Entry) {
	t.Helper()
	for _, e := range es {
		g, err := apply(m.g, e.Line())
		if err != nil {
			t.Fatal(err)
		}
		m.g = g
	}
}

// checkWhole: the file replays, without damage, to want.
func checkWhole(t *testing.T, path string, want *Game) {
	t.Helper()
	got, d, err := Read(path)
	if err != nil || d != nil {
		t.Fatalf("Read = %v, damage %v", err, d)
	}
	if !sameGame(got, want) {
		t.Errorf("the file replays to\n%s\nwant\n%s", describe(got), describe(want))
	}
}

// A flood of entries while the disk stays full (set-players from the LAN
// for hours) cannot grow the memory without bound: past MaxPending the
// entries and the file are folded into a snapshot of the game, which
// replaces the file once the disk works.
func TestFloodOnAFullDiskIsFolded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	j.maxPending = 4 << 10
	m := &model{j: j}
	for _, e := range []Entry{NewGame{Seq: 1, Variant: "37", Mode: "tournament"}, Turn{Seq: 2, T: 10, Notation: "WD4-A1"}} {
		if err := m.add(e); err != nil {
			t.Fatal(err)
		}
	}
	j.f.Close()
	j.f = devFull(t)
	j.open = func(string) (File, error) { return os.OpenFile("/dev/full", os.O_WRONLY, 0) }
	j.rewrite = func(string, []byte) error { return syscall.ENOSPC } // the temporary file on the full disk
	seq := uint64(3)
	add := func(e Entry) {
		t.Helper()
		if err := j.Append(e); !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("append on a full disk = %v; want ENOSPC", err)
		}
		applyModel(t, m, e)
		seq++
	}
	most := 0
	for i := range 2000 {
		add(Arbiter{Seq: seq - 1, T: int64(i), Command: "set-players", ID: "c", Fields: []byte(`{"players":["x","y"]}`)})
		add(Players{Seq: seq, T: int64(i), Players: [2]string{"ann", strings.Repeat("b", i%50)}})
		if i == 1000 {
			add(Turn{Seq: seq, T: int64(i), Notation: "GF2-G4"})
		}
		most = max(most, len(j.pending))
	}
	if !j.whole || most > 3*j.maxPending {
		t.Fatalf("kept up to %d bytes in memory (folded: %v); want at most %d", most, j.whole, 3*j.maxPending)
	}
	// The disk works again: the snapshot replaces the file.
	j.open, j.rewrite = openFile, rewriteBytes
	if err := j.Retry(); err != nil {
		t.Fatal(err)
	}
	checkWhole(t, path, m.g)
	if err := m.add(Turn{Seq: seq, T: 3000, Notation: "BB3-A4"}); err != nil {
		t.Fatal(err)
	}
	checkWhole(t, path, m.g)
}

// A write the disk cut short leaves the file in doubt: even if the disk
// works at once, the retry first truncates the torn line it left.
func TestCutWriteIsResyncedBeforeTheRetry(t *testing.T) {
	j, path, m, on, cut := openSwitchable(t)
	on.Store(true)
	cut.Store(true)
	turn := Turn{Seq: 2, T: 10, Notation: "WD4-A1"}
	if err := j.Append(turn); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("a write cut short = %v; want ENOSPC", err)
	}
	on.Store(false)
	if err := j.Retry(); err != nil {
		t.Fatal(err)
	}
	applyModel(t, m, turn)
	checkWhole(t, path, m.g)
}

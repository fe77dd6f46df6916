package controller

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/referee"
)

// fullDisk is a journal file on a disk that fills up on demand: while on
// is set, its writes go to /dev/full and fail with ENOSPC.
type fullDisk struct {
	*os.File
	full *os.File
	on   *atomic.Bool
}

func (d fullDisk) Write(b []byte) (int, error) {
	if d.on.Load() {
		return d.full.Write(b)
	}
	return d.File.Write(b)
}

// openFillable opens the journal at path on a disk that fills up while
// on is set.
func openFillable(t *testing.T, path string, on *atomic.Bool) *journal.Journal {
	t.Helper()
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	t.Cleanup(func() { full.Close() })
	j, _, err := journal.Open(path, journal.WithOpenFile(func(p string) (journal.File, error) {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, err
		}
		return fullDisk{f, full, on}, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// journalFaults are the fault events about the journal.
func journalFaults(p *fakePub) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, e := range p.events {
		if f, ok := e.Body.(referee.Fault); ok && strings.HasPrefix(f.Reason, "journal: ") {
			out = append(out, f.Reason)
		}
	}
	return out
}

// The disk fills up in mid-game: the game goes on (every turn committed
// and broadcast), the failure is loud (the log, one fault event, the
// screen's hook) and, once the disk works, the next commit resyncs the
// journal, which then holds the whole game: a crash after it loses
// nothing.
func TestFullDiskMidGameRecovers(t *testing.T) {
	rec, frames := playFrames(t, "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf", 4)
	path := filepath.Join(t.TempDir(), "board.journal")
	var on atomic.Bool
	j := openFillable(t, path, &on)
	pub := &fakePub{}
	var screen []error
	var logged bytes.Buffer
	cfg := Config{BoardID: "b1", Variant: rec.Variant, First: rec.First, Players: rec.Players, Journal: j, Publisher: pub,
		OnJournalFault: func(err error) { screen = append(screen, err) }, Logger: slog.New(slog.NewTextHandler(&logged, nil))}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	next := 0
	playUntil := func(turn int) {
		t.Helper()
		for ; c.State().Turn < turn; next++ {
			if next == len(frames) {
				t.Fatalf("the game ended before turn %d", turn)
			}
			if err := c.Frame(frames[next].t, frames[next].cells); err != nil {
				t.Fatal(err)
			}
		}
	}
	playUntil(4)
	on.Store(true) // the disk is full
	playUntil(8)
	if st := c.State(); st.Turn != 8 || len(pub.moves) < 8 {
		t.Fatalf("the game did not go on: turn %d, %d moves broadcast", st.Turn, len(pub.moves))
	}
	if f := journalFaults(pub); len(f) != 1 || !strings.Contains(f[0], "write failed") || !strings.Contains(f[0], "no space left") {
		t.Errorf("journal fault events %q; want one saying the write failed (ENOSPC)", f)
	}
	if len(screen) != 1 || !errors.Is(screen[0], syscall.ENOSPC) {
		t.Errorf("the screen was told %v; want ENOSPC once", screen)
	}
	if n := strings.Count(logged.String(), `level=ERROR msg="journal write failed`); n < 4 {
		t.Errorf("the log says %d times that the journal write failed; want every failed turn's (4)", n)
	}
	if !errors.Is(c.JournalFault(), syscall.ENOSPC) {
		t.Errorf("JournalFault() = %v; want ENOSPC", c.JournalFault())
	}
	if g, d, err := journal.Read(path); err != nil || d != nil || g.Game.Len() != 4 {
		t.Fatalf("the file while the disk is full: %v, damage %v; want 4 turns, whole", err, d)
	}

	on.Store(false) // the disk works again
	playUntil(9)
	if c.JournalFault() != nil {
		t.Fatalf("JournalFault() = %v after a commit on a working disk", c.JournalFault())
	}
	if f := journalFaults(pub); len(f) != 2 || f[1] != "journal: back on disk" {
		t.Errorf("journal fault events %q; want the failure, then back on disk", f)
	}
	if !strings.Contains(logged.String(), `msg="journal back on disk`) {
		t.Error("the log does not say the journal is back on disk")
	}
	if len(screen) != 2 || screen[1] != nil {
		t.Errorf("the screen was told %v; want the failure, then nil", screen)
	}
	// A crash now loses nothing.
	before := c.State()
	j2, g, err := journal.Open(path)
	if err != nil || j2.Damage() != nil {
		t.Fatalf("reopened: %v, damage %v", err, j2.Damage())
	}
	defer j2.Close()
	cfg.Journal, cfg.Resume, cfg.Publisher = j2, g, &fakePub{}
	c2, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if after := c2.State(); after.Seq != before.Seq || after.Turn != before.Turn || after.Cells != before.Cells || g.Game.Len() != 9 {
		t.Fatalf("resumed seq %d turn %d; want seq %d turn %d, the same board", after.Seq, after.Turn, before.Seq, before.Turn)
	}
}

// With no commit to carry it, the retry comes with the frames: once
// JournalRetryMS of frame time has passed since the last try.
func TestFullDiskRetriedByFrames(t *testing.T) {
	rec, frames := playFrames(t, "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf", 4)
	path := filepath.Join(t.TempDir(), "board.journal")
	var on atomic.Bool
	j := openFillable(t, path, &on)
	pub := &fakePub{}
	c, err := New(Config{BoardID: "b1", Variant: rec.Variant, First: rec.First, Players: rec.Players, Journal: j, Publisher: pub})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	on.Store(true)
	var last frame
	for _, f := range frames {
		if err := c.Frame(f.t, f.cells); err != nil {
			t.Fatal(err)
		}
		last = f
		if c.State().Turn == 1 {
			break
		}
	}
	if c.JournalFault() == nil {
		t.Fatal("the first turn was written to a full disk")
	}
	on.Store(false)
	// The board holds still: no commit, only frames.
	c.Frame(last.t+JournalRetryMS-1, last.cells)
	if c.JournalFault() == nil {
		t.Fatal("retried before JournalRetryMS had passed")
	}
	c.Frame(last.t+JournalRetryMS, last.cells)
	if err := c.JournalFault(); err != nil {
		t.Fatalf("JournalFault() = %v after JournalRetryMS on a working disk", err)
	}
	if g, d, err := journal.Read(path); err != nil || d != nil || g.Game.Len() != 1 || g.Seq != c.State().Seq {
		t.Fatalf("the file after the retry: %v, damage %v", err, d)
	}
}

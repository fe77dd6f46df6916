package table

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/board"
	"github.com/zertzboard/zertzboard/controller"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
)

// lockedBuffer is a log the players and the board write from their
// goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// runTable runs a board with the table's players at it, as `zertzboard
// sim --exit-at-end` does, until the players stop, and returns the
// board, the table and the log.
func runTable(t *testing.T, cfg Config, play *controller.Play) (*board.Node, *Table, string) {
	t.Helper()
	return runTableJournal(t, cfg, play, "")
}

// runTableJournal is runTable with the board's journal at path ("" for
// none).
func runTableJournal(t *testing.T, cfg Config, play *controller.Play, journal string) (*board.Node, *Table, string) {
	t.Helper()
	var logs lockedBuffer
	cfg.Log = slog.New(slog.NewTextHandler(&logs, nil))
	cfg.ExitAtEnd = true
	tb, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	first := cfg.Games[0]
	n, err := board.New(board.Options{BoardID: "table", Variant: first.Variant, First: first.First, Players: first.Players,
		SettleMS: cfg.SettleMS, Rig: tb.Rig(), Calibration: tb.Calibration(), Logger: cfg.Log, Play: play, JournalPath: journal,
		OnFrame: tb.OnFrame, OnButton: tb.OnButton, Lockstep: tb.Lockstep()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	played := make(chan error, 1)
	tb.Spawn(func() {
		played <- tb.Play(ctx, n)
		cancel()
	})
	ran := n.Run(ctx)
	if err := <-played; err != nil {
		t.Fatalf("the players: %v\n%s", err, tail(logs.String(), 30))
	}
	if ran != nil && !errors.Is(ran, context.Canceled) {
		t.Fatalf("the board: %v", ran)
	}
	return n, tb, logs.String()
}

// boardGame is the game the board kept, replayed from its moves; every
// turn must lead to the record's position after it, while the record
// lasts.
func boardGame(t *testing.T, n *board.Node, rec *record.Record, rep *record.Replay) *engine.Game {
	t.Helper()
	b, _, _ := rec.Board()
	g := engine.NewGame(rep.Game.Start())
	for i, m := range n.Controller().State().Moves {
		turn, err := engine.ParseTurn(b, m)
		if err == nil {
			err = g.Play(turn)
		}
		if err != nil {
			t.Fatalf("turn %d %s: %v", i+1, m, err)
		}
	}
	return g
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// firstGame is the first built-in game, and its replay.
func firstGame(t *testing.T) (*record.Record, *record.Replay) {
	t.Helper()
	rec, err := record.ReadFile(filepath.Join(samples.BuiltinDir(), samples.BuiltinNames()[0]))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	return rec, rep
}

// TestPlayersPlayAGameAsRecorded seats the players at a board on virtual
// time with the scan stalling about every second, so the referee infers
// turns and asks, and the players answer with the buttons: the board must
// keep the record's game, every turn and the result.
func TestPlayersPlayAGameAsRecorded(t *testing.T) {
	rec, rep := firstGame(t)
	n, _, logs := runTable(t, Config{Games: []*record.Record{rec}, Speed: 4, SettleMS: referee.DefaultSettleMS, ScanHz: 100,
		Seed: 1, StallEvery: time.Second, Virtual: true}, nil)
	g := boardGame(t, n, rec, rep)
	for i := 1; i <= g.Len(); i++ {
		if i > rep.Game.Len() || !g.PositionAfter(i).Equal(rep.Game.PositionAfter(i)) {
			t.Fatalf("the board's turn %d does not lead to the record's position", i)
		}
	}
	if g.Len() != rep.Game.Len() || g.Position().Result() != rep.Game.Position().Result() {
		t.Errorf("the board kept %d turns, result %+v; the record %d, %+v", g.Len(), g.Position().Result(), rep.Game.Len(), rep.Game.Position().Result())
	}
	if !strings.Contains(logs, "the players answer the referee") {
		t.Errorf("the scan stalled, yet the players answered no question:\n%s", tail(logs, 30))
	}
}

// TestPlayersAgainstTheEngine: the person plays the record, and the hand
// carries out every engine turn as the LEDs show it, to the game's end.
func TestPlayersAgainstTheEngine(t *testing.T) {
	rec, err := record.ReadFile(filepath.Join(samples.BuiltinDir(), "042_Z-montassan-bobby1sock-2010-06-13-0250.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	n, tb, _ := runTable(t, Config{Games: []*record.Record{rec}, Speed: 20, SettleMS: referee.DefaultSettleMS, ScanHz: 100,
		Seed: 1, Virtual: true, VsEngine: true, EnginePlayer: 1}, &controller.Play{Engine: 1, Level: 1, Seed: 1})
	if g := boardGame(t, n, rec, rep); !g.Position().Result().Over {
		t.Errorf("the game against the engine is not over after %d turns", g.Len())
	}
	if tb.vs.turns < 5 || tb.vs.guided != tb.vs.turns {
		t.Errorf("%d engine turns, %d carried out as the LEDs showed them; want every one of at least 5", tb.vs.turns, tb.vs.guided)
	}
}

// TestPlayersResumeTheJournal: a board whose journal holds the first turns
// of the record resumes there, and the players go on from that turn; one
// whose journal holds a finished game shows it until the players clear
// it, then they play the record afresh. Either way the board ends with
// the record's game.
func TestPlayersResumeTheJournal(t *testing.T) {
	rec, rep := firstGame(t)
	journal := filepath.Join(t.TempDir(), "journal.jsonl")
	cfg := func(r *record.Record) Config {
		return Config{Games: []*record.Record{r}, Speed: 20, SettleMS: referee.DefaultSettleMS, ScanHz: 100, Seed: 2, Virtual: true}
	}
	sameGame := func(what string, n *board.Node) {
		t.Helper()
		g := boardGame(t, n, rec, rep)
		if g.Len() != rep.Game.Len() || !g.Position().Equal(rep.Game.Position()) || g.Position().Result() != rep.Game.Position().Result() {
			t.Fatalf("%s: the board kept %d turns, result %+v; the record %d, %+v", what, g.Len(), g.Position().Result(), rep.Game.Len(), rep.Game.Position().Result())
		}
	}

	const k = 5
	part := *rec
	part.Turns = rec.Turns[:k]
	n, _, _ := runTableJournal(t, cfg(&part), nil, journal)
	if got := n.Controller().State().Turn; got != k {
		t.Fatalf("the first %d turns: the board committed %d", k, got)
	}
	n.Close()

	n, _, logs := runTableJournal(t, cfg(rec), nil, journal)
	if !strings.Contains(logs, `msg="resuming the game in the journal" turn=5`) || !strings.Contains(logs, `"from turn"=6`) {
		t.Errorf("the players did not resume at turn %d:\n%s", k+1, tail(logs, 30))
	}
	sameGame("resumed", n)
	n.Close()

	n, _, logs = runTableJournal(t, cfg(rec), nil, journal)
	if !strings.Contains(logs, "the journal's game is over; the players clear the board") || !strings.Contains(logs, `"from turn"=1`) {
		t.Errorf("the players did not clear the finished game and start afresh:\n%s", tail(logs, 30))
	}
	sameGame("after the finished game", n)
}

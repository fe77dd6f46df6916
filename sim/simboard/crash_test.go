package simboard_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/wire"
)

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
}

func startZertzboard(t *testing.T, args ...string) (*exec.Cmd, *logBuffer) {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ZERTZBOARD_RUN_MAIN=1")
	// Locked: the test reads the output while the process still writes it.
	out := &logBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out
}

// TestSimSurvivesSIGKILL kills the daemon with SIGKILL mid-game and starts
// it again: it must resume exactly the game it had committed, with its
// clocks as journalled, and finish it with nothing lost.
func TestSimSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon as a process")
	}
	game := filepath.Join(sampleDir, "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf")
	rec, err := record.ReadFile(game)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	jpath := filepath.Join(dir, "journal.jsonl")
	addr := "127.0.0.1:" + freePort(t)
	const control, baseMS = "sudden:2h", 7_200_000
	args := []string{"sim", "--game", game, "--speed", "10", "--settle", "40", "--exit-at-end", "--board-id", "crash", "--time-control", control,
		"--mqtt-listen", addr, "--ws-listen", "off", "--http", "127.0.0.1:" + freePort(t), "--journal", jpath}

	cmd, out := startZertzboard(t, args...)
	out.ready(t)
	watchBoard(t, addr, "crash").awaitState(t, "turn 8", func(s wire.State) bool { return s.Turn >= 8 })
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	// What the journal holds is what was committed before the kill.
	data, err := os.ReadFile(jpath)
	if err != nil {
		t.Fatal(err)
	}
	snapshot := filepath.Join(dir, "snapshot.jsonl")
	os.WriteFile(snapshot, data, 0o644)
	j, committed, err := journal.Open(snapshot)
	if err != nil {
		t.Fatalf("journal after SIGKILL: %v\n%s", err, out)
	}
	j.Close()
	k := committed.Game.Len()
	if k < 8 {
		t.Fatalf("journal holds %d turns; the board published turn 8 before the kill", k)
	}

	restarted := time.Now()
	cmd, out = startZertzboard(t, args...)
	out.ready(t)
	first := watchBoard(t, addr, "crash").awaitState(t, "the restarted board's first state", func(wire.State) bool { return true })
	downFor := time.Since(restarted)
	b := committed.Game.Position().Board()
	var moves []string
	for i := 0; i < k; i++ {
		turn, _ := committed.Game.Turn(i)
		moves = append(moves, engine.FormatTurn(b, turn))
	}
	if first.Turn != k || first.Cells != committed.Game.Position().Cells() || strings.Join(first.Moves, " ") != strings.Join(moves, " ") || first.Seq < committed.Seq {
		t.Fatalf("after the restart the game is not the one committed:\nrestarted: turn %d seq %d cells %s\ncommitted: turn %d seq %d cells %s",
			first.Turn, first.Seq, first.Cells, k, committed.Seq, committed.Game.Position().Cells())
	}
	// The clocks resume from the journal's last entry: nothing was charged
	// for the time the process was down; since the restart the runner has
	// been charged at most the time the new process has run.
	jc := committed.Clock
	if jc == nil || committed.Control != control || first.Clock.Control != control || first.Clock.Remaining == nil {
		t.Fatalf("clocks: journal %+v (%q), restarted state %+v", jc, committed.Control, first.Clock)
	}
	if first.Turn == k && first.Clock.Running != nil {
		run := *first.Clock.Running
		rem := *first.Clock.Remaining
		if run != jc.Running || rem[1-run] != jc.Remaining[1-run] || rem[run] > jc.Remaining[run] || jc.Remaining[run]-rem[run] > downFor.Milliseconds() {
			t.Errorf("restarted clocks %v running %d; the journal's %v running %d (%v since the restart)", rem, run, jc.Remaining, jc.Running, downFor)
		}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the restarted sim: %v\n%s", err, out)
		}
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the restarted sim did not finish the game\n%s", out)
	}

	// Nothing lost: the journal holds the whole record, and every
	// committed change took the next seq.
	f, err := os.Open(jpath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var seqs []uint64
	sc := bufio.NewScanner(f)
	clocks := 0
	for sc.Scan() {
		var e journal.Line
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		if len(seqs) > 0 && e.Seq == seqs[len(seqs)-1] {
			switch e.Op {
			case "clock":
				clocks++ // a checkpoint or the start: no change to the game
				continue
			case "question", "answer", "arbiter", "request":
				// Said about the game as it stands (a busy machine's
				// stalls make the referee ask): no change of its own.
				continue
			}
		}
		seqs = append(seqs, e.Seq)
	}
	for i := 1; i < len(seqs); i++ {
		if seqs[i] != seqs[i-1]+1 {
			t.Errorf("journal seq %d follows %d", seqs[i], seqs[i-1])
		}
	}
	if clocks == 0 {
		t.Error("the journal holds no clock entry (the start, checkpoints)")
	}
	// Replayed (take-backs included), the journal is the recorded game:
	// position by position, since a loop swept in one go may be recorded
	// either way round.
	f.Close()
	j, final, err := journal.Open(jpath)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	rep, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if final.Game.Len() != rep.Game.Len() {
		t.Fatalf("journal holds %d turns; the record %d", final.Game.Len(), rep.Game.Len())
	}
	for i := 1; i <= rep.Game.Len(); i++ {
		if !final.Game.PositionAfter(i).Equal(rep.Game.PositionAfter(i)) {
			t.Fatalf("after turn %d the journal's position %s is not the record's %s", i, final.Game.PositionAfter(i), rep.Game.PositionAfter(i))
		}
	}
	// Every turn has its time, across the crash; each player's clock
	// holds the base less at least their turns' time.
	if len(final.Clocks) != final.Game.Len() {
		t.Fatalf("%d turn times for %d turns", len(final.Clocks), final.Game.Len())
	}
	var used [2]int64
	for i, tc := range final.Clocks {
		used[(final.Game.Start().ToMove()+i)%2] += tc.Used
	}
	last := final.Clocks[len(final.Clocks)-1].Remaining
	for p := range 2 {
		if last[p] > baseMS-used[p] {
			t.Errorf("player %d has %d ms left after turns of %d ms from %d", p, last[p], used[p], baseMS)
		}
	}
}

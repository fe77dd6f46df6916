package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/record"
)

// TestSimGamesEndAsRecorded plays built-in games through the whole
// simulated board (virtual sensors, the scan, the referee, the journal)
// at speed 20 and checks that the game the board kept is the record's:
// every turn and the winner.
//
// By default it plays the first built-in game (the one make run shows
// first) and the first game of each board size; ZERTZ_SIM_ALL=1 plays
// every built-in game, ZERTZ_SIM_SPEEDS=1,20 also at human speed (an hour
// or more), and ZERTZ_SIM_STALLS=2s hides the hands from the scan for
// 150-600 ms that often (the referee then infers turns and asks; the
// simulated players answer with the buttons, from what they played).
func TestSimGamesEndAsRecorded(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games in real time")
	}
	dir := samples.BuiltinDir()
	names := samples.BuiltinNames()
	var games []string
	seen := map[string]bool{}
	for i, n := range names {
		rec, err := record.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 || !seen[rec.Variant] || os.Getenv("ZERTZ_SIM_ALL") != "" {
			games = append(games, n)
		}
		seen[rec.Variant] = true
	}
	speeds := []string{"20"}
	if s := os.Getenv("ZERTZ_SIM_SPEEDS"); s != "" {
		speeds = strings.Split(s, ",")
	}
	for _, speed := range speeds {
		for _, n := range games {
			// One at a time: simulated boards side by side starve each
			// other's scans on a small machine (TestHall is the test of
			// many boards).
			t.Run(fmt.Sprintf("speed%s/%s", speed, n), func(t *testing.T) {
				simGameEndsAsRecorded(t, filepath.Join(dir, n), speed)
			})
		}
	}
}

func simGameEndsAsRecorded(t *testing.T, game, speed string) {
	rec, err := record.ReadFile(game)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	jpath := filepath.Join(t.TempDir(), "j.jsonl")
	var stdout, stderr bytes.Buffer
	stalls := os.Getenv("ZERTZ_SIM_STALLS")
	if stalls == "" {
		stalls = "0"
	}
	code := run([]string{"sim", "--game", game, "--speed", speed, "--stall-every", stalls, "--exit-at-end",
		"--http", "off", "--mqtt-listen", "127.0.0.1:0", "--ws-listen", "off", "--scan-hz", "100", "--journal", jpath}, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("sim exit %d:\n%s", code, tail(stderr.String(), 40))
	}
	j, _, err := journal.Open(jpath)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	g := j.Game().Game
	b := rep.Game.Start().Board()
	for i := 0; i < max(g.Len(), rep.Game.Len()); i++ {
		if i >= g.Len() || i >= rep.Game.Len() {
			t.Fatalf("the board kept %d turns; the record has %d\n%s", g.Len(), rep.Game.Len(), tail(stderr.String(), 40))
		}
		got, _ := g.Turn(i)
		want, _ := rep.Game.Turn(i)
		if got != want && !(got.Kind == engine.Capture && want.Kind == engine.Capture && g.PositionAfter(i+1).Equal(rep.Game.PositionAfter(i+1))) {
			t.Fatalf("turn %d: the board kept %s; the record has %s\n%s", i+1, engine.FormatTurn(b, got), engine.FormatTurn(b, want), tail(stderr.String(), 40))
		}
	}
	if got, want := g.Position().Result(), rep.Game.Position().Result(); got != want {
		t.Errorf("result %+v; the record's %+v", got, want)
	}
	t.Logf("%d turns, %d questions answered with the buttons", g.Len(), strings.Count(stderr.String(), "question answered"))
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

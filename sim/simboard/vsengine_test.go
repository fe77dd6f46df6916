package simboard_test

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/journal"
)

// TestSimVsEngine plays whole games against the engine (level 1) on the
// simulated board, on 37 and 61 rings: the simulated person plays the
// record until the engine leaves it, then their own turns; the simulated
// hand carries out every engine turn from the decoded LEDs alone, step by
// step. Every engine turn must be committed as the hand carried it out
// (which the referee accepts only if it is the engine's), and the game
// must finish.
func TestSimVsEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games in real time")
	}
	for _, c := range []struct {
		game   string
		seed   string
		player string
	}{
		{"032_Z11-ddyer-pmolz-2023-11-27-2100.sgf", "1", "1"},
		{"034_T_Z24-Raccoons-preve-2022-12-23-1715.sgf", "4", "0"},
	} {
		t.Run(c.game, func(t *testing.T) {
			simVsEngine(t, c.game, "--engine-player", c.player, "--seed", c.seed, "--speed", "20")
		})
	}
}

// TestSimVsEngineOnVirtualTime plays against the engine on virtual time
// (sim --virtual: the engine thinks in no virtual time, and the board
// waits for it), without the live analysis, whose results redraw the
// LEDs at moments of their own. Game 042 has the engine's placement
// claim rings while the next player must capture: the hand takes the
// rings off as the LEDs drawn after the commit show them, and must then
// see its turn done without waiting for another LED frame (it waited
// for ever before).
func TestSimVsEngineOnVirtualTime(t *testing.T) {
	for _, c := range []struct{ game, speed string }{
		{"042_Z-montassan-bobby1sock-2010-06-13-0250.sgf", "20"},
		{"042_Z-montassan-bobby1sock-2010-06-13-0250.sgf", "1"},
		{"141_T_Z11-raphaell7-Marchewka-2025-07-05-1137.sgf", "20"},
	} {
		t.Run("speed"+c.speed+"/"+c.game, func(t *testing.T) {
			t.Parallel()
			simVsEngine(t, c.game, "--speed", c.speed, "--virtual", "--analysis", "off")
		})
	}
}

// simVsEngine plays one built-in game against the engine (level 1) with
// more flags and checks that every engine turn was carried out as the
// LEDs showed it and that the game finished.
func simVsEngine(t *testing.T, game string, more ...string) {
	over := regexp.MustCompile(`the game against the engine is over" engine_turns=(\d+) carried_out_as_guided=(\d+)`)
	jpath := filepath.Join(t.TempDir(), "j.jsonl")
	var stdout, stderr bytes.Buffer
	args := []string{"sim", "--vs-engine", "--engine-level", "1", "--game", filepath.Join(samples.BuiltinDir(), game), "--exit-at-end",
		"--http", "off", "--mqtt-listen", "127.0.0.1:0", "--ws-listen", "off", "--scan-hz", "100", "--journal", jpath}
	code := run(append(args, more...), &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("sim exit %d:\n%s", code, tail(stderr.String(), 40))
	}
	m := over.FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no end of the game against the engine in the log:\n%s", tail(stderr.String(), 40))
	}
	turns, _ := strconv.Atoi(m[1])
	guided, _ := strconv.Atoi(m[2])
	if turns < 5 || guided != turns {
		t.Errorf("%d engine turns, %d carried out as guided; want every one of at least 5", turns, guided)
	}
	if n := strings.Count(stderr.String(), `msg="engine turn"`); n < turns {
		t.Errorf("the engine chose %d turns; the hand carried out %d", n, turns)
	}
	j, jg, err := journal.Open(jpath)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	g := jg.Game
	if !g.Position().Result().Over {
		t.Errorf("the board's game is not over after %d turns", g.Len())
	}
	t.Logf("%s: %d turns, %d by the engine, all carried out as guided", game, g.Len(), turns)
}

package simboard_test

import (
	"bytes"
	"encoding/json"
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

// TestSimEveryGameOnVirtualTime plays every built-in game through the
// whole simulated board, as `zertzboard sim --virtual` runs it (virtual
// Hall sensors read over the ADC and multiplexer drivers, the classifier,
// the scan loop, the referee, the controller, the journal and the MQTT
// broadcast), at speed 1 and at speed 20, and at speed 1 with the scan
// missing 150-600 ms about every 2 s (the stalls exam's condition), and
// checks that the game the board kept is its source record's: every turn
// and the result. The board
// and the players run on the lockstep clock, so human speed costs no wall
// time and no run depends on the machine's load. The simulated players
// answer any question with the buttons, from what they played.
// ZERTZ_SIM_STALLS=2s stalls the scan for 150-600 ms that often (of wall
// time at the given speed) in every run, here as on the wall clock;
// each failure it shows then repeats exactly, with the game's seed.
func TestSimEveryGameOnVirtualTime(t *testing.T) {
	dir := samples.BuiltinDir()
	for _, run := range []struct{ name, speed, stalls string }{
		{"speed1", "1", "0"},
		{"speed20", "20", "0"},
		// The stalls exam's condition through the whole controller: the
		// scan misses 150-600 ms about every 2 s, so the referee infers
		// turns and asks, and the players answer with the buttons.
		{"speed1-stalls", "1", "2s"},
	} {
		for i, n := range samples.BuiltinNames() {
			t.Run(fmt.Sprintf("%s/%s", run.name, n), func(t *testing.T) {
				t.Parallel()
				simGameEndsAsRecorded(t, filepath.Join(dir, n), run.speed, "--virtual", "--seed", fmt.Sprint(i+1),
					"--stall-every", run.stalls, "--http", "127.0.0.1:0", "--results", t.TempDir())
			})
		}
	}
}

// TestSimVirtualIsRepeatable: on virtual time the same game, seed and
// stalls give the same journal, byte for byte (every frame time, turn,
// question and answer), however busy the machine. The stalls hide turns
// from the scan, so the referee asks, and the simulated players answer
// with the buttons.
func TestSimVirtualIsRepeatable(t *testing.T) {
	game := filepath.Join(samples.BuiltinDir(), samples.BuiltinNames()[0])
	var journals [2][]byte
	for i := range journals {
		jpath := filepath.Join(t.TempDir(), "j.jsonl")
		simGameEndsAsRecorded(t, game, "4", "--virtual", "--stall-every", "1s", "--journal", jpath)
		data, err := os.ReadFile(jpath)
		if err != nil {
			t.Fatal(err)
		}
		journals[i] = data
	}
	if !bytes.Equal(journals[0], journals[1]) {
		a, b := strings.Split(string(journals[0]), "\n"), strings.Split(string(journals[1]), "\n")
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("the two runs' journals differ at line %d:\n%s\n%s", i+1, a[i], b[i])
			}
		}
		t.Fatalf("the two runs' journals differ in length: %d and %d lines", len(a), len(b))
	}
	if n := bytes.Count(journals[0], []byte(`"op":"answer"`)); n == 0 {
		t.Error("no question was answered: the run does not show the answers repeat")
	} else {
		t.Logf("%d questions answered with the buttons, the same in both runs", n)
	}
}

// TestSimGamesEndAsRecorded plays built-in games through the whole
// simulated board on the wall clock (the way a user watches `zertzboard
// sim`), at speed 20, and checks that the game the board kept is the
// record's: every turn and the winner.
//
// By default it plays the first built-in game (the one make run shows
// first); ZERTZ_SIM_ALL=1 plays every built-in game, ZERTZ_SIM_SPEEDS=1,20
// also at human speed (an hour or more), and ZERTZ_SIM_STALLS=2s stalls
// the scan for 150-600 ms that often (the referee then
// infers turns and asks; the simulated players answer with the buttons,
// from what they played). TestSimEveryGameOnVirtualTime plays them all,
// at both speeds, on virtual time.
func TestSimGamesEndAsRecorded(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games in real time")
	}
	dir := samples.BuiltinDir()
	names := samples.BuiltinNames()
	if os.Getenv("ZERTZ_SIM_ALL") == "" {
		names = names[:1]
	}
	speeds := []string{"20"}
	if s := os.Getenv("ZERTZ_SIM_SPEEDS"); s != "" {
		speeds = strings.Split(s, ",")
	}
	for _, speed := range speeds {
		for _, n := range names {
			// One at a time: simulated boards side by side starve each
			// other's scans on a small machine (TestHall is the test of
			// many boards).
			t.Run(fmt.Sprintf("speed%s/%s", speed, n), func(t *testing.T) {
				simGameEndsAsRecorded(t, filepath.Join(dir, n), speed)
			})
		}
	}
}

// simGameEndsAsRecorded runs `zertzboard sim` on one game (with more
// flags, e.g. --virtual) and checks the journal's game against the
// record: every turn and the result. With --results DIR among the flags
// it also checks what the scoreboard kept there (the record and the
// result it received over MQTT).
func simGameEndsAsRecorded(t *testing.T, game, speed string, more ...string) {
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
	args := []string{"sim", "--game", game, "--speed", speed, "--stall-every", stalls, "--exit-at-end", "--analysis", "off",
		"--http", "off", "--mqtt-listen", "127.0.0.1:0", "--ws-listen", "off", "--scan-hz", "100", "--journal", jpath}
	code := run(append(args, more...), &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("sim exit %d:\n%s", code, tail(stderr.String(), 40))
	}
	results := ""
	for i := 0; i+1 < len(more); i++ {
		switch more[i] {
		case "--journal":
			jpath = more[i+1]
		case "--results":
			results = more[i+1]
		}
	}
	j, jg, err := journal.Open(jpath)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	g := jg.Game
	if msg := sameGame(g, rep.Game); msg != "" {
		t.Fatalf("the board kept %s\n%s", msg, tail(stderr.String(), 40))
	}
	if got, want := g.Position().Result(), rep.Game.Position().Result(); got != want {
		t.Errorf("result %+v; the record's %+v", got, want)
	}
	if results != "" {
		checkResultsDir(t, results, rep)
	}
	t.Logf("%d turns, result %+v, %d questions answered with the buttons", g.Len(), g.Position().Result(), strings.Count(stderr.String(), "question answered"))
}

// sameGame says how got's turns differ from want's, or "" when they are
// the same (a capture may take another path to the same position).
func sameGame(got, want *engine.Game) string {
	b := want.Start().Board()
	for i := 0; i < max(got.Len(), want.Len()); i++ {
		if i >= got.Len() || i >= want.Len() {
			return fmt.Sprintf("%d turns; the record has %d", got.Len(), want.Len())
		}
		g, _ := got.Turn(i)
		w, _ := want.Turn(i)
		if g != w && !(g.Kind == engine.Capture && w.Kind == engine.Capture && got.PositionAfter(i+1).Equal(want.PositionAfter(i+1))) {
			return fmt.Sprintf("turn %d %s; the record has %s", i+1, engine.FormatTurn(b, g), engine.FormatTurn(b, w))
		}
	}
	return ""
}

// checkResultsDir checks the scoreboard's results directory after one game:
// a game that ended on the board is there, its record (GAME.json) the
// source's turns and its envelope (GAME.result) the source's winner,
// reason and turn count; a game that did not (a resignation) is not.
func checkResultsDir(t *testing.T, dir string, rep *record.Replay) {
	t.Helper()
	envelopes, err := filepath.Glob(filepath.Join(dir, "*.result"))
	if err != nil {
		t.Fatal(err)
	}
	end := rep.Game.Position().Result()
	if !end.Over {
		if len(envelopes) != 0 {
			t.Errorf("the game did not end on the board, yet the results hold %v", envelopes)
		}
		return
	}
	if len(envelopes) != 1 {
		var all []string
		for _, e := range envelopes {
			data, _ := os.ReadFile(e)
			all = append(all, filepath.Base(e)+": "+string(data))
		}
		t.Fatalf("the results hold %d games; want the one played:\n%s", len(envelopes), strings.Join(all, "\n"))
	}
	data, err := os.ReadFile(envelopes[0])
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Winner *int   `json:"winner"`
		Reason string `json:"reason"`
		Turns  int    `json:"turns"`
		Record string `json:"record"`
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		t.Fatalf("%s: %v", envelopes[0], err)
	}
	want := -1
	if end.Winner >= 0 {
		want = end.Winner
	}
	got := -1
	if meta.Winner != nil {
		got = *meta.Winner
	}
	if got != want || meta.Reason != string(end.Reason) || meta.Turns != rep.Game.Len() {
		t.Errorf("the results say winner %d by %q in %d turns; the record: %d by %q in %d", got, meta.Reason, meta.Turns, want, end.Reason, rep.Game.Len())
	}
	kept, err := record.ReadFile(filepath.Join(dir, meta.Record))
	if err != nil {
		t.Fatal(err)
	}
	krep, err := kept.Replay()
	if err != nil {
		t.Fatalf("the results' record: %v", err)
	}
	if msg := sameGame(krep.Game, rep.Game); msg != "" {
		t.Errorf("the results' record has %s", msg)
	}
	if krep.Result != rep.Result {
		t.Errorf("the results' record ends %+v; the source %+v", krep.Result, rep.Result)
	}
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

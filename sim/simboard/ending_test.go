package simboard_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/wire"
)

// viewer is an MQTT subscriber of a board's topics on the embedded broker.
type viewer struct {
	mu     sync.Mutex
	state  wire.State
	record []byte
	events []string // event kinds
	status string
	c      paho.Client
	got    notice // each message
}

// awaitState waits until the board's state satisfies ok, and returns it.
func (v *viewer) awaitState(t *testing.T, what string, ok func(wire.State) bool) wire.State {
	t.Helper()
	var s wire.State
	waitFor(t, what, v.got.changes, func() bool {
		v.mu.Lock()
		defer v.mu.Unlock()
		s = v.state
		return s.Seq > 0 && ok(s)
	})
	return s
}

// watchBoard connects an anonymous viewer to the broker at addr, which
// listens (the board has said so: logBuffer.ready), and subscribes to
// every topic of the board.
func watchBoard(t *testing.T, addr, board string) *viewer {
	t.Helper()
	v := &viewer{}
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprintf("viewer-%d", time.Now().UnixNano())).
		SetAutoReconnect(false).SetConnectTimeout(hallWait).SetOrderMatters(true)
	v.c = paho.NewClient(o)
	if tok := v.c.Connect(); !tok.WaitTimeout(hallWait) || tok.Error() != nil {
		t.Fatalf("cannot connect a viewer to %s: %v", addr, tok.Error())
	}
	t.Cleanup(func() { v.c.Disconnect(10) })
	// Explicit topics, not zertz/<board>/#: mochi 2.7.9 reads retained
	// messages unlocked on a wildcard subscribe (mochi-mqtt/server#200),
	// which the race detector reports in the race-built board.
	topics := map[string]byte{}
	for _, name := range []string{"status", "state", "moves", "events", "record"} {
		topics["zertz/"+board+"/"+name] = 1
	}
	tok := v.c.SubscribeMultiple(topics, func(_ paho.Client, m paho.Message) {
		defer v.got.notify()
		v.mu.Lock()
		defer v.mu.Unlock()
		switch topic := m.Topic(); {
		case strings.HasSuffix(topic, "/state"):
			var s wire.State
			if json.Unmarshal(m.Payload(), &s) == nil && s.Seq >= v.state.Seq {
				v.state = s
			}
		case strings.HasSuffix(topic, "/record"):
			v.record = append([]byte(nil), m.Payload()...)
		case strings.HasSuffix(topic, "/events"):
			var e struct{ Event string }
			if json.Unmarshal(m.Payload(), &e) == nil {
				v.events = append(v.events, e.Event)
			}
		case strings.HasSuffix(topic, "/status"):
			v.status = string(m.Payload())
		}
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	return v
}

// TestSimExitAtEndDeliversTheEnd: with --exit-at-end on the embedded
// broker, a subscriber connected during the game gets the final state,
// the whole record and the game-over event before the broker closes.
func TestSimExitAtEndDeliversTheEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game in real time")
	}
	game := filepath.Join(sampleDir, "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf")
	rec, err := record.ReadFile(game)
	if err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + freePort(t)
	var stdout, stderr logBuffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"sim", "--game", game, "--speed", "40", "--settle", "40", "--exit-at-end", "--board-id", "end",
			"--mqtt-listen", addr, "--ws-listen", "off", "--http", "off", "--journal", filepath.Join(t.TempDir(), "j.jsonl")}, &stdout, &stderr)
	}()
	stdout.ready(t)
	v := watchBoard(t, addr, "end")
	if code := <-done; code != exitOK {
		t.Fatalf("sim exit %d:\n%s", code, stderr.String())
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.state.Phase != "over" || v.state.Turn != len(rec.Turns) {
		t.Errorf("last state the viewer got: phase %q turn %d; want over after %d turns", v.state.Phase, v.state.Turn, len(rec.Turns))
	}
	seen, err := record.ReadJSON(strings.NewReader(string(v.record)))
	if err != nil || len(seen.Turns) != len(rec.Turns) {
		t.Errorf("last record the viewer got: %v, %d turns; want %d", err, len(seen.Turns), len(rec.Turns))
	}
	over := false
	for _, e := range v.events {
		over = over || e == "game-over"
	}
	if !over {
		t.Errorf("the viewer got no game-over event (events %v)", v.events)
	}
	if v.status != "offline" {
		t.Errorf("status %q; want offline, the board's last word", v.status)
	}
}

// TestSimSIGTERMDeliversTheEnd stops a sim with SIGTERM mid-game: it exits
// 0, and a subscriber has the state of every committed turn and the
// board's offline status.
func TestSimSIGTERMDeliversTheEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon as a process")
	}
	game := filepath.Join(sampleDir, "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf")
	dir := t.TempDir()
	jpath := filepath.Join(dir, "journal.jsonl")
	addr := "127.0.0.1:" + freePort(t)
	web := "127.0.0.1:" + freePort(t)
	cmd, out := startZertzboard(t, "sim", "--game", game, "--speed", "10", "--settle", "40", "--board-id", "term",
		"--mqtt-listen", addr, "--ws-listen", "off", "--http", web, "--journal", jpath)
	out.ready(t)
	v := watchBoard(t, addr, "term")
	v.awaitState(t, "turn 4", func(s wire.State) bool { return s.Turn >= 4 })
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGTERM: %v\n%s", err, out)
	}
	j, g, err := journal.Open(jpath)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.state.Seq != g.Seq || v.state.Turn != g.Game.Len() {
		t.Errorf("the viewer's last state: seq %d turn %d; the journal's: seq %d turn %d", v.state.Seq, v.state.Turn, g.Seq, g.Game.Len())
	}
	if v.status != "offline" {
		t.Errorf("status %q; want offline\n%s", v.status, out)
	}
}

// TestSimRestartAfterFinishedGame: a sim started again on a journal whose
// game is over shows that game's end, has the players clear the board,
// and plays the next game through.
func TestSimRestartAfterFinishedGame(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two whole games in real time")
	}
	game := filepath.Join(sampleDir, "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf")
	rec, err := record.ReadFile(game)
	if err != nil {
		t.Fatal(err)
	}
	jpath := filepath.Join(t.TempDir(), "j.jsonl")
	args := []string{"sim", "--game", game, "--speed", "40", "--settle", "40", "--exit-at-end", "--board-id", "again",
		"--mqtt-listen", "127.0.0.1:0", "--ws-listen", "off", "--http", "off", "--journal", jpath}
	var seq uint64
	for round := 1; round <= 2; round++ {
		var stderr strings.Builder
		if code := run(args, &strings.Builder{}, &stderr); code != exitOK {
			t.Fatalf("round %d: sim exit %d:\n%s", round, code, stderr.String())
		}
		j, g, err := journal.Open(jpath)
		if err != nil {
			t.Fatal(err)
		}
		j.Close()
		if g == nil || g.Game.Len() != len(rec.Turns) || !g.Game.Position().Result().Over {
			t.Fatalf("round %d: the journal holds %v; want the whole game of %d turns", round, g, len(rec.Turns))
		}
		if round == 2 && (!strings.Contains(stderr.String(), "the players clear the board") || g.Seq <= seq+uint64(len(rec.Turns))) {
			t.Errorf("round 2 did not clear the finished game and play a new one (seq %d after %d):\n%s", g.Seq, seq, stderr.String())
		}
		seq = g.Seq
	}
}

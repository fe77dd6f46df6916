package simboard_test

import (
	"encoding/json"
	"os"
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

// TestSimClockAccuracy plays a real game on the simulator with a Fischer
// clock and checks, from what a subscriber receives, that each turn's
// time in the record is the difference of the commit events' t (the
// frame times of the commits): exactly, except where the referee charged
// an illegal board to the other player or the scan was offline. It logs
// how far the frame time drifts from the wall clock over the game (the
// subscriber's receipt times), the figure for "clock accuracy".
func TestSimClockAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game in real time")
	}
	game := filepath.Join(sampleDir, "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf")
	addr := "127.0.0.1:" + freePort(t)
	speed := "4" // ZERTZ_CLOCK_SPEED=1 plays at human speed, for a longer drift measurement
	if s := os.Getenv("ZERTZ_CLOCK_SPEED"); s != "" {
		speed = s
	}
	var stdout, stderr logBuffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"sim", "--game", game, "--speed", speed, "--settle", "40", "--exit-at-end", "--board-id", "clk",
			"--time-control", "fischer:30m+10s", "--mqtt-listen", addr, "--ws-listen", "off", "--http", "off",
			"--journal", filepath.Join(t.TempDir(), "j.jsonl")}, &stdout, &stderr)
	}()
	stdout.ready(t)
	type commit struct {
		t    int64
		wall time.Time
	}
	var (
		mu      sync.Mutex
		commits       = map[int]commit{} // the last commit of each turn (take-backs redo some)
		startT  int64 = -1
		rec     []byte
		illegal int
	)
	v := watchBoard(t, addr, "clk")
	tok := v.c.SubscribeMultiple(map[string]byte{"zertz/clk/moves": 1, "zertz/clk/state": 1, "zertz/clk/record": 1, "zertz/clk/events": 0}, func(_ paho.Client, m paho.Message) {
		wall := time.Now()
		mu.Lock()
		defer mu.Unlock()
		switch topic := m.Topic(); {
		case strings.HasSuffix(topic, "/moves"):
			var mv struct {
				T    int64 `json:"t"`
				Turn int   `json:"turn"`
			}
			if json.Unmarshal(m.Payload(), &mv) == nil {
				commits[mv.Turn] = commit{mv.T, wall}
			}
		case strings.HasSuffix(topic, "/state"):
			var s wire.State
			if json.Unmarshal(m.Payload(), &s) == nil && startT < 0 && s.Clock.Running != nil && s.Turn == 0 && s.Clock.Remaining != nil {
				// The first player's clock started with the set-up board:
				// when, the state's own clock says (a busy machine may
				// subscribe after a later state of turn 0 was retained).
				startT = s.T - (30*60*1000 - s.Clock.Remaining[0])
			}
		case strings.HasSuffix(topic, "/record"):
			rec = append(rec[:0], m.Payload()...)
		case strings.HasSuffix(topic, "/events"):
			if strings.Contains(string(m.Payload()), `"event":"illegal"`) {
				illegal++
			}
		}
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	if code := <-done; code != exitOK {
		t.Fatalf("sim exit %d:\n%s", code, stderr.String())
	}
	mu.Lock()
	defer mu.Unlock()
	r, err := record.ReadJSON(strings.NewReader(string(rec)))
	if err != nil {
		t.Fatal(err)
	}
	if r.Clock == nil || r.Clock.Control != "fischer:30m+10s" || len(r.Clock.Turns) != len(r.Turns) || startT < 0 {
		t.Fatalf("record clock %+v for %d turns; clock start %d", r.Clock, len(r.Turns), startT)
	}
	exact := 0
	var worstDrift, lastDrift float64
	prev := commit{t: startT}
	for i, tt := range r.Clock.Turns {
		c, ok := commits[i+1]
		if !ok {
			t.Fatalf("no move event for turn %d", i+1)
		}
		gap := c.t - prev.t
		switch {
		case tt.UsedMS == gap:
			exact++
		case tt.UsedMS > gap:
			t.Errorf("turn %d used %d ms; its commit came %d ms after the one before", i+1, tt.UsedMS, gap)
		default:
			t.Logf("turn %d used %d ms of the %d ms between the commits (an illegal board charged to the other player, or the scan offline)", i+1, tt.UsedMS, gap)
		}
		if i > 0 {
			// Frame time against the subscriber's wall clock since turn 1.
			first := commits[1]
			d := float64(c.t-first.t) - float64(c.wall.Sub(first.wall).Milliseconds())
			lastDrift = d
			if d < 0 {
				d = -d
			}
			worstDrift = max(worstDrift, d)
		}
		prev = c
	}
	span := commits[len(r.Turns)].t - commits[1].t
	t.Logf("clock accuracy: %d of %d turns' used_ms equal the difference of the commit events' t exactly (%d illegal boards); "+
		"frame time vs the subscriber's wall clock over %.1f s: %+.0f ms at the end (%.0f ppm), worst %.0f ms (delivery jitter included)",
		exact, len(r.Turns), illegal, float64(span)/1000, lastDrift, 1e6*lastDrift/float64(span), worstDrift)
	if exact < len(r.Turns)-illegal {
		t.Errorf("only %d of %d turns took exactly the time between commits, with %d illegal boards", exact, len(r.Turns), illegal)
	}
}

// TestArbiterCommandsOverMQTT: the arbiter's commands reach a running
// board over MQTT: each accepted one is journalled (an arbiter entry)
// before it acts, a refused one is not; pause, added time and resume
// show in the state; a declared result ends the game in the state, the
// record and the journal.
func TestArbiterCommandsOverMQTT(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon as a process")
	}
	game := filepath.Join(sampleDir, "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf")
	jpath := filepath.Join(t.TempDir(), "journal.jsonl")
	addr := "127.0.0.1:" + freePort(t)
	web := "127.0.0.1:" + freePort(t)
	cmd, out := startZertzboard(t, "sim", "--game", game, "--speed", "2", "--settle", "40", "--board-id", "arb", "--mode", "tournament",
		"--time-control", "sudden:10m", "--password", "pw", "--mqtt-listen", addr, "--ws-listen", "off", "--http", web, "--journal", jpath)
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	out.ready(t)
	// The board's account may not read events: a viewer does.
	v := watchBoard(t, addr, "arb")
	v.awaitState(t, "turn 2", func(s wire.State) bool { return s.Turn >= 2 })

	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("arbiter").SetUsername("board").SetPassword("pw")
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v\n%s", tok.Error(), out)
	}
	defer c.Disconnect(10)
	var mu sync.Mutex
	replies := map[string]string{} // id → event kind (+ reason)
	var record []byte
	got := make(chan struct{}, 16)
	tok := v.c.SubscribeMultiple(map[string]byte{"zertz/arb/events": 0, "zertz/arb/record": 1}, func(_ paho.Client, m paho.Message) {
		defer v.got.notify()
		mu.Lock()
		defer mu.Unlock()
		if strings.HasSuffix(m.Topic(), "/record") {
			record = append(record[:0], m.Payload()...)
			return
		}
		var e struct{ Event, ID, Reason string }
		if json.Unmarshal(m.Payload(), &e) == nil && e.ID != "" {
			replies[e.ID] = e.Event + " " + e.Reason
			select {
			case got <- struct{}{}:
			default:
			}
		}
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	send := func(name, payload, id, want string) {
		t.Helper()
		c.Publish("zertz/arb/cmd/"+name, 1, false, payload).Wait()
		deadline := time.After(60 * time.Second) // a deadlock guard, not a timing
		for {
			mu.Lock()
			r, ok := replies[id]
			mu.Unlock()
			if ok {
				if !strings.HasPrefix(r, want) {
					t.Fatalf("%s %s: reply %q; want %s", name, payload, r, want)
				}
				return
			}
			select {
			case <-got:
			case <-deadline:
				t.Fatalf("no reply to %s\n%s", name, out)
			}
		}
	}
	send("pause", `{"id":"p1"}`, "p1", "command-accepted")
	s := v.awaitState(t, "the clocks paused", func(s wire.State) bool { return s.Clock.Paused })
	if s.Clock.Running != nil || s.Clock.Control != "sudden:10m" {
		t.Errorf("paused: %+v", s.Clock)
	}
	send("add-time", `{"player":1,"ms":60000,"id":"a1"}`, "a1", "command-accepted")
	v.awaitState(t, "the minute added", func(s wire.State) bool { return s.Clock.Remaining != nil && (*s.Clock.Remaining)[1] > 600_000 })
	send("resume", `{"id":"r1"}`, "r1", "command-accepted")
	send("resume", `{"id":"r2"}`, "r2", "command-refused the game is not paused")
	send("add-time", `{"player":1,"ms":0,"id":"a2"}`, "a2", "command-refused")
	send("declare-result", `{"result":"adjudication","winner":1,"note":"arbiter's ruling","id":"d1"}`, "d1", "command-accepted")
	s = v.awaitState(t, "the game over", func(s wire.State) bool { return s.Phase == "over" })
	if s.Result != "adjudication" || s.Winner == nil || *s.Winner != 1 || s.ResultNote != "arbiter's ruling" || s.Clock.Running != nil {
		t.Errorf("after declare-result: result %q winner %v note %q clock %+v", s.Result, s.Winner, s.ResultNote, s.Clock)
	}
	waitFor(t, "the record's end", v.got.changes, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return strings.Contains(string(record), `"kind": "adjudication"`)
	})
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	data, err := os.ReadFile(jpath)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e journal.Line
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		if e.Op == "arbiter" && e.Command != "set-players" && e.Command != "new-game" {
			ids = append(ids, e.Command+":"+e.ID)
		}
	}
	if want := "pause:p1 add-time:a1 resume:r1 declare-result:d1"; strings.Join(ids, " ") != want {
		t.Errorf("journalled arbiter commands %q; want %q", strings.Join(ids, " "), want)
	}
	j, g, err := journal.Open(jpath)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	if g.End == nil || g.End.Reason != "adjudication" || g.End.Note != "arbiter's ruling" {
		t.Errorf("journal end %+v", g.End)
	}
}

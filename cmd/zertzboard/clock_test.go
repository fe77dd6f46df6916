package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/live"
	"github.com/zertzboard/zertzboard/record"
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
	var stderr strings.Builder
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"sim", "--game", game, "--speed", speed, "--settle", "40", "--exit-at-end", "--board-id", "clk",
			"--time-control", "fischer:30m+10s", "--mqtt-listen", addr, "--ws-listen", "off", "--http", "off",
			"--journal", filepath.Join(t.TempDir(), "j.jsonl")}, &strings.Builder{}, &stderr)
	}()
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
			var s live.State
			if json.Unmarshal(m.Payload(), &s) == nil && startT < 0 && s.Clock.Running != nil && s.Turn == 0 {
				startT = s.T // the first player's clock started with the set-up board
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

package board

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/hardware/open"
	"github.com/zertzboard/zertzboard/hardware/timebase"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/internal/mosquittotest"
	"github.com/zertzboard/zertzboard/sensors/classify"
	"github.com/zertzboard/zertzboard/sim"
)

// wallRig opens the simulated reference base through the real drivers
// on the wall clock, as sim does, calibrated, and closes it when the test
// ends.
func wallRig(t *testing.T) (*sim.Hardware, *open.Rig, *classify.Calibration) {
	t.Helper()
	w := wiring.Reference()
	bo := sim.DefaultBoardOpts
	b := sim.NewBoard(w.Base, &bo)
	hw, err := sim.New(w, b)
	if err != nil {
		t.Fatal(err)
	}
	r, err := open.Open(w, hw, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return hw, r, calibrateSim(t, r, b)
}

// testLog logs to stderr with -v; else it discards.
func testLog(t *testing.T) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})).With("test", t.Name())
	}
	return slog.New(slog.DiscardHandler)
}

// lateLog records every line, and those logged after its end was marked.
type lateLog struct {
	mu    sync.Mutex
	lines []string
	ended atomic.Bool
	late  []string
}

func (l *lateLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *lateLog) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, r.Message)
	if l.ended.Load() {
		l.late = append(l.late, r.Message)
	}
	return nil
}
func (l *lateLog) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *lateLog) WithGroup(string) slog.Handler      { return l }

// pahoGoroutines counts the goroutines of an MQTT client connecting, or
// of the publisher's handlers. (Paho's Disconnect leaves one goroutine of
// its own for its quiesce time, 100 ms, which says and does nothing.)
func pahoGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	k := 0
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		for _, f := range []string{".(*client).Connect", ".(*client).attemptConnection", ".(*client).reconnect", "broadcast.(*Publisher)"} {
			if bytes.Contains(g, []byte(f)) {
				k++
				break
			}
		}
	}
	return k
}

// TestRunClosesWhatItOpenedOnError: a board that fails to start after the
// publisher is made (its journal cannot be used) returns the error with
// every resource closed: no goroutine of the MQTT client remains, and no
// line is logged once Run has returned.
func TestRunClosesWhatItOpenedOnError(t *testing.T) {
	_, r, cal := wallRig(t)
	before := pahoGoroutines()
	for i := 0; i < 3; i++ {
		log := &lateLog{}
		var closed []string
		err := Run(context.Background(), Config{
			closing: func(what string) { closed = append(closed, what) },
			Options: Options{BoardID: "leak", Variant: "37", Rig: r, Calibration: cal, JournalPath: t.TempDir(), Logger: slog.New(log)},
			Broker:  EmbeddedBroker, Listen: "127.0.0.1:0", WebSocket: "off", Username: "board", HTTP: "off",
			Alongside: func(context.Context, *Node) error {
				t.Error("the players ran on a board that did not start")
				return nil
			},
		})
		log.ended.Store(true)
		if err == nil || !strings.Contains(err.Error(), "--journal off") {
			t.Fatalf("Run with a directory for a journal: %v; want the journal's error", err)
		}
		if want := []string{"publisher", "broker"}; !slices.Equal(closed, want) {
			t.Errorf("run %d: Run closed %q; want %q", i, closed, want)
		}
		if n := pahoGoroutines(); n > before {
			t.Errorf("run %d: %d goroutines of the MQTT client remain after Run returned (%d before)", i, n, before)
		}
		// Whatever the client would still say arrives by the next
		// run's end; the late lines are checked then.
		t.Cleanup(func() {
			log.mu.Lock()
			defer log.mu.Unlock()
			if len(log.late) > 0 {
				t.Errorf("run %d: logged after Run returned: %q", i, log.late)
			}
		})
	}
}

// TestStoreBesideTheJournal: boards whose journals share a directory get
// a store each.
func TestStoreBesideTheJournal(t *testing.T) {
	for _, c := range [][2]string{
		{"/var/lib/zertzboard/journal.jsonl", "/var/lib/zertzboard/mqtt-store"},
		{"/srv/hall/hall-01.jsonl", "/srv/hall/hall-01.mqtt-store"},
		{"/srv/hall/hall-02.jsonl", "/srv/hall/hall-02.mqtt-store"},
		{"/srv/hall/table", "/srv/hall/table.mqtt-store"},
		{"off", ""},
	} {
		if got := StoreBeside(c[0]); got != c[1] {
			t.Errorf("StoreBeside(%q) = %q; want %q", c[0], got, c[1])
		}
	}
}

// blackHole accepts MQTT connections and never answers: a broker that
// hangs. It closes when the test ends.
func blackHole(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() { defer wg.Done(); io.Copy(io.Discard, c); c.Close() }()
		}
	}()
	return "tcp://" + ln.Addr().String()
}

// TestRunClosesTheClientWhileItConnects: a board whose broker hangs and
// whose start fails closes its MQTT client: no goroutine of the client
// remains connecting once Run has returned.
func TestRunClosesTheClientWhileItConnects(t *testing.T) {
	_, r, cal := wallRig(t)
	url := blackHole(t)
	before := pahoGoroutines()
	log := &lateLog{}
	err := Run(context.Background(), Config{
		Options: Options{BoardID: "hang", Variant: "37", Rig: r, Calibration: cal, JournalPath: t.TempDir(), Logger: slog.New(log)},
		Broker:  url, HTTP: "off",
	})
	log.ended.Store(true)
	if err == nil || !strings.Contains(err.Error(), "--journal off") {
		t.Fatalf("Run with a directory for a journal: %v; want the journal's error", err)
	}
	// The client's connecting goroutine ends the connect (the token Close
	// waits for) and then returns: on a busy machine it may not have
	// returned yet. A goroutine's exit announces nothing, so poll the
	// stacks for up to 2 s, well short of the 10 s connect timeout; a
	// leaked one stays, in paho's connect-retry loop.
	for deadline := time.Now().Add(2 * time.Second); pahoGoroutines() > before && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if n := pahoGoroutines(); n > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines of the MQTT client remain after Run returned (%d before)\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

// TestRunShutsDownInOrder: when the players stop with an error, Run
// returns it, and shuts down in order: the LEDs are dark before the
// publisher says "offline" (its last message, delivered before it
// closes), and the web page is closed once Run has returned.
//
// The external broker is mosquitto, as on a real hall's server: mochi
// 2.7.9, the embedded broker, reads a topic's retained path unlocked while
// the scoreboard's wildcard subscriptions scan it, and writes it on the
// publisher's first retained publish (mochi-mqtt/server#200, broker's
// package comment), which the race detector reports now and then here.
func TestRunShutsDownInOrder(t *testing.T) {
	addr := mosquittotest.Start(t, mosquittotest.Options{})
	hw, r, cal := wallRig(t)
	online, offline := make(chan struct{}), make(chan bool, 1)
	watcher := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("watcher").
		SetCleanSession(true).SetAutoReconnect(false).SetOrderMatters(true).SetConnectTimeout(scoreboardWait))
	if tok := watcher.Connect(); !tok.WaitTimeout(scoreboardWait) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	t.Cleanup(func() { watcher.Disconnect(0) })
	seen := false
	tok := watcher.Subscribe("zertz/ord/status", 1, func(_ mqtt.Client, m mqtt.Message) {
		switch string(m.Payload()) {
		case "online":
			if !seen {
				seen = true
				close(online)
			}
		case "offline":
			if seen {
				dark := true
				for _, c := range hw.LEDs.Colors() {
					dark = dark && c.R|c.G|c.B == 0
				}
				offline <- dark
			}
		}
	})
	if !tok.WaitTimeout(scoreboardWait) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	stop := errors.New("the players stop")
	ready := make(chan string, 1)
	var closed []string
	err := Run(context.Background(), Config{
		closing: func(what string) { closed = append(closed, what) },
		Options: Options{BoardID: "ord", Variant: "37", Rig: r, Calibration: cal, JournalPath: JournalOff, Logger: testLog(t)},
		Broker:  "tcp://" + addr, Username: "board", Password: "pw", HTTP: "127.0.0.1:0",
		Ready: func(_, httpURL string) { ready <- httpURL },
		Alongside: func(ctx context.Context, n *Node) error {
			select {
			case <-online:
			case <-ctx.Done():
				return ctx.Err()
			}
			return stop
		},
	})
	if !errors.Is(err, stop) {
		t.Fatalf("Run: %v; want the players' error", err)
	}
	select {
	case dark := <-offline:
		if !dark {
			t.Error("the board said offline with its LEDs still lit")
		}
	case <-time.After(scoreboardWait):
		t.Fatal("the board never said offline")
	}
	for i, c := range hw.LEDs.Colors() {
		if c.R|c.G|c.B != 0 {
			t.Fatalf("LED %d is %v after Run returned; want dark", i, c)
		}
	}
	// The board (its analysis and journal) once its goroutines are done,
	// then the publisher, while the page still serves; the broker last.
	if want := []string{"board", "publisher", "web page", "scoreboard"}; !slices.Equal(closed, want) {
		t.Errorf("Run closed %q; want %q", closed, want)
	}
	if resp, err := http.Get(<-ready + "state.json"); err == nil {
		resp.Body.Close()
		t.Error("the web page still answers after Run returned")
	}
}

// TestPortInUseNamesTheSetting: each listening address that is taken
// gives one line naming the address and the setting that changes it.
func TestPortInUseNamesTheSetting(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	addr := held.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	_, r, cal := wallRig(t)
	set := Settings{Listen: "[mqtt] listen", WebSocket: "[mqtt] websocket", HTTP: "[http] listen"}
	for _, tt := range []struct {
		name, listen, ws, http, want string
	}{
		{"mqtt", addr, "off", "off", "the MQTT broker cannot listen on " + addr + ": the address is already in use; choose another with [mqtt] listen "},
		{"websocket", "127.0.0.1:0", addr, "off", "the MQTT WebSocket listener cannot listen on " + addr + ": the address is already in use; choose another with [mqtt] websocket "},
		{"http", "127.0.0.1:0", "off", "localhost:" + port, "the scoreboard cannot listen on " + addr + ": the address is already in use; choose another with [http] listen "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := Run(context.Background(), Config{
				Options: Options{BoardID: "ports", Variant: "37", Rig: r, Calibration: cal, JournalPath: JournalOff},
				Listen:  tt.listen, WebSocket: tt.ws, HTTP: tt.http, Setting: set,
				Alongside: func(context.Context, *Node) error { t.Error("the board ran"); return nil },
			})
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Run = %v; want one line starting %q", err, tt.want)
			}
		})
	}
}

// TestRunAlongsideOnVirtualTime: on the lockstep clock, Spawn makes the
// players (Alongside) a participant: their waits pass one scan at a
// time, the board scanning in between, and Run ends, with nil, when they
// return.
func TestRunAlongsideOnVirtualTime(t *testing.T) {
	w := wiring.Reference()
	b := sim.NewBoard(w.Base, nil)
	hw, err := sim.New(w, b)
	if err != nil {
		t.Fatal(err)
	}
	ls := timebase.NewLockstep(time.Unix(0, 0))
	r, err := open.Open(w, hw, &open.Opts{Clock: ls})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cal := calibrateSim(t, r, b)
	var frames atomic.Int64
	var p *timebase.Participant
	seen := int64(-1)
	err = Run(context.Background(), Config{
		Options: Options{BoardID: "virt", Variant: "37", Rig: r, Calibration: cal, JournalPath: JournalOff, Lockstep: ls,
			OnFrame: func(int64, []byte) { frames.Add(1) }},
		Listen: "127.0.0.1:0", WebSocket: "off", HTTP: "off",
		Spawn: func(f func()) { ls.Go(func(q *timebase.Participant) { p = q; f() }) },
		Alongside: func(ctx context.Context, n *Node) error {
			if err := p.Sleep(time.Second); err != nil {
				return err
			}
			seen = frames.Load()
			return nil
		},
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	// A second of virtual time at the scan's rate (less the first scan's
	// period, before which the players started).
	if want := int64(time.Second/r.Scanner.Period()) - 1; seen < want {
		t.Errorf("the board scanned %d frames while the players waited a second; want %d or more", seen, want)
	}
	for i, c := range hw.LEDs.Colors() {
		if c.R|c.G|c.B != 0 {
			t.Fatalf("LED %d is %v after Run returned; want dark", i, c)
		}
	}
}

package broadcast

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/referee"
)

func TestEndToEnd(t *testing.T) {
	for _, transport := range []string{"tcp", "ws"} {
		t.Run(transport, func(t *testing.T) {
			b := startBroker(t, "127.0.0.1:0", nil)
			url := "tcp://" + b.TCPAddr()
			if transport == "ws" {
				url = "ws://" + b.WSAddr() + "/"
			}
			viewer := newCollector()
			subscribe(t, url, "tv", "tv-pw", allTopics, viewer.handler)

			p := newPublisher(t, testConfig(t, url))
			const n = 50
			for i := uint64(1); i <= n; i++ {
				if err := p.PublishMove(move(i)); err != nil {
					t.Fatal(err)
				}
				if err := p.PublishState(state(i)); err != nil {
					t.Fatal(err)
				}
			}
			if err := p.PublishRecord([]byte("(;GM[24];P0[a];P1[b])")); err != nil {
				t.Fatal(err)
			}
			waitUntil(t, "the last move", hasSeq(viewer, t, "moves", n))
			waitUntil(t, "the last state", hasSeq(viewer, t, "state", n))
			waitUntil(t, "the record", func() bool { return viewer.last("record") != "" })
			checkMoves(t, viewer.seqs(t, "moves"), n)
			// States may be coalesced (only the latest matters), never reordered.
			prev := uint64(0)
			for _, s := range viewer.seqs(t, "state") {
				if s <= prev {
					t.Errorf("state seq %d after %d", s, prev)
				}
				prev = s
			}
			if got := viewer.last("status"); got != Online {
				t.Errorf("status = %q; want online", got)
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(viewer.last("moves")), &m); err != nil || m["event"] != "move" || m["notation"] != "Wd4" {
				t.Errorf("move payload %s: %v", viewer.last("moves"), err)
			}
			// Events are QoS 0, dropped while the connection is down; on
			// loopback with the connection up they arrive.
			if err := p.PublishEvent(referee.Event{T: 7, Body: referee.Pending{Player: 0, Need: "remove a free ring", Cells: []string{"A1"}}}); err != nil {
				t.Fatal(err)
			}
			waitUntil(t, "the event", func() bool { return viewer.last("events") != "" })
			if ev, want := viewer.last("events"), `{"t":7,"event":"pending","player":0,"need":"remove a free ring","cells":["A1"]}`; ev != want {
				t.Errorf("event payload %s; want %s", ev, want)
			}

			late := newCollector()
			subscribe(t, url, "", "", allTopics, late.handler)
			waitUntil(t, "retained state, record and status", func() bool {
				return len(late.get("state")) > 0 && len(late.get("record")) > 0 && len(late.get("status")) > 0
			})
			if s := late.get("state")[0]; !s.retained || late.seqs(t, "state")[0] != n {
				t.Errorf("late subscriber's first state: seq %d retained %v; want seq %d retained", late.seqs(t, "state")[0], s.retained, n)
			}
			if r := late.get("record")[0]; !r.retained || string(r.payload) != "(;GM[24];P0[a];P1[b])" {
				t.Errorf("late record = %q retained %v", r.payload, r.retained)
			}
			if len(late.get("moves")) != 0 {
				t.Errorf("late subscriber got moves: moves are not retained")
			}

			p.Close()
			waitUntil(t, "status offline", func() bool { return viewer.last("status") == Offline })
			if err := p.PublishState(state(n + 1)); err != ErrClosed {
				t.Errorf("PublishState after Close = %v; want ErrClosed", err)
			}
		})
	}
}

func TestWill(t *testing.T) {
	b := startBroker(t, "127.0.0.1:0", nil)
	px := startProxy(t, b.TCPAddr())
	viewer := newCollector()
	subscribe(t, "tcp://"+b.TCPAddr(), "tv", "tv-pw", "zertz/b1/status", viewer.handler)
	p := newPublisher(t, testConfig(t, "tcp://"+px.addr()))
	waitUntil(t, "online", func() bool { return viewer.last("status") == Online })
	// The board vanishes and stays away: the broker publishes its Will.
	px.setDown(true)
	px.cut()
	waitUntil(t, "the will", func() bool { return viewer.last("status") == Offline })
	px.setDown(false)
	waitUntil(t, "online again", func() bool { return viewer.last("status") == Online })
	if !p.Connected() {
		t.Error("publisher not connected")
	}
}

func statuses(c *collector) []string {
	var seen []string
	for _, r := range c.get("status") {
		seen = append(seen, string(r.payload))
	}
	return seen
}

// TestStaleWill: paho can reconnect before the broker notices the old
// connection died; the broker then publishes the old Will after the new
// "online". The publisher sees its own "offline" and says "online" again.
func TestStaleWill(t *testing.T) {
	b := startBroker(t, "127.0.0.1:0", nil)
	url := "tcp://" + b.TCPAddr()
	viewer := newCollector()
	subscribe(t, url, "tv", "tv-pw", "zertz/b1/status", viewer.handler)
	newPublisher(t, testConfig(t, url))
	waitUntil(t, "online", func() bool { return viewer.last("status") == Online })
	stale := subscribe(t, url, "board", "board-pw", "", nil)
	stale.Publish("zertz/b1/status", 1, true, Offline).WaitTimeout(wait)
	// The viewer may see the two in either order (MQTT orders messages per
	// publisher, not across them); what counts is the retained status.
	waitUntil(t, "the offline", func() bool { return slices.Contains(statuses(viewer), Offline) })
	waitUntil(t, "retained online", func() bool {
		late := newCollector()
		c := subscribe(t, url, "", "", "zertz/b1/status", late.handler)
		defer c.Disconnect(0)
		waitUntil(t, "the retained status", func() bool { return len(late.get("status")) > 0 })
		return late.last("status") == Online
	})
}

// TestBrokerOutage stops the broker mid-game and starts another on the same
// address. The subscriber is in-process on each broker, so it is listening
// before the publisher can reconnect.
func TestBrokerOutage(t *testing.T) {
	got := newCollector()
	b1 := startBroker(t, "127.0.0.1:0", got.add)
	addr := b1.TCPAddr()
	p := newPublisher(t, testConfig(t, "tcp://"+addr))

	seq := uint64(0)
	publish := func(k int) {
		for range k {
			seq++
			p.PublishMove(move(seq))
			p.PublishState(state(seq))
		}
	}
	publish(10)
	waitUntil(t, "moves before the outage", hasSeq(got, t, "moves", seq))
	publish(5) // some in flight as the broker stops
	b1.Close()
	publish(20)
	waitUntil(t, "the publisher to notice", func() bool { return !p.Connected() })
	publish(5)

	b2 := startBroker(t, addr, got.add)
	publish(10)
	waitUntil(t, "every move", hasSeq(got, t, "moves", seq))
	checkMoves(t, got.seqs(t, "moves"), seq)

	late := newCollector()
	subscribe(t, "tcp://"+b2.TCPAddr(), "tv", "tv-pw", "zertz/b1/state", late.handler)
	waitUntil(t, "the retained state", func() bool { return len(late.get("state")) > 0 })
	waitUntil(t, "the latest state", func() bool { return late.seqs(t, "state")[len(late.get("state"))-1] == seq })
	if s := late.seqs(t, "state"); s[0] != seq {
		t.Errorf("retained state after the outage has seq %d; want %d", s[0], seq)
	}
}

// TestRestartDelivers closes the publisher while the broker is down, with
// moves queued, and checks that a new publisher on the same store sends
// them, in order, before its own.
func TestRestartDelivers(t *testing.T) {
	got := newCollector()
	b1 := startBroker(t, "127.0.0.1:0", got.add)
	addr := b1.TCPAddr()
	cfg := testConfig(t, "tcp://"+addr)
	cfg.CloseTimeout = 100 * time.Millisecond
	p1, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := uint64(1); i <= 5; i++ {
		p1.PublishMove(move(i))
	}
	waitUntil(t, "the first moves", hasSeq(got, t, "moves", 5))
	b1.Close()
	waitUntil(t, "the publisher to notice", func() bool { return !p1.Connected() })
	for i := uint64(6); i <= 40; i++ {
		p1.PublishMove(move(i))
	}
	p1.PublishState(state(40))
	p1.Close()
	stored, _ := filepath.Glob(filepath.Join(cfg.StoreDir, "o.*.msg"))
	if len(stored) < 35 {
		t.Fatalf("%d messages in the store after Close; want at least 35", len(stored))
	}

	b2 := startBroker(t, addr, got.add)
	p2 := newPublisher(t, cfg)
	for i := uint64(41); i <= 45; i++ {
		p2.PublishMove(move(i))
	}
	p2.PublishState(state(45))
	waitUntil(t, "every move", hasSeq(got, t, "moves", 45))
	checkMoves(t, got.seqs(t, "moves"), 45)
	waitUntil(t, "state 45", hasSeq(got, t, "state", 45))
	waitUntil(t, "status online", func() bool { return got.last("status") == Online })

	late := newCollector()
	subscribe(t, "tcp://"+b2.TCPAddr(), "", "", allTopics, late.handler)
	waitUntil(t, "retained", func() bool { return len(late.get("state")) > 0 && len(late.get("status")) > 0 })
	if s := late.seqs(t, "state")[0]; s != 45 {
		t.Errorf("retained state seq %d; want 45", s)
	}
	if s := late.last("status"); s != Online {
		t.Errorf("retained status %q; want online (the old run's offline must come first)", s)
	}
	p2.Close()
	if left, _ := filepath.Glob(filepath.Join(cfg.StoreDir, "o.*.msg")); len(left) != 0 {
		t.Errorf("%d messages left in the store after a clean close", len(left))
	}
}

// TestNoGoroutineLeak checks that Close stops the publisher's goroutines
// and paho's, also when the broker is unreachable (paho then sits in its
// connect-retry loop).
func TestNoGoroutineLeak(t *testing.T) {
	ours := func() string {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		var found []string
		for _, g := range strings.Split(string(buf), "\n\n") {
			// Stack traces escape the dots: paho%2emqtt%2egolang.
			if strings.Contains(g, "broadcast.(*Publisher)") || strings.Contains(g, "eclipse/paho") {
				found = append(found, g)
			}
		}
		return strings.Join(found, "\n\n")
	}
	settle := func(what string) {
		deadline := time.Now().Add(wait)
		for ours() != "" {
			if time.Now().After(deadline) {
				t.Fatalf("goroutines left %s:\n%s", what, ours())
			}
			time.Sleep(5 * time.Millisecond) // a goroutine's exit announces nothing: poll the stacks
		}
	}
	settle("by earlier tests")

	b := startBroker(t, "127.0.0.1:0", nil)
	p, err := New(testConfig(t, "tcp://"+b.TCPAddr()))
	if err != nil {
		t.Fatal(err)
	}
	p.PublishMove(move(1))
	p.PublishState(state(1))
	waitUntil(t, "connected", p.Connected)
	p.Close()
	settle("after Close")

	cfg := testConfig(t, "tcp://127.0.0.1:1") // nothing listens there
	cfg.CloseTimeout = 10 * time.Millisecond
	p, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p.PublishMove(move(1))
	p.Close()
	settle("after Close without a broker")
}

func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "ca.pem")
	os.WriteFile(notPEM, []byte("not a certificate"), 0o600)
	for _, tc := range []struct {
		name string
		mod  func(*Config)
		want string
	}{
		{"no broker", func(c *Config) { c.Brokers = nil }, "no broker URL"},
		{"bad scheme", func(c *Config) { c.Brokers = []string{"http://x:1883"} }, `"http://x:1883": scheme must be`},
		{"no board", func(c *Config) { c.BoardID = "" }, `bad board ID ""`},
		{"board with slash", func(c *Config) { c.BoardID = "a/b" }, `bad board ID "a/b"`},
		{"prefix without slash", func(c *Config) { c.Prefix = "zertz/b1" }, `bad topic prefix "zertz/b1"`},
		{"missing CA", func(c *Config) { c.TLS.CAFile = filepath.Join(dir, "none.pem") }, "reading CA file"},
		{"CA not PEM", func(c *Config) { c.TLS.CAFile = notPEM }, "no PEM certificate in CA file"},
		{"cert without key", func(c *Config) { c.TLS.CertFile = notPEM }, "must be given together"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, "tcp://127.0.0.1:1")
			tc.mod(&cfg)
			p, err := New(cfg)
			if err == nil {
				p.Close()
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "broadcast: ") {
				t.Errorf("New = %v; want an error containing %q", err, tc.want)
			}
		})
	}
}

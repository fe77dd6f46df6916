package broadcast

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// wait bounds every wait on a condition; tests finish far sooner.
const wait = 5 * time.Second

var users = []broker.User{
	{Name: "board", Password: "board-pw", Role: broker.RoleBoard},
	{Name: "op", Password: "op-pw", Role: broker.RoleOperator},
	{Name: "tv", Password: "tv-pw", Role: broker.RoleViewer},
}

func testLogger(t testing.TB) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})).With("test", t.Name())
	}
	return slog.New(slog.DiscardHandler)
}

// startBroker starts the embedded broker on addr ("127.0.0.1:0" for any
// port). sub, if not nil, subscribes in process to everything before the
// listeners open, so it misses nothing.
func startBroker(t testing.TB, addr string, sub func(topic string, payload []byte, retained bool)) *broker.Broker {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		b, err := broker.New(broker.Config{TCPAddr: addr, WSAddr: "127.0.0.1:0", Users: users, Logger: testLogger(t)})
		if err != nil {
			t.Fatal(err)
		}
		if sub != nil {
			if err := b.Subscribe("zertz/#", sub); err != nil {
				t.Fatal(err)
			}
		}
		err = b.Start()
		if err == nil {
			t.Cleanup(func() { b.Close() })
			return b
		}
		// The address of a broker just closed may be held a moment longer.
		b.Close()
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func testConfig(t testing.TB, urls ...string) Config {
	return Config{
		Brokers: urls, BoardID: "b1", Username: "board", Password: "board-pw",
		StoreDir: t.TempDir(), Logger: testLogger(t),
		MinReconnect: 20 * time.Millisecond, MaxReconnect: 50 * time.Millisecond,
		ConnectTimeout: 2 * time.Second, CloseTimeout: 500 * time.Millisecond,
	}
}

func newPublisher(t testing.TB, cfg Config) *Publisher {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func state(seq uint64) wire.State {
	return wire.State{Schema: wire.Schema, Seq: seq, T: int64(seq) * 1000, BoardID: "b1", Board: "37", Variant: "37",
		Cells: strings.Repeat("o", 37), Moves: []string{}, Missed: []int{}, Phase: "place", Status: fmt.Sprint("turn ", seq)}
}

func move(seq uint64) wire.MoveMessage {
	return wire.MoveMessage{Seq: seq, Event: referee.Event{T: int64(seq) * 1000, Body: referee.Move{
		Turn: int(seq), Player: int(seq % 2), Move: engine.MoveObject{Kind: "place", Color: "w", At: "D4", From: "pool"}, Notation: "Wd4",
	}}}
}

// collector gathers messages by topic, for paho and in-process subscribers.
type collector struct {
	mu   sync.Mutex
	msgs map[string][]received
}

type received struct {
	payload  []byte
	retained bool
}

func newCollector() *collector { return &collector{msgs: map[string][]received{}} }

func (c *collector) add(topic string, payload []byte, retained bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := strings.LastIndex(topic, "b1/")
	if i >= 0 {
		topic = topic[i+3:]
	}
	c.msgs[topic] = append(c.msgs[topic], received{append([]byte(nil), payload...), retained})
	changed.notify()
}

func (c *collector) handler(_ mqtt.Client, m mqtt.Message) {
	c.add(m.Topic(), m.Payload(), m.Retained())
}

func (c *collector) get(topic string) []received {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]received(nil), c.msgs[topic]...)
}

func (c *collector) last(topic string) string {
	r := c.get(topic)
	if len(r) == 0 {
		return ""
	}
	return string(r[len(r)-1].payload)
}

// seqs decodes the seq of every message on topic.
func (c *collector) seqs(t testing.TB, topic string) []uint64 {
	t.Helper()
	var out []uint64
	for _, r := range c.get(topic) {
		var v struct{ Seq uint64 }
		if err := json.Unmarshal(r.payload, &v); err != nil {
			t.Fatalf("%s payload %q: %v", topic, r.payload, err)
		}
		out = append(out, v.Seq)
	}
	return out
}

// checkMoves checks the moves are 1..n in order. QoS 1 is at least once,
// so a move may come twice after a reconnect, but never out of order and
// never missing.
func checkMoves(t testing.TB, got []uint64, n uint64) {
	t.Helper()
	var next uint64 = 1
	dups := 0
	for i, s := range got {
		switch {
		case s == next:
			next++
		case s < next:
			dups++
		default:
			t.Fatalf("move %d has seq %d; want %d (gap or reorder) in %v", i, s, next, got)
		}
	}
	if next != n+1 {
		t.Fatalf("moves end at seq %d; want %d: %v", next-1, n, got)
	}
	if dups > 0 {
		t.Logf("%d duplicate moves (QoS 1 redelivery)", dups)
	}
}

// changed is signalled whenever a test's collector receives a message.
// waitUntil checks its condition again on each, and on a slow backstop
// for the conditions no message announces (the publisher's own state,
// such as Connected).
var changed = newSignal()

// signal wakes every waiter at once: wait returns a channel that the next
// notify closes.
type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

func newSignal() *signal { return &signal{ch: make(chan struct{})} }

func (s *signal) notify() {
	s.mu.Lock()
	close(s.ch)
	s.ch = make(chan struct{})
	s.mu.Unlock()
}

func (s *signal) wait() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ch
}

// backstop is how often waitUntil checks a condition that no message
// announces.
const backstop = 50 * time.Millisecond

func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	tick := time.NewTicker(backstop)
	defer tick.Stop()
	for {
		next := changed.wait() // before checking: no message is missed
		if cond() {
			return
		}
		select {
		case <-next:
		case <-tick.C:
		case <-timeout.C:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func hasSeq(c *collector, t testing.TB, topic string, seq uint64) func() bool {
	return func() bool {
		for _, s := range c.seqs(t, topic) {
			if s == seq {
				return true
			}
		}
		return false
	}
}

// subscribe connects a paho client and subscribes to filter, waiting for
// the SUBACK.
func subscribe(t testing.TB, url, user, pass, filter string, h mqtt.MessageHandler) mqtt.Client {
	t.Helper()
	o := mqtt.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("sub-%d", time.Now().UnixNano())).
		SetUsername(user).SetPassword(pass).SetAutoReconnect(false).SetConnectTimeout(wait).SetOrderMatters(true)
	c := mqtt.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("subscriber connect to %s: %v", url, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	if filter == "" {
		return c
	}
	filters := map[string]byte{filter: 1}
	if filter == allTopics {
		// Mochi 2.7.9 reads a topic's retained path without a lock
		// when it scans for a wildcard subscription, which races with
		// the next retained publish (mochi-mqtt/server#200). Explicit
		// topics take the locked path.
		filters = map[string]byte{}
		for _, topic := range []string{TopicStatus, TopicState, TopicMoves, TopicEvents, TopicRecord} {
			filters["zertz/b1/"+topic] = 1
		}
	}
	if tok := c.SubscribeMultiple(filters, h); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("subscribe %s: %v", filter, tok.Error())
	}
	return c
}

// allTopics asks subscribe for every topic the publisher publishes.
const allTopics = "zertz/b1/*"

// proxy forwards TCP to a broker and can cut every connection, which the
// broker sees as the client vanishing: it then publishes the Will.
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
	down   bool // refuse new connections
	wg     sync.WaitGroup
}

func startProxy(t testing.TB, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			down := p.down
			p.mu.Unlock()
			if down {
				c.Close()
				continue
			}
			u, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, u)
			p.mu.Unlock()
			p.wg.Add(2)
			go func() { defer p.wg.Done(); io.Copy(u, c); u.Close() }()
			go func() { defer p.wg.Done(); io.Copy(c, u); c.Close() }()
		}
	}()
	t.Cleanup(func() { ln.Close(); p.cut(); p.wg.Wait() })
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

// setDown makes the proxy refuse (down) or forward new connections.
func (p *proxy) setDown(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
}

// cut closes every connection through the proxy.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

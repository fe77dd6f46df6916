package broadcast

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/hall"
	"github.com/zertzboard/zertzboard/internal/mosquittotest"
	"github.com/zertzboard/zertzboard/referee"
)

func (p *Publisher) verifiedCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.verified
}

// After every connection the board proves its command path: its own
// health-check command comes back, and nothing of it reaches the node.
func TestHealthCheckAfterEveryConnection(t *testing.T) {
	b := startBroker(t, "127.0.0.1:0", nil)
	px := startProxy(t, b.TCPAddr())
	p := newPublisher(t, testConfig(t, "tcp://"+px.addr()))
	waitUntil(t, "the first health check", func() bool { return p.verifiedCount() == 1 && p.CommandPath() == nil })
	px.cut()
	waitUntil(t, "the health check after the reconnection", func() bool { return p.verifiedCount() == 2 && p.CommandPath() == nil })
	select {
	case c := <-p.Commands():
		t.Fatalf("the health check reached the node as %+v", c)
	default:
	}
}

// startHall runs mosquitto with the hall's ACL for boards b1 and b2 and
// operator op.
func startHall(t *testing.T) string {
	acl, err := hall.ACL(hall.Accounts{Boards: []string{"b1", "b2"}, Operators: []string{"op"}})
	if err != nil {
		t.Fatal(err)
	}
	return mosquittotest.Start(t, mosquittotest.Options{Passwords: map[string]string{"b1": "b1-pw", "b2": "b2-pw", "op": "op-pw"}, ACL: acl,
		Config: func(port int, pw, aclFile string) string {
			return hall.Config("127.0.0.1", port, pw, aclFile)
		}})
}

// A board whose commands are not delivered says so through OnCommandPath
// and on events, and reconnects to try again. Here board b1 logs in with
// b2's account: mosquitto grants the subscription to b1's commands but
// delivers none of them (its ACL applies per message), the silent failure
// the health check exists for.
func TestHealthCheckFailureReportedAndReconnects(t *testing.T) {
	addr := startHall(t)
	cfg := testConfig(t, "tcp://"+addr)
	cfg.Username, cfg.Password = "b2", "b2-pw"
	cfg.HealthTimeout = 300 * time.Millisecond
	var mu sync.Mutex
	var faults []error
	cfg.OnCommandPath = func(err error) { mu.Lock(); faults = append(faults, err); mu.Unlock() }
	connects := 0
	var cmu sync.Mutex
	cfg.Logger = slogFunc(func(msg string) {
		if testing.Verbose() {
			t.Log(msg)
		}
		if msg == "broadcast: connected" {
			cmu.Lock()
			connects++
			cmu.Unlock()
		}
	})
	p := newPublisher(t, cfg)
	waitUntil(t, "the failure reported", func() bool { mu.Lock(); defer mu.Unlock(); return len(faults) > 0 })
	mu.Lock()
	if faults[0] == nil {
		t.Fatal("OnCommandPath(nil) before any check passed")
	}
	mu.Unlock()
	if err := p.CommandPath(); err == nil || !strings.Contains(err.Error(), "health-check") {
		t.Errorf("CommandPath() = %v; want the failure", err)
	}
	waitUntil(t, "a reconnection after the failure", func() bool { cmu.Lock(); defer cmu.Unlock(); return connects >= 2 })
}

// The same against Debian's mosquitto with the hall's ACL: the board's
// account proves its path after each connection, and after its client ID
// is taken over (mosquitto allows it: a client of the hall must not use a
// board's ID, which the embedded broker enforces) it reconnects, proves
// its path again and receives an operator's command.
func TestHealthCheckMosquittoHall(t *testing.T) {
	addr := startHall(t)
	cfg := testConfig(t, "tcp://"+addr)
	cfg.Username, cfg.Password = "b1", "b1-pw"
	p := newPublisher(t, cfg)
	waitUntil(t, "the first health check", func() bool { return p.verifiedCount() == 1 })

	// An anonymous client takes the board's client ID, clean session.
	o := mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("zertzboard-b1").SetCleanSession(true).
		SetAutoReconnect(false).SetConnectTimeout(wait)
	thief := mqtt.NewClient(o)
	if tok := thief.Connect(); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("thief connect: %v", tok.Error())
	}
	waitUntil(t, "the board back with its path proven", func() bool { return p.verifiedCount() >= 2 && p.CommandPath() == nil })
	thief.Disconnect(0)

	op := subscribe(t, "tcp://"+addr, "op", "op-pw", "", nil)
	if tok := op.Publish("zertz/b1/cmd/pause", 1, false, `{"id":"after-takeover"}`); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("operator publish: %v", tok.Error())
	}
	select {
	case c := <-p.Commands():
		if c.ID != "after-takeover" {
			t.Errorf("command %+v; want the operator's pause", c)
		}
	case <-time.After(wait):
		t.Fatal("the board never received the operator's command after the take-over")
	}
}

// slogFunc is a logger that hands each record's message to fn.
func slogFunc(fn func(msg string)) *slog.Logger { return slog.New(msgHandler(fn)) }

type msgHandler func(string)

func (h msgHandler) Enabled(context.Context, slog.Level) bool      { return true }
func (h msgHandler) Handle(_ context.Context, r slog.Record) error { h(r.Message); return nil }
func (h msgHandler) WithAttrs([]slog.Attr) slog.Handler            { return h }
func (h msgHandler) WithGroup(string) slog.Handler                 { return h }

// A flood of command replies on events never holds back state or moves:
// once the previous QoS 1 message is acknowledged, the next goes before
// any queued event; events go while an acknowledgement is awaited.
func TestQueuedRepliesNeverStarveState(t *testing.T) {
	p := &Publisher{prefix: "zertz/b1/"}
	for i := 0; i < 200; i++ {
		p.queueEventLocked([]byte(`{"event":"command-refused"}`))
	}
	p.state = &message{topic: "zertz/b1/state", qos: 1}
	p.moves = []message{{topic: "zertz/b1/moves", qos: 1}}
	if m := p.nextLocked(true, true); m == nil || m.topic != "zertz/b1/moves" {
		t.Fatalf("first with 200 replies queued: %+v; want the move", m)
	}
	if m := p.nextLocked(true, false); m == nil || m.topic != "zertz/b1/events" {
		t.Fatalf("while the move is unacknowledged: %+v; want an event", m)
	}
	if m := p.nextLocked(true, true); m == nil || m.topic != "zertz/b1/state" {
		t.Fatalf("once the move is acknowledged: %+v; want the state", m)
	}
}

// Finding: the journal-damaged event, found at start-up, was dropped
// because the board was not connected yet. A notice waits for the
// connection and is said again after every reconnection.
func TestNoticeSentOnceConnectedAndAfterEachReconnection(t *testing.T) {
	b := startBroker(t, "127.0.0.1:0", nil)
	px := startProxy(t, b.TCPAddr())
	px.setDown(true)
	p := newPublisher(t, testConfig(t, "tcp://"+px.addr()))
	p.PublishNotice(referee.Event{T: 0, Body: referee.Fault{Reason: "journal damaged (test)"}})
	viewer := newCollector()
	subscribe(t, "tcp://"+b.TCPAddr(), "", "", allTopics, viewer.handler)
	count := func() int {
		n := 0
		for _, m := range viewer.get("events") {
			if strings.Contains(string(m.payload), "journal damaged (test)") {
				n++
			}
		}
		return n
	}
	px.setDown(false)
	waitUntil(t, "the notice once connected", func() bool { return count() == 1 })
	px.cut()
	waitUntil(t, "the notice after the reconnection", func() bool { return count() == 2 })
}

// Finding: names made of spaces, or holding zero-width and bidi-override
// characters, were accepted.
func TestInvisibleNamesRefused(t *testing.T) {
	for _, name := range []string{"   ", "\u00a0", "a\u200bb", "\u202eann", "bob\u2066"} {
		payload, _ := json.Marshal(map[string]any{"players": []string{"ann", name}})
		if _, reason := command.Decode("set-players", payload, ""); reason == "" {
			t.Errorf("players %q accepted", name)
		}
	}
	if _, reason := command.Decode("set-players", []byte(`{"players":["Zoë","Łukasz"]}`), ""); reason != "" {
		t.Errorf("real names refused: %s", reason)
	}
}

// Issue 19: a failed command-path check is said in the retained status
// ("online command-path-failed"), kept there across the reconnection it
// causes, and cleared ("online") once a check passes again. A subscriber
// arriving meanwhile reads it from the retained message.
func TestCommandPathFailureInRetainedStatus(t *testing.T) {
	b := startBroker(t, "127.0.0.1:0", nil)
	viewer := newCollector()
	subscribe(t, "tcp://"+b.TCPAddr(), "", "", "zertz/b1/status", viewer.handler)
	p := newPublisher(t, testConfig(t, "tcp://"+b.TCPAddr()))
	waitUntil(t, "the first health check", func() bool { return p.verifiedCount() == 1 && viewer.last(TopicStatus) == Online })

	// Make the next check fail: hold back the health check's answer by
	// forgetting its id, as a broker that drops the board's commands
	// would, and let its timer run out.
	p.mu.Lock()
	p.health = "health-never-answered"
	gen := p.healthGen
	p.mu.Unlock()
	p.healthFailed(gen)
	waitUntil(t, "the failure in the retained status", func() bool {
		for _, s := range statuses(viewer) {
			if s == OnlineCommandPathFailed {
				return true
			}
		}
		return false
	})
	late := newCollector()
	lateSub := subscribe(t, "tcp://"+b.TCPAddr(), "", "", "zertz/b1/status", late.handler)
	// The reconnection's check passes and clears it.
	waitUntil(t, "online again once a check passed", func() bool { return p.verifiedCount() >= 2 && viewer.last(TopicStatus) == Online })
	lateSub.Disconnect(0)
	if p.CommandPath() != nil {
		t.Errorf("CommandPath() = %v after a check passed", p.CommandPath())
	}
	// What the late subscriber read first was the retained value of the
	// moment: the failure (or online, if the new check had already passed).
	if got := late.get(TopicStatus); len(got) == 0 || !got[0].retained || !strings.HasPrefix(string(got[0].payload), Online) {
		t.Errorf("late subscriber's first status %+v; want a retained online…", got)
	}
	for _, s := range statuses(viewer) {
		if s != Online && s != OnlineCommandPathFailed && s != Offline {
			t.Errorf("status %q is none of the contract's values", s)
		}
	}
}

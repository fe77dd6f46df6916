package broker

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

const wait = 5 * time.Second

var testUsers = []User{
	{Name: "board1", Password: "board-secret", Role: RoleBoard},
	{Name: "op", Password: "op-secret", Role: RoleOperator},
	{Name: "tv", Password: "tv-secret", Role: RoleViewer},
}

func startBroker(t *testing.T, cfg Config) *Broker {
	t.Helper()
	if cfg.TCPAddr == "" {
		cfg.TCPAddr = "127.0.0.1:0"
	}
	if cfg.WSAddr == "" {
		cfg.WSAddr = "127.0.0.1:0"
	}
	if cfg.Users == nil {
		cfg.Users = testUsers
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.srv.AddHook(&eventHook{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// recorder collects what an in-process subscriber sees.
type recorder struct {
	mu    sync.Mutex
	msgs  []string      // topic=payload
	added chan struct{} // closed and replaced on each message
}

func (r *recorder) add(topic string, payload []byte, _ bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, topic+"="+string(payload))
	if r.added != nil {
		close(r.added)
	}
	r.added = make(chan struct{})
}

func (r *recorder) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.msgs...)
}

// next returns what has arrived and a channel closed at the next message.
func (r *recorder) next() ([]string, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.added == nil {
		r.added = make(chan struct{})
	}
	return append([]string(nil), r.msgs...), r.added
}

// waitFor waits for the message want, woken by each message that arrives.
func (r *recorder) waitFor(t *testing.T, want string) {
	t.Helper()
	timeout := time.After(wait)
	for {
		msgs, added := r.next()
		for _, m := range msgs {
			if m == want {
				return
			}
		}
		select {
		case <-added:
		case <-timeout:
			t.Fatalf("message %q never arrived; got %q", want, r.all())
		}
	}
}

func connect(t *testing.T, url, user, pass string, will string) (paho.Client, error) {
	t.Helper()
	o := paho.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("%s-%d", strings.ReplaceAll(t.Name(), "/", "-"), time.Now().UnixNano())).
		SetUsername(user).SetPassword(pass).SetAutoReconnect(false).SetConnectTimeout(wait).
		SetProtocolVersion(4) // no second try as 3.1 after a refusal: each is a log-in attempt
	if will != "" {
		o.SetWill(will, "bye", 1, true)
	}
	c := paho.NewClient(o)
	tok := c.Connect()
	if !tok.WaitTimeout(wait) {
		t.Fatal("connect timed out")
	}
	if err := tok.Error(); err != nil {
		return nil, err
	}
	t.Cleanup(func() { c.Disconnect(50) })
	return c, nil
}

func mustConnect(t *testing.T, url, user, pass string) paho.Client {
	t.Helper()
	c, err := connect(t, url, user, pass, "")
	if err != nil {
		t.Fatalf("connect as %q: %v", user, err)
	}
	return c
}

// roundTrip returns once the broker has processed everything c sent
// before: mochi handles a client's packets in order, so a SUBACK means the
// earlier publishes were already delivered or dropped.
func roundTrip(t *testing.T, c paho.Client) {
	t.Helper()
	tok := c.Subscribe("zertz/b1/sync", 0, nil)
	if !tok.WaitTimeout(wait) {
		t.Fatal("subscribe timed out")
	}
}

func TestRoles(t *testing.T) {
	b := startBroker(t, Config{})
	url := "tcp://" + b.TCPAddr()
	var rec recorder
	if err := b.Subscribe("zertz/#", rec.add); err != nil {
		t.Fatal(err)
	}

	t.Run("board publishes state", func(t *testing.T) {
		c := mustConnect(t, url, "board1", "board-secret")
		c.Publish("zertz/b1/state", 1, true, "S1").WaitTimeout(wait)
		rec.waitFor(t, "zertz/b1/state=S1")
	})
	t.Run("operator sends a command", func(t *testing.T) {
		c := mustConnect(t, url, "op", "op-secret")
		c.Publish("zertz/b1/cmd/new-game", 1, false, "{}").WaitTimeout(wait)
		rec.waitFor(t, "zertz/b1/cmd/new-game={}")
	})
	t.Run("viewer cannot publish", func(t *testing.T) {
		c := mustConnect(t, url, "tv", "tv-secret")
		c.Publish("zertz/b1/cmd/new-game", 0, false, "viewer-cmd")
		c.Publish("zertz/b1/state", 0, true, "viewer-state")
		roundTrip(t, c)
		// QoS 1: mochi disconnects a 3.1.1 client it must refuse.
		c.Publish("zertz/b1/cmd/takeback", 1, false, "viewer-qos1").WaitTimeout(time.Second)
		waitUntil(t, func() bool { return !c.IsConnectionOpen() }, "viewer still connected after a refused QoS 1 publish")
	})
	t.Run("anonymous cannot publish", func(t *testing.T) {
		c := mustConnect(t, url, "", "")
		c.Publish("zertz/b1/cmd/new-game", 0, false, "anon-cmd")
		c.Publish("zertz/b1/state", 0, true, "anon-state")
		roundTrip(t, c)
	})
	t.Run("viewer reads retained state", func(t *testing.T) {
		c := mustConnect(t, url, "tv", "tv-secret")
		got := make(chan string, 4)
		c.Subscribe("zertz/+/state", 1, func(_ paho.Client, m paho.Message) { got <- string(m.Payload()) })
		select {
		case s := <-got:
			if s != "S1" {
				t.Errorf("retained state = %q; want S1", s)
			}
		case <-time.After(wait):
			t.Fatal("no retained state")
		}
	})
	t.Run("board subscribes to commands only", func(t *testing.T) {
		c := mustConnect(t, url, "board1", "board-secret")
		tok := c.Subscribe("zertz/b1/cmd/+", 1, nil)
		tok.WaitTimeout(wait)
		if q := tok.(*paho.SubscribeToken).Result()["zertz/b1/cmd/+"]; q != 1 {
			t.Errorf("board subscribe cmd/+ granted %#x; want 1", q)
		}
		tok = c.Subscribe("zertz/b1/state", 1, nil)
		tok.WaitTimeout(wait)
		if q := tok.(*paho.SubscribeToken).Result()["zertz/b1/state"]; q != 0x80 {
			t.Errorf("board subscribe state granted %#x; want 0x80 (refused)", q)
		}
	})
	for _, m := range rec.all() {
		if strings.Contains(m, "viewer-") || strings.Contains(m, "anon-") {
			t.Errorf("refused publish was delivered: %q", m)
		}
	}
}

func TestConnectRefused(t *testing.T) {
	no := false
	b := startBroker(t, Config{AllowAnonymousViewers: &no})
	url := "tcp://" + b.TCPAddr()
	for _, tc := range []struct{ name, user, pass, will string }{
		{"wrong password", "op", "op-secreT", ""},
		{"unknown user", "mallory", "op-secret", ""},
		{"no password", "op", "", ""},
		{"anonymous when not allowed", "", "", ""},
		{"viewer with a will on state", "tv", "tv-secret", "zertz/b1/state"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := connect(t, url, tc.user, tc.pass, tc.will); err == nil {
				t.Errorf("connect(%q, %q) succeeded; want refused", tc.user, tc.pass)
			}
		})
	}
	t.Run("board with a will on status", func(t *testing.T) {
		if _, err := connect(t, url, "board1", "board-secret", "zertz/b1/status"); err != nil {
			t.Errorf("connect: %v", err)
		}
	})
}

func TestWebSocket(t *testing.T) {
	b := startBroker(t, Config{})
	var rec recorder
	if err := b.Subscribe("zertz/#", rec.add); err != nil {
		t.Fatal(err)
	}
	c := mustConnect(t, "ws://"+b.WSAddr()+"/", "board1", "board-secret")
	c.Publish("zertz/b1/state", 1, true, strings.Repeat("x", 60000)).WaitTimeout(wait)
	rec.waitFor(t, "zertz/b1/state="+strings.Repeat("x", 60000))

	v := mustConnect(t, "ws://"+b.WSAddr()+"/", "", "")
	got := make(chan int, 1)
	v.Subscribe("zertz/b1/state", 1, func(_ paho.Client, m paho.Message) { got <- len(m.Payload()) })
	select {
	case n := <-got:
		if n != 60000 {
			t.Errorf("state over WebSocket: %d bytes; want 60000", n)
		}
	case <-time.After(wait):
		t.Fatal("no state over WebSocket")
	}
}

func TestAllowed(t *testing.T) {
	h, err := newAuthHook(nil, "zertz/", true, Limits{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		role  Role
		topic string
		write bool
		want  bool
	}{
		{RoleBoard, "zertz/b1/state", true, true},
		{RoleBoard, "zertz/b1/cmd/new-game", true, true},
		{RoleBoard, "other/b1/state", true, false},
		{RoleBoard, "zertz/", true, false},
		{RoleBoard, "zertz/b1/cmd/+", false, true},
		{RoleBoard, "zertz/+/cmd/#", false, true},
		{RoleBoard, "zertz/b1/state", false, false},
		{RoleBoard, "zertz/b1/status", false, true},
		{RoleBoard, "zertz/+/status", false, true},
		{RoleBoard, "zertz/#/status", false, false},
		{RoleBoard, "zertz/#", false, false},
		{RoleBoard, "zertz/b1/#", false, false},
		{RoleOperator, "zertz/b1/cmd/takeback", true, true},
		{RoleOperator, "zertz/b1/state", true, false},
		{RoleOperator, "zertz/b1/cmd", true, false},
		{RoleOperator, "zertz/#", false, true},
		{RoleOperator, "#", false, false},
		{RoleOperator, "$SYS/#", false, false},
		{RoleViewer, "zertz/#", false, true},
		{RoleViewer, "zertz/b1/cmd/new-game", true, false},
		{RoleViewer, "zertz/b1/status", true, false},
		{RoleViewer, "+/b1/state", false, false},
		{RoleViewer, "zertz/b1/state", false, true},
		{RoleViewer, "zertz/b1/record", false, true},
		{RoleViewer, "zertz/b1/moves", false, true},
		{RoleViewer, "zertz/b1/events", false, true},
		{RoleViewer, "zertz/b1/status", false, true},
		{RoleViewer, "zertz/+/state", false, true},
		{RoleViewer, "zertz/b1/#", false, true},
		{RoleViewer, "zertz/b1/+", false, true},
		{RoleViewer, "zertz/b1/cmd/new-game", false, false},
		{RoleViewer, "zertz/b1/cmd/+", false, false},
		{RoleViewer, "zertz/+/cmd/#", false, false},
		{RoleViewer, "zertz/b1/secret", false, false},
		{RoleViewer, "zertz/b1/state/x", false, false},
		{RoleViewer, "zertz/+", false, false},
		{RoleOperator, "zertz/b1/cmd/new-game", false, true},
		{RoleBoard, "zertz/bad id/state", true, false},
		{RoleBoard, "zertz/" + strings.Repeat("b", 65) + "/state", true, false},
		{RoleOperator, "zertz/b$1/cmd/new-game", true, false},
		{RoleViewer, "zertz/b$1/state", false, false},
	} {
		if got := h.allowed(tc.role, tc.topic, tc.write); got != tc.want {
			t.Errorf("allowed(%s, %q, write=%v) = %v; want %v", tc.role, tc.topic, tc.write, got, tc.want)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"bad prefix", Config{Prefix: "zertz"}, `bad topic prefix "zertz"`},
		{"wildcard prefix", Config{Prefix: "zertz/#/"}, "bad topic prefix"},
		{"no name", Config{Users: []User{{Password: "x", Role: RoleViewer}}}, "has no name"},
		{"no password", Config{Users: []User{{Name: "a", Role: RoleViewer}}}, `"a" has no password`},
		{"bad role", Config{Users: []User{{Name: "a", Password: "x", Role: "admin"}}}, `unknown role "admin"`},
		{"duplicate", Config{Users: []User{{Name: "a", Password: "x", Role: RoleViewer}, {Name: "a", Password: "y", Role: RoleBoard}}}, "listed twice"},
		{"all off", Config{TCPAddr: Off, WSAddr: Off}, "both listeners are off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "broker: ") {
				t.Errorf("New = %v; want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestAddressInUse(t *testing.T) {
	a := startBroker(t, Config{WSAddr: Off})
	b, err := New(Config{TCPAddr: a.TCPAddr(), WSAddr: Off, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err == nil || !strings.Contains(err.Error(), a.TCPAddr()) {
		t.Errorf("Start on a taken address = %v; want an error naming it", err)
	}
	b.Close()
}

// events wakes the tests' waits: every test broker reports what its
// clients do (eventHook), and the tests' own clients what they receive.
var events = &signal{ch: make(chan struct{})}

// signal is closed and replaced at each event.
type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

func (s *signal) notify() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.ch)
	s.ch = make(chan struct{})
}

func (s *signal) next() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ch
}

// eventHook notifies events of each session, disconnection,
// subscription, publication and packet sent.
type eventHook struct{ mqtt.HookBase }

func (eventHook) ID() string { return "test-events" }

func (eventHook) Provides(b byte) bool {
	switch b {
	case mqtt.OnSessionEstablished, mqtt.OnDisconnect, mqtt.OnSubscribed, mqtt.OnUnsubscribed,
		mqtt.OnPublished, mqtt.OnPacketSent, mqtt.OnClientExpired:
		return true
	}
	return false
}

func (eventHook) OnSessionEstablished(*mqtt.Client, packets.Packet) { events.notify() }
func (eventHook) OnDisconnect(*mqtt.Client, error, bool)            { events.notify() }
func (eventHook) OnSubscribed(*mqtt.Client, packets.Packet, []byte) { events.notify() }
func (eventHook) OnUnsubscribed(*mqtt.Client, packets.Packet)       { events.notify() }
func (eventHook) OnPublished(*mqtt.Client, packets.Packet)          { events.notify() }
func (eventHook) OnPacketSent(*mqtt.Client, packets.Packet, []byte) { events.notify() }
func (eventHook) OnClientExpired(*mqtt.Client)                      { events.notify() }

// backstop bounds a wait for what no event announces after it lands:
// mochi calls OnDisconnect before it forgets the client, and a client's
// own view of its connection (paho) changes after the broker's.
const backstop = 50 * time.Millisecond

// waitUntil waits until cond holds, checking it again at each event of a
// test broker or client, and at the latest every backstop.
func waitUntil(t *testing.T, cond func() bool, msg string) {
	t.Helper()
	timeout := time.After(wait)
	for {
		next := events.next()
		if cond() {
			return
		}
		select {
		case <-next:
		case <-time.After(backstop):
		case <-timeout:
			t.Fatal(msg)
		}
	}
}

// Close must return while clients come and go: mochi 2.7.9's own Close can
// deadlock when a client is being removed just then (see closeLocked).
func TestCloseWhileClientsLeave(t *testing.T) {
	for round := 0; round < 10; round++ {
		b := startBroker(t, Config{})
		url := "tcp://" + b.TCPAddr()
		var clients []paho.Client
		for i := 0; i < 8; i++ {
			clients = append(clients, mustConnect(t, url, "", ""))
		}
		done := make(chan error, 1)
		go func() {
			for _, c := range clients {
				go c.Disconnect(0)
			}
			done <- b.Close() // an error if Close gave up waiting
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("round %d: Close hung with clients leaving", round)
		}
	}
}

// TestSilentConnection: a connection that never sends CONNECT is closed
// after ConnectTimeout, so it cannot pin a goroutine or stall Close.
func TestSilentConnection(t *testing.T) {
	b := startBroker(t, Config{ConnectTimeout: 100 * time.Millisecond})
	for _, addr := range []string{b.TCPAddr(), b.WSAddr()} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetReadDeadline(time.Now().Add(wait))
		if _, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("silent connection to %s: read %v; want it closed by the broker", addr, err)
		}
	}
	start := time.Now()
	if err := b.Close(); err != nil || time.Since(start) > time.Second {
		t.Errorf("Close = %v after %v", err, time.Since(start))
	}
}

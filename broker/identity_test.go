package broker

import (
	"bufio"
	"bytes"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// rawFrom is rawClient dialled from a loopback address of its own,
// 127.0.0.<n>, as another device on the LAN.
func rawFrom(t *testing.T, n int, addr string, connect []byte) []byte {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(n))}, Timeout: wait}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(wait))
	if _, err := c.Write(connect); err != nil {
		t.Fatal(err)
	}
	return readPacket(t, bufio.NewReader(c))
}

// boardClient connects as the board under the client ID the board uses,
// with a persistent session, subscribed to its commands.
func boardClient(t *testing.T, url string, got chan<- string) paho.Client {
	t.Helper()
	o := paho.NewClientOptions().AddBroker(url).SetClientID("zertzboard-b1").SetUsername("board1").SetPassword("board-secret").
		SetCleanSession(false).SetAutoReconnect(false).SetConnectTimeout(wait)
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("board connect: %v", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	if tok := c.Subscribe("zertz/b1/cmd/+", 1, func(_ paho.Client, m paho.Message) { got <- string(m.Payload()) }); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("board subscribe: %v", tok.Error())
	}
	return c
}

// A client ID held by an authenticated account cannot be taken by anyone
// else: not anonymously (the attack of issue 19), not by another account.
func TestClientIDTakeoverRefused(t *testing.T) {
	b := startBroker(t, Config{})
	got := make(chan string, 16)
	board := boardClient(t, "tcp://"+b.TCPAddr(), got)
	for _, tc := range []struct {
		name       string
		version    byte
		user, pass string
		want       byte
	}{
		{"anonymous 3.1.1", 4, "", "", 0x02},
		{"anonymous 5", 5, "", "", 0x85},
		{"operator 3.1.1", 4, "op", "op-secret", 0x02},
		{"viewer 5", 5, "tv", "tv-secret", 0x85},
	} {
		ack := rawFrom(t, 7, b.TCPAddr(), connectPacket(tc.version, "zertzboard-b1", tc.user, tc.pass))
		if len(ack) < 3 || ack[0] != 0x20 || ack[2] != tc.want {
			t.Errorf("%s CONNECT with the board's client ID: CONNACK % x; want code %#x", tc.name, ack, tc.want)
		}
	}
	if !board.IsConnectionOpen() {
		t.Fatal("the board was knocked off")
	}
	op := mustConnect(t, "tcp://"+b.TCPAddr(), "op", "op-secret")
	if tok := op.Publish("zertz/b1/cmd/pause", 1, false, "{}"); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("operator publish: %v", tok.Error())
	}
	select {
	case <-got:
	case <-time.After(wait):
		t.Fatal("the board no longer receives commands after the take-over attempts")
	}
	// The board's own account may take its session back (a reconnection
	// before the broker noticed the old connection drop).
	board2 := boardClient(t, "tcp://"+b.TCPAddr(), got)
	if !board2.IsConnectionOpen() {
		t.Fatal("the board could not reconnect under its own client ID")
	}
}

// The same take-over over WebSocket, from a page of another origin.
func TestClientIDTakeoverRefusedOverWebSocket(t *testing.T) {
	b := startBroker(t, Config{})
	got := make(chan string, 16)
	board := boardClient(t, "tcp://"+b.TCPAddr(), got)
	o := paho.NewClientOptions().AddBroker("ws://" + b.WSAddr() + "/").SetClientID("zertzboard-b1").SetCleanSession(true).
		SetAutoReconnect(false).SetConnectTimeout(wait).SetHTTPHeaders(map[string][]string{"Origin": {"http://evil.example"}})
	c := paho.NewClient(o)
	tok := c.Connect()
	if !tok.WaitTimeout(wait) {
		t.Fatal("connect timed out")
	}
	if tok.Error() == nil {
		c.Disconnect(0)
		t.Fatal("a WebSocket client took the board's client ID")
	}
	if !board.IsConnectionOpen() {
		t.Fatal("the board was knocked off")
	}
}

// Guessing a password over MQTT is limited as the console limits it: five
// tries at once from an address, then one per 12 s; after that even the
// right password is refused (no oracle). The board, logging in from its
// usual address, is not kept out by guesses from elsewhere.
func TestPasswordGuessingLimited(t *testing.T) {
	var logBuf syncBuffer
	b, err := New(Config{TCPAddr: "127.0.0.1:0", WSAddr: Off, Users: testUsers, Logger: slog.New(slog.NewTextHandler(&logBuf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	got := make(chan string, 16)
	board := boardClient(t, "tcp://"+b.TCPAddr(), got) // from 127.0.0.1: known good
	board.Disconnect(50)
	refused := 0
	for i := 0; i < 20; i++ {
		ack := rawFrom(t, 9, b.TCPAddr(), connectPacket(4, "guess", "op", "wrong"))
		if ack[2] == 0 {
			t.Fatalf("guess %d: CONNACK % x; want a refusal", i, ack)
		}
		refused++
	}
	if ack := rawFrom(t, 9, b.TCPAddr(), connectPacket(4, "guess-right", "op", "op-secret")); ack[2] == 0 {
		t.Fatal("the right password was accepted after 20 guesses from one address: the limit is an oracle or absent")
	}
	// Per user: guesses at the board's password from several addresses
	// use up the account's attempts, but not from where the board logs in.
	for n := 10; n < 20; n++ {
		rawFrom(t, n, b.TCPAddr(), connectPacket(4, "guess-board", "board1", "wrong"))
	}
	if ack := rawFrom(t, 30, b.TCPAddr(), connectPacket(4, "fresh", "board1", "board-secret")); ack[2] == 0 {
		t.Error("the board's account accepted from a new address after ten guesses at it from ten addresses")
	}
	boardClient(t, "tcp://"+b.TCPAddr(), got)
	// Failed authentications are warned about, but not once each.
	lines := strings.Count(logBuf.String(), "authentication failed")
	if lines == 0 || lines > 3 {
		t.Errorf("%d warnings for %d failed authentications; want one every %v with the count:\n%s", lines, refused+11, authLogEvery, logBuf.String())
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Finding: an operator's Will on cmd/pause was accepted and carried out
// when the operator dropped off. No role may leave a command as its Will.
func TestCommandWillRefused(t *testing.T) {
	b := startBroker(t, Config{})
	for _, u := range [][2]string{{"op", "op-secret"}, {"board1", "board-secret"}} {
		if _, err := connect(t, "tcp://"+b.TCPAddr(), u[0], u[1], "zertz/b1/cmd/pause"); err == nil {
			t.Errorf("%s connected with a Will on a command", u[0])
		}
	}
}

// Finding: a board account could create a board named "..".
func TestDotBoardIDsRefused(t *testing.T) {
	h, _ := newAuthHook(testUsers, "zertz/", true, Limits{}, slog.New(slog.DiscardHandler))
	for _, topic := range []string{"zertz/../state", "zertz/./state", "zertz/.../status"} {
		if h.allowed(RoleBoard, topic, true) {
			t.Errorf("a board may publish on %q", topic)
		}
	}
}

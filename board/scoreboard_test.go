package board

import (
	"bufio"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/scoreboard"
)

const scoreboardWait = 10 * time.Second

const tinyState = `{"schema":1,"seq":3,"board_id":"t9","board":"37","variant":"37","rules":"standard","mode":"casual",
"layout":[{"cell":"A1","x":0,"y":3},{"cell":"A2","x":0,"y":5}],"cells":"wo","players":["Ann <b>","Bob"],"to_move":1,"phase":"place",
"captures":[{"white":1,"grey":0,"black":0},{"white":0,"grey":0,"black":0}],"win":{"white":4,"grey":5,"black":6,"each":3},"moves":["Wa1"],"turn":1}`

// startTestBroker starts a broker on a free loopback port with the
// board's account (and these), closed when the test ends.
func startTestBroker(t *testing.T, anonymous bool, more ...broker.User) *broker.Broker {
	t.Helper()
	b, err := broker.New(broker.Config{TCPAddr: "127.0.0.1:0", WSAddr: broker.Off, AllowAnonymousViewers: &anonymous,
		Users: append([]broker.User{{Name: "board", Password: "pw", Role: broker.RoleBoard}}, more...)})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// publishRetained publishes retained messages as the board would (topic,
// payload, topic, payload...), in order on one connection, and returns
// once the broker has passed the last to its in-process subscribers: it
// handles one client's packets in order, the in-process subscribers
// before any client, and a client's QoS 0 message after its QoS 1 ones.
func publishRetained(t *testing.T, b *broker.Broker, msgs ...string) {
	t.Helper()
	passed := make(chan struct{})
	sync := "zertz/sync/test"
	if err := b.Subscribe(sync, func(string, []byte, bool) { close(passed) }); err != nil {
		t.Fatal(err)
	}
	c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + b.TCPAddr()).SetClientID("test-board").
		SetUsername("board").SetPassword("pw").SetConnectTimeout(scoreboardWait).SetAutoReconnect(false))
	if tok := c.Connect(); !tok.WaitTimeout(scoreboardWait) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	// Stay connected: the test closes the broker first, because mochi
	// 2.7.9's Close can deadlock against a client disconnecting meanwhile.
	t.Cleanup(func() { c.Disconnect(0) })
	for i := 0; i+1 < len(msgs); i += 2 {
		if tok := c.Publish(msgs[i], 1, true, msgs[i+1]); !tok.WaitTimeout(scoreboardWait) || tok.Error() != nil {
			t.Fatalf("publish: %v", tok.Error())
		}
	}
	if tok := c.Publish(sync, 0, false, "sync"); !tok.WaitTimeout(scoreboardWait) || tok.Error() != nil {
		t.Fatalf("publish: %v", tok.Error())
	}
	select {
	case <-passed:
	case <-time.After(scoreboardWait):
		t.Fatal("the broker never passed the messages on")
	}
}

// TestDaemonScoreboard: with the embedded broker, the board's page
// listens in process and sees every board's state and status.
func TestDaemonScoreboard(t *testing.T) {
	b := startTestBroker(t, true)
	defer b.Close() // before the clients leave (see publishRetained)
	sb := scoreboard.New(scoreboard.Options{Logger: slog.New(slog.DiscardHandler)})
	defer sb.Close()
	if err := SubscribeScoreboard(sb, b); err != nil {
		t.Fatal(err)
	}
	publishRetained(t, b, "zertz/t9/state", tinyState, "zertz/t9/status", "online")
	if html, _ := sb.Current(""); !strings.Contains(html, `card online`) || !strings.Contains(html, "Bob") {
		t.Fatalf("the board's scoreboard does not show the board: %s", html)
	}
}

// TestScoreboardFollowsWithAccount: on an external broker that refuses
// anonymous clients, the board's scoreboard follows with the viewer
// account of its configuration (an anonymous one sees nothing).
func TestScoreboardFollowsWithAccount(t *testing.T) {
	b := startTestBroker(t, false, broker.User{Name: "tv", Password: "tv-pw", Role: broker.RoleViewer})
	defer b.Close() // before the clients leave (see publishRetained)
	publishRetained(t, b, "zertz/t9/state", tinyState)

	// An anonymous scoreboard, following from the start.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	anonymous := scoreboard.New(scoreboard.Options{Logger: slog.New(slog.DiscardHandler)})
	defer anonymous.Close()
	anonDone := make(chan error, 1)
	go func() { anonDone <- anonymous.Follow(ctx, scoreboard.MQTTConfig{Broker: "tcp://" + b.TCPAddr()}) }()
	defer func() { cancel(); <-anonDone }()

	_, r, cal := wallRig(t)
	ready := make(chan string, 1)
	done := make(chan error, 1)
	rctx, stop := context.WithCancel(context.Background())
	go func() {
		done <- Run(rctx, Config{
			Options: Options{BoardID: "t8", Variant: "37", Rig: r, Calibration: cal, JournalPath: JournalOff, Logger: testLog(t)},
			Broker:  "tcp://" + b.TCPAddr(), Username: "board", Password: "pw", HTTP: "127.0.0.1:0",
			ViewerUser: "tv", ViewerPassword: "tv-pw",
			Ready: func(_, httpURL string) { ready <- httpURL },
		})
	}()
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	var page string
	select {
	case page = <-ready:
	case err := <-done:
		t.Fatalf("Run: %v", err)
	}
	// The board's event stream: its current view, then each change.
	if !streamShows(t, page+"events?board=t9", "Bob") {
		t.Fatal("the scoreboard with the viewer account never showed the board")
	}
	if html, _ := anonymous.Current(""); strings.Contains(html, "Bob") {
		t.Error("an anonymous scoreboard saw the board on a broker that refuses anonymous clients")
	}
}

// streamShows reads the server-sent event stream at url until a line
// has want (true), or the stream ends or the wait is over (false).
func streamShows(t *testing.T, url, want string) bool {
	t.Helper()
	resp, err := (&http.Client{Timeout: scoreboardWait}).Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), want) {
			return true
		}
	}
	return false
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/scoreboard"
	"github.com/zertzboard/zertzboard/wire"
)

const scoreboardWait = 10 * time.Second

func startTestBroker(t *testing.T) *broker.Broker {
	t.Helper()
	b, err := broker.New(broker.Config{TCPAddr: "127.0.0.1:0", WSAddr: broker.Off,
		Users: []broker.User{{Name: "board", Password: "pw", Role: broker.RoleBoard}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// publishRetained publishes as the board would.
func publishRetained(t *testing.T, b *broker.Broker, topic, payload string) {
	t.Helper()
	// A client ID per call: two clients under one ID, each reconnecting,
	// would take the session from each other.
	c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + b.TCPAddr()).SetClientID("test-board-" + strings.ReplaceAll(topic, "/", "-")).
		SetUsername("board").SetPassword("pw").SetConnectTimeout(scoreboardWait).SetAutoReconnect(false))
	if tok := c.Connect(); !tok.WaitTimeout(scoreboardWait) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	// Stay connected: the test closes the broker first, because mochi
	// 2.7.9's Close can deadlock against a client disconnecting meanwhile.
	t.Cleanup(func() { c.Disconnect(0) })
	if tok := c.Publish(topic, 1, true, payload); !tok.WaitTimeout(scoreboardWait) || tok.Error() != nil {
		t.Fatalf("publish: %v", tok.Error())
	}
}

// getUntil polls url until its body contains want.
func getUntil(t *testing.T, url, want string) string {
	t.Helper()
	deadline := time.Now().Add(scoreboardWait)
	for {
		resp, err := http.Get(url)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(body), want) {
				return string(body)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s never showed %q (last error %v)", url, want, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

const tinyState = `{"schema":1,"seq":3,"board_id":"t9","board":"37","variant":"37","rules":"standard","mode":"casual",
"layout":[{"cell":"A1","x":0,"y":3},{"cell":"A2","x":0,"y":5}],"cells":"wo","players":["Ann <b>","Bob"],"to_move":1,"phase":"place",
"captures":[{"white":1,"grey":0,"black":0},{"white":0,"grey":0,"black":0}],"win":{"white":4,"grey":5,"black":6,"each":3},"moves":["Wa1"],"turn":1}`

func TestServeScoreboard(t *testing.T) {
	b := startTestBroker(t)
	publishRetained(t, b, "zertz/t9/state", tinyState)
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serveScoreboard(ctx, scoreboardConfig{http: "127.0.0.1:0", prefix: "zertz/",
			mqtt: scoreboard.MQTTConfig{Broker: "tcp://" + b.TCPAddr()}, log: slog.New(slog.DiscardHandler)},
			func(u string) { urls <- u })
	}()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatal(err)
	}
	page := getUntil(t, url, `data-board="t9"`)
	if !strings.Contains(page, "Ann &lt;b&gt;") {
		t.Errorf("tournament page lacks the escaped player name")
	}
	getUntil(t, url+"board/t9", `data-cell="A1" data-content="w"`)

	// An open event stream must not hold up the shutdown.
	resp, err := http.Get(url + "events?board=t9")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b.Close() // before the scoreboard's client leaves (see publishRetained)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serveScoreboard: %v", err)
		}
	case <-time.After(scoreboardWait):
		t.Fatal("serveScoreboard did not stop")
	}
}

func TestScoreboardUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"scoreboard", "extra"}, &out, &errb); code != exitUsage {
		t.Errorf("an extra argument: exit %d; want %d", code, exitUsage)
	}
	errb.Reset()
	if code := run([]string{"scoreboard", "--broker", "http://x", "--http", "127.0.0.1:0"}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "scheme") {
		t.Errorf("a bad broker URL: exit %d, %q; want %d and the reason", code, errb.String(), exitUsage)
	}
}

// TestDaemonScoreboard: with the embedded broker, the daemon's page
// listens in process and sees every board's state and status.
func TestDaemonScoreboard(t *testing.T) {
	b := startTestBroker(t)
	defer b.Close() // before the clients leave (see publishRetained)
	sb := scoreboard.New(scoreboard.Options{Logger: slog.New(slog.DiscardHandler)})
	defer sb.Close()
	if err := subscribeScoreboard(sb, b); err != nil {
		t.Fatal(err)
	}
	publishRetained(t, b, "zertz/t9/state", tinyState)
	publishRetained(t, b, "zertz/t9/status", "online")
	deadline := time.Now().Add(scoreboardWait)
	for {
		html, _ := sb.Current("")
		if strings.Contains(html, `card online`) && strings.Contains(html, "Bob") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the daemon's scoreboard never showed the board: %s", html)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestSimServesScoreboard runs "sim" as a process: its web page is the
// scoreboard, fed in process by the embedded broker, beside /state.json.
func TestSimServesScoreboard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon as a process")
	}
	web := "127.0.0.1:" + freePort(t)
	cmd, out := startZertzboard(t, "sim", "--speed", "10", "--settle", "40", "--board-id", "tv1",
		"--mqtt-listen", "127.0.0.1:"+freePort(t), "--ws-listen", "off", "--http", web, "--journal", t.TempDir()+"/j.jsonl")
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	base := "http://" + web
	st := pollState(t, base+"/state.json", func(s wire.State) bool { return s.Turn >= 2 })
	getUntil(t, base+"/", `<a class="card online" href="/board/tv1"`)
	// The scoreboard's view catches up with the controller's state.
	deadline := time.Now().Add(scoreboardWait)
	for {
		resp, err := http.Get(base + "/board/tv1/state.json")
		if err == nil {
			var got wire.State
			err = json.NewDecoder(resp.Body).Decode(&got)
			resp.Body.Close()
			if err == nil && got.Seq >= st.Seq {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the scoreboard never reached seq %d: %v", st.Seq, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	getUntil(t, base+"/board/tv1", `data-board="tv1" data-seq=`)

	// An open event stream must not hold up the shutdown.
	stream, err := http.Get(base + "/events?board=tv1")
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		stopped = true
		if err != nil {
			t.Errorf("sim after SIGTERM: %v\n%s", err, out)
		}
	case <-time.After(scoreboardWait):
		t.Fatalf("sim did not stop on SIGTERM\n%s", out)
	}
}

// On an external broker that refuses anonymous clients, the daemon's
// scoreboard follows with the viewer account from the configuration.
func TestScoreboardFollowsWithAccount(t *testing.T) {
	anon := false
	b, err := broker.New(broker.Config{TCPAddr: "127.0.0.1:0", WSAddr: broker.Off, AllowAnonymousViewers: &anon,
		Users: []broker.User{{Name: "board", Password: "pw", Role: broker.RoleBoard}, {Name: "tv", Password: "tv-pw", Role: broker.RoleViewer}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	defer b.Close() // before the clients leave (see publishRetained)
	publishRetained(t, b, "zertz/t9/state", tinyState)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	log := slog.New(slog.DiscardHandler)
	viewer := scoreboard.New(scoreboard.Options{Logger: log})
	defer viewer.Close()
	anonymous := scoreboard.New(scoreboard.Options{Logger: log})
	defer anonymous.Close()
	url := "tcp://" + b.TCPAddr()
	followScoreboard(ctx, &wg, viewer, scoreboard.MQTTConfig{Broker: url, Username: "tv", Password: "tv-pw"}, log)
	followScoreboard(ctx, &wg, anonymous, scoreboard.MQTTConfig{Broker: url}, log)
	deadline := time.Now().Add(scoreboardWait)
	for {
		html, _ := viewer.Current("")
		if strings.Contains(html, "Bob") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the scoreboard with the viewer account never showed the board: %s", html)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if html, _ := anonymous.Current(""); strings.Contains(html, "Bob") {
		t.Error("an anonymous scoreboard saw the board on a broker that refuses anonymous clients")
	}
	cancel()
}

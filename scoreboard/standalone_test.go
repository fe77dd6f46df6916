package scoreboard

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const tinyState = `{"schema":1,"seq":3,"board_id":"t9","board":"37","variant":"37","rules":"standard","mode":"casual",
"layout":[{"cell":"A1","x":0,"y":3},{"cell":"A2","x":0,"y":5}],"cells":"wo","players":["Ann <b>","Bob"],"to_move":1,"phase":"place",
"captures":[{"white":1,"grey":0,"black":0},{"white":0,"grey":0,"black":0}],"win":{"white":4,"grey":5,"black":6,"each":3},"moves":["Wa1"],"turn":1}`

// getBody returns url's body.
func getBody(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRunStandalone: the scoreboard on its own follows the broker, serves
// the boards' pages, and stops when ctx is done even with an event stream
// open.
func TestRunStandalone(t *testing.T) {
	b := startBroker(t)
	closeBrokerFirst(t, b)
	newBoard(t, b, "t9").publish("state", 1, true, []byte(tinyState))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	urls := make(chan string, 1)
	subscribed := make(chan struct{}, 1)
	done := make(chan error, 1)
	go func() {
		done <- RunStandalone(ctx, StandaloneConfig{HTTP: "127.0.0.1:0", Prefix: "zertz/", Logger: testLogger(t),
			MQTT: MQTTConfig{Broker: "tcp://" + b.TCPAddr(), Connected: func() {
				select {
				case subscribed <- struct{}{}:
				default:
				}
			}}},
			func(u string) { urls <- u })
	}()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatal(err)
	}
	select {
	case <-subscribed:
	case err := <-done:
		t.Fatal(err)
	case <-time.After(wait):
		t.Fatal("the scoreboard never subscribed")
	}
	page := getBody(t, url)
	if !strings.Contains(page, `data-board="t9"`) || !strings.Contains(page, "Ann &lt;b&gt;") {
		t.Errorf("the tournament page lacks the board or its escaped player name: %s", page)
	}
	if page := getBody(t, url+"board/t9"); !strings.Contains(page, `data-cell="A1" data-content="w"`) {
		t.Errorf("the board's page lacks its position: %s", page)
	}

	// An open event stream must not hold up the shutdown.
	resp, err := http.Get(url + "events?board=t9")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b.Close() // before the scoreboard's client leaves (see closeBrokerFirst)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("RunStandalone: %v", err)
		}
	case <-time.After(wait):
		t.Fatal("RunStandalone did not stop")
	}
}

// TestRunStandaloneConfigErrors: a results directory that is a file and a
// broker URL of another scheme are the configuration's errors, naming
// what is wrong.
func TestRunStandaloneConfigErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var ce ConfigError
	err := RunStandalone(context.Background(), StandaloneConfig{HTTP: "127.0.0.1:0", Results: file, MQTT: MQTTConfig{Broker: "tcp://127.0.0.1:1"}}, nil)
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), file) {
		t.Errorf("results on a file: %v; want a ConfigError naming it", err)
	}
	err = RunStandalone(context.Background(), StandaloneConfig{HTTP: "127.0.0.1:0", MQTT: MQTTConfig{Broker: "http://x"}}, nil)
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "scheme") {
		t.Errorf("an http:// broker: %v; want a ConfigError about the scheme", err)
	}
}

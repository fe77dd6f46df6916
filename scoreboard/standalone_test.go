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
	done := make(chan error, 1)
	go func() {
		done <- RunStandalone(ctx, StandaloneConfig{HTTP: "127.0.0.1:0", Prefix: "zertz/", Logger: testLogger(t),
			MQTT: MQTTConfig{Broker: "tcp://" + b.TCPAddr()}}, func(u string) { urls <- u })
	}()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatal(err)
	}
	// The board's event stream shows its state once the scoreboard has
	// it. An open stream must not hold up the shutdown either.
	stream := dialSSE(t, url+"events?board=t9")
	defer stream.close()
	stream.nextSeq(t, 3)
	page := getBody(t, url)
	if !strings.Contains(page, `data-board="t9"`) || !strings.Contains(page, "Ann &lt;b&gt;") {
		t.Errorf("the tournament page lacks the board or its escaped player name: %s", page)
	}
	if page := getBody(t, url+"board/t9"); !strings.Contains(page, `data-cell="A1" data-content="w"`) {
		t.Errorf("the board's page lacks its position: %s", page)
	}
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

// TestHallsAndProxiesAsFlags: --hall adds a hall with its boards and
// refuses bad names, a hall given twice and a board in two halls, each
// error naming the input; --proxy takes IP addresses only.
func TestHallsAndProxiesAsFlags(t *testing.T) {
	two := func() Halls {
		h := Halls{}
		for _, v := range []string{"hall-a:a1,a2", "hall-b:b1"} {
			if err := h.Set(v); err != nil {
				t.Fatalf("Set(%q): %v", v, err)
			}
		}
		return h
	}
	if got := two().String(); got != "hall-a:a1,a2 hall-b:b1" {
		t.Errorf("String() = %q", got)
	}
	for v, want := range map[string]string{
		"hall-c":         `not "hall-c"`,
		"hall-c:":        `not "hall-c:"`,
		"bad hall:c1":    `hall "bad hall"`,
		"hall-a:c1":      `hall "hall-a" given twice`,
		"hall-c:c1,b1":   "board b1 is in halls hall-b and hall-c",
		"hall-c:c1,bad!": `board "bad!"`,
	} {
		if err := two().Set(v); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Set(%q): %v; want an error with %q", v, err, want)
		}
	}
	var p Proxies
	if err := p.Set("127.0.0.1"); err != nil {
		t.Fatal(err)
	}
	if err := p.Set("::ffff:10.0.0.1"); err != nil {
		t.Fatal(err)
	}
	if got := p.String(); got != "127.0.0.1,10.0.0.1" {
		t.Errorf("String() = %q; want the addresses, IPv4-mapped ones unmapped", got)
	}
	if err := p.Set("nginx.local"); err == nil || !strings.Contains(err.Error(), `"nginx.local"`) {
		t.Errorf("Set(a host name): %v; want an error naming it", err)
	}
}

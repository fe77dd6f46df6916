package simboard_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/board"
	"github.com/zertzboard/zertzboard/wire"
)

// TestSimSurvivesItsStoreDisk takes the MQTT store's directory away
// mid-game (as a full or read-only card would fail it): paho's own file
// store panicked there. The board says so on events and keeps refereeing.
func TestSimSurvivesItsStoreDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon as a process")
	}
	dir := t.TempDir()
	mqttAddr := "127.0.0.1:" + freePort(t)
	cmd, out := startZertzboard(t, "sim", "--speed", "10", "--settle", "40", "--board-id", "disk",
		"--mqtt-listen", mqttAddr, "--ws-listen", "off", "--http", "off", "--journal", filepath.Join(dir, "j.jsonl"))
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })

	var (
		mu     sync.Mutex
		seq    uint64
		faults []string
	)
	changed := make(chan struct{}, 1)
	out.ready(t)
	o := paho.NewClientOptions().AddBroker("tcp://" + mqttAddr).SetClientID("disk-watcher").SetAutoReconnect(true)
	o.SetOnConnectHandler(func(c paho.Client) {
		go c.SubscribeMultiple(map[string]byte{"zertz/disk/state": 1, "zertz/disk/events": 0}, func(_ paho.Client, m paho.Message) {
			mu.Lock()
			defer mu.Unlock()
			if strings.HasSuffix(m.Topic(), "/state") {
				var s wire.State
				if json.Unmarshal(m.Payload(), &s) == nil {
					seq = s.Seq
				}
			} else if strings.Contains(string(m.Payload()), `"event":"fault"`) {
				faults = append(faults, string(m.Payload()))
			}
			select {
			case changed <- struct{}{}:
			default:
			}
		})
	})
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(hallWait) || tok.Error() != nil {
		t.Fatalf("connect: %v\n%s", tok.Error(), out)
	}
	defer c.Disconnect(50)
	await := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.After(60 * time.Second)
		for {
			mu.Lock()
			done := ok()
			mu.Unlock()
			if done {
				return
			}
			select {
			case <-changed:
			case <-deadline:
				t.Fatalf("%s never happened\n%s", what, out)
			}
		}
	}
	await("a first state", func() bool { return seq > 0 })

	store := board.StoreBeside(filepath.Join(dir, "j.jsonl"))
	if err := os.RemoveAll(store); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(store, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	at := seq
	mu.Unlock()
	await("a fault event naming the store", func() bool {
		for _, f := range faults {
			if strings.Contains(f, "mqtt store: disk error") {
				return true
			}
		}
		return false
	})
	await("refereeing after the disk failed", func() bool { return seq >= at+3 })
	if cmd.ProcessState != nil {
		t.Fatalf("the sim exited: %v\n%s", cmd.ProcessState, out)
	}
}

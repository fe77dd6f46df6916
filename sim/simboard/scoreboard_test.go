package simboard_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/wire"
)

const scoreboardWait = 10 * time.Second

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

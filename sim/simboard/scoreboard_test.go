package simboard_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/wire"
)

const scoreboardWait = 10 * time.Second

// getUntil waits until the page at base+path contains want, checking it
// at every view the scoreboard at base sends, and returns it.
func getUntil(t *testing.T, base, path, want string) string {
	t.Helper()
	var body string
	waitForPage(t, base+path+" showing "+want, base, func() bool {
		resp, err := http.Get(base + path)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		body = string(b)
		return strings.Contains(body, want)
	})
	return body
}

// stateAt is the state the page at url serves.
func stateAt(url string) (wire.State, error) {
	var s wire.State
	resp, err := http.Get(url)
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	err = json.NewDecoder(resp.Body).Decode(&s)
	return s, err
}

// TestSimServesScoreboard runs "sim" as a process: its web page is the
// scoreboard, fed in process by the embedded broker, beside /state.json.
func TestSimServesScoreboard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon as a process")
	}
	web, addr := "127.0.0.1:"+freePort(t), "127.0.0.1:"+freePort(t)
	cmd, out := startZertzboard(t, "sim", "--speed", "10", "--settle", "40", "--board-id", "tv1",
		"--mqtt-listen", addr, "--ws-listen", "off", "--http", web, "--journal", t.TempDir()+"/j.jsonl")
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	base := "http://" + web
	out.ready(t)
	st := watchBoard(t, addr, "tv1").awaitState(t, "turn 2", func(s wire.State) bool { return s.Turn >= 2 })
	// The controller's own state page is at least as far on.
	if got, err := stateAt(base + "/state.json"); err != nil || got.Seq < st.Seq {
		t.Fatalf("/state.json: seq %d (%v); the board published seq %d", got.Seq, err, st.Seq)
	}
	getUntil(t, base, "/", `<a class="card online" href="/board/tv1"`)
	// The scoreboard's view catches up with the controller's state.
	waitForPage(t, fmt.Sprintf("the scoreboard at seq %d", st.Seq), base, func() bool {
		got, err := stateAt(base + "/board/tv1/state.json")
		return err == nil && got.Seq >= st.Seq
	})
	getUntil(t, base, "/board/tv1", `data-board="tv1" data-seq=`)

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

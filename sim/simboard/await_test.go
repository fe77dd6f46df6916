package simboard_test

import (
	"bufio"
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests wait for events: a board's messages (viewer), a process's
// output (logBuffer), a scoreboard's changes (scoreboard.Server.Changes in
// process, its event stream over HTTP). Each wait checks its condition at
// every event, and after backstop at most for what no event announces (a
// game filed on the results page, a process that is not listening yet);
// hallWait only guards against a deadlock.
const backstop = 100 * time.Millisecond

// notice wakes those waiting for the next change.
type notice struct {
	mu sync.Mutex
	ch chan struct{}
}

// changes returns a channel closed at the next notify.
func (n *notice) changes() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ch == nil {
		n.ch = make(chan struct{})
	}
	return n.ch
}

func (n *notice) notify() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ch != nil {
		close(n.ch)
		n.ch = nil
	}
}

// waitFor waits until cond holds, checking it again at every change
// announced by changed (which returns a channel closed at the next one)
// and after backstop at most.
func waitFor(t *testing.T, what string, changed func() <-chan struct{}, cond func() bool) {
	t.Helper()
	guard := time.NewTimer(hallWait)
	defer guard.Stop()
	for {
		next := changed() // taken before the check, so no change is missed
		if cond() {
			return
		}
		select {
		case <-next:
		case <-time.After(backstop):
		case <-guard.C:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// waitForPage waits until cond holds for the scoreboard at base, checking
// it at every view its event stream (/events, the tournament view) sends.
func waitForPage(t *testing.T, what, base string, cond func() bool) {
	t.Helper()
	var n notice
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/events", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return // not listening yet: the backstop checks again
		}
		defer resp.Body.Close()
		r := bufio.NewReader(resp.Body)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			if strings.HasPrefix(line, "data:") {
				n.notify()
			}
		}
	}()
	waitFor(t, what, n.changes, cond)
}

// logBuffer collects a process's or a board's log, for failure messages,
// and wakes those waiting for a line in it.
type logBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote notice
}

func (l *logBuffer) Write(p []byte) (int, error) {
	defer l.wrote.notify()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() > 1<<20 {
		return len(p), nil // enough to tell what went wrong
	}
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// await waits until the log holds want.
func (l *logBuffer) await(t *testing.T, what, want string) {
	t.Helper()
	waitFor(t, what, l.wrote.changes, func() bool { return strings.Contains(l.String(), want) })
}

// ready waits until a sim or scoreboard has said it listens (the last
// line of its banner).
func (l *logBuffer) ready(t *testing.T) {
	t.Helper()
	l.await(t, "the banner", "Press Ctrl-C to stop.")
}

package broadcast

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// mosquittoPath finds Debian's mosquitto, which installs to /usr/sbin
// (not on every user's PATH).
func mosquittoPath() string {
	if p, err := exec.LookPath("mosquitto"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/mosquitto"); err == nil {
		return "/usr/sbin/mosquitto"
	}
	return ""
}

// lockedBuffer collects mosquitto's log for a failure message.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startMosquitto runs mosquitto on a free loopback port and returns its
// address.
func startMosquitto(t *testing.T) string {
	t.Helper()
	bin := mosquittoPath()
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("mosquitto is not installed; CI installs it (apt-get install -y mosquitto)")
		}
		t.Skip("mosquitto is not installed (apt-get install mosquitto); CI runs this test")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().(*net.TCPAddr)
	ln.Close()
	dir := t.TempDir()
	conf := filepath.Join(dir, "mosquitto.conf")
	body := fmt.Sprintf("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest stderr\n", addr.Port)
	if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-c", conf)
	var log lockedBuffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("mosquitto log:\n%s", log.String())
		}
	})
	deadline := time.Now().Add(wait)
	for {
		c, err := net.DialTimeout("tcp", addr.String(), 100*time.Millisecond)
		if err == nil {
			c.Close()
			return addr.String()
		}
		select {
		case err := <-exited:
			t.Fatalf("mosquitto exited: %v\n%s", err, log.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("mosquitto not listening on %s:\n%s", addr, log.String())
		}
	}
}

func TestMosquittoInterop(t *testing.T) {
	addr := startMosquitto(t)
	px := startProxy(t, addr)
	viewer := newCollector()
	subscribe(t, "tcp://"+addr, "", "", allTopics, viewer.handler)

	cfg := testConfig(t, "tcp://"+px.addr())
	cfg.Username, cfg.Password = "", ""
	p := newPublisher(t, cfg)
	const n = 30
	for i := uint64(1); i <= n; i++ {
		p.PublishMove(move(i))
		p.PublishState(state(i))
	}
	waitUntil(t, "every move", hasSeq(viewer, t, "moves", n))
	checkMoves(t, viewer.seqs(t, "moves"), n)
	waitUntil(t, "the last state", hasSeq(viewer, t, "state", n))

	late := newCollector()
	subscribe(t, "tcp://"+addr, "", "", allTopics, late.handler)
	waitUntil(t, "retained state and status", func() bool { return len(late.get("state")) > 0 && len(late.get("status")) > 0 })
	if s := late.seqs(t, "state")[0]; s != n || !late.get("state")[0].retained {
		t.Errorf("late subscriber's state: seq %d; want %d, retained", s, n)
	}
	if s := late.last("status"); s != Online {
		t.Errorf("retained status %q; want online", s)
	}

	px.setDown(true) // the board vanishes: mosquitto publishes its Will
	px.cut()
	waitUntil(t, "the will", func() bool { return viewer.last("status") == Offline })
	px.setDown(false)
	waitUntil(t, "online again", func() bool { return viewer.last("status") == Online })
	for i := uint64(n + 1); i <= n+10; i++ {
		p.PublishMove(move(i))
	}
	waitUntil(t, "moves after the reconnect", hasSeq(viewer, t, "moves", n+10))
	checkMoves(t, viewer.seqs(t, "moves"), n+10)
	p.Close()
	waitUntil(t, "offline", func() bool { return viewer.last("status") == Offline })
}

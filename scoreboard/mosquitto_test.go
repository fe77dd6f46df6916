package scoreboard

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
)

// mosquittoACL gives Debian's mosquitto the rights of the embedded
// broker's roles (broker/auth.go), as the hall's ACL does
// (firmware-config/mosquitto): a board publishes under its own ID and
// reads its commands and status; operators read everything and publish
// commands; viewers read a board's status, state, moves, events and
// record.
const mosquittoACL = `user board
topic write zertz/m1/#
topic read zertz/m1/cmd/#
topic read zertz/m1/status

user arbiter
topic read zertz/#
topic write zertz/+/cmd/#

user watcher
topic read zertz/+/status
topic read zertz/+/state
topic read zertz/+/moves
topic read zertz/+/events
topic read zertz/+/record
`

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *syncBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// startMosquittoACL runs Debian's mosquitto on a free loopback port with
// the accounts of opsUsers and mosquittoACL; it returns its address.
func startMosquittoACL(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("mosquitto")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/mosquitto"); serr == nil {
			bin, err = "/usr/sbin/mosquitto", nil
		}
	}
	passwd, perr := exec.LookPath("mosquitto_passwd")
	if err != nil || perr != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("mosquitto is not installed; CI installs it (apt-get install -y mosquitto)")
		}
		t.Skip("mosquitto is not installed (apt-get install mosquitto)")
	}
	dir := t.TempDir()
	// Started as root, mosquitto becomes user mosquitto before it reads
	// the password and ACL files: let it reach them.
	os.Chmod(filepath.Dir(dir), 0o755)
	os.Chmod(dir, 0o755)
	pwfile := filepath.Join(dir, "passwd")
	for i, u := range opsUsers {
		args := []string{"-b", pwfile, u.Name, u.Password}
		if i == 0 {
			args = append([]string{"-c"}, args...)
		}
		if out, err := exec.Command(passwd, args...).CombinedOutput(); err != nil {
			t.Fatalf("mosquitto_passwd: %v\n%s", err, out)
		}
	}
	acl := filepath.Join(dir, "acl")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	conf := filepath.Join(dir, "mosquitto.conf")
	body := fmt.Sprintf("per_listener_settings false\nlistener %d 127.0.0.1\nallow_anonymous false\npassword_file %s\nacl_file %s\npersistence false\nlog_dest stderr\n", port, pwfile, acl)
	for name, data := range map[string]string{acl: mosquittoACL, conf: body} {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(pwfile, 0o644)
	cmd := exec.Command(bin, "-c", conf)
	var log syncBuffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	done := make(chan struct{})
	go func() { exited <- cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
		if t.Failed() {
			t.Logf("mosquitto log:\n%s", log.String())
		}
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(wait)
	for {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			c.Close()
			return addr
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

// TestConsoleMosquitto: against Debian's mosquitto with an ACL, only the
// operator logs in, and its actions reach a board and come back answered;
// a viewer's publish to cmd/ does not reach the board.
func TestConsoleMosquitto(t *testing.T) {
	addr := startMosquittoACL(t)
	s := New(Options{Logger: testLogger(t)})
	if err := s.EnableConsole(ConsoleConfig{Broker: "tcp://" + addr}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	rec, rep := sampleGame(t, 10)
	states := gameStates(t, rec, rep, "m1")
	fb := newFakeBoard(t, "tcp://"+addr, "board", "board-pw", "m1", states[4], nil)
	r := &consoleRig{t: t, s: s, url: srv.URL, clock: &fakeClock{t: time.Now()}}
	s.obs.now = time.Now

	// A viewer and a board: mosquitto grants their subscriptions (it checks
	// reads on delivery), so the console's command probe decides, after
	// ProbeTimeout; a second scoreboard with a short one keeps this quick
	// (a refusal can only come late, never early).
	quick := New(Options{Logger: testLogger(t)})
	if err := quick.EnableConsole(ConsoleConfig{Broker: "tcp://" + addr, ProbeTimeout: 300 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	qsrv := httptest.NewServer(quick.Handler())
	t.Cleanup(qsrv.Close)
	t.Cleanup(quick.Close)
	qr := &consoleRig{t: t, s: quick, url: qsrv.URL}
	quick.obs.now = time.Now
	for _, user := range []string{"watcher", "board"} {
		if resp, body := qr.client().login(user, user+"-pw"); resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "not an operator") {
			t.Errorf("log-in as %s on mosquitto: %s; want 403\n%s", user, resp.Status, body)
		}
	}
	if resp, body := r.client().login("arbiter", "bad"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong password on mosquitto: %s; want 401\n%s", resp.Status, body)
	}
	op := r.client()
	if resp, body := op.login("arbiter", "arbiter-pw"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("operator log-in on mosquitto: %s\n%s", resp.Status, body)
	}
	// A viewer publishes a command (QoS 1: mosquitto acknowledges it and
	// drops it); the operator's commands come after it.
	viewer := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("viewer-m").
		SetUsername("watcher").SetPassword("watcher-pw").SetAutoReconnect(false).SetConnectTimeout(wait))
	if tok := viewer.Connect(); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	t.Cleanup(func() { viewer.Disconnect(50) })
	viewer.Publish("zertz/m1/cmd/pause", 1, false, `{"id":"from-viewer"}`).WaitTimeout(wait)
	if status, res := op.act("m1", "pause", nil); status != http.StatusOK || res.Outcome != "accepted" {
		t.Fatalf("pause on mosquitto: %d %+v", status, res)
	}
	if status, res := op.act("m1", "pause", nil); status != http.StatusOK || res.Outcome != "refused" || res.Reason == "" {
		t.Fatalf("pause again on mosquitto: %d %+v", status, res)
	}
	got := fb.received()
	if len(got) != 2 {
		t.Errorf("the board received %q; want the operator's two pauses only", got)
	}
	for _, c := range got {
		if strings.Contains(c, "from-viewer") {
			t.Errorf("a viewer's command reached the board through mosquitto: %s", c)
		}
	}
}

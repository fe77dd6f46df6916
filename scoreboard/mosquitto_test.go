package scoreboard

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/zertzboard/zertzboard/internal/mosquittotest"
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
	pw := map[string]string{}
	for _, u := range opsUsers {
		pw[u.Name] = u.Password
	}
	return mosquittotest.Start(t, mosquittotest.Options{Passwords: pw, ACL: mosquittoACL})
}

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

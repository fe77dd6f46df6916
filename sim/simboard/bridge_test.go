package simboard_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/hall"
	"github.com/zertzboard/zertzboard/internal/mosquittotest"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/scoreboard"
	"github.com/zertzboard/zertzboard/wire"
)

// linkProxy stands for the network between a hall and the centre: it
// forwards TCP connections to the centre until cut, when it closes them
// and refuses new ones (as a dead uplink does), until restored.
type linkProxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	down  bool
	conns map[net.Conn]struct{}
}

func startLinkProxy(t *testing.T, target string) *linkProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &linkProxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	return p
}

func (p *linkProxy) addr() string { return p.ln.Addr().String() }

func (p *linkProxy) serve(c net.Conn) {
	p.mu.Lock()
	down := p.down
	p.mu.Unlock()
	if down {
		c.Close()
		return
	}
	u, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	if p.down {
		p.mu.Unlock()
		c.Close()
		u.Close()
		return
	}
	p.conns[c], p.conns[u] = struct{}{}, struct{}{}
	p.mu.Unlock()
	pipe := func(dst, src net.Conn) {
		io.Copy(dst, src)
		dst.Close()
		src.Close()
		p.mu.Lock()
		delete(p.conns, dst)
		delete(p.conns, src)
		p.mu.Unlock()
	}
	go pipe(u, c)
	pipe(c, u)
}

// cut closes every forwarded connection and refuses new ones.
func (p *linkProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

func (p *linkProxy) restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = false
}

// exampleBridgeHall is firmware-config/mosquitto/bridge-hall.conf with its
// placeholders replaced, as its README says (and its listener on loopback).
func exampleBridgeHall(t *testing.T, port int, centre string) string {
	t.Helper()
	data, err := os.ReadFile("../../firmware-config/mosquitto/bridge-hall.conf")
	if err != nil {
		t.Fatal(err)
	}
	host, cport, _ := net.SplitHostPort(centre)
	conf := strings.NewReplacer("HALL_PORT", fmt.Sprint(port), "CENTRE_HOST", host, "CENTRE_PORT", cport).Replace(string(data))
	if strings.Count(conf, "listener "+fmt.Sprint(port)+" 0.0.0.0\n") != 1 {
		t.Fatalf("bridge-hall.conf has no listener line on 0.0.0.0:\n%s", conf)
	}
	return strings.Replace(conf, " 0.0.0.0\n", " 127.0.0.1\n", 1)
}

// simProcess is a simulated board run as its own process.
type simProcess struct {
	id   string
	cmd  *exec.Cmd
	out  *logBuffer
	done chan struct{}
	code int
}

func startSimProcess(t *testing.T, id string, args ...string) *simProcess {
	t.Helper()
	p := &simProcess{id: id, out: &logBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], append([]string{"sim"}, args...)...)
	p.cmd.Env = append(os.Environ(), "ZERTZBOARD_RUN_MAIN=1")
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.cmd.Wait()
		p.code = p.cmd.ProcessState.ExitCode()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			p.cmd.Process.Signal(syscall.SIGKILL) // the process this test started
			<-p.done
		}
		if t.Failed() {
			t.Logf("board %s:\n%s", id, p.out.String())
		}
	})
	return p
}

// watchBridges follows the bridges' status topics on the centre.
type bridgeWatch struct {
	mu      sync.Mutex
	up      map[string]string
	changed chan struct{}
}

func watchBridgeStatus(t *testing.T, c paho.Client) *bridgeWatch {
	t.Helper()
	w := &bridgeWatch{up: map[string]string{}, changed: make(chan struct{}, 1)}
	tok := c.Subscribe("$SYS/broker/connection/+/state", 1, func(_ paho.Client, m paho.Message) {
		parts := strings.Split(m.Topic(), "/")
		w.mu.Lock()
		w.up[parts[3]] = string(m.Payload())
		w.mu.Unlock()
		select {
		case w.changed <- struct{}{}:
		default:
		}
	})
	if !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribing to the bridges' status: %v", tok.Error())
	}
	return w
}

func (w *bridgeWatch) until(t *testing.T, hall, want string) {
	t.Helper()
	deadline := time.After(hallWait)
	for {
		w.mu.Lock()
		ok := w.up[hall] == want
		w.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-w.changed:
		case <-deadline:
			t.Fatalf("timed out waiting for hall %s's bridge to say %s", hall, want)
		}
	}
}

var connClass = regexp.MustCompile(`<span class="conn ([a-z]+)">`)

// boardConn is the connection status the scoreboard shows on a board's
// page, and the phase of the state it shows.
func boardConn(sb *scoreboard.Server, id string) (status, phase string) {
	html, _ := sb.Current(id)
	if m := connClass.FindStringSubmatch(html); m != nil {
		status = m[1]
	}
	if m := regexp.MustCompile(`data-phase="([a-z]*)"`).FindStringSubmatch(html); m != nil {
		phase = m[1]
	}
	return status, phase
}

// bridgeGames are the bridge test's games, hall-1's then hall-2's (33 and
// 35 turns: still playing when their link is cut).
var bridgeGames = []string{
	"032_Z11-ddyer-pmolz-2023-11-27-2100.sgf",
	"038_Z11-SmartBot-superqwert-2020-11-26-0225.sgf",
	"106_Z-tableau-porte-2020-06-07-1657.sgf",
	"010_Z-ChuckBeard-PCT1-2019-01-19-0418.sgf",
}

// bridgeSpeed is the players' pace: a turn every second or so.
const bridgeSpeed = "6"

// TestBridge runs an event of two halls: three Debian mosquitto
// processes, two hall brokers (hall-1 from firmware-config/mosquitto/
// bridge-hall.conf as its README says, hall-2 written by package hall
// with its boards listed and an account on the centre) bridged to a
// centre with the ACL of package hall, and two simulated boards
// (zertzboard sim processes) on each hall. On the centre: a scoreboard
// that knows the halls, an operator watching with a persistent session,
// the arbiter's console. The arbiter pauses a hall-2 board from the
// centre's console and gets the reply. Then hall-2's link to the centre is
// cut for 10 s: its boards must show "hall unreachable", not finished,
// while hall-1's do not. Meanwhile the operator sends the paused board a
// resume, and the centre broker restarts. Nothing may be lost: the resume
// reaches its board (whose players wait for it) and its reply the
// operator; every board's every move reaches the operator in order; a
// late subscriber on the centre reads every game's final state and
// record; the scoreboard shows every game over and every board reachable.
func TestBridge(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three brokers and four boards")
	}
	const outage = 10 * time.Second

	halls := []string{"hall-1", "hall-2"}
	ids := [][]string{{"h1-a", "h1-b"}, {"h2-a", "h2-b"}}
	// The centre: hall-1's bridge (the example) logs in anonymously,
	// hall-2's with its account, which may publish only its boards.
	acl, err := hall.CentreACL(hall.Centre{AnonymousBridges: true, Operators: []string{"arbiter"},
		Bridges: []hall.Bridge{{Name: halls[1], Centre: "centre:1883", Username: halls[1], Boards: ids[1]}}})
	if err != nil {
		t.Fatal(err)
	}
	persist := t.TempDir()
	centre := mosquittotest.Launch(t, mosquittotest.Options{Passwords: map[string]string{"arbiter": "arbiter-pw", halls[1]: "hall-2-pw"}, ACL: acl,
		Config: func(port int, pw, acl string) string {
			return hall.CentreConfig("127.0.0.1", port, "password_file "+pw+"\nacl_file "+acl, persist)
		}})
	links := []*linkProxy{startLinkProxy(t, centre.Addr()), startLinkProxy(t, centre.Addr())}
	hallAddr := []string{
		mosquittotest.Start(t, mosquittotest.Options{Config: func(port int, _, _ string) string {
			return exampleBridgeHall(t, port, links[0].addr())
		}}),
		mosquittotest.Start(t, mosquittotest.Options{Config: func(port int, _, _ string) string {
			conf, err := hall.BridgedHallConfig("127.0.0.1", port, "", hall.Bridge{Name: halls[1], Centre: links[1].addr(), Username: halls[1], Password: "hall-2-pw", Boards: ids[1]})
			if err != nil {
				t.Fatal(err)
			}
			return conf
		}}),
	}

	// The operator's watcher keeps its session on the centre across the
	// centre's restart (the centre persists it), so it misses no move.
	op := &hallWatch{moves: map[string][]moveMsg{}, state: map[string]wire.State{}, record: map[string][]byte{},
		events: map[string][]string{}, changed: make(chan struct{}, 1), dedup: true}
	opConnected := make(chan struct{}, 1)
	o := paho.NewClientOptions().AddBroker("tcp://" + centre.Addr()).SetClientID("bridge-operator").SetUsername("arbiter").SetPassword("arbiter-pw").
		SetCleanSession(false).SetOrderMatters(true).SetAutoReconnect(true).SetConnectRetry(true).
		SetConnectRetryInterval(200 * time.Millisecond).SetMaxReconnectInterval(time.Second).SetConnectTimeout(10 * time.Second).
		SetDefaultPublishHandler(op.take).
		SetOnConnectHandler(func(paho.Client) {
			select {
			case opConnected <- struct{}{}:
			default:
			}
		})
	op.c = paho.NewClient(o)
	if tok := op.c.Connect(); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatalf("the operator cannot connect to the centre: %v", tok.Error())
	}
	t.Cleanup(func() { op.c.Disconnect(20) })
	<-opConnected
	filters := map[string]byte{}
	for _, k := range []string{"state", "moves", "record", "events"} {
		filters["zertz/+/"+k] = 1
	}
	if tok := op.c.SubscribeMultiple(filters, op.take); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribing: %v", tok.Error())
	}
	bridges := watchBridgeStatus(t, op.c)
	bridges.until(t, "hall-1", "1")
	bridges.until(t, "hall-2", "1")

	// The scoreboard on the centre knows the halls' boards.
	sb := scoreboard.New(scoreboard.Options{Halls: map[string][]string{halls[0]: ids[0], halls[1]: ids[1]}})
	if err := sb.EnableConsole(scoreboard.ConsoleConfig{Broker: "tcp://" + centre.Addr(), ProbeTimeout: 5 * time.Second}); err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, sb)
	ctx, cancel := context.WithCancel(context.Background())
	followed := make(chan error, 1)
	sbConnected := make(chan struct{}, 1)
	go func() {
		followed <- sb.Follow(ctx, scoreboard.MQTTConfig{Broker: "tcp://" + centre.Addr(), MaxReconnect: time.Second, Connected: func() {
			select {
			case sbConnected <- struct{}{}:
			default:
			}
		}})
	}()
	t.Cleanup(func() { cancel(); <-followed })
	arbiter := newConsoleClient(t, srv)
	if !arbiter.login("arbiter", "arbiter-pw") {
		t.Fatal("the arbiter cannot log in to the console on the centre")
	}

	// The boards.
	dir := t.TempDir()
	var boards []*simProcess
	games := map[string]*record.Record{}
	for h := range halls {
		for i, id := range ids[h] {
			game := samples.Path(bridgeGames[2*h+i])
			rec, err := record.ReadFile(game)
			if err != nil {
				t.Fatal(err)
			}
			games[id] = rec
			// Each board its own directory: the MQTT store sits beside the journal.
			if err := os.Mkdir(filepath.Join(dir, id), 0o700); err != nil {
				t.Fatal(err)
			}
			boards = append(boards, startSimProcess(t, id, "--game", game, "--speed", bridgeSpeed, "--settle", "150", "--scan-hz", "100",
				"--time-control", hallControl, "--exit-at-end", "--board-id", id, "--mode", "tournament",
				"--broker", "tcp://"+hallAddr[h], "--http", "off", "--journal", filepath.Join(dir, id, "journal.jsonl"), "--seed", fmt.Sprint(2*h+i+1)))
		}
	}
	all := append(append([]string(nil), ids[0]...), ids[1]...)
	waitFor(t, "every board on the centre's scoreboard", sb.Changes, func() bool {
		for _, id := range all {
			if st, _ := boardConn(sb, id); st != "online" {
				return false
			}
		}
		return true
	})

	// The operator on the centre pauses a board in hall-2 from the
	// console, and gets its reply; the board's players wait.
	paused := ids[1][1]
	for _, id := range ids[1] {
		op.until(t, id+" at turn 2", func() bool { return op.state[id].Turn >= 2 })
	}
	if r := arbiter.act(paused, map[string][]string{"action": {"pause"}}); r.Outcome != "accepted" {
		t.Fatalf("pausing %s from the centre: %+v", paused, r)
	}
	op.until(t, paused+"'s paused state", func() bool { return op.state[paused].Clock.Paused })

	// hall-2's link is cut while its boards play.
	cutAt := time.Now()
	links[1].cut()
	bridges.until(t, "hall-2", "0")
	waitFor(t, "hall-2's boards shown unreachable", sb.Changes, func() bool {
		for _, id := range ids[1] {
			if st, _ := boardConn(sb, id); st != scoreboard.StatusUnreachable {
				return false
			}
		}
		return true
	})
	for _, id := range all {
		st, phase := boardConn(sb, id)
		if strings.HasPrefix(id, "h2-") && phase == "over" {
			t.Errorf("%s shows a finished game while its hall is unreachable", id)
		}
		if strings.HasPrefix(id, "h1-") && st == scoreboard.StatusUnreachable {
			t.Errorf("%s, in hall-1, shows unreachable", id)
		}
	}
	page := get(t, srv+"/board/"+ids[1][0])
	if !strings.Contains(page, "hall unreachable") {
		t.Errorf("%s's page does not say its hall is unreachable", ids[1][0])
	}

	// A command to a board of the unreachable hall waits on the centre:
	// the paused board's players wait for it.
	const cmdID = "bridge-resume"
	if tok := op.c.Publish("zertz/"+paused+"/cmd/resume", 1, false, `{"id":"`+cmdID+`"}`); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatalf("publishing a command on the centre: %v", tok.Error())
	}

	// The centre restarts meanwhile (and persists its sessions).
	select {
	case <-sbConnected: // the first subscription's signal
	default:
	}
	centre.Stop()
	centre.Start()
	for what, ch := range map[string]chan struct{}{"the operator": opConnected, "the scoreboard": sbConnected} {
		select {
		case <-ch:
		case <-time.After(hallWait):
			t.Fatalf("%s did not reconnect to the restarted centre", what)
		}
	}
	bridges.until(t, "hall-1", "1")
	waitFor(t, "hall-1's boards reachable on the restarted centre's scoreboard", sb.Changes, func() bool {
		for _, id := range ids[0] {
			if st, _ := boardConn(sb, id); st != "online" && st != "offline" {
				return false
			}
		}
		return true
	})
	if st, _ := boardConn(sb, ids[1][0]); st != scoreboard.StatusUnreachable {
		t.Errorf("after the centre's restart, %s shows %q; its hall is still unreachable", ids[1][0], st)
	}
	time.Sleep(time.Until(cutAt.Add(outage))) // the outage itself: the scenario, not a wait for an event
	links[1].restore()
	bridges.until(t, "hall-2", "1")
	t.Logf("hall-2's link was cut for %v, and its bridge back on the centre after %v; the centre restarted meanwhile", outage, time.Since(cutAt).Round(100*time.Millisecond))

	// The command crossed, and its reply came back.
	op.until(t, "the reply to the command sent while hall-2 was unreachable", func() bool {
		for _, e := range op.events[paused] {
			if strings.Contains(e, `"id":"`+cmdID+`"`) {
				return true
			}
		}
		return false
	})
	op.mu.Lock()
	for _, e := range op.events[paused] {
		if strings.Contains(e, `"id":"`+cmdID+`"`) && !strings.Contains(e, `"command-accepted"`) {
			t.Errorf("%s's reply to resume: %s", paused, e)
		}
	}
	op.mu.Unlock()

	// Every game ends; the boards exit once everything is delivered to
	// their hall.
	for _, b := range boards {
		select {
		case <-b.done:
		case <-time.After(hallWait):
			t.Fatalf("board %s did not finish its game", b.id)
		}
		if b.code != exitOK {
			t.Errorf("board %s exited %d", b.id, b.code)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	late := watchHall(t, centre.Addr(), "", "", "late-viewer")
	late.until(t, "every board's final state and record on the centre", func() bool {
		for _, id := range all {
			var r struct{ Turns []json.RawMessage }
			if json.Unmarshal(late.record[id], &r) != nil || len(r.Turns) != len(games[id].Turns) || late.state[id].Turn != len(games[id].Turns) || late.state[id].Phase != "over" {
				return false
			}
		}
		return true
	})
	op.until(t, "every board's last move at the operator", func() bool {
		for _, id := range all {
			if op.state[id].Turn != len(games[id].Turns) {
				return false
			}
		}
		return true
	})
	op.mu.Lock()
	late.mu.Lock()
	for _, id := range all {
		checkPlayed(t, id, games[id], op.moves[id], late.record[id])
	}
	if tc := late.state[paused].Clock; tc.Control != hallControl || tc.Paused {
		t.Errorf("%s's clock at the end: %+v", paused, tc)
	}
	t.Logf("moves delivered twice (QoS 1, dropped by seq): %d", op.dups)
	late.mu.Unlock()
	op.mu.Unlock()
	waitFor(t, "the scoreboard showing every game over, every board reachable", sb.Changes, func() bool {
		for _, id := range all {
			if st, phase := boardConn(sb, id); phase != "over" || st == scoreboard.StatusUnreachable {
				return false
			}
		}
		return true
	})
	index, _ := sb.Current("")
	if !strings.Contains(index, fmt.Sprintf(`data-boards="%d"`, len(all))) {
		t.Errorf("the tournament view does not list %d boards", len(all))
	}
}

// newTestServer serves the scoreboard on a free loopback port until the
// test ends, and returns its URL.
func newTestServer(t *testing.T, sb *scoreboard.Server) string {
	t.Helper()
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(sb.Close)
	return srv.URL
}

// get returns a page's body, or fails the test.
func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return string(body)
}

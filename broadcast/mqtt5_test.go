package broadcast

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/internal/mosquittotest"
	"github.com/zertzboard/zertzboard/wire"
)

// v5 is a minimal MQTT 5 client for the tests (paho.mqtt.golang speaks
// 3.1.1 only): CONNECT with Clean Start and a Session Expiry Interval,
// SUBSCRIBE at QoS 1, PUBLISH at QoS 1 and 0 both ways (acknowledging
// what it receives), DISCONNECT. It is what other tools at an event
// (viewers, operators' scripts) may speak to a broker the board shares.
type v5 struct {
	t    *testing.T
	c    net.Conn
	wmu  sync.Mutex
	next uint16

	connack chan [2]byte // session present, reason code
	acks    chan uint16  // SUBACK and PUBACK packet IDs
	msgs    chan v5Msg
	done    chan struct{}
}

type v5Msg struct {
	topic   string
	payload []byte
	retain  bool
	qos     byte
}

// dialV5 connects; it returns the client and whether the broker had a
// session for it (CONNACK's Session Present).
func dialV5(t *testing.T, addr, id string, cleanStart bool, expiry uint32) (*v5, bool) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	m := &v5{t: t, c: c, connack: make(chan [2]byte, 1), acks: make(chan uint16, 16), msgs: make(chan v5Msg, 4096), done: make(chan struct{})}
	t.Cleanup(func() { c.Close(); <-m.done })
	go m.read()
	var vh bytes.Buffer
	putString(&vh, "MQTT")
	vh.WriteByte(5)
	flags := byte(0)
	if cleanStart {
		flags |= 0x02
	}
	vh.WriteByte(flags)
	binary.Write(&vh, binary.BigEndian, uint16(60)) // keep alive
	props := []byte{0x11, 0, 0, 0, 0}               // Session Expiry Interval
	binary.BigEndian.PutUint32(props[1:], expiry)
	putVarint(&vh, len(props))
	vh.Write(props)
	putString(&vh, id)
	m.send(0x10, vh.Bytes())
	select {
	case ca := <-m.connack:
		if ca[1] != 0 {
			t.Fatalf("MQTT 5 CONNACK reason 0x%02x", ca[1])
		}
		return m, ca[0]&1 == 1
	case <-m.done:
		t.Fatal("the broker closed the MQTT 5 connection")
	case <-time.After(30 * time.Second):
		t.Fatal("no MQTT 5 CONNACK")
	}
	return nil, false
}

func putString(b *bytes.Buffer, s string) {
	binary.Write(b, binary.BigEndian, uint16(len(s)))
	b.WriteString(s)
}

func putVarint(b *bytes.Buffer, n int) {
	for {
		d := byte(n % 128)
		n /= 128
		if n > 0 {
			d |= 0x80
		}
		b.WriteByte(d)
		if n == 0 {
			return
		}
	}
}

func readVarint(r io.ByteReader) (int, error) {
	n, mul := 0, 1
	for i := 0; i < 4; i++ {
		d, err := r.ReadByte()
		if err != nil {
			return 0, err
		}
		n += int(d&0x7f) * mul
		if d&0x80 == 0 {
			return n, nil
		}
		mul *= 128
	}
	return 0, errors.New("malformed variable byte integer")
}

func (m *v5) send(header byte, body []byte) {
	var b bytes.Buffer
	b.WriteByte(header)
	putVarint(&b, len(body))
	b.Write(body)
	m.wmu.Lock()
	defer m.wmu.Unlock()
	m.c.SetWriteDeadline(time.Now().Add(30 * time.Second))
	m.c.Write(b.Bytes())
}

func (m *v5) read() {
	defer close(m.done)
	r := bufio.NewReader(m.c)
	for {
		h, err := r.ReadByte()
		if err != nil {
			return
		}
		n, err := readVarint(r)
		if err != nil {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		switch h >> 4 {
		case 2: // CONNACK
			m.connack <- [2]byte{body[0], body[1]}
		case 3: // PUBLISH
			qos := (h >> 1) & 3
			tl := int(binary.BigEndian.Uint16(body))
			msg := v5Msg{topic: string(body[2 : 2+tl]), retain: h&1 == 1, qos: qos}
			rest := body[2+tl:]
			var id uint16
			if qos > 0 {
				id = binary.BigEndian.Uint16(rest)
				rest = rest[2:]
			}
			pr := bytes.NewReader(rest)
			pl, err := readVarint(pr)
			if err != nil {
				return
			}
			msg.payload = rest[len(rest)-pr.Len()+pl:]
			m.msgs <- msg
			if qos == 1 {
				m.send(0x40, []byte{byte(id >> 8), byte(id)})
			}
		case 4, 9: // PUBACK, SUBACK
			m.acks <- binary.BigEndian.Uint16(body)
		}
	}
}

func (m *v5) waitAck(id uint16) {
	m.t.Helper()
	for {
		select {
		case a := <-m.acks:
			if a == id {
				return
			}
		case <-m.done:
			m.t.Fatal("the broker closed the MQTT 5 connection")
		case <-time.After(30 * time.Second):
			m.t.Fatalf("no acknowledgement of packet %d", id)
		}
	}
}

func (m *v5) subscribe(filter string) {
	m.t.Helper()
	m.next++
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, m.next)
	putVarint(&b, 0) // no properties
	putString(&b, filter)
	b.WriteByte(1) // QoS 1
	m.send(0x82, b.Bytes())
	m.waitAck(m.next)
}

func (m *v5) publish(topic string, payload []byte) {
	m.t.Helper()
	m.next++
	var b bytes.Buffer
	putString(&b, topic)
	binary.Write(&b, binary.BigEndian, m.next)
	putVarint(&b, 0)
	b.Write(payload)
	m.send(0x32, b.Bytes())
	m.waitAck(m.next)
}

// disconnect says goodbye normally: the broker keeps the session for its
// expiry interval and publishes no Will.
func (m *v5) disconnect() {
	m.send(0xE0, []byte{0})
	m.c.Close()
	<-m.done
}

// until reads messages until want says the last one is the one.
func (m *v5) until(what string, want func(v5Msg) bool) v5Msg {
	m.t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case msg := <-m.msgs:
			if want(msg) {
				return msg
			}
		case <-timeout:
			m.t.Fatalf("MQTT 5 client: timed out waiting for %s", what)
		}
	}
}

// moveSeqs reads n moves and returns their seqs.
func (m *v5) moveSeqs(n int) []uint64 {
	m.t.Helper()
	var seqs []uint64
	for len(seqs) < n {
		msg := m.until(fmt.Sprintf("move %d of %d", len(seqs)+1, n), func(msg v5Msg) bool { return strings.HasSuffix(msg.topic, "/moves") })
		var mv struct {
			Seq uint64 `json:"seq"`
		}
		if err := json.Unmarshal(msg.payload, &mv); err != nil {
			m.t.Fatal(err)
		}
		if msg.qos != 1 {
			m.t.Errorf("move %d arrived at QoS %d; want 1", mv.Seq, msg.qos)
		}
		seqs = append(seqs, mv.Seq)
	}
	return seqs
}

// boardClientOnMQTT5Broker checks the board's client against a broker
// that is not the embedded one, with MQTT 5 clients beside it: px stands
// between the board and the broker, so that the test can break the
// board's link.
//
//   - retained state: an MQTT 5 viewer subscribing late gets the state
//     and the status with the retain flag;
//   - QoS 1 moves in order, also to a viewer whose MQTT 5 session (a
//     Session Expiry Interval of 5 minutes) outlives its connection: the
//     broker queues the moves published while it was away;
//   - a session with expiry 0 ends at its disconnection;
//   - the Will: when the board's link breaks, the viewer gets the retained
//     "offline", then "online" once the board is back;
//   - the board's own session: a command an MQTT 5 operator sends while
//     the board is away reaches it when it reconnects.
func boardClientOnMQTT5Broker(t *testing.T, addr string, px *proxy) {
	p := newPublisher(t, func() Config {
		cfg := testConfig(t, "tcp://"+px.addr())
		cfg.Username, cfg.Password = "", ""
		return cfg
	}())
	const n = 20
	for i := uint64(1); i <= n; i++ {
		p.PublishMove(move(i))
		p.PublishState(state(i))
	}

	// Once a first MQTT 5 client has the last state, a late viewer gets
	// it retained, with the status.
	first, _ := dialV5(t, addr, "v5-first", true, 0)
	first.subscribe("zertz/b1/state")
	first.until("the state of seq 20", func(m v5Msg) bool {
		var s wire.State
		return json.Unmarshal(m.payload, &s) == nil && s.Seq == n
	})
	viewer, present := dialV5(t, addr, "v5-viewer", true, 300)
	if present {
		t.Error("a clean start found a session")
	}
	viewer.subscribe("zertz/b1/#")
	var gotState, gotStatus bool
	viewer.until("the retained state and status", func(m v5Msg) bool {
		var s wire.State
		switch {
		case strings.HasSuffix(m.topic, "/state") && json.Unmarshal(m.payload, &s) == nil:
			if s.Seq != n || !m.retain || m.qos != 1 {
				t.Errorf("the late viewer's state: seq %d, retain %v, QoS %d; want %d, retained, QoS 1", s.Seq, m.retain, m.qos, n)
			}
			gotState = true
		case strings.HasSuffix(m.topic, "/status"):
			if string(m.payload) != Online || !m.retain {
				t.Errorf("the late viewer's status: %q, retain %v; want online, retained", m.payload, m.retain)
			}
			gotStatus = true
		}
		return gotState && gotStatus
	})

	// The viewer leaves with its session kept; the moves published
	// meanwhile wait for it, in order.
	viewer.disconnect()
	gone, _ := dialV5(t, addr, "v5-gone", true, 0)
	gone.subscribe("zertz/b1/moves")
	gone.disconnect()
	for i := uint64(n + 1); i <= 2*n; i++ {
		p.PublishMove(move(i))
		p.PublishState(state(i))
	}
	// Once a third client has the last move, the broker has queued them all.
	third, _ := dialV5(t, addr, "v5-third", true, 0)
	third.subscribe("zertz/b1/state")
	third.until("the state of seq 40", func(m v5Msg) bool {
		var s wire.State
		return json.Unmarshal(m.payload, &s) == nil && s.Seq == 2*n
	})
	viewer, present = dialV5(t, addr, "v5-viewer", false, 300)
	if !present {
		t.Fatal("the broker dropped the MQTT 5 session of expiry 300 s at its disconnection")
	}
	seqs := viewer.moveSeqs(n)
	for i, s := range seqs {
		if s != uint64(n+1+i) {
			t.Fatalf("queued moves %v; want %d to %d in order", seqs, n+1, 2*n)
		}
	}
	if _, present := dialV5(t, addr, "v5-gone", false, 0); present {
		t.Error("the broker kept a session of expiry 0 after its disconnection")
	}

	// The board's link breaks: its Will. An MQTT 5 operator sends it a
	// command meanwhile, which its session keeps.
	px.setDown(true)
	px.cut()
	viewer.until("the Will, offline", func(m v5Msg) bool { return strings.HasSuffix(m.topic, "/status") && string(m.payload) == Offline })
	op, _ := dialV5(t, addr, "v5-operator", true, 0)
	op.publish("zertz/b1/cmd/pause", []byte(`{"id":"v5-pause"}`))
	px.setDown(false)
	viewer.until("online again", func(m v5Msg) bool { return strings.HasSuffix(m.topic, "/status") && string(m.payload) == Online })
	select {
	case c := <-p.Commands():
		if _, ok := c.Command.(command.Pause); !ok || c.ID != "v5-pause" {
			t.Errorf("the board received %+v; want the pause sent while it was away", c)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the command sent while the board was away never reached it")
	}
	p.PublishMove(move(2*n + 1))
	if s := viewer.moveSeqs(1); s[0] != 2*n+1 {
		t.Errorf("the move after the reconnection has seq %d", s[0])
	}
	p.Close()
	viewer.until("offline at Close", func(m v5Msg) bool { return strings.HasSuffix(m.topic, "/status") && string(m.payload) == Offline })
}

// TestMosquittoMQTT5: the board's client (MQTT 3.1.1, a persistent
// session) on Debian's mosquitto with MQTT 5 clients beside it, and the
// broker set up as for a larger event: persistent clients' sessions
// expire (persistent_client_expiration, the 3.1.1 counterpart of MQTT 5's
// Session Expiry Interval) after a day, queues bounded.
func TestMosquittoMQTT5(t *testing.T) {
	addr := mosquittotest.Start(t, mosquittotest.Options{Config: func(port int, _, _ string) string {
		return fmt.Sprintf("per_listener_settings false\nlistener %d 127.0.0.1\nprotocol mqtt\nallow_anonymous true\npersistence false\n"+
			"persistent_client_expiration 1d\nmax_queued_messages 1000\nmax_inflight_messages 20\nretain_available true\nlog_dest stderr\n", port)
	}})
	boardClientOnMQTT5Broker(t, addr, startProxy(t, addr))
}

// TestEMQX runs the same checks on EMQX when an emqx binary is on the
// PATH (EMQX 5: "emqx foreground", configured by EMQX_* variables), with
// its data and logs in the test's directory.
func TestEMQX(t *testing.T) {
	bin, err := exec.LookPath("emqx")
	if err != nil {
		t.Skip("emqx is not on the PATH (EMQX is not packaged by Debian; install it from emqx.io to run this test)")
	}
	dir := t.TempDir()
	port := mosquittotest.FreePort(t)
	cmd := exec.Command(bin, "foreground")
	cmd.Env = append(os.Environ(),
		"EMQX_NODE__NAME=zertzboard-test@127.0.0.1",
		"EMQX_NODE__DATA_DIR="+filepath.Join(dir, "data"),
		"EMQX_LOG_DIR="+filepath.Join(dir, "log"),
		"EMQX_LISTENERS__TCP__DEFAULT__BIND=127.0.0.1:"+fmt.Sprint(port),
		"EMQX_LISTENERS__SSL__DEFAULT__ENABLE=false",
		"EMQX_LISTENERS__WS__DEFAULT__ENABLE=false",
		"EMQX_LISTENERS__WSS__DEFAULT__ENABLE=false",
		"EMQX_DASHBOARD__LISTENERS__HTTP__ENABLE=false",
		"EMQX_DASHBOARD__LISTENERS__HTTP__BIND=0",
		"EMQX_MQTT__SESSION_EXPIRY_INTERVAL=1d",
	)
	var log bytes.Buffer
	var logMu sync.Mutex
	cmd.Stdout = writerFunc(func(p []byte) (int, error) { logMu.Lock(); defer logMu.Unlock(); return log.Write(p) })
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill() // the process this test started
		<-exited
		if t.Failed() {
			logMu.Lock()
			t.Logf("emqx:\n%s", log.String())
			logMu.Unlock()
		}
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(2 * time.Minute) // EMQX takes a while to boot; a guard, not a timing
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			break
		}
		select {
		case <-exited:
			t.Fatal("emqx exited before listening")
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("emqx not listening on %s", addr)
		}
	}
	boardClientOnMQTT5Broker(t, addr, startProxy(t, addr))
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

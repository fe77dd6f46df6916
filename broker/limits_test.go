package broker

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/gorilla/websocket"
)

// Raw MQTT, to send what no well-behaved client library would.

func varint(n int) []byte {
	var b []byte
	for {
		c := byte(n % 128)
		n /= 128
		if n > 0 {
			c |= 0x80
		}
		b = append(b, c)
		if n == 0 {
			return b
		}
	}
}

func str(s string) []byte { return append([]byte{byte(len(s) >> 8), byte(len(s))}, s...) }

// connectPacket is a clean-session CONNECT with a 60 s keepalive.
func connectPacket(version byte, clientID, user, pass string) []byte {
	flags := byte(0x02)
	if user != "" {
		flags |= 0x80 | 0x40
	}
	body := append(str("MQTT"), version, flags, 0, 60)
	if version == 5 {
		body = append(body, 0) // no properties
	}
	body = append(body, str(clientID)...)
	if user != "" {
		body = append(append(body, str(user)...), str(pass)...)
	}
	return append(append([]byte{0x10}, varint(len(body))...), body...)
}

func publishPacket(version byte, qos byte, topic string, payload []byte) []byte {
	body := str(topic)
	if qos > 0 {
		body = append(body, 0, 1)
	}
	if version == 5 {
		body = append(body, 0)
	}
	body = append(body, payload...)
	return append(append([]byte{0x30 | qos<<1}, varint(len(body))...), body...)
}

// rawClient connects and reads the CONNACK; it returns the connection, a
// reader positioned after the CONNACK, and the CONNACK's bytes.
func rawClient(t *testing.T, addr string, connect []byte) (net.Conn, *bufio.Reader, []byte) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(wait))
	if _, err := c.Write(connect); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	return c, r, readPacket(t, r)
}

func readPacket(t *testing.T, r *bufio.Reader) []byte {
	t.Helper()
	h, err := r.ReadByte()
	if err != nil {
		t.Fatalf("reading a packet: %v", err)
	}
	n, mul := 0, 1
	for {
		b, err := r.ReadByte()
		if err != nil {
			t.Fatal(err)
		}
		n += int(b&0x7f) * mul
		mul *= 128
		if b&0x80 == 0 {
			break
		}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		t.Fatal(err)
	}
	return append([]byte{h}, body...)
}

// rest reads until the broker closes the connection.
func rest(t *testing.T, c net.Conn, r *bufio.Reader) []byte {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(wait))
	b, err := io.ReadAll(r)
	if err != nil && !errors.Is(err, net.ErrClosed) && !strings.Contains(err.Error(), "reset") {
		t.Fatalf("connection not closed by the broker: %v", err)
	}
	return b
}

func TestOversizedPacketsRefusedByTheirHeader(t *testing.T) {
	b := startBroker(t, Config{})
	for _, tc := range []struct {
		name    string
		version byte
		want    []byte // what the broker sends before closing
	}{
		{"MQTT 3.1.1: closed without DISCONNECT", 4, nil},
		{"MQTT 5: DISCONNECT 0x95 packet too large", 5, []byte{0xe0, 2, 0x95, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, r, ack := rawClient(t, b.TCPAddr(), connectPacket(tc.version, "big", "", ""))
			if ack[0] != 0x20 {
				t.Fatalf("CONNACK = % x", ack)
			}
			if tc.version == 5 && !bytes.Contains(ack, []byte{0x27, 0, 1, 0, 0}) {
				t.Errorf("MQTT 5 CONNACK % x does not announce the maximum packet size (0x27 = 65536)", ack)
			}
			// A 256 MB claim (the largest length MQTT can encode): only
			// the header is ever sent.
			c.Write(append([]byte{0x30}, varint(256<<20-1)...))
			if got := rest(t, c, r); !bytes.Equal(got, tc.want) {
				t.Errorf("after a 256 MB length claim the broker sent % x; want % x", got, tc.want)
			}
		})
	}
	t.Run("just under the limit passes", func(t *testing.T) {
		var rec recorder
		if err := b.Subscribe("zertz/b1/state", rec.add); err != nil {
			t.Fatal(err)
		}
		c, r, _ := rawClient(t, b.TCPAddr(), connectPacket(4, "b", "board1", "board-secret"))
		payload := bytes.Repeat([]byte("s"), 64<<10-30)
		c.Write(publishPacket(4, 1, "zertz/b1/state", payload))
		if ack := readPacket(t, r); ack[0] != 0x40 {
			t.Fatalf("PUBACK = % x", ack)
		}
		rec.waitFor(t, "zertz/b1/state="+string(payload))
	})
}

func TestClientIDLimit(t *testing.T) {
	b := startBroker(t, Config{})
	for _, tc := range []struct {
		version byte
		want    []byte
	}{
		{4, []byte{0x20, 0, 0x02}}, // identifier rejected
		{5, []byte{0x20, 0, 0x85}}, // client identifier not valid (then properties)
	} {
		_, _, ack := rawClient(t, b.TCPAddr(), connectPacket(tc.version, strings.Repeat("i", 129), "", ""))
		if len(ack) < 3 || ack[0] != tc.want[0] || ack[2] != tc.want[2] {
			t.Errorf("MQTT %d CONNECT with a 129-byte client ID: CONNACK % x; want code %#x", tc.version, ack, tc.want[2])
		}
	}
	_, _, ack := rawClient(t, b.TCPAddr(), connectPacket(4, strings.Repeat("i", 128), "", ""))
	if ack[2] != 0 {
		t.Errorf("128-byte client ID refused: % x", ack)
	}
	// 65,535 bytes: the CONNECT is over the packet size; closed unread.
	c, err := net.Dial("tcp", b.TCPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go c.Write(connectPacket(4, strings.Repeat("i", 65535), "", ""))
	if got := rest(t, c, bufio.NewReader(c)); len(got) != 0 {
		t.Errorf("65,535-byte client ID: broker sent % x; want the connection closed", got)
	}
}

// MQTT 3.1.1 has no server DISCONNECT [MQTT-3.14]: on a refused QoS 1
// publish and at shutdown the broker just closes. MQTT 5 clients get a
// DISCONNECT with a reason code.
func TestNoDisconnectToMQTT3Clients(t *testing.T) {
	b := startBroker(t, Config{})
	c, r, _ := rawClient(t, b.TCPAddr(), connectPacket(4, "v3", "", ""))
	c.Write(publishPacket(4, 1, "zertz/b1/cmd/new-game", []byte("{}")))
	if got := rest(t, c, r); len(got) != 0 {
		t.Errorf("refused QoS 1 publish: MQTT 3.1.1 client got % x; want nothing", got)
	}

	c3, r3, _ := rawClient(t, b.TCPAddr(), connectPacket(4, "v3-shutdown", "", ""))
	c5, r5, _ := rawClient(t, b.TCPAddr(), connectPacket(5, "v5-shutdown", "", ""))
	c5.Write(publishPacket(5, 1, "zertz/b1/cmd/new-game", []byte("{}")))
	if ack := readPacket(t, r5); len(ack) < 4 || ack[0] != 0x40 || ack[3] != 0x87 {
		t.Errorf("MQTT 5 refused publish: % x; want PUBACK 0x87 not authorized", ack)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if got := rest(t, c3, r3); len(got) != 0 {
		t.Errorf("shutdown: MQTT 3.1.1 client got % x; want nothing", got)
	}
	if got := rest(t, c5, r5); len(got) < 3 || got[0] != 0xe0 || got[2] != 0x8b {
		t.Errorf("shutdown: MQTT 5 client got % x; want DISCONNECT 0x8b server shutting down", got)
	}
}

func TestViewersNeverReadCommands(t *testing.T) {
	b := startBroker(t, Config{})
	url := "tcp://" + b.TCPAddr()
	got := make(chan string, 16)
	v := mustConnect(t, url, "", "")
	if tok := v.Subscribe("zertz/#", 1, func(_ paho.Client, m paho.Message) { got <- m.Topic() }); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatal("subscribe failed")
	}
	op := mustConnect(t, url, "op", "op-secret")
	op.Publish("zertz/b1/cmd/new-game", 1, false, `{"token":"secret"}`).WaitTimeout(wait)
	board := mustConnect(t, url, "board1", "board-secret")
	board.Publish("zertz/b1/state", 1, false, "S").WaitTimeout(wait)
	// Delivery to one client is in order: once the state is in, the
	// command would have come before it.
	if topic := <-got; topic != "zertz/b1/state" {
		t.Errorf("viewer read %q", topic)
	}
	tok := v.Subscribe("zertz/+/cmd/#", 1, nil)
	tok.WaitTimeout(wait)
	if q := tok.(*paho.SubscribeToken).Result()["zertz/+/cmd/#"]; q != 0x80 {
		t.Errorf("viewer subscribing to commands granted %#x; want 0x80", q)
	}
}

func TestConnectionLimits(t *testing.T) {
	b := startBroker(t, Config{WSAddr: Off, Limits: Limits{MaxConnsPerAddr: 3}})
	var open []net.Conn
	closed := 0
	for i := 0; i < 6; i++ {
		c, err := net.Dial("tcp", b.TCPAddr())
		if err != nil { // reset as it was accepted
			closed++
			continue
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(wait))
		c.Write(connectPacket(4, fmt.Sprint("c", i), "", ""))
		ack := make([]byte, 4)
		if _, err := io.ReadFull(c, ack); err == nil && ack[0] == 0x20 {
			open = append(open, c)
		} else {
			closed++
		}
	}
	if len(open) != 3 || closed != 3 {
		t.Fatalf("6 connections from one address with 3 allowed: %d open, %d closed", len(open), closed)
	}
	open[0].Close()
	waitUntil(t, func() bool {
		c, err := net.Dial("tcp", b.TCPAddr())
		if err != nil {
			return false
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(wait))
		c.Write(connectPacket(4, "after", "", ""))
		ack := make([]byte, 4)
		_, err = io.ReadFull(c, ack)
		return err == nil && ack[0] == 0x20 && ack[3] == 0
	}, "no room after a connection closed")
}

func TestLogsBoundedAndWithoutPayloads(t *testing.T) {
	var mu sync.Mutex
	var buf bytes.Buffer
	w := writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return buf.Write(p) })
	b, err := New(Config{TCPAddr: "127.0.0.1:0", WSAddr: Off, Users: testUsers, Logger: slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	secret := strings.Repeat("PAYLOAD", 8000)
	for i := 0; i < 20; i++ {
		c, r, _ := rawClient(t, b.TCPAddr(), connectPacket(4, strings.Repeat("c", 100)+"x", "", ""))
		c.Write(publishPacket(4, 1, "zertz/b1/cmd/new-game", []byte(secret)))
		rest(t, c, r)
	}
	b.Close()
	mu.Lock()
	defer mu.Unlock()
	for _, l := range strings.Split(buf.String(), "\n") {
		if len(l) > 4096 {
			t.Errorf("log line of %d bytes", len(l))
		}
		if strings.Contains(l, "PAYLOADPAYLOAD") {
			t.Errorf("payload logged: %.300s", l)
		}
	}
	if n := strings.Count(buf.String(), "publish denied"); n == 0 || n > 5 {
		t.Errorf("%d 'publish denied' lines for 20 denials from one client ID; want 1 to 5 (rate-limited)\n%s", n, buf.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestBeyondLoopback(t *testing.T) {
	got := beyondLoopback("127.0.0.1:1883", "[::1]:8083", "0.0.0.0:1883", "192.168.1.5:8083", "", "localhost:1")
	want := []string{"0.0.0.0:1883", "192.168.1.5:8083", "localhost:1"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("beyondLoopback = %q; want %q", got, want)
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

func TestTLSListeners(t *testing.T) {
	certFile, keyFile, pool := selfSigned(t)
	b := startBroker(t, Config{TLSCertFile: certFile, TLSKeyFile: keyFile})
	if !b.TLS() {
		t.Fatal("TLS() = false")
	}
	for _, url := range []string{"ssl://" + b.TCPAddr(), "wss://" + b.WSAddr() + "/"} {
		o := paho.NewClientOptions().AddBroker(url).SetClientID("tls").SetTLSConfig(&tls.Config{RootCAs: pool}).
			SetAutoReconnect(false).SetConnectTimeout(wait)
		c := paho.NewClient(o)
		if tok := c.Connect(); !tok.WaitTimeout(wait) || tok.Error() != nil {
			t.Errorf("connect to %s: %v", url, tok.Error())
			continue
		}
		c.Disconnect(50)
	}
	// Plain MQTT to the TLS port is no CONNECT.
	c, err := net.Dial("tcp", b.TCPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write(connectPacket(4, "plain", "", ""))
	c.SetReadDeadline(time.Now().Add(wait))
	if b, _ := io.ReadAll(c); len(b) > 0 && b[0] == 0x20 {
		t.Error("plain MQTT accepted on the TLS listener")
	}
	if _, err := New(Config{TLSCertFile: certFile}); err == nil || !strings.Contains(err.Error(), "together") {
		t.Errorf("certificate without key: %v", err)
	}
}

// A subscriber that stops reading is disconnected once MaxQueued packets
// wait for it, instead of holding copies of every message.
func TestStuckSubscriberDisconnected(t *testing.T) {
	b := startBroker(t, Config{WSAddr: Off, Limits: Limits{MaxQueued: 4}})
	c, r, _ := rawClient(t, b.TCPAddr(), connectPacket(4, "stuck", "", ""))
	sub := append(append([]byte{0, 1}, str("zertz/#")...), 0)
	c.Write(append(append([]byte{0x82}, varint(len(sub))...), sub...))
	if ack := readPacket(t, r); ack[0] != 0x90 {
		t.Fatalf("SUBACK = % x", ack)
	}
	// Never read again. The kernel's buffers fill first, then the queue.
	payload := bytes.Repeat([]byte("s"), 60000)
	for i := 0; i < 2000; i++ {
		if err := b.srv.Publish("zertz/b1/state", payload, false, 0); err != nil {
			t.Fatal(err)
		}
		if cl, ok := b.srv.Clients.Get("stuck"); !ok || cl.Closed() {
			return
		}
	}
	t.Fatal("a subscriber that never reads is still connected after 2000 messages of 60 kB")
}

// A viewer asking for a persistent session gets none: a session left
// behind would hold its subscriptions and messages for as long as
// sessions last.
func TestViewerSessionsEndWithTheConnection(t *testing.T) {
	b := startBroker(t, Config{WSAddr: Off})
	for _, version := range []byte{4, 5} {
		id := fmt.Sprint("persistent-viewer-", version)
		pk := connectPacket(version, id, "", "")
		pk[2+7] &^= 0x02 // clean session / clean start off (flags after the protocol name and level)
		c, r, ack := rawClient(t, b.TCPAddr(), pk)
		if ack[2] != 0 {
			t.Fatalf("CONNACK % x", ack)
		}
		sub := append(append([]byte{0, 1}, str("zertz/#")...), 1)
		if version == 5 {
			sub = append(append([]byte{0, 1, 0}, str("zertz/#")...), 1)
		}
		c.Write(append(append([]byte{0x82}, varint(len(sub))...), sub...))
		readPacket(t, r)
		c.Write([]byte{0xe0, 0})
		rest(t, c, r)
		waitUntil(t, func() bool { _, ok := b.srv.Clients.Get(id); return !ok }, fmt.Sprintf("MQTT %d viewer's session kept after it left", version))
	}
	// A board keeps its session.
	pk := connectPacket(4, "board-session", "board1", "board-secret")
	pk[2+7] &^= 0x02
	c, r, _ := rawClient(t, b.TCPAddr(), pk)
	c.Write([]byte{0xe0, 0})
	rest(t, c, r)
	if _, ok := b.srv.Clients.Get("board-session"); !ok {
		t.Error("the board's persistent session was dropped")
	}
}

func TestSubscriptionLimit(t *testing.T) {
	b := startBroker(t, Config{WSAddr: Off, Limits: Limits{MaxSubscriptions: 3}})
	c, r, _ := rawClient(t, b.TCPAddr(), connectPacket(4, "many-subs", "", ""))
	var sub []byte
	for i := 0; i < 5; i++ {
		sub = append(append(sub, str(fmt.Sprintf("zertz/b%d/state", i))...), 0)
	}
	sub = append([]byte{0, 1}, sub...)
	c.Write(append(append([]byte{0x82}, varint(len(sub))...), sub...))
	ack := readPacket(t, r) // 0x90, packet id (2), then one code per filter
	if got := ack[3:]; !bytes.Equal(got, []byte{0, 0, 0, 0x80, 0x80}) {
		t.Errorf("SUBACK codes % x; want three granted and two refused", got)
	}
	// Subscribing again to one it has costs nothing.
	again := append(append([]byte{0, 2}, str("zertz/b0/state")...), 0)
	c.Write(append(append([]byte{0x82}, varint(len(again))...), again...))
	if ack := readPacket(t, r); ack[3] != 0 {
		t.Errorf("re-subscribing: SUBACK % x", ack)
	}
}

// Over WebSocket too, a packet is refused by its header: a client claiming
// 50 MiB in a PUBLISH is closed without the broker reading it.
func TestOversizedOverWebSocket(t *testing.T) {
	b := startBroker(t, Config{TCPAddr: Off})
	ws, _, err := websocket.DefaultDialer.Dial("ws://"+b.WSAddr()+"/", http.Header{"Sec-WebSocket-Protocol": {"mqtt"}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.WriteMessage(websocket.BinaryMessage, connectPacket(4, "ws-big", "", ""))
	ws.SetReadDeadline(time.Now().Add(wait))
	if _, ack, err := ws.ReadMessage(); err != nil || ack[0] != 0x20 {
		t.Fatalf("CONNACK % x, %v", ack, err)
	}
	ws.WriteMessage(websocket.BinaryMessage, publishPacket(4, 0, "zertz/b1/state", nil)[:1])
	ws.WriteMessage(websocket.BinaryMessage, varint(50<<20))
	_, msg, err := ws.ReadMessage()
	var ne net.Error
	switch {
	case err == nil:
		t.Errorf("after a 50 MiB claim the broker sent % x and kept the connection", msg)
	case errors.As(err, &ne) && ne.Timeout():
		t.Error("after a 50 MiB claim the broker is waiting for the body")
	}
}

package broker

import (
	"bufio"
	"fmt"
	"net"
	"testing"
	"time"
)

// holdFrom connects from 127.0.0.<n>, sends connect (if any) and returns
// the connection with the CONNACK read (nil before a CONNECT).
func holdFrom(t *testing.T, n int, addr string, connect []byte) (net.Conn, []byte) {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(n))}, Timeout: wait}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if connect == nil {
		return c, nil
	}
	c.SetDeadline(time.Now().Add(wait))
	c.Write(connect)
	ack := readPacket(t, bufio.NewReader(c))
	c.SetDeadline(time.Time{})
	return c, ack
}

func subscribePacket(filter string) []byte {
	body := append(append([]byte{0, 1}, str(filter)...), 0)
	return append(append([]byte{0x82}, varint(len(body))...), body...)
}

// Finding: 9 addresses × 32 idle anonymous connections took 248 of 256
// slots; new viewers were refused and the console could not log in. Now
// one address holds few viewers, viewers hold at most MaxConns minus the
// accounts' reserve, and connections that say nothing lose their slot to
// a newcomer when the listener is full.
func TestViewersCannotLockOutAccounts(t *testing.T) {
	lim := Limits{MaxConns: 40, ReservedConns: 8, MaxViewersPerAddr: 4, MaxConnsPerAddr: 16, ConnRate: 1000, ConnBurst: 1000}
	b := startBroker(t, Config{WSAddr: Off, Limits: lim})
	addr := b.TCPAddr()
	// Eight addresses of four watching viewers each: the viewers' share.
	for a := 10; a < 18; a++ {
		for i := 0; i < 4; i++ {
			c, ack := holdFrom(t, a, addr, connectPacket(4, fmt.Sprintf("v-%d-%d", a, i), "", ""))
			if ack[2] != 0 {
				t.Fatalf("viewer %d from address %d refused: % x", i, a, ack)
			}
			c.Write(subscribePacket("zertz/+/state"))
		}
	}
	if _, ack := holdFrom(t, 10, addr, connectPacket(4, "v-fifth", "", "")); ack[2] != 0x03 {
		t.Errorf("a fifth viewer from one address: CONNACK % x; want 0x03", ack)
	}
	waitUntil(t, func() bool {
		n := 0
		for _, cl := range b.srv.Clients.GetAll() {
			if cl.State.Subscriptions.Len() > 0 {
				n++
			}
		}
		return n >= 32
	}, "the viewers subscribed") // else the newcomer takes an idle one's place, as it should
	if _, ack := holdFrom(t, 30, addr, connectPacket(4, "v-over", "", "")); ack[2] != 0x03 {
		t.Errorf("a viewer beyond the viewers' share: CONNACK % x; want 0x03", ack)
	}
	// Connections that never send CONNECT fill the rest of the listener.
	for i := 0; i < 8; i++ {
		holdFrom(t, 40, addr, nil)
	}
	// The accounts still get in: an operator, then the board.
	for _, u := range []struct{ id, user, pass string }{{"op-1", "op", "op-secret"}, {"zertzboard-b1", "board1", "board-secret"}} {
		if _, ack := holdFrom(t, 50, addr, connectPacket(4, u.id, u.user, u.pass)); ack[2] != 0 {
			t.Errorf("%s refused while viewers and silent connections fill the listener: % x", u.user, ack)
		}
	}
}

// At the viewers' share, an anonymous viewer that has not subscribed
// gives its place to a newcomer; one that watches keeps it.
func TestIdleViewerMakesRoom(t *testing.T) {
	lim := Limits{MaxConns: 10, ReservedConns: 2, MaxViewersPerAddr: 8, MaxConnsPerAddr: 16, ConnRate: 1000, ConnBurst: 1000}
	b := startBroker(t, Config{WSAddr: Off, Limits: lim})
	var idle []net.Conn
	for i := 0; i < 8; i++ {
		c, ack := holdFrom(t, 60, b.TCPAddr(), connectPacket(4, fmt.Sprint("idle-", i), "", ""))
		if ack[2] != 0 {
			t.Fatalf("viewer %d refused: % x", i, ack)
		}
		if i > 0 { // all but the first watch
			c.Write(subscribePacket("zertz/+/state"))
		} else {
			idle = append(idle, c)
		}
	}
	waitUntil(t, func() bool {
		n := 0
		for _, cl := range b.srv.Clients.GetAll() {
			if cl.State.Subscriptions.Len() > 0 {
				n++
			}
		}
		return n == 7
	}, "seven viewers subscribed")
	if _, ack := holdFrom(t, 61, b.TCPAddr(), connectPacket(4, "newcomer", "", "")); ack[2] != 0 {
		t.Fatalf("the newcomer was refused with an idle viewer to replace: % x", ack)
	}
	idle[0].SetReadDeadline(time.Now().Add(wait))
	if _, err := idle[0].Read(make([]byte, 1)); err == nil {
		t.Error("the idle viewer kept its place")
	}
}

package connlimit

import (
	"errors"
	"net"
	"net/netip"
	"os"
	"testing"
	"time"
)

func tcp(ip string) net.Addr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: 40000} }

func TestPerAddrAndTotal(t *testing.T) {
	l := New(Limits{Total: 5, PerAddr: 3}, nil)
	var rel []func()
	for i := 0; i < 3; i++ {
		r, why := l.Admit(tcp("10.0.0.1"))
		if why != "" {
			t.Fatalf("connection %d from 10.0.0.1 refused: %s", i, why)
		}
		rel = append(rel, r)
	}
	if _, why := l.Admit(tcp("10.0.0.1")); why != "too many connections from this address" {
		t.Errorf("4th from one address: reason %q; want refused per address", why)
	}
	for i := 0; i < 2; i++ {
		if _, why := l.Admit(tcp("10.0.0.2")); why != "" {
			t.Fatalf("10.0.0.2 refused: %s", why)
		}
	}
	if _, why := l.Admit(tcp("10.0.0.3")); why != "too many connections" {
		t.Errorf("6th in total: reason %q; want refused in total", why)
	}
	rel[0]()
	rel[0]() // idempotent
	if l.Open() != 4 {
		t.Errorf("Open = %d after one release; want 4", l.Open())
	}
	if _, why := l.Admit(tcp("10.0.0.1")); why != "" {
		t.Errorf("after a release: refused %q", why)
	}
	if l.Refused() != 2 {
		t.Errorf("Refused = %d; want 2", l.Refused())
	}
}

func TestRate(t *testing.T) {
	now := time.Unix(0, 0)
	l := New(Limits{Rate: 2, Burst: 4}, func() time.Time { return now })
	admitted := 0
	for i := 0; i < 100; i++ {
		if r, why := l.Admit(tcp("192.168.1.9")); why == "" {
			admitted++
			r()
		}
	}
	if admitted != 4 {
		t.Errorf("admitted %d of 100 at once; want the burst, 4", admitted)
	}
	if _, why := l.Admit(tcp("192.168.1.10")); why != "" {
		t.Errorf("another address refused: %q", why)
	}
	now = now.Add(time.Second)
	admitted = 0
	for i := 0; i < 100; i++ {
		if r, why := l.Admit(tcp("192.168.1.9")); why == "" {
			admitted++
			r()
		}
	}
	if admitted != 2 {
		t.Errorf("admitted %d after 1 s at 2/s; want 2", admitted)
	}
}

func TestListenerClosesRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := make(chan string, 10)
	l := New(Limits{PerAddr: 1}, nil)
	lln := Listener(ln, l, func(_ net.Addr, why string) { refused <- why })
	defer lln.Close()
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := lln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	a, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	srvA := <-accepted
	b, err := net.Dial("tcp", ln.Addr().String())
	if why := <-refused; why == "" {
		t.Fatal("no reason")
	}
	if err == nil { // else reset while dialling: refused all the same
		defer b.Close()
		b.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := b.Read(make([]byte, 1)); err == nil {
			t.Error("refused connection still open")
		}
	}
	srvA.Close()
	if l.Open() != 0 {
		t.Errorf("Open = %d after Close; want 0", l.Open())
	}
}

// A full listener gives the slot of the connection idle the longest to a
// newcomer; busy connections keep theirs, and with none idle the newcomer
// is refused.
func TestFullListenerEvictsTheIdle(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := New(Limits{Total: 2}, nil)
	ln := Listener(raw, l, nil)
	defer ln.Close()
	accepted := make(chan net.Conn, 8)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", raw.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	closed := func(c net.Conn) bool {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err := c.Read(make([]byte, 1))
		return err != nil && !errors.Is(err, os.ErrDeadlineExceeded)
	}
	busyClient, idleClient := dial(), dial()
	SetIdle(<-accepted, false)
	<-accepted // stays idle
	dial()
	third := <-accepted
	if !closed(idleClient) {
		t.Error("the idle connection kept its slot when the listener was full")
	}
	if l.Evicted() != 1 {
		t.Errorf("Evicted = %d; want 1", l.Evicted())
	}
	// Now both slots are busy: a newcomer is refused.
	SetIdle(third, false)
	// Refused with a reset, which may even reach the dial.
	if late, err := net.Dial("tcp", raw.Addr().String()); err == nil {
		defer late.Close()
		if !closed(late) {
			t.Error("a newcomer was admitted with every slot busy")
		}
	}
	busyClient.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := busyClient.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the busy connection was closed: %v", err)
	}
}

// TestExempt: a proxy's address has no per-address limit or rate, and
// still counts toward the total.
func TestExempt(t *testing.T) {
	l := New(Limits{Total: 12, PerAddr: 2, Rate: 1, Burst: 2, Exempt: []netip.Addr{netip.MustParseAddr("127.0.0.1")}}, func() time.Time { return time.Unix(0, 0) })
	var rel []func()
	for i := 0; i < 10; i++ {
		r, why := l.Admit(tcp("127.0.0.1"))
		if why != "" {
			t.Fatalf("connection %d from the exempt address refused: %s", i, why)
		}
		rel = append(rel, r)
	}
	for i := 0; i < 2; i++ {
		if _, why := l.Admit(tcp("10.0.0.1")); why != "" {
			t.Fatalf("10.0.0.1 refused: %s", why)
		}
	}
	if _, why := l.Admit(tcp("127.0.0.1")); why != "too many connections" {
		t.Errorf("13th in total: %q; want refused in total", why)
	}
	rel[0]()
	rel[0]()
	if l.Open() != 11 {
		t.Errorf("Open = %d; want 11", l.Open())
	}
	if _, why := l.Admit(tcp("10.0.0.1")); why == "" {
		t.Error("a third from a limited address admitted")
	}
}

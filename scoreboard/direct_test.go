package scoreboard

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A viewer that stops reading fills its socket: the hub's direct write
// cannot complete, the rest goes to the stream's goroutine, and later
// frames queue for it rather than overtake. Once the viewer reads again it
// gets every view in order up to the latest, nobody is dropped, and the
// hub writes to it directly again.
func TestDirectStreamFallsBackAndResumes(t *testing.T) {
	s := New(Options{Logger: testLogger(t), ClientBuffer: 4096})
	s.whole = true // whole views: the socket fills in fewer states
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	st := newState(t, "37", [2]string{"Ann", "Bob"})
	st.Seq = 1
	s.Handle("zertz/b1/state", stateJSON(t, st))

	// The viewer's receive buffer kept small.
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err == nil {
			c.(*net.TCPConn).SetReadBuffer(4096)
		}
		return c, err
	}}}
	// The stream's context spans the whole test: filling the socket and
	// reading it all back takes several seconds under -race on a busy
	// machine, longer than a single wait; go test's own -timeout bounds it.
	c, err := openSSE(context.Background(), hc, srv.URL+"/events?board=b1", 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.close)
	c.nextSeq(t, 1)
	var d *direct
	waitUntil(t, "the stream written directly", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		for cl := range s.clients {
			if cl.direct != nil {
				d = cl.direct
			}
		}
		if d == nil {
			return false
		}
		d.mu.Lock()
		defer d.mu.Unlock()
		return !d.slow
	})
	d.conn.(interface{ SetWriteBuffer(int) error }).SetWriteBuffer(4096)
	// slow never waits for d.mu: the stream's goroutine holds it through a
	// blocking write, which only this test's reading can end (waiting
	// here would run the write into its timeout and end the stream).
	slow := func() bool {
		if !d.mu.TryLock() {
			return true // the goroutine is writing: the stream is not direct
		}
		defer d.mu.Unlock()
		return d.slow
	}

	seq := uint64(1)
	for !slow() {
		if seq > 5000 {
			t.Fatal("5000 whole views written directly to a viewer that reads nothing")
		}
		seq++
		st.Seq, st.Players[0] = seq, "Ann "+string(rune('a'+seq%26))
		s.Handle("zertz/b1/state", stateJSON(t, st))
	}
	for range 5 { // through the channel now
		seq++
		st.Seq = seq
		s.Handle("zertz/b1/state", stateJSON(t, st))
	}
	var prev uint64 = 1
	for prev < seq {
		v, err := c.next()
		if err != nil {
			t.Fatalf("reading again after seq %d: %v", prev, err)
		}
		if v.Seq < prev {
			t.Fatalf("seq %d after %d: a view overtaken", v.Seq, prev)
		}
		prev = v.Seq
	}
	waitUntil(t, "the stream direct again", func() bool { return !slow() })
	seq++
	st.Seq = seq
	s.Handle("zertz/b1/state", stateJSON(t, st))
	c.nextSeq(t, seq)
	if s.Dropped() != 0 {
		t.Errorf("%d viewers dropped", s.Dropped())
	}
}

// noHijack hides the connection: the stream then goes through net/http's
// response, as it would over HTTP/2.
type noHijack struct{ http.ResponseWriter }

func (w noHijack) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// A stream whose connection cannot be taken over is served through
// net/http's response as before: the first view, then each change.
func TestStreamWithoutHijack(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	h := s.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(noHijack{w}, r) }))
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	st := newState(t, "37", [2]string{"Ann", "Bob"})
	st.Seq = 1
	s.Handle("zertz/b1/state", stateJSON(t, st))
	c := dialSSE(t, srv.URL+"/events?board=b1")
	c.nextSeq(t, 1)
	st.Seq, st.Players[1] = 2, "Bea"
	s.Handle("zertz/b1/state", stateJSON(t, st))
	if v := c.nextSeq(t, 2); !strings.Contains(v.HTML, "Bea") {
		t.Errorf("the change lacks the new name: %.300s", v.HTML)
	}
	s.mu.Lock()
	for cl := range s.clients {
		if cl.direct != nil {
			t.Error("a stream without a hijackable connection was made direct")
		}
	}
	s.mu.Unlock()
}

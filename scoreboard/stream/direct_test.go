package stream

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// testViews is a hub's owner for tests: one view, "b", whose frames show
// a seq and a text.
type testViews struct {
	mu  sync.Mutex
	hub *Hub
	cur *Frame
}

func newTestViews(t testing.TB, opts HubOptions) *testViews {
	v := &testViews{}
	v.hub = NewHub(&v.mu, opts)
	v.mu.Lock()
	v.cur = v.hub.NewFrameLocked(nil, 0, testTree(0, "waiting"))
	v.mu.Unlock()
	t.Cleanup(func() { v.mu.Lock(); v.hub.CloseLocked(); v.mu.Unlock() })
	return v
}

// testTree is a view of seq with text in a keyed element.
func testTree(seq uint64, text string) *Node {
	var b Builder
	b.Root("div", "class", "sb", "data-seq", strconv.FormatUint(seq, 10))
	b.WriteString("<h1>" + strings.Repeat("a view that stays ", 20) + "</h1>") // so that a patch is the shorter
	b.Open("p", "data-k", "text")
	b.WriteString(text)
	b.Close()
	b.Close()
	return b.MustFinish()
}

// publish makes the next frame and sends it to every stream.
func (v *testViews) publish(seq uint64, text string) *Frame {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.cur = v.hub.NewFrameLocked(v.cur, seq, testTree(seq, text))
	v.hub.BroadcastLocked(Topic{View: "b"}, v.cur)
	return v.cur
}

func (v *testViews) subscribe() (*Client, *Frame) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.hub.SubscribeLocked(Topic{View: "b"}), v.cur
}

func (v *testViews) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c, cur := v.subscribe()
	if c == nil {
		http.Error(w, "closed", http.StatusServiceUnavailable)
		return
	}
	v.hub.Serve(w, r, c, cur)
}

func (v *testViews) streams() []*Client {
	v.mu.Lock()
	defer v.mu.Unlock()
	var cs []*Client
	for c := range v.hub.clients {
		cs = append(cs, c)
	}
	return cs
}

// sseReader reads a stream's events.
type sseReader struct {
	r      *bufio.Reader
	body   io.Closer
	cancel context.CancelFunc
}

func openStream(t testing.TB, hc *http.Client, url string) *sseReader {
	t.Helper()
	// The stream's context spans the whole test: go test's own -timeout
	// bounds it.
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := hc.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		cancel()
		t.Fatalf("GET %s: %s %s", url, resp.Status, resp.Header.Get("Content-Type"))
	}
	s := &sseReader{r: bufio.NewReader(resp.Body), body: resp.Body, cancel: cancel}
	t.Cleanup(func() { cancel(); resp.Body.Close() })
	return s
}

// next is the next event: its name and its data.
func (s *sseReader) next() (event string, data []byte, err error) {
	for {
		line, err := s.r.ReadBytes('\n')
		if err != nil {
			return "", nil, err
		}
		line = bytes.TrimRight(line, "\n")
		switch {
		case len(line) == 0 && event != "":
			return event, data, nil
		case bytes.HasPrefix(line, []byte("event: ")):
			event = string(line[7:])
		case bytes.HasPrefix(line, []byte("data: ")):
			data = append(data, line[6:]...)
		}
	}
}

// nextSeq is the seq of the next view or patch.
func (s *sseReader) nextSeq() (uint64, error) {
	_, data, err := s.next()
	if err != nil {
		return 0, err
	}
	var v struct {
		Seq *uint64 `json:"seq"`
	}
	if err := json.Unmarshal(data, &v); err != nil || v.Seq == nil {
		return 0, fmt.Errorf("an event without a seq: %s (%v)", data, err)
	}
	return *v.Seq, nil
}

func (s *sseReader) waitSeq(t testing.TB, seq uint64) {
	t.Helper()
	for {
		got, err := s.nextSeq()
		if err != nil {
			t.Fatalf("waiting for seq %d: %v", seq, err)
		}
		if got == seq {
			return
		}
	}
}

// waitUntil polls cond: it reads whether a stream is written directly,
// a state of the hub's stream goroutine that nothing announces (an event
// for it would exist only for this test).
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// A viewer that stops reading fills its socket: the hub's direct write
// cannot complete, the rest goes to the stream's goroutine, and later
// frames queue for it rather than overtake. Once the viewer reads again it
// gets every view in order up to the latest, nobody is dropped, and the
// hub writes to it directly again.
func TestDirectStreamFallsBackAndResumes(t *testing.T) {
	v := newTestViews(t, HubOptions{Buffer: 4096})
	v.hub.SetWhole(true) // whole views: the socket fills in fewer frames
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	big := strings.Repeat("0123456789", 1000)
	v.publish(1, big)

	// The viewer's receive buffer kept small.
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err == nil {
			c.(*net.TCPConn).SetReadBuffer(4096)
		}
		return c, err
	}}}
	c := openStream(t, hc, srv.URL)
	c.waitSeq(t, 1)
	var d *direct
	waitUntil(t, "the stream written directly", func() bool {
		for _, cl := range v.streams() {
			v.mu.Lock()
			d = cl.direct
			v.mu.Unlock()
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
		v.publish(seq, big+strconv.FormatUint(seq, 10))
	}
	for range 5 { // through the channel now
		seq++
		v.publish(seq, big+strconv.FormatUint(seq, 10))
	}
	var prev uint64 = 1
	for prev < seq {
		got, err := c.nextSeq()
		if err != nil {
			t.Fatalf("reading again after seq %d: %v", prev, err)
		}
		if got < prev {
			t.Fatalf("seq %d after %d: a view overtaken", got, prev)
		}
		prev = got
	}
	waitUntil(t, "the stream direct again", func() bool { return !slow() })
	seq++
	v.publish(seq, "small")
	c.waitSeq(t, seq)
	v.mu.Lock()
	defer v.mu.Unlock()
	if n := v.hub.DroppedLocked(); n != 0 {
		t.Errorf("%d viewers dropped", n)
	}
}

// noHijack hides the connection: the stream then goes through net/http's
// response, as it would over HTTP/2.
type noHijack struct{ http.ResponseWriter }

func (w noHijack) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// A stream whose connection cannot be taken over is served through
// net/http's response as before: the first view, then each change, as a
// patch.
func TestStreamWithoutHijack(t *testing.T) {
	v := newTestViews(t, HubOptions{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { v.ServeHTTP(noHijack{w}, r) }))
	t.Cleanup(srv.Close)
	v.publish(1, "Ann")
	c := openStream(t, http.DefaultClient, srv.URL)
	c.waitSeq(t, 1)
	v.publish(2, "Bea")
	event, data, err := c.next()
	if err != nil || event != "patch" || !strings.Contains(string(data), `"seq":2`) || !strings.Contains(string(data), "Bea") {
		t.Errorf("the change came as %q %s (%v)", event, data, err)
	}
	for _, cl := range v.streams() {
		v.mu.Lock()
		if cl.direct != nil {
			t.Error("a stream without a hijackable connection was made direct")
		}
		v.mu.Unlock()
	}
}

package stream

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestSlowViewerDropped: a stream whose queue fills is dropped, and only
// that one.
func TestSlowViewerDropped(t *testing.T) {
	v := newTestViews(t, HubOptions{Buffer: 2})
	slow, _ := v.subscribe() // never reads
	fast, _ := v.subscribe()
	for seq := uint64(1); seq <= 5; seq++ {
		v.publish(seq, "x")
		<-fast.Frames()
	}
	select {
	case <-slow.Gone():
	default:
		t.Fatal("the slow viewer was not dropped")
	}
	select {
	case <-fast.Gone():
		t.Fatal("the fast viewer was dropped")
	default:
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.hub.DroppedLocked() != 1 || v.hub.ViewersLocked() != 1 {
		t.Errorf("dropped %d, viewers %d; want 1, 1", v.hub.DroppedLocked(), v.hub.ViewersLocked())
	}
}

// TestPatchOnlyOnItsView: a stream gets a view as a patch only if it shows
// the view the patch was made from; a new stream, or one whose queue was
// coalesced past a view, gets it whole.
func TestPatchOnlyOnItsView(t *testing.T) {
	v := newTestViews(t, HubOptions{Buffer: 8})
	c, first := v.subscribe()
	var frames []*Frame
	for i := 0; i < 3; i++ {
		v.publish(uint64(i+1), string(rune('a'+i)))
		frames = append(frames, <-c.Frames())
	}
	first = v.hub.WaitingFrame(first.HTML) // a view made on demand
	if ev, _ := v.hub.encoding(frames[0], first); string(ev) != string(eventView) {
		t.Error("the first state after a waiting view went as a patch")
	}
	if ev, body := v.hub.encoding(frames[1], frames[0]); string(ev) != string(eventPatch) || len(body) >= len(frames[1].full) {
		t.Errorf("the next state went as %q (%d B; whole %d B)", ev, len(body), len(frames[1].full))
	}
	if ev, _ := v.hub.encoding(frames[2], frames[0]); string(ev) != string(eventView) {
		t.Error("a state after a skipped one went as a patch")
	}
	if ev, _ := v.hub.encoding(frames[2], nil); string(ev) != string(eventView) {
		t.Error("a new stream's first view went as a patch")
	}
	v.hub.SetWhole(true)
	if ev, _ := v.hub.encoding(frames[1], frames[0]); string(ev) != string(eventView) {
		t.Error("a patch sent with whole views asked for")
	}
}

// TestHeartbeat: an idle stream gets comments.
func TestHeartbeat(t *testing.T) {
	v := newTestViews(t, HubOptions{Heartbeat: time.Millisecond})
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	c := openStream(t, http.DefaultClient, srv.URL)
	for {
		line, err := c.r.ReadString('\n')
		if err != nil {
			t.Fatalf("no heartbeat: %v", err)
		}
		if line == ": ping\n" {
			break
		}
	}
}

// TestCloseEndsStreams: Close ends every stream and refuses new ones.
func TestCloseEndsStreams(t *testing.T) {
	v := newTestViews(t, HubOptions{})
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	c := openStream(t, http.DefaultClient, srv.URL)
	if _, err := c.nextSeq(); err != nil {
		t.Fatal(err)
	}
	v.mu.Lock()
	v.hub.CloseLocked()
	v.mu.Unlock()
	for {
		if _, _, err := c.next(); err != nil {
			break // the stream ended
		}
	}
	if cl, _ := v.subscribe(); cl != nil {
		t.Error("a stream subscribed after Close")
	}
}

package board

import (
	"testing"
	"time"
)

func TestFrameQueue(t *testing.T) {
	q := newFrameQueue(3, 4)
	t0 := time.Unix(0, 0)
	push := func(ms int64, cells string) { q.push(ms, 1, t0, []byte(cells), nil) }
	push(0, "oooo")
	push(5, "oooo")
	push(10, "oowo")
	// Full: a frame equal to the newest is dropped ...
	push(15, "oowo")
	// ... and a change drops the oldest.
	push(20, "oobo")
	var got []int64
	var cells []string
	for q.pop(func(e queued) { got = append(got, e.ms); cells = append(cells, string(e.cells)) }) {
	}
	want := []int64{5, 10, 20}
	if len(got) != len(want) || got[0] != 5 || got[1] != 10 || got[2] != 20 || cells[2] != "oobo" {
		t.Errorf("popped %v %q; want %v", got, cells, want)
	}
	if q.Dropped() != 2 {
		t.Errorf("Dropped() = %d; want 2", q.Dropped())
	}
	// Once warm, pushing and popping allocate nothing.
	b := []byte("oooo")
	if n := testing.AllocsPerRun(100, func() {
		q.push(1, 1, t0, b, nil)
		q.pop(func(queued) {})
	}); n != 0 {
		t.Errorf("push+pop allocates %v times", n)
	}
}

package hostile

import (
	"testing"
	"time"
)

// stateFlow tells the game's own pauses apart from what is held back on
// its way: a long pause with prompt delivery is idle, not starved; a
// state or a move delivered late is starved from its publishing; a state
// replaced unseen is starved from its move's publishing.
func TestStateFlow(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	b := &board{
		seqs:     []uint64{1, 2, 3, 5, 7},
		pubs:     []time.Time{ms(0), ms(3000), ms(3100), ms(6000), ms(9000)},
		times:    []time.Time{ms(5), ms(3010), ms(5600), ms(6010), ms(9010)},
		movePubs: map[uint64]time.Time{4: ms(5900)},
		moves:    []moveArrival{{pub: ms(7000), at: ms(8500)}},
	}
	// 1→2: a 3 s pause, delivered in 10 ms: idle. 2→3: published at
	// 3.1 s, delivered at 5.6 s: starved 2.5 s.
	if starved, idle, superseded := b.stateFlow(ms(0), ms(5700)); starved != 2500*time.Millisecond || idle != 3000*time.Millisecond || superseded != 0 {
		t.Errorf("to 5.7 s: starved %v, idle %v, superseded %d; want 2.5s, 3s, 0", starved, idle, superseded)
	}
	// 3→5: seq 4 lost, its move published at 5.9 s: 110 ms; 5→7: seq 6
	// lost without a move: from seq 7's publishing, 10 ms; a move held
	// back 1.5 s.
	if starved, _, superseded := b.stateFlow(ms(5700), ms(10000)); starved != 1500*time.Millisecond || superseded != 2 {
		t.Errorf("from 5.7 s: starved %v, superseded %d; want 1.5s (the move), 2", starved, superseded)
	}
	b.moves = nil
	if starved, _, _ := b.stateFlow(ms(5700), ms(10000)); starved != 110*time.Millisecond {
		t.Errorf("from 5.7 s without the late move: starved %v; want 110ms (seq 4, from its move)", starved)
	}
	// Only the pause: nothing starved.
	if starved, idle, _ := b.stateFlow(ms(0), ms(3050)); starved != 10*time.Millisecond || idle != 3000*time.Millisecond {
		t.Errorf("the pause alone: starved %v, idle %v; want 10ms, 3s", starved, idle)
	}
}

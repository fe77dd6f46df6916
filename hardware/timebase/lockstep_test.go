package timebase

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLockstepOrder: participants run one at a time, in the order they
// joined, at the step their waits end; Step returns only once each has
// waited again; a participant started by another runs within the same
// step, after the others.
func TestLockstepOrder(t *testing.T) {
	l := NewLockstep(time.Unix(0, 0))
	var log []string // no lock: participants never run beside each other or the driver
	say := func(p *Participant, s string) {
		log = append(log, fmt.Sprintf("%d:%s", p.Now().UnixMilli(), s))
	}
	l.Go(func(p *Participant) {
		say(p, "a starts")
		p.Go(func(q *Participant) {
			say(q, "c starts")
			for q.Next() == nil {
				say(q, "c")
			}
		})
		for p.Sleep(25*time.Millisecond) == nil {
			say(p, "a")
		}
	})
	l.Go(func(p *Participant) {
		say(p, "b starts")
		_ = p.Sleep(0)
		say(p, "b")
		if p.Sleep(time.Hour) == nil {
			say(p, "b woken")
		}
	})
	for ms := 10; ms <= 50; ms += 10 {
		l.Step(time.UnixMilli(int64(ms)))
		log = append(log, "|")
	}
	l.Close()
	got := strings.Join(log, " ")
	want := "10:a starts 10:b starts 10:c starts | 20:b 20:c | 30:c | 40:a 40:c | 50:c |"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestLockstepWaitsForTheParticipant: however long a participant works
// (here: until a goroutine outside the clock answers it), Step does not
// return before it waits again, and the time does not move meanwhile.
func TestLockstepWaitsForTheParticipant(t *testing.T) {
	l := NewLockstep(time.Unix(0, 0))
	defer l.Close()
	ask, answer := make(chan struct{}), make(chan struct{})
	go func() {
		<-ask
		close(answer)
	}()
	var at time.Time
	worked := false
	l.Go(func(p *Participant) {
		close(ask)
		<-answer
		at, worked = p.Now(), true
		_ = p.Next()
	})
	l.Step(time.UnixMilli(5))
	if !worked || !at.Equal(time.UnixMilli(5)) {
		t.Fatalf("Step returned before the participant waited again (worked %v at %v)", worked, at)
	}
	if l.Participants() != 1 {
		t.Errorf("participants %d, want 1", l.Participants())
	}
}

// TestLockstepClose: Close wakes every waiting participant with ErrClosed,
// and a participant that returned is forgotten.
func TestLockstepClose(t *testing.T) {
	l := NewLockstep(time.Unix(0, 0))
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	wg.Add(3)
	l.Go(func(p *Participant) { defer wg.Done(); errs <- p.Sleep(time.Hour) })
	l.Go(func(p *Participant) { defer wg.Done(); errs <- p.Next() })
	l.Go(func(p *Participant) { defer wg.Done() })
	l.Step(time.UnixMilli(1))
	if n := l.Participants(); n != 2 {
		t.Errorf("participants %d after one returned, want 2", n)
	}
	l.Close()
	wg.Wait()
	close(errs)
	for err := range errs {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("wait after Close: %v, want ErrClosed", err)
		}
	}
	// A participant started after Close runs at once.
	done := make(chan error)
	l.Go(func(p *Participant) { done <- p.Next() })
	if err := <-done; !errors.Is(err, ErrClosed) {
		t.Errorf("a late participant's wait: %v, want ErrClosed", err)
	}
}

// TestLockstepTickers: the driver's tickers fire as Step passes them, and
// its Sleep advances the time.
func TestLockstepTickers(t *testing.T) {
	l := NewLockstep(time.Unix(0, 0))
	defer l.Close()
	tk := l.NewTicker(10 * time.Millisecond)
	l.Step(time.UnixMilli(9))
	select {
	case <-tk.C():
		t.Fatal("ticked early")
	default:
	}
	l.Sleep(time.Millisecond)
	select {
	case at := <-tk.C():
		if !at.Equal(time.UnixMilli(10)) {
			t.Errorf("ticked at %v", at)
		}
	default:
		t.Fatal("no tick at 10 ms")
	}
	l.Step(time.UnixMilli(5)) // never back
	if !l.Now().Equal(time.UnixMilli(10)) {
		t.Errorf("now %v after a step back", l.Now())
	}
}

package clock

import (
	"testing"
	"time"
)

func mustParse(t testing.TB, s string) Control {
	t.Helper()
	c, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// step is one thing that happens to a clock in a table test.
type step struct {
	op     string // tick, start, commit, switch, pause, resume, add, stop
	t      int64
	player int
	ms     int64
	// what to expect after it
	rem  [2]int64
	run  int
	flag int   // tick: the flag fall it reports
	used int64 // commit: the time it reports
	ok   bool  // pause, resume, add: what they report
}

func TestClockRules(t *testing.T) {
	const N = NoPlayer
	cases := []struct {
		name    string
		control string
		gap     int64 // the longest charged gap; 0: no limit, frames are sparse here
		steps   []step
	}{
		{"the mover's clock runs from the opponent's commit to their own", "sudden:1m", 0, []step{
			{op: "start", t: 1000, player: 0, rem: [2]int64{60000, 60000}, run: 0},
			{op: "tick", t: 1500, rem: [2]int64{59500, 60000}, run: 0, flag: N},
			{op: "commit", t: 4000, player: 0, rem: [2]int64{57000, 60000}, run: 1, used: 3000},
			{op: "tick", t: 4005, rem: [2]int64{57000, 59995}, run: 1, flag: N},
			{op: "commit", t: 9000, player: 1, rem: [2]int64{57000, 55000}, run: 0, used: 5000},
		}},
		{"Fischer: the increment goes to the mover after the commit", "fischer:1m+10s", 0, []step{
			{op: "start", t: 0, player: 1, rem: [2]int64{60000, 60000}, run: 1},
			{op: "commit", t: 2000, player: 1, rem: [2]int64{60000, 68000}, run: 0, used: 2000},
			{op: "commit", t: 2500, player: 0, rem: [2]int64{69500, 68000}, run: 1, used: 500},
		}},
		{"sudden death gives no increment", "sudden:1m", 0, []step{
			{op: "start", t: 0, player: 0},
			{op: "commit", t: 2000, player: 0, rem: [2]int64{58000, 60000}, run: 1, used: 2000},
		}},
		{"flag fall when the time reaches zero, once", "sudden:10s", 0, []step{
			{op: "start", t: 0, player: 0},
			{op: "tick", t: 9999, rem: [2]int64{1, 10000}, run: 0, flag: N},
			{op: "tick", t: 10000, rem: [2]int64{0, 10000}, run: N, flag: 0},
			{op: "tick", t: 10010, rem: [2]int64{0, 10000}, run: N, flag: N},
			{op: "add", t: 10020, player: 0, ms: 5000, rem: [2]int64{0, 10000}, run: N, ok: false},
		}},
		{"a late frame overshoots: the time reads zero, never negative", "sudden:10s", 0, []step{
			{op: "start", t: 0, player: 1},
			{op: "tick", t: 9500, flag: N},
			{op: "tick", t: 10400, rem: [2]int64{10000, 0}, run: N, flag: 1},
		}},
		{"a gap between frames over a second is not charged (board offline)", "sudden:1m", DefaultMaxGapMS, []step{
			{op: "start", t: 0, player: 0},
			{op: "tick", t: 500, rem: [2]int64{59500, 60000}, run: 0, flag: N},
			{op: "tick", t: 1500, rem: [2]int64{58500, 60000}, run: 0, flag: N},  // exactly the limit: charged
			{op: "tick", t: 30000, rem: [2]int64{58500, 60000}, run: 0, flag: N}, // 28.5 s offline
			{op: "tick", t: 30010, rem: [2]int64{58490, 60000}, run: 0, flag: N},
			{op: "commit", t: 31010, player: 0, rem: [2]int64{57490, 60000}, run: 1, used: 2510},
		}},
		{"pause stops both clocks; resume restarts the one to move", "sudden:1m", 0, []step{
			{op: "start", t: 0, player: 0},
			{op: "pause", t: 1000, ok: true, rem: [2]int64{59000, 60000}, run: N},
			{op: "pause", t: 1100, ok: false, rem: [2]int64{59000, 60000}, run: N},
			{op: "tick", t: 50000, rem: [2]int64{59000, 60000}, run: N, flag: N},
			{op: "resume", t: 60000, player: 0, ok: true, rem: [2]int64{59000, 60000}, run: 0},
			{op: "resume", t: 60000, player: 0, ok: false, rem: [2]int64{59000, 60000}, run: 0},
			{op: "tick", t: 60500, rem: [2]int64{58500, 60000}, run: 0, flag: N},
		}},
		{"a commit during a pause switches the turn, clocks still stopped", "fischer:1m+5s", 0, []step{
			{op: "start", t: 0, player: 0},
			{op: "pause", t: 1000, ok: true},
			{op: "commit", t: 3000, player: 0, rem: [2]int64{64000, 60000}, run: N, used: 1000},
			{op: "resume", t: 9000, player: 1, ok: true, rem: [2]int64{64000, 60000}, run: 1},
		}},
		{"add time", "sudden:1m", 0, []step{
			{op: "start", t: 0, player: 0},
			{op: "add", t: 1000, player: 1, ms: 30000, ok: true, rem: [2]int64{59000, 90000}, run: 0},
			{op: "add", t: 1000, player: 1, ms: 0, ok: false, rem: [2]int64{59000, 90000}, run: 0},
			{op: "add", t: 1000, player: 1, ms: MaxAddMS + 1, ok: false, rem: [2]int64{59000, 90000}, run: 0},
			{op: "add", t: 1000, player: 0, ms: MaxAddMS, ok: true, rem: [2]int64{3659000, 90000}, run: 0},
		}},
		{"an illegal board's time goes to the player who made it", "sudden:1m", 0, []step{
			{op: "start", t: 0, player: 0},
			{op: "commit", t: 1000, player: 0, rem: [2]int64{59000, 60000}, run: 1, used: 1000},
			// player 0 knocks the board right after committing: their time while it is fixed
			{op: "switch", t: 1200, player: 0, rem: [2]int64{59000, 59800}, run: 0},
			{op: "switch", t: 4200, player: 1, rem: [2]int64{56000, 59800}, run: 1},
			// player 1's turn used only their own time
			{op: "commit", t: 5000, player: 1, rem: [2]int64{56000, 59000}, run: 0, used: 1000},
		}},
		{"a player taking back their own turn: the time since is theirs, the increment returned", "fischer:1m+5s", 0, []step{
			{op: "start", t: 0, player: 0},
			{op: "commit", t: 3000, player: 0, rem: [2]int64{62000, 60000}, run: 1, used: 3000},
			{op: "tick", t: 4000, rem: [2]int64{62000, 59000}, run: 1, flag: N},
			{op: "takeback", t: 4000, player: 0, ms: 3000, rem: [2]int64{56000, 60000}, run: 0},
			{op: "commit", t: 6000, player: 0, rem: [2]int64{59000, 60000}, run: 1, used: 6000},
		}},
		{"no time control: times recorded, no flag", "none", DefaultMaxGapMS, []step{
			{op: "start", t: 0, player: 0, rem: [2]int64{0, 0}, run: 0},
			{op: "tick", t: 900000, flag: N, run: 0, rem: [2]int64{0, 0}}, // gap: not charged
			{op: "tick", t: 900500, flag: N, run: 0, rem: [2]int64{-500, 0}},
			{op: "commit", t: 901000, player: 0, used: 1000, run: 1, rem: [2]int64{-1000, 0}},
		}},
		{"stop", "sudden:1m", 0, []step{
			{op: "start", t: 0, player: 0},
			{op: "stop", t: 1000, rem: [2]int64{59000, 60000}, run: N},
			{op: "tick", t: 1500, rem: [2]int64{59000, 60000}, run: N, flag: N},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := New(mustParse(t, tc.control))
			if tc.gap == 0 {
				c.SetMaxGap(1 << 40)
			}
			for i, s := range tc.steps {
				check := true
				switch s.op {
				case "tick":
					if f := c.Tick(s.t); f != s.flag {
						t.Fatalf("step %d: Tick(%d) = %d; want flag %d", i, s.t, f, s.flag)
					}
					check = s.rem != [2]int64{}
				case "start":
					c.Start(s.t, s.player)
					check = s.rem != [2]int64{} || tc.control == "none"
				case "commit":
					if u := c.Commit(s.t, s.player); u != s.used {
						t.Fatalf("step %d: Commit(%d, %d) = %d; want %d", i, s.t, s.player, u, s.used)
					}
					check = s.rem != [2]int64{} || tc.control == "none"
				case "switch":
					c.Switch(s.t, s.player)
				case "pause":
					if ok := c.Pause(s.t); ok != s.ok {
						t.Fatalf("step %d: Pause = %v; want %v", i, ok, s.ok)
					}
					check = s.rem != [2]int64{}
				case "resume":
					if ok := c.Resume(s.t, s.player); ok != s.ok {
						t.Fatalf("step %d: Resume = %v; want %v", i, ok, s.ok)
					}
				case "add":
					if ok := c.Add(s.t, s.player, s.ms); ok != s.ok {
						t.Fatalf("step %d: Add(%d) = %v; want %v", i, s.ms, ok, s.ok)
					}
				case "stop":
					c.Stop(s.t)
				case "takeback":
					c.TakeBack(s.t, s.player, s.ms)
				default:
					t.Fatalf("step %d: unknown op %q", i, s.op)
				}
				if !check {
					continue
				}
				if got := c.Remaining(s.t); got != s.rem {
					t.Errorf("step %d (%s at %d): Remaining = %v; want %v", i, s.op, s.t, got, s.rem)
				}
				if got := c.Running(); got != s.run {
					t.Errorf("step %d (%s at %d): Running = %d; want %d", i, s.op, s.t, got, s.run)
				}
			}
		})
	}
}

// Remaining between ticks counts the runner down without charging it.
func TestRemainingBetweenTicks(t *testing.T) {
	c := New(mustParse(t, "sudden:10s"))
	c.SetMaxGap(1 << 40)
	c.Start(0, 0)
	c.Tick(100)
	if got := c.Remaining(400); got != [2]int64{9600, 10000} {
		t.Errorf("Remaining(400) = %v", got)
	}
	if got := c.Remaining(20000); got != [2]int64{0, 10000} {
		t.Errorf("Remaining(20000) = %v; a viewer never sees a negative time", got)
	}
	if c.Tick(200) != NoPlayer || c.Remaining(200) != [2]int64{9800, 10000} {
		t.Errorf("Remaining charged: %v", c.Remaining(200))
	}
}

// A restored clock charges nothing until the first frame of the new run,
// whose times start again from zero.
func TestRestoreAfterCrash(t *testing.T) {
	ctl := mustParse(t, "fischer:5m+3s")
	c := New(ctl)
	c.SetMaxGap(1 << 40)
	c.Start(0, 0)
	c.Commit(4000, 0) // p0 used 4 s, +3 s
	c.Tick(10000)     // p1 used 6 s
	st := c.State(10000)
	want := State{Remaining: [2]int64{299000, 294000}, Running: 1, Flag: NoPlayer, Used: [2]int64{0, 6000}}
	if st != want {
		t.Fatalf("State = %+v; want %+v", st, want)
	}
	r := Restore(ctl, st)
	if r.Running() != 1 || r.Remaining(0) != st.Remaining {
		t.Fatalf("restored: running %d, remaining %v", r.Running(), r.Remaining(0))
	}
	// The new process's frames start at 0 ms; the first is not charged.
	r.Tick(0)
	r.Tick(500)
	if got := r.Remaining(500); got != [2]int64{299000, 293500} {
		t.Errorf("after restart: %v", got)
	}
	if used := r.Commit(1000, 1); used != 7000 {
		t.Errorf("the turn across the crash used %d ms; want 7000 (6000 before, 1000 after)", used)
	}
	if got := r.Remaining(1000); got != [2]int64{299000, 296000} {
		t.Errorf("after the commit: %v", got)
	}
	// A paused, flag-fallen state comes back as it was.
	p := Restore(ctl, State{Remaining: [2]int64{0, 5}, Running: 0, Paused: true, Flag: 0})
	if p.Running() != NoPlayer || !p.Paused() || p.Flagged() != 0 || p.Tick(5) != NoPlayer {
		t.Errorf("restored paused/flagged: running %d paused %v flag %d", p.Running(), p.Paused(), p.Flagged())
	}
}

func TestControlMS(t *testing.T) {
	c := mustParse(t, "fischer:1m+2s")
	if c.BaseMS() != 60000 || c.IncMS() != 2000 || !c.Timed() {
		t.Errorf("%v: base %d inc %d", c, c.BaseMS(), c.IncMS())
	}
	s := mustParse(t, "sudden:1m")
	if s.IncMS() != 0 || (Control{}).Timed() {
		t.Error("sudden death has no increment; none is not timed")
	}
	var u Control
	if err := u.UnmarshalText([]byte("sudden:2m")); err != nil || u.Base != 2*time.Minute {
		t.Errorf("UnmarshalText: %v %v", u, err)
	}
	if err := u.UnmarshalText([]byte("bad")); err == nil {
		t.Error("UnmarshalText(bad) succeeded")
	}
}

func BenchmarkTick(b *testing.B) {
	c := New(mustParse(b, "fischer:20m+10s"))
	c.Start(0, 0)
	b.ReportAllocs()
	t := int64(0)
	for b.Loop() {
		t += 5
		if c.Tick(t) != NoPlayer {
			c.Add(t, 0, MaxAddMS)
		}
	}
}

package clock

// DefaultMaxGapMS is the longest gap between two frames that is charged to
// the running clock. The scan delivers a frame every 5–10 ms; a longer
// silence means the board is offline (its scan stalled, or the process
// was down), and offline time is nobody's.
const DefaultMaxGapMS = 1000

// MaxAddMS is the most time one add-time may give: an hour.
const MaxAddMS = 3_600_000

// NoPlayer is the running player when no clock runs.
const NoPlayer = -1

// Clock is a game's two clocks. Times are milliseconds on the caller's
// time line (the frame time); the clock never reads the wall clock. The
// zero Clock is not usable: call New. A Clock is a value without pointers,
// so copying it copies the state; it is not safe for concurrent use.
type Clock struct {
	ctl    Control
	rem    [2]int64 // each player's time, as of since (the runner's)
	run    int      // the player whose clock runs, or NoPlayer
	since  int64    // the runner has been charged up to this time
	last   int64    // the latest Tick
	fresh  bool     // no time yet: the next Tick or change sets since and last
	paused bool     // arbiter pause: run is who resumes
	flag   int      // the player whose flag fell, or NoPlayer
	used   [2]int64 // charged to each player since their turn began
	maxGap int64
}

// New returns the clocks of a game under ctl, both at the base time,
// neither running.
func New(ctl Control) Clock {
	b := ctl.BaseMS()
	return Clock{ctl: ctl, rem: [2]int64{b, b}, run: NoPlayer, flag: NoPlayer, fresh: true, maxGap: DefaultMaxGapMS}
}

// SetMaxGap sets the longest frame gap that is charged (DefaultMaxGapMS).
func (c *Clock) SetMaxGap(ms int64) {
	if ms > 0 {
		c.maxGap = ms
	}
}

// Control returns the time control.
func (c *Clock) Control() Control { return c.ctl }

// charge charges the runner up to t.
func (c *Clock) charge(t int64) {
	if c.fresh {
		c.since, c.last, c.fresh = t, t, false
		return
	}
	if d := t - c.since; d > 0 {
		if c.run != NoPlayer && !c.paused && c.flag == NoPlayer {
			c.rem[c.run] -= d
			c.used[c.run] += d
		}
		c.since = t
	}
	c.last = max(c.last, t)
}

// Tick is the frame at time t: the runner is charged up to it, except a
// gap since the last frame longer than the maximum gap (the board was
// offline). It returns the player whose flag fell at this frame (their
// time reached zero), or NoPlayer; after a flag fall the clocks stop. It
// allocates nothing.
func (c *Clock) Tick(t int64) int {
	if c.fresh {
		c.since, c.last, c.fresh = t, t, false
		return NoPlayer
	}
	if t-c.last > c.maxGap {
		c.charge(c.last)
		c.since = t // the gap is not charged
	}
	c.last = t
	c.charge(t)
	if c.run == NoPlayer || c.paused || c.flag != NoPlayer || !c.ctl.Timed() || c.rem[c.run] > 0 {
		return NoPlayer
	}
	c.rem[c.run] = 0
	c.flag = c.run
	return c.flag
}

// Start runs player's clock from t (the game begins, or the board has
// been set up). Any clock running before is charged up to t.
func (c *Clock) Start(t int64, player int) {
	c.charge(t)
	c.run = player & 1
}

// Running returns the player whose clock runs, or NoPlayer while none
// does (not started, paused, stopped or flag fallen).
func (c *Clock) Running() int {
	if c.paused || c.flag != NoPlayer {
		return NoPlayer
	}
	return c.run
}

// Started reports whether a clock has been started.
func (c *Clock) Started() bool { return c.run != NoPlayer }

// Runner returns the player whose clock runs, or would run but for a
// pause; NoPlayer if none has started.
func (c *Clock) Runner() int { return c.run }

// Switch moves the running clock to player at t without an increment: the
// time from t on is theirs (e.g. the player who made an illegal board
// while it is being fixed). A paused clock stays paused; it resumes with
// player's clock.
func (c *Clock) Switch(t int64, player int) {
	c.charge(t)
	if c.run != NoPlayer {
		c.run = player & 1
	}
}

// Commit is mover's turn committed at t: the runner is charged up to t,
// the mover gets the increment, and the opponent's clock runs. It returns
// the time charged to the mover for this turn (since their previous
// commit or the game's start; time charged to the opponent meanwhile, an
// illegal board of theirs, is not in it). A paused clock stays paused.
// After a flag fall it changes nothing but still reports the time used.
func (c *Clock) Commit(t int64, mover int) int64 {
	mover &= 1
	c.charge(t)
	used := c.used[mover]
	c.used = [2]int64{}
	if c.flag != NoPlayer {
		return used
	}
	if c.ctl.Kind == Fischer {
		c.rem[mover] += c.ctl.IncMS()
	}
	c.run = 1 - mover
	return used
}

// TakeBack is player taking back their own last turn at t, a turn that
// had used turnUsed: the time since its commit, charged to the opponent
// meanwhile, is the player's after all, the increment the commit earned
// is returned, and the turn's time goes on from turnUsed, the player's
// clock running.
func (c *Clock) TakeBack(t int64, player int, turnUsed int64) {
	player &= 1
	c.charge(t)
	opp := 1 - player
	d := c.used[opp]
	c.rem[opp] += d
	c.rem[player] -= d
	if c.ctl.Kind == Fischer && c.flag == NoPlayer {
		c.rem[player] -= c.ctl.IncMS()
	}
	c.used = [2]int64{}
	c.used[player] = turnUsed + d
	if c.run != NoPlayer {
		c.run = player
	}
}

// Pause stops both clocks at t (the arbiter's pause). It reports false if
// they are already paused or stopped.
func (c *Clock) Pause(t int64) bool {
	if c.paused || c.flag != NoPlayer {
		return false
	}
	c.charge(t)
	c.paused = true
	return true
}

// Resume restarts the clocks at t, player's running (unless none has been
// started: then Start starts one). It reports false if they were not
// paused.
func (c *Clock) Resume(t int64, player int) bool {
	if !c.paused {
		return false
	}
	c.charge(t)
	c.paused = false
	if c.run != NoPlayer { // a clock not started yet waits for Start
		c.run = player & 1
	}
	return true
}

// Paused reports whether the arbiter paused the clocks.
func (c *Clock) Paused() bool { return c.paused }

// Add gives player ms more time at t. ms must be 1 to MaxAddMS, and a
// fallen flag cannot be raised again: it reports false then.
func (c *Clock) Add(t int64, player int, ms int64) bool {
	if ms < 1 || ms > MaxAddMS || c.flag != NoPlayer {
		return false
	}
	c.charge(t)
	c.rem[player&1] += ms
	return true
}

// Stop stops the clocks for good at t (the game ended).
func (c *Clock) Stop(t int64) {
	c.charge(t)
	c.run = NoPlayer
}

// Flagged returns the player whose flag fell, or NoPlayer.
func (c *Clock) Flagged() int { return c.flag }

// Remaining returns both players' times at t (no earlier than the last
// Tick), without charging anything: what a viewer should see at t.
func (c *Clock) Remaining(t int64) [2]int64 {
	r := c.rem
	if !c.fresh && c.Running() != NoPlayer && t > c.since {
		r[c.run] -= t - c.since
		if c.ctl.Timed() && r[c.run] < 0 {
			r[c.run] = 0
		}
	}
	return r
}

// State is the clocks as they are written down (in the journal) and read
// back: enough to go on after a restart.
type State struct {
	Remaining [2]int64
	Running   int // the runner (as Runner): NoPlayer if not started or stopped
	Paused    bool
	Flag      int      // the player whose flag fell, or NoPlayer
	Used      [2]int64 // charged since the current turn began
}

// State returns the clocks at t.
func (c *Clock) State(t int64) State {
	c.charge(t)
	return State{Remaining: c.rem, Running: c.run, Paused: c.paused, Flag: c.flag, Used: c.used}
}

// Restore returns the clocks of s under ctl. Nothing is charged until the
// next Tick: the time before it (the process was down) is nobody's.
func Restore(ctl Control, s State) Clock {
	c := New(ctl)
	c.rem, c.paused, c.used = s.Remaining, s.Paused, s.Used
	c.run, c.flag = NoPlayer, NoPlayer
	if s.Running == 0 || s.Running == 1 {
		c.run = s.Running
	}
	if s.Flag == 0 || s.Flag == 1 {
		c.flag = s.Flag
	}
	return c
}

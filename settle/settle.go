// Package settle turns the frames a board's sensors give, one per scan,
// into settled observations: boards that held still long enough to count.
// It is the one place that decides when a board has settled; the referee,
// the controller's sensor confirmation and the simulated players all take
// the setting, its range and the rule from here.
//
// A frame is one character per cell in board order ('.', 'o', 'w', 'g',
// 'b', '?'). An observation counts once it has held for the settle time
// and for at least MinScans frames, so that a one- or two-scan glitch
// never counts however slow the scan. Frames that stray from the settling
// board for no longer than the glitch window and come back do not restart
// its clock.
//
// A cell that reads '?' for longer than the unknown time (a second) no
// longer holds boards back: they count with that cell unknown, so that one
// dead socket never stops the game. After the dead time (five seconds) it
// is a dead sensor (a failed Hall sensor, a loose wire, a hand resting on
// the board), for the caller to report. It is alive again at its first
// readable frame.
//
// The package is pure: time arrives with each frame, in milliseconds.
//
// It imports only the standard library.
// Layer: game. May import: base, game.
package settle

import "fmt"

// The settle time's default and range, in milliseconds. At a 100–200 Hz
// scan the default is 10–20 scans: five to ten times the one- or two-scan
// glitches that must never count, and well under the quarter second in
// which players expect a verdict (DGT boards report in about 200 ms).
const (
	DefaultMS = 100
	MinMS     = 30
	MaxMS     = 2000
)

// DefaultGlitchMS is how long the frames may differ from a settling board
// and come back without restarting its clock: one- and two-scan glitches
// last 5 to 20 ms at 100–200 Hz. It must be shorter than the settle time.
const DefaultGlitchMS = 25

// MinScans is how many frames in a row must show a board for it to count,
// whatever the settle time: at 10 scans a second a two-scan glitch lasts
// 200 ms, longer than the settle time.
const MinScans = 3

// DefaultUnknownMS is how long a cell must read '?' without a break for
// boards to count with that cell unknown. A hand passing over a socket
// hides it for a fraction of a second; a board whose other cells held
// still meanwhile is read without it rather than waited for, so that the
// game goes on while a sensor dies.
const DefaultUnknownMS = 1000

// DefaultDeadMS is how long a cell must read '?' without a break to be
// reported as a dead sensor. A hand resting over a socket for seconds is
// rare, and costs nothing but a report that clears when the hand moves.
const DefaultDeadMS = 5000

// Check says why a settle time in milliseconds is out of range, or nil.
func Check(ms int64) error {
	if ms < MinMS || ms > MaxMS {
		return fmt.Errorf("settle time %d ms: want %d to %d ms (above the %d ms glitch window, so that one- and two-scan glitches never count, and under %d ms, so verdicts come while the players watch)", ms, MinMS, MaxMS, DefaultGlitchMS, MaxMS)
	}
	return nil
}

// HoldMS is how long a board must stay on the sensors for a stage
// scanning every scanMS to see it settled: the settle time or MinScans
// frames, whichever is longer, and one frame more. Simulated players hold
// every board they mean the referee to see at least this long.
func HoldMS(settleMS, scanMS int64) int64 {
	return max(settleMS, (MinScans-1)*scanMS) + scanMS
}

// Config sets up a stage. Zero values take the defaults.
type Config struct {
	SettleMS  int64
	GlitchMS  int64
	UnknownMS int64
	DeadMS    int64
}

// Observation is a settled board.
type Observation struct {
	// Cells is the board, one frame-log character per cell; a dead
	// sensor's cell reads '?'.
	Cells string
	// Since is when the board began to show, HeldMS how long it had held
	// when it settled.
	Since, HeldMS int64
	// Unknown lists the cells that have read '?' for longer than the
	// unknown time: their sensors may be dead.
	Unknown []int
	// Transients are the cells that changed between the last settled
	// board and this one without settling, and what each showed (in the
	// order seen, without repeats), '?' excepted.
	Transients []Transient
}

// Transient is what one cell showed between two settled boards.
type Transient struct {
	Cell   int
	Showed string
}

// Stage settles frames. It is not safe for concurrent use.
type Stage struct {
	settle, glitch, unknown, dead int64

	cand      string // the board settling
	candSince int64
	candScans int
	candDone  bool // reported, or found unusable
	away      int64
	dev       string
	devSince  int64
	devScans  int
	settled   string // the board reported last
	lastT     int64

	unread []int64 // per cell: when it began to read '?', or -1
	trans  [][]byte
}

// New starts a stage for boards of n cells.
func New(n int, cfg Config) (*Stage, error) {
	s := &Stage{settle: cfg.SettleMS, glitch: cfg.GlitchMS, unknown: cfg.UnknownMS, dead: cfg.DeadMS, away: -1, lastT: -1 << 62}
	if s.unknown == 0 {
		s.unknown = DefaultUnknownMS
	}
	if s.settle == 0 {
		s.settle = DefaultMS
	}
	if s.glitch == 0 {
		s.glitch = DefaultGlitchMS
	}
	if s.dead == 0 {
		s.dead = DefaultDeadMS
	}
	if s.settle < 0 {
		return nil, fmt.Errorf("settle: settle time %d ms is negative", s.settle)
	}
	if s.glitch < 0 || s.glitch >= s.settle {
		return nil, fmt.Errorf("settle: glitch window %d ms must be positive and shorter than the settle time %d ms", s.glitch, s.settle)
	}
	if s.unknown <= s.settle || s.dead < s.unknown {
		return nil, fmt.Errorf("settle: unknown time %d ms must be longer than the settle time %d ms, and the dead-sensor time %d ms no shorter", s.unknown, s.settle, s.dead)
	}
	s.unread = make([]int64, n)
	for i := range s.unread {
		s.unread[i] = -1
	}
	s.trans = make([][]byte, n)
	return s, nil
}

// SettleMS returns the stage's settle time.
func (s *Stage) SettleMS() int64 { return s.settle }

// Settling returns the board settling now and since when it showed.
func (s *Stage) Settling() (string, int64) { return s.cand, s.candSince }

// Reset forgets the settled board, so that the board now on the sensors
// is reported again once it holds.
func (s *Stage) Reset() {
	s.settled = ""
	s.candDone = false
}

// Push takes one frame: t in milliseconds, never decreasing, and cells of
// the stage's length (the caller checks both). It returns the observation
// the frame settles, if any. A frame that repeats the last costs a string
// comparison and allocates nothing.
func (s *Stage) Push(t int64, cells string) (Observation, bool) {
	s.lastT = t
	if cells != s.cand {
		s.note(t, cells)
		if s.away < 0 {
			s.away = t
		}
		if cells != s.dev {
			s.dev, s.devSince, s.devScans = cells, t, 0
		}
		s.devScans++
		if t-s.away < s.glitch {
			return Observation{}, false // perhaps a glitch
		}
		s.cand, s.candSince, s.candScans, s.candDone, s.away = s.dev, s.devSince, s.devScans, false, -1
	} else {
		if s.away >= 0 {
			s.note(t, cells) // back from an excursion: the cells read again
		}
		s.away = -1
		s.candScans++
	}
	if s.candDone || t-s.candSince < s.settle || s.candScans < MinScans {
		return Observation{}, false
	}
	unknown, ok := s.usable(t)
	if !ok {
		return Observation{}, false
	}
	s.candDone = true
	if s.cand == s.settled {
		return Observation{}, false // back after a glitch: nothing new
	}
	obs := Observation{Cells: s.cand, Since: s.candSince, HeldMS: t - s.candSince, Unknown: unknown, Transients: s.transients()}
	s.settled = s.cand
	return obs, true
}

// note follows each cell's unreadable time and what it showed since the
// last settled board.
func (s *Stage) note(t int64, cells string) {
	for i := 0; i < len(cells) && i < len(s.unread); i++ {
		c := cells[i]
		if c == '?' {
			if s.unread[i] < 0 {
				s.unread[i] = t
			}
			continue
		}
		s.unread[i] = -1
		if len(s.settled) == len(cells) && c != s.settled[i] {
			tr := s.trans[i]
			if len(tr) == 0 || tr[len(tr)-1] != c {
				if len(tr) < 8 { // bounded: a cell shows at most five things
					s.trans[i] = append(tr, c)
				}
			}
		}
	}
}

// usable reports whether the settling board can count: every '?' in it
// has read so for longer than the unknown time. It returns those cells.
func (s *Stage) usable(t int64) ([]int, bool) {
	var unknown []int
	for i := 0; i < len(s.cand); i++ {
		if s.cand[i] != '?' {
			continue
		}
		if s.unread[i] < 0 || t-s.unread[i] < s.unknown {
			return nil, false
		}
		unknown = append(unknown, i)
	}
	return unknown, true
}

// Dead returns the cells whose sensors have read '?' for longer than the
// dead-sensor time, as of the latest frame.
func (s *Stage) Dead() []int {
	var out []int
	for i, since := range s.unread {
		if since >= 0 && s.lastT-since >= s.dead {
			out = append(out, i)
		}
	}
	return out
}

func (s *Stage) transients() []Transient {
	var out []Transient
	for i, tr := range s.trans {
		if len(tr) > 0 {
			out = append(out, Transient{Cell: i, Showed: string(tr)})
			s.trans[i] = tr[:0]
		}
	}
	return out
}

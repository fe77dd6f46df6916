// Package clock keeps a game's two clocks the way a chess clock does, but
// driven by the board: the controller tells it the time of every frame and
// of every committed turn, in milliseconds, and the clock never reads the
// wall clock itself. It is pure (it imports only engine, for the flag-fall
// rule) and allocation-free on the per-frame Tick.
//
// A Control is the time control: none, sudden death (a base time for the
// whole game) or Fischer (a base time plus an increment added to the
// mover's clock after each of their turns). Its text form is the one of
// the configuration, the new-game command and state.clock.control:
//
//	none
//	sudden:25m
//	fischer:20m+10s
//	fischer:1h30m+30s
//
// Layer: game. May import: base, game.
package clock

import (
	"fmt"
	"strings"
	"time"
)

// Kind is the kind of time control.
type Kind uint8

// The kinds of time control.
const (
	None    Kind = iota // no clocks: times are only recorded
	Sudden              // sudden death: a base time for the whole game
	Fischer             // a base time plus an increment after every own turn
)

// Limits of a Control.
const (
	MinBase = 10 * time.Second
	MaxBase = 6 * time.Hour
	MaxInc  = 10 * time.Minute
)

// Control is a time control. The zero Control is None.
type Control struct {
	Kind Kind
	Base time.Duration // Sudden and Fischer: each player's time at the start
	Inc  time.Duration // Fischer: added to the mover's clock after their turn
}

// BaseMS is the base time in milliseconds.
func (c Control) BaseMS() int64 { return c.Base.Milliseconds() }

// IncMS is the increment in milliseconds (0 unless Fischer).
func (c Control) IncMS() int64 {
	if c.Kind != Fischer {
		return 0
	}
	return c.Inc.Milliseconds()
}

// Timed reports whether the control has clocks that can run out.
func (c Control) Timed() bool { return c.Kind != None }

// ParseError is a time control that Parse refuses.
type ParseError struct {
	Input string
	Msg   string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("clock: time control %q: %s (want none, sudden:DUR or fischer:DUR+INC, e.g. sudden:25m or fischer:20m+10s)", clip(e.Input), e.Msg)
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// Parse reads a time control: "none", "sudden:DUR" or "fischer:DUR+INC",
// DUR and INC in Go's duration syntax restricted to whole hours, minutes
// and seconds (e.g. 25m, 1h30m, 90s). The base time is 10s to 6h, the
// increment 0 to 10m.
func Parse(s string) (Control, error) {
	fail := func(msg string) (Control, error) { return Control{}, &ParseError{Input: s, Msg: msg} }
	if s == "none" {
		return Control{}, nil
	}
	kind, rest, ok := strings.Cut(s, ":")
	if !ok {
		return fail("no kind")
	}
	var c Control
	switch kind {
	case "sudden":
		c.Kind = Sudden
	case "fischer":
		c.Kind = Fischer
		var inc string
		rest, inc, ok = strings.Cut(rest, "+")
		if !ok {
			return fail("fischer needs an increment: fischer:DUR+INC")
		}
		d, err := parseDur(inc)
		if err != "" {
			return fail("increment " + err)
		}
		if d > MaxInc {
			return fail("the increment is more than " + Format(MaxInc))
		}
		c.Inc = d
	default:
		return fail("unknown kind")
	}
	d, err := parseDur(rest)
	if err != "" {
		return fail("base time " + err)
	}
	if d < MinBase || d > MaxBase {
		return fail(fmt.Sprintf("the base time must be %s to %s", Format(MinBase), Format(MaxBase)))
	}
	c.Base = d
	return c, nil
}

// parseDur reads whole hours, minutes and seconds, e.g. "1h30m", "45s",
// "0s". It returns the reason for refusing s, "" if it is good.
func parseDur(s string) (time.Duration, string) {
	if s == "" {
		return 0, "is empty"
	}
	var d time.Duration
	last := byte(0)
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i > 5 || i == len(s) {
			return 0, "is not a duration of h, m and s such as 1h30m"
		}
		n := 0
		for _, ch := range s[:i] {
			n = n*10 + int(ch-'0')
		}
		u := s[i]
		var unit time.Duration
		switch {
		case u == 'h' && last == 0:
			unit = time.Hour
		case u == 'm' && (last == 0 || last == 'h') && !(i+1 < len(s) && s[i+1] == 's'):
			unit = time.Minute
		case u == 's' && last != 's':
			unit = time.Second
		default:
			return 0, "is not a duration of h, m and s such as 1h30m"
		}
		last = u
		d += time.Duration(n) * unit
		if d > 100*time.Hour {
			return 0, "is too long"
		}
		s = s[i+1:]
	}
	return d, ""
}

// String is the canonical text form, which Parse reads back.
func (c Control) String() string {
	switch c.Kind {
	case Sudden:
		return "sudden:" + Format(c.Base)
	case Fischer:
		return "fischer:" + Format(c.Base) + "+" + Format(c.Inc)
	}
	return "none"
}

// MarshalText writes String.
func (c Control) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads what Parse reads.
func (c *Control) UnmarshalText(b []byte) error {
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// Format writes a whole number of seconds as time.Duration.String does,
// without the zero units: 25m, 1h30m, 1h, 1h0m30s is 1h30s; zero is 0s.
// Parts of a second are dropped.
func Format(d time.Duration) string {
	if d < time.Second {
		return "0s"
	}
	s := int64(d / time.Second)
	h, m, sec := s/3600, s/60%60, s%60
	var b []byte
	if h > 0 {
		b = fmt.Appendf(b, "%dh", h)
	}
	if m > 0 {
		b = fmt.Appendf(b, "%dm", m)
	}
	if sec > 0 {
		b = fmt.Appendf(b, "%ds", sec)
	}
	return string(b)
}

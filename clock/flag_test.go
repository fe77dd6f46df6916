package clock

import (
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

func TestCanWin(t *testing.T) {
	cases := []struct {
		pos  string
		want [2]bool
		why  string
	}{
		// The last position before the full-board ending of
		// 002_U_Z-guest-guest-2011-04-12-2057.sgf (docs/RULES.md): the pool
		// is empty; player 0 can still make 4 white (2 captured + 2 on the
		// board), player 1 6 black (4 + 4 on the board).
		{"37 ..../..w../...b../.b.gb../bowo../g.g../.... 0,0,0 2,3,2 2,2,4 1", [2]bool{true, true}, "real game, late"},
		{"37 oooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 6,8,10 0,0,0 0,0,0 0", [2]bool{true, true}, "the start"},
		// Player 1 holds 3 white, 4 grey and 5 black (3 of each: a win):
		// player 0 can still make 3 of each from the rest.
		{"37 oooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 3,4,5 0,0,0 3,4,5 0", [2]bool{true, true}, "3 of each left"},
		// Player 1 holds 4 white, 4 grey and 5 black (4 white: a win):
		// player 0 can no longer make any set (2 white left, so not 3 of
		// each either). Only a player holding a set can shut the other
		// out (TestFlagFallAlwaysLosesWithRulebookSets).
		{"37 oooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 2,4,5 0,0,0 4,4,5 0", [2]bool{false, true}, "shut out"},
		// Blitz: player 0 holds 3 white; player 1 can make neither 3 white
		// (2 left) nor 2 of each... but 4 grey and 5 black remain.
		{"37b oooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 2,7,9 3,0,0 0,0,0 1", [2]bool{true, true}, "blitz"},
	}
	for _, tc := range cases {
		p, err := engine.ParsePosition(tc.pos)
		if err != nil {
			t.Fatalf("%s: %v", tc.why, err)
		}
		for pl := 0; pl < 2; pl++ {
			if got := CanWin(p, pl); got != tc.want[pl] {
				t.Errorf("%s: CanWin(%q, %d) = %v; want %v", tc.why, tc.pos, pl, got, tc.want[pl])
			}
		}
	}
}

// With the rulebook's sets (standard and blitz), a player can stop the
// opponent from completing a set only by holding a winning set: so while a
// game is on, the opponent of a fallen flag can always still win, and a
// flag fall always loses. This checks every split of the marbles.
func TestFlagFallAlwaysLosesWithRulebookSets(t *testing.T) {
	for _, r := range []*engine.Rules{engine.Standard, engine.Blitz} {
		n := 0
		for w := 0; w <= r.Pool[0]; w++ {
			for g := 0; g <= r.Pool[1]; g++ {
				for b := 0; b <= r.Pool[2]; b++ {
					flagged := [3]int{w, g, b}
					if won(r, flagged) {
						continue
					}
					n++
					// The opponent's chances: everything the flagged
					// player does not hold (in the pool, on the board or
					// captured by the opponent: CanWin counts them alike).
					p := positionWith(t, r, flagged)
					if !CanWin(p, 0) {
						t.Errorf("%s: player 1 holds %v without a set, yet player 0 could not win", r.Name, flagged)
					}
				}
			}
		}
		if n == 0 {
			t.Fatalf("%s: no split checked", r.Name)
		}
	}
}

func won(r *engine.Rules, c [3]int) bool {
	each := true
	for i := range c {
		if c[i] >= r.Win[i] {
			return true
		}
		each = each && c[i] >= r.WinEach
	}
	return each
}

// positionWith is the start position on 37 rings but with player 1
// holding caps (taken from the pool).
func positionWith(t *testing.T, r *engine.Rules, caps [3]int) engine.Position {
	t.Helper()
	v := "37"
	if r == engine.Blitz {
		v = "37b"
	}
	var s []byte
	s = append(s, v...)
	s = append(s, " oooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo "...)
	for i := range 3 {
		if i > 0 {
			s = append(s, ',')
		}
		s = appendInt(s, r.Pool[i]-caps[i])
	}
	s = append(s, " 0,0,0 "...)
	for i := range 3 {
		if i > 0 {
			s = append(s, ',')
		}
		s = appendInt(s, caps[i])
	}
	s = append(s, " 0"...)
	p, err := engine.ParsePosition(string(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return p
}

func appendInt(b []byte, n int) []byte {
	if n >= 10 {
		b = append(b, byte('0'+n/10))
	}
	return append(b, byte('0'+n%10))
}

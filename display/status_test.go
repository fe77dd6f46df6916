package display

import (
	"reflect"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Status
		want []string
	}{
		{"no game", Status{ToMove: -1}, []string{
			"no game",
			" P0       w0 g0 b0",
			" P1       w0 g0 b0",
			"",
			"",
		}},
		{"mid game", Status{ToMove: 1, Players: [2]string{"Alice", "Bob"}, Captures: [2][3]int{{1, 2, 0}, {0, 0, 3}}, Line: "remove a free ring"}, []string{
			"Bob to move",
			" Alice    w1 g2 b0",
			">Bob      w0 g0 b3",
			"remove a free ring",
			"",
		}},
		{"faults and long names", Status{ToMove: 0, Players: [2]string{"Maximilian-Alexander", "Zoë"}, Faults: []string{"E5: drifting", "A3: saturated"}}, []string{
			"Maximilian to move",
			">Maximili w0 g0 b0",
			" Zoë      w0 g0 b0",
			"",
			"!2 E5: drifting",
		}},
		{"clocks", Status{ToMove: 1, Players: [2]string{"Alice", "Bob"}, Clock: &Clock{Remaining: [2]int64{1500_000, 59_001}, Running: 1}}, []string{
			"25:00    >    1:00",
			" Alice    w0 g0 b0",
			">Bob      w0 g0 b0",
			"",
			"",
		}},
		{"long clocks, paused", Status{ToMove: 0, Clock: &Clock{Remaining: [2]int64{21_600_000, 35_999_000}, Running: -1, Paused: true}}, []string{
			"6:00:00 || 9:59:59",
			">P0       w0 g0 b0",
			" P1       w0 g0 b0",
			"",
			"",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := StatusLines(tc.s, 18); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("StatusLines(%+v, 18) =\n%q\nwant\n%q", tc.s, got, tc.want)
			}
		})
	}
}

func TestClockText(t *testing.T) {
	for ms, want := range map[int64]string{0: "0:00", -5: "0:00", 1: "0:01", 999: "0:01", 1000: "0:01", 1001: "0:02", 59_999: "1:00",
		600_000: "10:00", 3_599_001: "1:00:00", 3_600_000: "1:00:00", 21_600_000: "6:00:00", 5_025_000: "1:23:45"} {
		if got := ClockText(ms); got != want {
			t.Errorf("ClockText(%d) = %q; want %q", ms, got, want)
		}
	}
	// Every clock line fits the screen, for times up to 6 h plus an hour
	// added twice, running, paused or stopped.
	for _, a := range []int64{0, 9_000, 599_000, 3_600_000, 28_800_000} {
		for _, b := range []int64{0, 61_000, 36_000_000} {
			for _, c := range []Clock{{Running: 0}, {Running: 1}, {Running: -1}, {Running: -1, Paused: true}} {
				c.Remaining = [2]int64{a, b}
				if l := clockLine(i18n.EN, c, 18); len(l) != 18 || (c.Paused && !strings.Contains(l, "|") && !strings.Contains(l, "PAUSE")) {
					t.Errorf("clockLine(%+v) = %q", c, l)
				}
			}
		}
	}
}

// The state's clocks reach the screen and the terminal view.
func TestClockFromState(t *testing.T) {
	rem, run := [2]int64{61_000, 1_500_000}, 0
	s := wire.State{ToMove: 0, Phase: "place", Cells: strings.Repeat("o", 37), Clock: wire.Clock{Control: "sudden:25m", Remaining: &rem, Running: &run}}
	st := ScreenStatus(s, referee.Guidance{}, nil)
	if st.Clock == nil || st.Clock.Remaining != rem || st.Clock.Running != 0 {
		t.Fatalf("screen clock %+v", st.Clock)
	}
	if l := StatusLines(st, 18)[0]; l != "1:01    <    25:00" {
		t.Errorf("top line %q", l)
	}
	term := Terminal(s, engine.MustStandardBoard("37"), referee.Guidance{})
	if !strings.Contains(term, "clock sudden:25m  1:01") || !strings.Contains(term, "25:00") {
		t.Errorf("terminal view:\n%s", term)
	}
	s.Clock = wire.Clock{Control: "none"}
	if ScreenStatus(s, referee.Guidance{}, nil).Clock != nil || strings.Contains(Terminal(s, engine.MustStandardBoard("37"), referee.Guidance{}), "clock") {
		t.Error("a game without a time control shows clocks")
	}
}

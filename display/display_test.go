package display

import (
	"image/color"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

func TestBoard(t *testing.T) {
	b := engine.MustStandardBoard("37")
	p := engine.NewPosition(b, engine.Standard, 0)
	got := Board(b, p.Cells(), nil)
	lines := strings.Split(strings.TrimRight(got, "\n"), "\n")
	if len(lines) != 14 || strings.TrimSpace(lines[0]) != "o" || strings.Count(got, "o") != 37 || lines[13] != "    A   B   C   D   E   F   G" {
		t.Errorf("Board:\n%s", got)
	}
	hints := make([]referee.Hint, b.Len())
	d4, _ := b.ParseCell("D4")
	hints[d4] = referee.Hint{Role: referee.RoleWrong}
	if got := Board(b, p.Cells(), hints); !strings.Contains(got, "!o!") {
		t.Errorf("D4 should be marked wrong:\n%s", got)
	}
}

func TestLEDColors(t *testing.T) {
	hints := []referee.Hint{{Role: referee.RoleFreeRing}, {Role: referee.RoleWrong}, {}}
	sockets := []engine.Cell{4, 0, 2} // game cell i sits on base socket sockets[i]
	got := LEDColors(nil, 6, sockets, referee.Guidance{Hints: hints}, nil)
	want := []color.NRGBA{DefaultPalette[referee.RoleWrong], {0, 0, 0, 255}, {0, 0, 0, 255}, {0, 0, 0, 255}, DefaultPalette[referee.RoleFreeRing], {0, 0, 0, 255}}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("socket %d: %v; want %v", i, got[i], want[i])
		}
	}
}

func TestScreenStatus(t *testing.T) {
	s := wire.State{ToMove: 1, Players: [2]string{"ann", "bob"}, Captures: [2]wire.Counts{{White: 1}, {Black: 2}}, Phase: "place"}
	st := ScreenStatus(s, referee.Guidance{Status: "P1 to move"}, []string{"E5 stuck"})
	if st.ToMove != 1 || st.Captures[1][2] != 2 || st.Line != "P1 to move" || st.Faults[0] != "E5 stuck" {
		t.Errorf("status %+v", st)
	}
	s.Phase = "over"
	if ScreenStatus(s, referee.Guidance{}, nil).ToMove != -1 {
		t.Error("a finished game should show no player to move")
	}
}

// TestRenderBoard checks the drawing against the board's shape: 37 rings
// in columns of 4 5 6 7 6 5 4, D4 in the very middle.
func TestRenderBoard(t *testing.T) {
	b := engine.MustStandardBoard("37")
	start := engine.NewPosition(b, engine.Standard, 0)
	d4, _ := b.ParseCell("D4")
	a1, _ := b.ParseCell("A1")
	p := start.MustPlay(engine.PlaceTurn(engine.Black, engine.FromPool, d4, a1))
	lines := strings.Split(strings.TrimSuffix(Board(p.Board(), p.Cells(), nil), "\n"), "\n")
	if len(lines) != 14 { // y runs 0..12, then the letters
		t.Fatalf("%d lines; want 14:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	if got := strings.Join(strings.Fields(lines[13]), ""); got != "ABCDEFG" {
		t.Errorf("letters line = %q", lines[13])
	}
	all := strings.Join(lines[:13], "\n")
	if n := strings.Count(all, "o"); n != 35 {
		t.Errorf("%d vacant rings drawn; want 35", n)
	}
	mid := lines[6]
	if !strings.Contains(mid, "b") {
		t.Errorf("middle line %q does not hold the black marble on D4", mid)
	}
	if col := strings.IndexByte(mid, 'b'); col != strings.IndexByte(lines[13], 'D') {
		t.Errorf("black marble at text column %d; want under D (%d)", col, strings.IndexByte(lines[13], 'D'))
	}
	// A1 is the lowest ring of column A: four lines above the bottom.
	if got := lines[12-3]; strings.TrimSpace(got)[0] != '.' {
		t.Errorf("A1's line %q should start with the removed ring '.'", got)
	}
}

// TestTerminalIn: the terminal view says the pool, the turn and the
// referee's status in its language; English is as it always was.
func TestTerminalIn(t *testing.T) {
	b := engine.MustStandardBoard("37")
	p := engine.NewPosition(b, engine.Standard, 0)
	s := wire.State{Cells: p.Cells(), Pool: wire.Counts{White: 6, Grey: 8, Black: 10}, Players: [2]string{"Ann", ""}, Turn: 3}
	g := referee.Guidance{Status: "P1 to move: place a marble, then remove a free ring",
		Parts: []referee.Message{referee.Msg("guide.to-move", referee.Msg("guide.player", 1), referee.Msg("guide.place-and-remove"))}}
	for _, tc := range []struct {
		l    i18n.Lang
		want string
	}{
		{i18n.EN, "pool 6w 8g 10b | Ann 0w 0g 0b | P1 0w 0g 0b\nturn 3 · P1 to move: place a marble, then remove a free ring\n"},
		{i18n.RU, "запас 6б 8с 10ч | Ann 0б 0с 0ч | И1 0б 0с 0ч\nход 3 · Ходит И1: поставьте шарик, затем снимите свободное кольцо\n"},
	} {
		got := TerminalIn(tc.l, s, b, g)
		if !strings.HasSuffix(got, tc.want) {
			t.Errorf("TerminalIn(%s) ends\n%q\nwant\n%q", tc.l, got[strings.LastIndex(got[:len(got)-1], "\n")-60:], tc.want)
		}
	}
	if Terminal(s, b, g) != TerminalIn(i18n.EN, s, b, g) {
		t.Error("Terminal is not TerminalIn English")
	}
}

package display

import (
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/record"
)

func TestGame(t *testing.T) {
	rec, err := record.ReadJSON(strings.NewReader(`{"format": "zertzboard-record", "version": 1, "variant": "37", "first": 1,
		"players": ["ann", "bob"], "turns": ["WD4-D1", "BE2-B5", "GE5-C6", "BD7-C5", "BF2-B4", "E2xG2"]}`))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	Game(&b, rec, rep.Game)
	s := b.String()
	for _, want := range []string{
		"start (37 rings, P1 bob moves first)\n",
		"\nturn 1 (P1 bob): WD4-D1\n",
		"\nturn 2 (P0 ann): BE2-B5\n",
		"\nturn 6 (P0 ann): E2xG2\n",
		"pool 6w 8g 10b | P0 ann 0w 0g 0b | P1 bob 0w 0g 0b\n", // the start
		"pool 5w 7g 7b | P0 ann 0w 0g 1b | P1 bob 0w 0g 0b\n",  // after the capture
	} {
		if !strings.Contains(s, want) {
			t.Errorf("Game lacks %q:\n%s", want, s)
		}
	}
	if n := strings.Count(s, "\npool "); n != 7 {
		t.Errorf("%d positions drawn; want the start and 6 turns' (7)", n)
	}
	if strings.Contains(s, "game over") {
		t.Errorf("an unfinished game drawn as over:\n%s", s)
	}
}

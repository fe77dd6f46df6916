package record

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// game wraps move nodes in a 37-ring root and the closing clock node.
func game(moves string) string {
	return "(;\nGM[22] VV[2]\nSU[Zertz]\nP0[id \"ann\"]\nP1[id \"bob\"]\n" + moves + "\n;\nP0[time 0:01:00 ]\nP1[time 0:02:00 ]\n)\n"
}

func notation(rec *Record) []string {
	b, _, err := rec.Board()
	if err != nil {
		return nil
	}
	out := []string{}
	for _, t := range rec.Turns {
		out = append(out, engine.FormatTurn(b, t))
	}
	return out
}

// TestReadSGFActions checks how UI actions become turns. The expected
// turns follow from the dialect described in the sample README.
func TestReadSGFActions(t *testing.T) {
	tests := []struct {
		name  string
		sgf   string
		first int
		turns []string
		undos int
		stop  Stop
	}{
		{"VV[1] without numbers or Done: the other player acting ends a turn",
			game(";P0[RtoB 2 0 D 4];P0[R- A 1];P1[RtoB 2 2 E 2];P1[R- G 1]"),
			0, []string{"WD4-A1", "BE2-G1"}, 0, Stop{}},
		{"removal before placement, lower-case commands",
			game(";P0[0 Start P0];P0[1 r- A 1];P0[2 rtob 2 1 D 4];P0[3 done ]"),
			0, []string{"GD4-A1"}, 0, Stop{}},
		{"no Start: the first to act moves first",
			game(";P1[0 RtoB 2 0 E 4];P1[1 R- B 5]"),
			1, []string{"WE4-B5"}, 0, Stop{}},
		{"Start P1",
			game(";P0[0 Start P1];P1[1 RtoB 2 2 C 3];P1[2 R- A 4];P1[3 Done]"),
			1, []string{"BC3-A4"}, 0, Stop{}},
		{"P-1 is viewer noise",
			game(";P-1[0 Start P1];P0[1 RtoB 2 0 D 4];P0[2 R- A 1];P0[3 Done]"),
			0, []string{"WD4-A1"}, 0, Stop{}},
		{"placement without a removal",
			game(";P0[1 RtoB 2 0 D 4];P0[2 Done];P1[3 RtoB 2 1 D 5];P1[4 Done]"),
			0, []string{"WD4", "GD5"}, 0, Stop{}},
		{"marble from own captures: rack = the player",
			game(";P0[1 RtoB 2 0 D 4];P0[2 Done];P1[3 RtoB 1 2 D 5];P1[4 R- A 1];P1[5 Done]"),
			0, []string{"WD4", "*BD5-A1"}, 0, Stop{}},
		{"an unconfirmed marble moved elsewhere is a reposition",
			game(";P0[1 RtoB 2 2 D 2];P0[2 BtoB D 2 C 2];P0[3 R- G 1];P0[4 Done]"),
			0, []string{"BC2-G1"}, 1, Stop{}},
		{"BtoB to the same cell does nothing; RtoR does nothing and is no take-back",
			game(";P0[1 RtoR 2 1 2];P0[2 RtoB 2 0 D 4];P0[3 BtoB D 4 D 4];P0[4 R- A 1];P0[5 Done]"),
			0, []string{"WD4-A1"}, 1, Stop{}},
		{"R+ and BtoR take back this turn's removal and placement",
			game(";P0[1 RtoB 2 0 D 4];P0[2 R- A 1];P0[3 R+ A 1];P0[4 BtoR D 4 2];P0[5 RtoB 2 1 C 3];P0[6 R- G 1];P0[7 Done]"),
			0, []string{"GC3-G1"}, 2, Stop{}},
		{"a multi-jump, with a jump taken back by jumping straight back",
			game(";P0[1 BtoB C 2 E 3];P0[2 BtoB E 3 E 1];P0[3 BtoB E 1 E 3];P0[4 BtoB E 3 G 3];P0[5 Done]"),
			0, []string{"C2xE3xG3"}, 1, Stop{}},
		{"a capture taken back completely, then another",
			game(";P0[1 BtoB C 2 E 3];P0[2 BtoB E 3 C 2];P0[3 BtoB D 2 D 4];P0[4 Done]"),
			0, []string{"D2xD4"}, 1, Stop{}},
		{"Resign after a turn, then Done",
			game(";P0[1 RtoB 2 0 D 4];P0[2 R- A 1];P0[3 Done];P1[4 Resign];P1[5 Done]"),
			0, []string{"WD4-A1"}, 0, Stop{Kind: Resign, Player: 1}},
		{"WinOnTime with no Done, by the player who did not just move",
			game(";P0[1 RtoB 2 0 D 4];P0[2 R- A 1];P1[3 WinOnTime ]"),
			0, []string{"WD4-A1"}, 0, Stop{Kind: WinOnTime, Player: 1}},
		{"TM[] and other properties are ignored",
			game(";P0[1 RtoB 2 0 D 4]TM[5667];P0[2 R- A 1]TM[7240]XX[1]"),
			0, []string{"WD4-A1"}, 0, Stop{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := ReadSGF(strings.NewReader(tt.sgf))
			if err != nil {
				t.Fatalf("ReadSGF: %v", err)
			}
			if got := notation(rec); !reflect.DeepEqual(got, tt.turns) {
				t.Errorf("turns = %q; want %q", got, tt.turns)
			}
			if rec.First != tt.first {
				t.Errorf("First = %d; want %d", rec.First, tt.first)
			}
			if rec.Undos != tt.undos {
				t.Errorf("Undos = %d; want %d", rec.Undos, tt.undos)
			}
			if rec.Stop != tt.stop {
				t.Errorf("Stop = %+v; want %+v", rec.Stop, tt.stop)
			}
		})
	}
}

func TestReadSGFMetadata(t *testing.T) {
	const text = "(;\r\nGM[22]VV[2]\r\nSU[Zertz+11]\r\nDT[Sat Jun 04 19:39:12 MSK 2022]\r\nGN[a\\]b]\r\n" +
		"RE[Game won by kartoved24]\r\nP0[id \"kartoved24\"]\r\nP1[id \"t1M0t8yk\"]\r\nP1[ranking 1257]\r\n;P0[0 Start P0])"
	rec, err := ReadSGF(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := Record{Variant: "48", First: 0, Players: [2]string{"kartoved24", "t1M0t8yk"},
		Date: "Sat Jun 04 19:39:12 MSK 2022", Name: "a]b", ResultText: "Game won by kartoved24"}
	if !reflect.DeepEqual(*rec, want) {
		t.Errorf("ReadSGF = %+v; want %+v", *rec, want)
	}
	rec, err = ReadSGF(strings.NewReader("(;GM[22]SU[zertz+24]RE[\xf018 won])"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Variant != "61" || rec.ResultText != "\u00f018 won" {
		t.Errorf("variant %q, RE %q; want 61 and the stray byte read as Latin-1", rec.Variant, rec.ResultText)
	}
}

// TestReadSGFErrors checks that bad records fail with the package name,
// the offending input quoted, and where it is.
func TestReadSGFErrors(t *testing.T) {
	tests := []struct {
		name, sgf string
		want      []string
	}{
		{"Zertz+xx", "(;GM[22]SU[Zertz+xx])", []string{"record: SGF line 1 (node 0)", `"SU[Zertz+xx]"`, "unsupported variant"}},
		{"Zertz+H", "(;GM[22]\nSU[Zertz+H])", []string{"line 2", `"SU[Zertz+H]"`, "unsupported variant"}},
		{"no SU", "(;GM[22])", []string{"no SU[]"}},
		{"not ZÈRTZ", "(;GM[1]SU[Zertz])", []string{`"GM[1]"`, "GM[22]"}},
		{"not SGF", "hello", []string{`"hello"`, `starts with "(;"`}},
		{"unclosed value", "(;GM[22]SU[Zertz]\nP0[id", []string{"line 2", "not closed"}},
		{"unclosed tree", "(;GM[22]SU[Zertz]", []string{"not closed with ')'"}},
		{"variation", "(;GM[22]SU[Zertz](;P0[RtoB 2 0 D 4]))", []string{"variations"}},
		{"bad cell", game(";P0[1 RtoB 2 0 Z 9]"), []string{"line 6 (node 1)", `"1 RtoB 2 0 Z 9"`, "Z 9 is not a cell of the 37-ring board"}},
		{"bad colour", game(";P0[1 RtoB 2 3 D 4]"), []string{"colour 3"}},
		{"bad rack", game(";P0[1 RtoB 5 0 D 4]"), []string{"rack 5"}},
		{"opponent's captures", game(";P0[1 RtoB 1 0 D 4]"), []string{"player 0 takes a marble from player 1's captures"}},
		{"argument count", game(";P0[1 R- A]"), []string{`"1 R- A"`, "R- takes 2 arguments, not 1"}},
		{"two marbles", game(";P0[1 RtoB 2 0 D 4];P0[2 RtoB 2 0 D 5]"), []string{"a second marble"}},
		{"two rings", game(";P0[1 R- A 1];P0[2 R- A 2]"), []string{"a second ring"}},
		{"jump in a placement", game(";P0[1 RtoB 2 0 D 4];P0[2 R- A 1];P0[3 BtoB C 2 E 3]"), []string{"a jump in a placement turn"}},
		{"broken chain", game(";P0[1 BtoB C 2 E 3];P0[2 BtoB D 2 D 4]"), []string{`"2 BtoB D 2 D 4"`, "does not go on from E3"}},
		{"removal alone", game(";P0[1 R- A 1];P0[2 Done]"), []string{`"1 R- A 1"`, "a ring removed with no marble placed"}},
		{"R+ of a ring not removed", game(";P0[1 R+ A 1]"), []string{"puts back a ring"}},
		{"BtoR of a marble not placed", game(";P0[1 BtoR D 4 2]"), []string{"takes back a marble"}},
		{"Edit", game(";P0[1 Edit]"), []string{`"1 Edit"`, "Edit rewrites the board"}},
		{"unknown", game(";P0[1 Frobnicate 3]"), []string{`unknown command "Frobnicate"`}},
		{"players out of turn", game(";P0[0 Start P0];P1[1 RtoB 2 0 D 4];P1[2 R- A 1]"), []string{"turn 1 is player 0's, but player 1 moves"}},
		{"action after resigning", game(";P0[1 Resign];P1[2 RtoB 2 0 D 4]"), []string{"after the game was resigned"}},
		{"Start late", game(";P0[1 RtoB 2 0 D 4];P0[2 Start P1]"), []string{"Start after the game began"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := ReadSGF(strings.NewReader(tt.sgf))
			if err == nil {
				t.Fatalf("ReadSGF = %q, nil; want an error", notation(rec))
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("error %T is not a *SyntaxError", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestWriteSGFRefuses(t *testing.T) {
	for _, rec := range []*Record{
		{Variant: "37b"},
		{Variant: "44"},
		{Variant: "37", Turns: []engine.Turn{engine.PassTurn()}},
	} {
		if err := WriteSGF(&bytes.Buffer{}, rec); err == nil || !strings.HasPrefix(err.Error(), "record: ") {
			t.Errorf("WriteSGF(%s %v) = %v; want a record: error", rec.Variant, notation(rec), err)
		}
	}
}

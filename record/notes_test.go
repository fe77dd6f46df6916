package record

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// notedRecord is a short game with notes before the first turn, after
// turn 1 and two after turn 2, whose texts hold what the formats escape.
func notedRecord(t *testing.T) *Record {
	t.Helper()
	turns, err := parseTurns("37", "WD4-A1", "BE2-G1", "GC2-A4")
	if err != nil {
		t.Fatal(err)
	}
	return &Record{Variant: "37", Players: [2]string{"ann", "bob"}, Turns: turns, Notes: []Note{
		{0, "clock replaced before the start"},
		{1, `player 1 warned for touch-move [rule 5] \ "again"`},
		{2, "Zeitstrafe: Spieler 2 – 30 s ☺ <b>&"},
		{2, `a]b\]c\\`},
	}}
}

// The notes survive the JSON record, in a "notes" field after the
// record's other fields.
func TestJSONNotesRoundTrip(t *testing.T) {
	rec := notedRecord(t)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, rec); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, `"notes": [`) || !strings.Contains(out, `"turn": 1,`) || strings.Index(out, `"notes"`) < strings.Index(out, `"turns"`) {
		t.Errorf("WriteJSON: no notes field after the turns:\n%s", out)
	}
	if i, j := strings.Index(out, `"turn": 0`), strings.Index(out, `"text": "clock replaced`); i < 0 || j < i {
		t.Errorf("a note's keys are not turn then text:\n%s", out)
	}
	back, err := ReadJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("ReadJSON: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back.Notes, rec.Notes) {
		t.Errorf("notes after the round trip:\n%q\nwant\n%q", back.Notes, rec.Notes)
	}
	if d := sameRecord(rec, back); d != "" {
		t.Errorf("round trip differs in %s", d)
	}

	// A record without notes writes no field, and a record from before
	// notes reads as one without.
	rec.Notes = nil
	buf.Reset()
	if err := WriteJSON(&buf, rec); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "notes") {
		t.Errorf("a record without notes writes %s", buf.String())
	}
	old, err := ReadFile("testdata/opening.json")
	if err != nil || old.Notes != nil {
		t.Errorf("an old record: notes %v, %v", old.Notes, err)
	}
}

// The notes survive Boardspace SGF as C[] comments: before the first turn
// on the Start node, after a turn on its Done node, escaped.
func TestSGFNotesRoundTrip(t *testing.T) {
	rec := notedRecord(t)
	for _, timed := range []bool{false, true} {
		rec.Clock = nil
		if timed {
			rec.Clock = &Clock{Control: "none", Turns: []TurnTime{{UsedMS: 1000}, {UsedMS: 2000}, {UsedMS: 3000}}}
		}
		var buf bytes.Buffer
		if err := WriteSGF(&buf, rec); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		tm1, tm2 := "", ""
		if timed {
			tm1, tm2 = "TM[1000]", "TM[2000]"
		}
		for _, want := range []string{
			"; P0[0 Start P0]C[Arbiter: clock replaced before the start]\n",
			"; P0[3 Done]" + tm1 + `C[Arbiter: player 1 warned for touch-move [rule 5\] \\ "again"]` + "\n",
			"; P1[6 Done]" + tm2 + "C[Arbiter: Zeitstrafe: Spieler 2 – 30 s ☺ <b>&\nArbiter: a\\]b\\\\\\]c\\\\\\\\]\n",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("WriteSGF lacks %q:\n%s", want, out)
			}
		}
		if n := strings.Count(out, "]C["); n != 3 {
			t.Errorf("%d comments; want 3:\n%s", n, out)
		}
		back, err := ReadSGF(strings.NewReader(out))
		if err != nil {
			t.Fatalf("ReadSGF: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(back.Notes, rec.Notes) {
			t.Errorf("notes after the round trip:\n%q\nwant\n%q", back.Notes, rec.Notes)
		}
		untimed := *rec
		untimed.Clock = nil // the reader takes no times from TM[]
		if d := sameRecord(sgfFilled(&untimed), back); d != "" {
			t.Errorf("round trip differs in %s", d)
		}
	}
}

// The SGF reader takes the lines of a comment that are in the writer's
// form as notes, at the turns played when the node's actions are done,
// wherever the comment stands in its node; other comments are not notes.
func TestReadSGFComments(t *testing.T) {
	sgf := strings.Replace(game(`;C[Arbiter: at the root? no, before the first turn]P0[0 Start P0]
;P0[1 RtoB 2 0 D 4]C[good placement]
;P0[2 R- A 1]
;C[Arbiter: after turn 1, before its Done in the node]P0[3 Done]
;P1[4 RtoB 2 2 E 2]
;P1[5 R- G 1]
;P1[6 Done]C[gg<CR>
Arbiter: after turn 2<CR>
arbiter: not in the form]`), "SU[Zertz]", "SU[Zertz]C[a game comment\nArbiter: in the root]", 1)
	rec, err := ReadSGF(strings.NewReader(strings.ReplaceAll(sgf, "<CR>", "\r")))
	if err != nil {
		t.Fatal(err)
	}
	want := []Note{{0, "in the root"}, {0, "at the root? no, before the first turn"}, {1, "after turn 1, before its Done in the node"}, {2, "after turn 2"}}
	if !reflect.DeepEqual(rec.Notes, want) {
		t.Errorf("notes %q; want %q", rec.Notes, want)
	}
	if len(rec.Turns) != 2 {
		t.Errorf("%d turns; want 2", len(rec.Turns))
	}
}

// Notes beyond the bounds are refused on reading, with an error naming
// the bound, and are never written.
func TestNotesOverTheLimitsRefused(t *testing.T) {
	base := `{"format":"zertzboard-record","version":1,"variant":"37","first":0,"players":["",""],"turns":["WD4-A1"],"notes":`
	many := make([]string, MaxNotes+1)
	for i := range many {
		many[i] = fmt.Sprintf(`{"turn":1,"text":"note %d"}`, i)
	}
	for _, tc := range []struct{ notes, want string }{
		{"[" + strings.Join(many, ",") + "]", "1001 notes; a record carries at most 1000"},
		{`[{"turn":0,"text":"` + strings.Repeat("é", 101) + `"}]`, "is 202 bytes; a note is at most 200"},
		{`[{"turn":2,"text":"late"}]`, "note 1 is at turn 2; the record has 1 turns"},
		{`[{"turn":-1,"text":"early"}]`, "note 1 is at turn -1"},
		{`[{"turn":1,"text":"b"},{"turn":0,"text":"a"}]`, "note 2 is at turn 0, before note 1 at turn 1"},
		{`[{"turn":1,"text":""}]`, "note 1: the text is empty"},
		{`[{"turn":1,"text":"a\nb"}]`, "control character"},
		{`[{"turn":1,"text":"a\u0000b"}]`, "control character"},
		{`{"turn":1}`, "not a record"},
	} {
		_, err := ReadJSON(strings.NewReader(base + tc.notes + "}"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadJSON with notes %.60s: %v; want an error with %q", tc.notes, err, tc.want)
		}
	}
	ok := "[" + strings.Join(many[:MaxNotes], ",") + "]"
	if rec, err := ReadJSON(strings.NewReader(base + ok + "}")); err != nil || len(rec.Notes) != MaxNotes {
		t.Errorf("ReadJSON with %d notes: %v", MaxNotes, err)
	}

	// SGF: a note too long, and one note too many.
	long := game(";P0[0 Start P0]C[Arbiter: " + strings.Repeat("x", MaxNote+1) + "]")
	if _, err := ReadSGF(strings.NewReader(long)); err == nil || !strings.Contains(err.Error(), "a note is at most 200") || !strings.Contains(err.Error(), "line 6") {
		t.Errorf("ReadSGF with a long note: %v", err)
	}
	lines := strings.Repeat("Arbiter: x\n", MaxNotes+1)
	if _, err := ReadSGF(strings.NewReader(game(";P0[0 Start P0]C[" + lines + "]"))); err == nil || !strings.Contains(err.Error(), "at most 1000") {
		t.Errorf("ReadSGF with %d notes: %v", MaxNotes+1, err)
	}

	// The writers refuse what the readers would.
	rec := notedRecord(t)
	rec.Notes = append(rec.Notes, Note{Turn: 4, Text: "after a turn never played"})
	var buf bytes.Buffer
	for name, write := range map[string]func() error{
		"WriteJSON": func() error { return WriteJSON(&buf, rec) },
		"WriteSGF":  func() error { return WriteSGF(&buf, rec) },
	} {
		if err := write(); err == nil || !strings.Contains(err.Error(), "note 5 is at turn 4; the record has 3 turns") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

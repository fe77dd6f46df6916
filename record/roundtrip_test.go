package record

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sameRecord reports how two records differ in what the formats carry,
// or "" when they agree. Undos describes a source file, not the game, so
// it is not compared.
func sameRecord(a, b *Record) string {
	x, y := *a, *b
	x.Undos, y.Undos = 0, 0
	if len(x.Turns) == 0 {
		x.Turns = nil
	}
	if len(y.Turns) == 0 {
		y.Turns = nil
	}
	if reflect.DeepEqual(x, y) {
		return ""
	}
	var diffs []string
	ax, ay := reflect.ValueOf(x), reflect.ValueOf(y)
	for i := 0; i < ax.NumField(); i++ {
		if !reflect.DeepEqual(ax.Field(i).Interface(), ay.Field(i).Interface()) {
			diffs = append(diffs, ax.Type().Field(i).Name)
		}
	}
	return strings.Join(diffs, ", ")
}

// sgfFilled is rec as WriteSGF writes it: with the GN and RE it makes
// when the record has none.
func sgfFilled(rec *Record) *Record {
	c := *rec
	c.Name, c.ResultText = SGFName(rec), SGFResult(rec)
	return &c
}

// TestSGFRoundTrip reads every sample, writes it as SGF and reads it
// back: the turns, metadata and ending must survive, and so must the
// replay's result.
func TestSGFRoundTrip(t *testing.T) {
	for _, path := range sampleFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".sgf"), func(t *testing.T) {
			t.Parallel()
			rec := readSample(t, path)
			var buf bytes.Buffer
			if err := WriteSGF(&buf, rec); err != nil {
				t.Fatalf("WriteSGF: %v", err)
			}
			back, err := ReadSGF(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("ReadSGF(WriteSGF(r)): %v\n%s", err, buf.String())
			}
			if d := sameRecord(sgfFilled(rec), back); d != "" {
				t.Fatalf("ReadSGF(WriteSGF(r)) differs in %s", d)
			}
			if back.Undos != 0 {
				t.Errorf("written SGF has %d take-backs; want none", back.Undos)
			}
			r1, err1 := rec.Replay()
			r2, err2 := back.Replay()
			if err1 != nil || err2 != nil {
				t.Fatalf("Replay: %v / %v", err1, err2)
			}
			if r1.Result != r2.Result {
				t.Errorf("result after round trip = %+v; want %+v", r2.Result, r1.Result)
			}
			// Every finished game carries its result in RE[].
			if r1.Result.Outcome != Unfinished && back.ResultText == "" {
				t.Errorf("a game with result %+v was written with no RE[]", r1.Result)
			}
		})
	}
}

// TestJSONRoundTrip does the same through the project's JSON format, and
// checks that Read detects it.
func TestJSONRoundTrip(t *testing.T) {
	for _, path := range sampleFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".sgf"), func(t *testing.T) {
			t.Parallel()
			rec := readSample(t, path)
			var buf bytes.Buffer
			if err := WriteJSON(&buf, rec); err != nil {
				t.Fatalf("WriteJSON: %v", err)
			}
			back, err := Read(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("Read(WriteJSON(r)): %v\n%s", err, buf.String())
			}
			if d := sameRecord(rec, back); d != "" {
				t.Fatalf("Read(WriteJSON(r)) differs in %s", d)
			}
		})
	}
}

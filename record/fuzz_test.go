package record

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadSGF checks that the SGF reader never panics, and that whatever it
// reads survives writing and reading again, as SGF and as JSON. Replay
// runs too, so that odd but well-formed records reach the engine.
func FuzzReadSGF(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/boardspace/*.sgf")
	seeds = append(seeds, "testdata/illegal-ring-not-free.sgf")
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(game(";P0[1 RtoB 2 2 D 2];P0[2 BtoB D 2 C 2];P0[3 R- G 1];P0[4 R+ G 1];P0[5 R- A 1];P1[6 BtoB C 2 E 3]")))
	f.Add([]byte("(;GM[22]SU[Zertz+24]P0[id \"a\\]\"];P1[WinOnTime])"))
	f.Add([]byte(game(";P0[0 Start P0]C[Arbiter: before]\n;P0[1 RtoB 2 0 D 4];P0[2 R- A 1];P0[3 Done]C[gg\nArbiter: a\\]b\\\\ é\nArbiter: two]")))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ReadSGF(bytes.NewReader(data))
		if err != nil {
			return
		}
		_, _ = rec.Replay() // only checking that it does not panic
		var sgf bytes.Buffer
		if err := WriteSGF(&sgf, rec); err != nil {
			t.Fatalf("WriteSGF of a record ReadSGF accepted: %v", err)
		}
		back, err := ReadSGF(bytes.NewReader(sgf.Bytes()))
		if err != nil {
			t.Fatalf("ReadSGF(WriteSGF(r)): %v\n%s", err, sgf.String())
		}
		if d := sameRecord(sgfFilled(rec), back); d != "" {
			t.Fatalf("ReadSGF(WriteSGF(r)) differs in %s\n%s", d, sgf.String())
		}
		var js bytes.Buffer
		if err := WriteJSON(&js, rec); err != nil {
			t.Fatalf("WriteJSON: %v", err)
		}
		back, err = ReadJSON(bytes.NewReader(js.Bytes()))
		if err != nil {
			t.Fatalf("ReadJSON(WriteJSON(r)): %v\n%s", err, js.String())
		}
		if d := sameRecord(rec, back); d != "" {
			t.Fatalf("ReadJSON(WriteJSON(r)) differs in %s\n%s", d, js.String())
		}
	})
}

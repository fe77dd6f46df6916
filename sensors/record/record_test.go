package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/wiring"
)

func TestFrameWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewFrameWriter(&b)
	for i, s := range []string{"..o", ".wo", "?bo"} {
		if err := w.Write(int64(i*5), []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := `{"t":0,"cells":"..o"}
{"t":5,"cells":".wo"}
{"t":10,"cells":"?bo"}
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	// Each line is valid JSON with the contract's fields.
	sc := bufio.NewScanner(&b)
	for sc.Scan() {
		var f struct {
			T     int64  `json:"t"`
			Cells string `json:"cells"`
		}
		d := json.NewDecoder(strings.NewReader(sc.Text()))
		d.DisallowUnknownFields()
		if err := d.Decode(&f); err != nil {
			t.Errorf("line %q: %v", sc.Text(), err)
		}
	}
}

func TestFrameWriterRejects(t *testing.T) {
	w := NewFrameWriter(&bytes.Buffer{})
	if err := w.Write(10, []byte("..o")); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(9, []byte("..o")); err == nil {
		t.Error("time going backwards: want an error")
	}
	if err := w.Write(11, []byte("..x")); err == nil {
		t.Error(`cell "x": want an error`)
	}
	if err := w.Write(11, []byte("..")); err == nil {
		t.Error("frame length change: want an error")
	}
	if err := w.Write(11, []byte(`".o`)); err == nil {
		t.Error("a quote in cells: want an error")
	}
}

func TestRecorder(t *testing.T) {
	base := engine.MustStandardBoard("61")
	game := engine.MustStandardBoard("37")
	m, err := wiring.NewMount(base, game, engine.Coord{X: 1, Y: 2})
	if err != nil {
		t.Fatal(err)
	}
	var frames, raw bytes.Buffer
	r := NewRecorder(m, &frames, &raw)
	cls := make([]engine.Content, base.Len())
	counts := make([]uint16, base.Len())
	for i := range cls {
		cls[i] = engine.Vacant
		counts[i] = uint16(i)
	}
	e5, _ := base.ParseCell("E5")
	cls[e5] = engine.WhiteMarble
	t0 := time.Unix(100, 0)
	for i := 0; i < 2; i++ {
		if err := r.Record(t0.Add(time.Duration(i)*5*time.Millisecond), counts, cls); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Flush(); err != nil {
		t.Fatal(err)
	}
	d4, _ := game.ParseCell("D4")
	cells := strings.Repeat("o", int(d4)) + "w" + strings.Repeat("o", game.Len()-int(d4)-1)
	want := `{"t":0,"cells":"` + cells + "\"}\n" + `{"t":5,"cells":"` + cells + "\"}\n"
	if frames.String() != want {
		t.Errorf("frames\n%s\nwant\n%s", frames.String(), want)
	}
	var line struct {
		T   int64    `json:"t"`
		Raw []uint16 `json:"raw"`
	}
	if err := json.NewDecoder(&raw).Decode(&line); err != nil {
		t.Fatal(err)
	}
	if len(line.Raw) != 61 || line.Raw[60] != 60 {
		t.Errorf("raw line = %+v", line)
	}
}

func BenchmarkRecord61(b *testing.B) {
	base := engine.MustStandardBoard("61")
	m, _ := wiring.NewMount(base, base, engine.Coord{})
	var sink discard
	r := NewRecorder(m, sink, nil)
	cls := make([]engine.Content, base.Len())
	for i := range cls {
		cls[i] = engine.Vacant
	}
	t := time.Unix(0, 0)
	b.ReportAllocs()
	for b.Loop() {
		t = t.Add(5 * time.Millisecond)
		if err := r.Record(t, nil, cls); err != nil {
			b.Fatal(err)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

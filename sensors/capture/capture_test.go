package capture

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/wiring"
)

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

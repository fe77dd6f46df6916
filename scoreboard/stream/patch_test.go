package stream_test

import (
	"encoding/json"
	"testing"

	"github.com/zertzboard/zertzboard/scoreboard/stream"
	"github.com/zertzboard/zertzboard/scoreboard/stream/streamtest"
)

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPatchFallsBackToWhole: another layout, or a view that is not one
// element, goes whole.
func TestPatchFallsBackToWhole(t *testing.T) {
	a := streamtest.Parse(`<div class="sb" data-seq="1"><p data-k="x">a</p></div>`)
	for _, h := range []string{
		`<div class="sb" data-seq="2" data-turn="1"><p data-k="x">a</p></div>`, // an attribute more
		`<div class="sb" data-seq="2"><p data-k="x">a</p><p data-k="y">b</p></div>`,
		`<div class="sb" data-seq="2"><p data-k="x">a</p>text</div>`,
	} {
		if _, ok := stream.Diff(a, streamtest.Parse(h)); ok {
			t.Errorf("%s patched on %s", h, a.HTML())
		}
	}
	for _, bad := range []string{`<div><p>`, `text`, `<div></div><div></div>`, `<div><p data-k="x">a</div>`} {
		if streamtest.Parse(bad) != nil {
			t.Errorf("streamtest.Parse(%q) read it", bad)
		}
	}
	// Appending, setting attributes and replacing, in one patch.
	b := streamtest.Parse(`<div class="sb" data-seq="2"><ol data-k="l"><li>1</li><li>2</li></ol><p data-k="x" class="on">a</p><b data-k="z">new</b></div>`)
	a = streamtest.Parse(`<div class="sb" data-seq="1"><ol data-k="l"><li>1</li></ol><p data-k="x" class="off">a</p><b data-k="z">old</b></div>`)
	p, ok := stream.Diff(a, b)
	want := `{"attrs":[["",["class","sb","data-seq","2"]],["x",["data-k","x","class","on"]]],"appends":[["l","\u003cli\u003e2\u003c/li\u003e"]],"parts":[["z","\u003cb data-k=\"z\"\u003enew\u003c/b\u003e"]]}`
	if got := string(mustJSON(t, p)); !ok || got != want {
		t.Errorf("patch %v %s; want %s", ok, got, want)
	}
	if got := streamtest.Apply(a, p); got != b.HTML() {
		t.Errorf("applied: %s", got)
	}
}

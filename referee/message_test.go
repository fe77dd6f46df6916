package referee

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestMessageJSON: a message read back from JSON has its arguments' Go
// types again and says the same English.
func TestMessageJSON(t *testing.T) {
	m := Msg("guide.illegal", Message{Key: RuleKey("ring-not-free"), Text: "ring D4 is not free: it holds a marble"},
		fixList([]CellFix{{Cell: "D4", Is: "w", Should: "o"}, {Cell: "E5", Is: "o", Should: "."}}))
	for _, m := range []Message{m, Msg("guide.takeback-demand", 12, []Message{}), Msg("guide.to-move", player(1), Msg("guide.place-and-remove"))} {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var back Message
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("Unmarshal(%s): %v", b, err)
		}
		if back.English() != m.English() {
			t.Errorf("%s reads back as %q; want %q", b, back.English(), m.English())
		}
		if len(m.Args) > 0 && !reflect.DeepEqual(back.Args[0], m.Args[0]) {
			t.Errorf("%s: first argument %#v; want %#v", b, back.Args[0], m.Args[0])
		}
	}
	if got := m.English(); got != "Illegal: ring D4 is not free: it holds a marble. Restore D4 (empty ring), E5 (no ring)" {
		t.Errorf("English = %q", got)
	}
	for _, bad := range []string{
		`{"key":"k","args":[` + strings.Repeat(`1,`, 64) + `1]}`,
		`{"key":"k","args":[[` + strings.Repeat(`{"key":"f"},`, 64) + `{"key":"f"}]]}`,
		strings.Repeat(`{"key":"k","args":[`, 10) + `1` + strings.Repeat(`]}`, 10),
		`{"key":"k","args":["a",{"key":"x","args":[1e400]}]}`,
		`{"key":7}`,
		`{"key":"k","text":5}`,
		`{"key":"k","args":{"a":1}}`,
		`[1]`,
		`{"key":"k","args":[1.5]}`,
		`{"key":"k","args":[true]}`,
		`{"key":"k","args":[{"key":7}]}`,
	} {
		var back Message
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("Unmarshal(%.60s) = nil error", bad)
		}
	}
	// As deep as allowed still reads.
	deep := strings.Repeat(`{"key":"k","args":[`, maxMessageDepth) + `{"key":"k"}` + strings.Repeat(`]}`, maxMessageDepth)
	var back Message
	if err := json.Unmarshal([]byte(deep), &back); err != nil {
		t.Errorf("a message %d deep: %v", maxMessageDepth, err)
	}
}

// BenchmarkMessageHostile is a megabyte of nested messages, as a hostile
// board could publish in its state: refused at once, not decoded level by
// level (which would be quadratic).
func BenchmarkMessageHostile(b *testing.B) {
	payload := []byte(strings.Repeat(`{"key":"k","args":[`, 50_000) + strings.Repeat(`]}`, 50_000))
	b.SetBytes(int64(len(payload)))
	for i := 0; i < b.N; i++ {
		var m Message
		if err := json.Unmarshal(payload, &m); err == nil {
			b.Fatal("accepted")
		}
	}
}

// TestGuidanceStatusIsPartsInEnglish: every Guidance the referee builds
// says in Status what its Parts say.
func TestGuidanceStatusIsPartsInEnglish(t *testing.T) {
	g := guidance(nil, Msg("guide.question", "A4"), Msg("guide.take-off-claimed", "E5"))
	var parts []string
	for _, p := range g.Parts {
		parts = append(parts, p.English())
	}
	if g.Status != strings.Join(parts, "; ") || !strings.HasPrefix(g.Status, "Which colour was on A4?") {
		t.Errorf("Status %q; parts %q", g.Status, parts)
	}
}

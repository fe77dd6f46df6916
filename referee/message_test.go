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
		`{"key":"k","args":[` + strings.Repeat(`1,`, 16) + `1]}`,
		`{"key":"k","args":[1.5]}`,
		`{"key":"k","args":[true]}`,
		`{"key":"k","args":[{"key":7}]}`,
	} {
		var back Message
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("Unmarshal(%.60s) = nil error", bad)
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

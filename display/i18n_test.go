package display

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/image/font"

	"github.com/zertzboard/zertzboard/display/face"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/sensors/health"
)

// Screen geometry of the SSD1306 in the 7x13 face (hardware/screen).
const (
	screenColumns = 18
	screenRows    = 5
	screenWidth   = 128
)

// TestEnglishIsTheReferees: the catalogue's English is the referee's wire
// English, key for key, so Status and Parts never say different things.
func TestEnglishIsTheReferees(t *testing.T) {
	for k, en := range referee.English {
		if !i18n.Has(k) {
			t.Errorf("referee key %q is not in the catalogue", k)
			continue
		}
		if got := i18n.EN.T(k); got != en {
			t.Errorf("catalogue English of %q = %q; the referee says %q", k, got, en)
		}
	}
}

// keysWithPrefix lists the catalogue's keys under a prefix.
func keysWithPrefix(p string) []string {
	var ks []string
	for _, k := range i18n.Keys() {
		if strings.HasPrefix(k, p) {
			ks = append(ks, k)
		}
	}
	return ks
}

// engineRules reads the engine's Rule constants from its source, so a new
// rule without a translation fails here.
func engineRules(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../engine/turn.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 {
			return true
		}
		if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "Rule" {
			if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
				s, _ := strconv.Unquote(lit.Value)
				rules = append(rules, s)
			}
		}
		return true
	})
	if len(rules) < 10 {
		t.Fatalf("found %d engine rules in engine/turn.go; the parse is wrong", len(rules))
	}
	return rules
}

// TestEveryRuleReasonTranslated: each engine rule, each result and each
// sensor fault kind has its sentence.
func TestEveryRuleReasonTranslated(t *testing.T) {
	for _, r := range engineRules(t) {
		if !i18n.Has(referee.RuleKey(r)) {
			t.Errorf("engine rule %q has no key %s", r, referee.RuleKey(r))
		}
	}
	for _, r := range []engine.Reason{engine.ReasonCaptures, engine.ReasonFullBoard, engine.ReasonRepetition, engine.ReasonNoMoves} {
		if !i18n.Has("result." + string(r)) {
			t.Errorf("engine result %q has no key result.%s", r, r)
		}
	}
	for k := health.Saturated; k <= health.Unreadable; k <<= 1 {
		if !i18n.Has("fault." + k.String()) {
			t.Errorf("fault kind %s has no key fault.%s", k, k)
		}
	}
	for _, c := range []engine.Color{engine.White, engine.Grey, engine.Black} {
		if !i18n.Has("colour." + c.String()) {
			t.Errorf("colour %s has no key colour.%s", c, c)
		}
	}
}

// worstCell is the longest cell label a board can have (a letter and a
// row up to 64).
const worstCell = "J10"

// examples are the referee's messages with worst-case arguments: every
// key, every need, rule and result, long cell lists.
func examples() []referee.Message {
	m := referee.Msg
	var fixes []referee.Message
	for _, c := range []string{"content.no-ring", "content.vacant", "content.white", "content.grey", "content.black", "content.unknown"} {
		fixes = append(fixes, m("guide.fix", worstCell, m(c)))
	}
	list := strings.Repeat(worstCell+", ", 5) + worstCell
	var out []referee.Message
	for _, p := range []int{0, 1} {
		pl := m("guide.player", p)
		for _, need := range []referee.Message{
			m("need.take-off-captured", list), m("need.continue-capture", worstCell), m("need.finish-capture"),
			m("need.place-marble"), m("need.remove-free-ring"), m("need.finish-turn"), m("need.engine-turn", longTurn),
		} {
			out = append(out, m("guide.pending", pl, need))
		}
		out = append(out,
			m("guide.must-capture", pl, worstCell, worstCell),
			m("guide.to-move", pl, m("guide.place-and-remove")),
			m("guide.to-move", pl, m("guide.place-no-free-ring")),
			m("guide.engine-turn", pl, longTurn), m("guide.engine-thinking", pl))
		for _, r := range keysWithPrefix("result.") {
			out = append(out, m("guide.over-win", pl, m(r)))
		}
	}
	for _, r := range keysWithPrefix("result.") {
		out = append(out, m("guide.over-draw", m(r)))
	}
	for _, r := range keysWithPrefix("rule.") {
		out = append(out, m("guide.illegal", referee.Message{Key: r, Text: "an engine's reason naming " + worstCell}, fixes))
	}
	out = append(out,
		m("guide.takeback-demand", 999, fixes),
		m("guide.question", worstCell),
		m("guide.question-turns", 999),
		m("guide.take-off-claimed", list),
		m("guide.hint", longTurn), m("guide.engine-last", longTurn),
		m("fault.dead-cells", list), m("fault.cells-read"),
		m("fault.stuck-cell", "D4/E5"), m("fault.stuck-reads", "D4"), m("fault.stuck-trusted", "E5"))
	return out
}

// TestExamplesCoverTheReferee: examples say every message key the
// referee has, so the tests below see every one.
// longTurn is a long capture chain in notation, as the engine may play.
const longTurn = "A1xC2xE3xG4xE5xC4xA3"

func TestExamplesCoverTheReferee(t *testing.T) {
	seen := map[string]bool{}
	var walk func(referee.Message)
	walk = func(m referee.Message) {
		seen[m.Key] = true
		for _, a := range m.Args {
			switch a := a.(type) {
			case referee.Message:
				walk(a)
			case []referee.Message:
				for _, x := range a {
					walk(x)
				}
			}
		}
	}
	for _, m := range examples() {
		walk(m)
	}
	for k := range referee.English {
		if !seen[k] {
			t.Errorf("no example says %q", k)
		}
	}
}

// TestSayEveryLanguage says every example in every language, long and
// short: no fmt error, no key left unsaid, no letter the screen's font
// lacks; English as the referee says it.
func TestSayEveryLanguage(t *testing.T) {
	for _, m := range examples() {
		for _, l := range i18n.All {
			for _, short := range []bool{false, true} {
				got := Speaker{Lang: l, Short: short, NameMax: NameMax}.Say(m)
				if strings.Contains(got, "%!") || strings.Contains(got, "guide.") || strings.Contains(got, "short.") {
					t.Errorf("%s %s (short %v) = %q", l, m.Key, short, got)
				}
				if miss := face.Missing(got); len(miss) > 0 {
					t.Errorf("%s %s = %q: the screen's font lacks %q", l, m.Key, got, miss)
				}
			}
		}
		if got, want := (Speaker{Lang: i18n.EN}).Say(m), m.English(); got != want {
			t.Errorf("English of %s = %q; the referee says %q", m.Key, got, want)
		}
	}
	names := Speaker{Lang: i18n.PL, Names: [2]string{"Ala", ""}}
	if got := names.Say(referee.Msg("guide.to-move", referee.Msg("guide.player", 0), referee.Msg("guide.place-and-remove"))); got != "Ruch gracza Ala: postaw kulkę, potem zdejmij wolny pierścień" {
		t.Errorf("Polish with a name: %q", got)
	}
	if got := names.Say(referee.Msg("guide.player", 1)); got != "G1" {
		t.Errorf("Polish label of P1: %q", got)
	}
}

// TestScreenFits lays out the status screen in every language with
// worst-case contents, draws it in the real font and checks it fits the
// 128x64 SSD1306: at most five lines, each at most 128 pixels, no glyph
// missing; the status line and the faults say everything without
// clipping. Only players' names are clipped, as the screen clips them.
func TestScreenFits(t *testing.T) {
	long := [][2]string{
		{"", ""},
		{"Maximilian-Alexander von Hohenzollern", "Щербаковская-Переяславская"},
		{"Łukasz Żółkiewski-Grzęślewicz", "François-Xavier"},
	}
	var faults [][]string
	for _, l := range i18n.All {
		for k := health.Saturated; k <= health.Unreadable; k <<= 1 {
			f := l.T("fault."+k.String(), worstCell)
			faults = append(faults, []string{f}, []string{f, f})
		}
		faults = append(faults, []string{l.T("warn.no-journal")}, []string{l.T("warn.journal-damaged"), "x"}, []string{l.T("warn.journal-write")})
	}
	caps := [2][3]int{{10, 10, 10}, {6, 8, 10}}
	for _, l := range i18n.All {
		lines := 0
		check := func(name string, st Status, unclipped ...string) {
			t.Helper()
			got := StatusLines(st, screenColumns)
			if len(got) > screenRows {
				t.Errorf("%s %s: %d lines", l, name, len(got))
			}
			for i, line := range got {
				if w := font.MeasureString(face.Fixed7x13, line).Ceil(); w > screenWidth || utf8.RuneCountInString(line) > screenColumns {
					t.Errorf("%s %s: line %d %q is %d px wide", l, name, i, line, w)
				}
			}
			for _, u := range unclipped {
				if n := utf8.RuneCountInString(u); n > screenColumns {
					t.Errorf("%s %s: %q has %d columns; the screen has %d", l, name, u, n, screenColumns)
				}
			}
			lines++
		}
		for _, names := range long {
			if m := face.Missing(names[0] + names[1]); len(m) > 0 {
				t.Fatalf("the font lacks %q", m)
			}
			for _, to := range []int{-1, 0, 1} {
				st := Status{Lang: l, ToMove: to, Players: names, Captures: caps}
				if to >= 0 {
					// the words of "NAME to move" stay whole
					words := strings.TrimSpace(l.T("screen.to-move", ""))
					if got := StatusLines(st, screenColumns)[0]; !strings.Contains(got, words) {
						t.Errorf("%s: first line %q lost %q", l, got, words)
					}
				}
				check("names", st)
				for _, c := range []Clock{{Remaining: [2]int64{599_000, 59_000}, Running: -1, Paused: true},
					{Remaining: [2]int64{21_600_000, 35_999_000}, Running: -1, Paused: true}, {Remaining: [2]int64{1_000, 7_200_000}, Running: 1}} {
					st.Clock = &c
					if top := StatusLines(st, screenColumns)[0]; c.Paused && !strings.Contains(top, l.T("screen.clock-paused")) && !strings.Contains(top, "||") {
						t.Errorf("%s: paused clocks %q say no pause", l, top)
					}
					check("clock", st)
				}
				st.Clock = nil
				for _, m := range examples() {
					st.Parts = []referee.Message{m}
					said := Speaker{Lang: l, Names: names, Short: true, NameMax: NameMax}.Say(m)
					check(m.Key, st, said)
				}
				st.Parts = nil
				for _, f := range faults {
					st.Faults = f
					check("faults", st, StatusLines(st, 1000)[4])
				}
				st.Faults = nil
				for _, n := range []string{"notice.confirm-new-game"} {
					st.Line = l.T(n)
					check(n, st, st.Line)
				}
				for _, c := range []string{"white", "grey", "black"} {
					st.Line = l.T("notice.which-colour", worstCell, i18n.Key("colour."+c))
					check("notice.which-colour", st, st.Line)
				}
				// A question about two turns: the option the confirm
				// button answers, in notation.
				st.Line = l.T("notice.which-turns", 8, 8, "*WG1-G1 *BG2..")
				check("notice.which-turns", st, st.Line)
				// A question about the socket a marble the board missed is
				// on: the socket confirm answers.
				st.Line = l.T("notice.which-cell", 24, 24, worstCell)
				check("notice.which-cell", st, st.Line)
				// Its last option when the sockets come a page at a time.
				st.Line = l.T("notice.which-cell-other", 24, 24)
				check("notice.which-cell-other", st, st.Line)
			}
		}
		if lines < 100 {
			t.Errorf("%s: only %d screens checked", l, lines)
		}
	}
}

// BenchmarkStatusLinesRussian lays out a mid-game screen with clocks in
// Russian: the work of each redraw while a clock runs (every 250 ms).
func BenchmarkStatusLinesRussian(b *testing.B) {
	m := referee.Msg
	st := Status{Lang: i18n.RU, ToMove: 1, Players: [2]string{"Łukasz", "Юлия"}, Captures: [2][3]int{{2, 1, 0}, {0, 3, 4}},
		Parts: []referee.Message{m("guide.to-move", m("guide.player", 1), m("guide.place-and-remove"))},
		Clock: &Clock{Remaining: [2]int64{599_000, 61_000}, Running: 1}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if l := StatusLines(st, screenColumns); len(l) != screenRows {
			b.Fatal(l)
		}
	}
}

package i18n

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Lang
	}{{"en", EN}, {"DE", DE}, {"fr-CA", FR}, {"pl_PL", PL}, {" ru ", RU}, {"it", IT}, {"nl-BE", NL}, {"es_AR", ES}} {
		got, err := Parse(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Parse(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "pt", "english", "x" + strings.Repeat("y", 500)} {
		_, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) = nil error", in)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "en, de, fr, pl, ru, it, nl, es") || len(msg) > 150 {
			t.Errorf("Parse(%q) error %q: want the choices, bounded", in, msg)
		}
	}
	for _, l := range All {
		if p, err := Parse(l.String()); err != nil || p != l {
			t.Errorf("Parse(%q) = %q, %v", l, p, err)
		}
		var u Lang
		b, _ := l.MarshalText()
		if err := u.UnmarshalText(b); err != nil || u != l {
			t.Errorf("text round trip of %q = %q, %v", l, u, err)
		}
	}
}

func TestFromAcceptLanguage(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Lang
	}{
		{"", EN},
		{"pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7", PL},
		{"es-ES, ru;q=0.5, de;q=0.6", ES},
		{"pt-BR, ru;q=0.5, de;q=0.6", DE},
		{"ja, pt", EN},
		{"ja, es", ES},
		{"nl-NL,nl;q=0.9,en;q=0.8", NL},
		{"en;q=0.5, it-IT", IT},
		{"fr;q=0, de;q=0.1", DE},
		{"ru;q=0.5, fr;q=0.5", RU},
		{"*", EN},
		{"de;q=abc", DE},
		{strings.Repeat("x,", 5000) + "ru", EN}, // bounded: the tail is never read
	} {
		if got := FromAcceptLanguage(tc.in); got != tc.want {
			t.Errorf("FromAcceptLanguage(%.40q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestT(t *testing.T) {
	if got := PL.T("screen.to-move", "Ala"); got != "Ruch: Ala" {
		t.Errorf("PL.T(screen.to-move) = %q", got)
	}
	if got := Lang("xx").T("screen.no-game"); got != "no game" {
		t.Errorf("unknown language: %q; want English", got)
	}
	if got := DE.T("no.such.key"); got != "no.such.key" {
		t.Errorf("unknown key: %q; want the key", got)
	}
	if got := RU.T("screen.to-move", Key("screen.no-game")); got != "Ходит нет партии" {
		t.Errorf("Key argument not translated: %q", got)
	}
	if got := FR.Msg(Msg{Key: "guide.player", Args: []any{1}}); got != "J1" {
		t.Errorf("FR.Msg = %q", got)
	}
}

func TestN(t *testing.T) {
	for _, tc := range []struct {
		l    Lang
		n    int
		want string
	}{
		{EN, 1, "1 marble"}, {EN, 0, "0 marbles"}, {EN, 2, "2 marbles"},
		{FR, 0, "0 bille"}, {FR, 1, "1 bille"}, {FR, 2, "2 billes"},
		{IT, 0, "0 biglie"}, {IT, 1, "1 biglia"}, {IT, 2, "2 biglie"},
		{NL, 0, "0 knikkers"}, {NL, 1, "1 knikker"}, {NL, 21, "21 knikkers"},
		{ES, 0, "0 bolas"}, {ES, 1, "1 bola"}, {ES, 11, "11 bolas"},
		{PL, 1, "1 kulka"}, {PL, 3, "3 kulki"}, {PL, 5, "5 kulek"}, {PL, 12, "12 kulek"}, {PL, 22, "22 kulki"}, {PL, 21, "21 kulek"},
		{RU, 1, "1 шарик"}, {RU, 21, "21 шарик"}, {RU, 11, "11 шариков"}, {RU, 4, "4 шарика"}, {RU, 14, "14 шариков"}, {RU, 0, "0 шариков"},
	} {
		if got := tc.l.N("n.marbles", tc.n, tc.n); got != tc.want {
			t.Errorf("%s.N(n.marbles, %d) = %q; want %q", tc.l, tc.n, got, tc.want)
		}
	}
}

// verbRE finds fmt verbs, with an optional explicit argument index (before
// the width, or after the precision: "%.11[2]s").
var verbRE = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?(\[\d+\])?[a-zA-Z%]`)

// verbs lists a message's verbs as "argument:verb", sorted, so that a
// translation may reorder arguments with %[n]s.
func verbs(s string) []string {
	var out []string
	next := 1
	for _, m := range verbRE.FindAllStringSubmatch(s, -1) {
		v := m[0][len(m[0])-1:]
		if v == "%" {
			continue
		}
		arg := next
		if m[1] != "" {
			fmt.Sscanf(m[1], "[%d]", &arg)
		}
		if m[3] != "" {
			fmt.Sscanf(m[3], "[%d]", &arg)
		}
		next = arg + 1
		out = append(out, fmt.Sprintf("%d:%s", arg, v))
	}
	slices.Sort(out)
	return out
}

func TestCatalogueComplete(t *testing.T) {
	if len(catalogue) == 0 {
		t.Fatal("empty catalogue")
	}
	keyRE := regexp.MustCompile(`^[a-z0-9]+(\.[a-z0-9-]+)+$`)
	for _, k := range Keys() {
		e := catalogue[k]
		if !keyRE.MatchString(k) {
			t.Errorf("key %q: want area.words-with-dashes", k)
		}
		for i, l := range All {
			s := e[i]
			if strings.TrimSpace(s) == "" {
				t.Errorf("%s: no %s translation", k, l)
				continue
			}
			if s != strings.TrimSpace(s) {
				t.Errorf("%s (%s): %q has surrounding space", k, l, s)
			}
			forms := []string{s}
			if plural[k] {
				forms = strings.Split(s, "|")
				if len(forms) != pluralForms(l) {
					t.Errorf("%s (%s): %d plural forms; want %d", k, l, len(forms), pluralForms(l))
				}
			} else if strings.Contains(s, "|") {
				t.Errorf("%s (%s): %q has a | but is not a plural entry", k, l, s)
			}
			want := verbs(strings.Split(e[0], "|")[0])
			for _, f := range forms {
				if got := verbs(f); !slices.Equal(got, want) {
					t.Errorf("%s (%s): %q has verbs %v; English has %v", k, l, f, got, want)
				}
			}
			if l != EN && s == e[0] && hasWords(s) && !sameOK[k] {
				// identical to English is usually a forgotten translation
				t.Errorf("%s (%s): %q is the English text", k, l, s)
			}
		}
	}
}

// hasWords reports whether s says anything beyond its verbs and
// punctuation.
func hasWords(s string) bool {
	return strings.ContainsFunc(verbRE.ReplaceAllString(s, ""), unicode.IsLetter)
}

// sameOK are the keys whose text is rightly the same as in English in
// some language (names, symbols).
var sameOK = map[string]bool{
	"guide.pending": true, "guide.fix": true, "content.unknown": true, "result.captures": true,
	"screen.clock-paused": true, "page.blitz": true, "page.conn.online": true, "page.conn.offline": true, "page.fix": true,
	// Italian says "password" as English does.
	"console.password": true,
}

// TestEveryMessageFormats formats every message in every language with
// arguments of the right kind, and fails on any %!-error.
func TestEveryMessageFormats(t *testing.T) {
	for _, k := range Keys() {
		e := catalogue[k]
		for i, l := range All {
			for _, f := range strings.Split(e[i], "|") {
				args := sampleArgs(f)
				got := fmt.Sprintf(f, args...)
				if strings.Contains(got, "%!") {
					t.Errorf("%s (%s): %q formats as %q", k, l, f, got)
				}
			}
		}
	}
}

// sampleArgs are arguments of the right kinds for format f: 12 for %d,
// "x" for any other verb, as many as its highest argument index.
func sampleArgs(f string) []any {
	var args []any
	for _, v := range verbs(f) {
		var n int
		fmt.Sscanf(v, "%d:", &n)
		for len(args) < n {
			args = append(args, "x")
		}
		if v[len(v)-1] == 'd' {
			args[n-1] = 12
		}
	}
	return args
}

// usedRE finds the keys the code names: in calls (.T("k"), .N("k"),
// Key("k")), in structured messages (Key: "k") and in templates
// ({{t "k"}}, data-i18n="k").
var usedRE = regexp.MustCompile(`(?:\.T\(|\.N\(|Key\(|Msg\(|Key:\s*|\{\{\s*t\s+|data-i18n=)"([a-z0-9]+(?:\.[a-z0-9-]+)+)"`)

// dynamic are key prefixes the code completes at run time (e.g. with an
// engine rule name); their keys count as used.
var dynamic = []string{"rule.", "result.", "short.", "colour.", "fault.", "page.conn.", "page.mode.", "page.marble-"}

// sources returns the repository's Go, HTML and JS files outside this
// package's tables.
func sources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	root := ".."
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "vendor" || strings.HasPrefix(n, ".") && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(p)
		if ext != ".go" && ext != ".html" && ext != ".js" {
			return nil
		}
		if filepath.Base(filepath.Dir(p)) == "i18n" && !strings.HasSuffix(p, "_test.go") {
			return nil // the tables themselves
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[p] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestKeysUsedExist fails when the code names a key the catalogue lacks.
func TestKeysUsedExist(t *testing.T) {
	for p, src := range sources(t) {
		if strings.HasSuffix(p, filepath.Join("i18n", "i18n_test.go")) {
			continue
		}
		for _, m := range usedRE.FindAllStringSubmatch(src, -1) {
			if !Has(m[1]) && !slices.ContainsFunc(dynamic, func(d string) bool { return strings.HasPrefix(m[1], d) }) {
				t.Errorf("%s uses key %q, which is not in the catalogue", p, m[1])
			}
		}
	}
}

// TestNoUnusedKeys fails when a key is named nowhere in the code.
func TestNoUnusedKeys(t *testing.T) {
	var all strings.Builder
	for p, src := range sources(t) {
		if !strings.HasSuffix(p, filepath.Join("i18n", "i18n_test.go")) {
			all.WriteString(src)
		}
	}
	text := all.String()
	for _, k := range Keys() {
		if slices.ContainsFunc(dynamic, func(d string) bool { return strings.HasPrefix(k, d) }) {
			continue
		}
		if !strings.Contains(text, `"`+k+`"`) {
			t.Errorf("key %q is used nowhere (no %q in the code)", k, k)
		}
	}
}

// Package i18n holds the message catalogue of everything zertzboard
// shows to people: the status screen, the LEDs' guidance texts, the
// scoreboard, the overlay and the arbiter console, in English, German,
// French, Polish, Russian, Italian, Dutch and Spanish: the languages the
// rulebook is printed in (and its Russian edition).
//
// The catalogue is plain Go tables, key -> [8]string in the order of
// All, with fmt verbs. Each area has its own file (screen.go,
// guidance.go, scoreboard.go, console.go, ...) and registers its table in
// an init function, so that several people can add keys without
// conflicts. Tests check that every key is translated into every
// language with the same verbs.
//
// Wire formats stay English: the referee's status, need and reason
// fields, MQTT payloads and records never pass through this package.
//
// It imports only the standard library.
// Layer: base. May import: base.
package i18n

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Lang is a language of the catalogue: "en", "de", "fr", "pl", "ru",
// "it", "nl" or "es".
// The zero value is not a language; T treats it (and any unknown value)
// as English.
type Lang string

// The languages.
const (
	EN Lang = "en"
	DE Lang = "de"
	FR Lang = "fr"
	PL Lang = "pl"
	RU Lang = "ru"
	IT Lang = "it"
	NL Lang = "nl"
	ES Lang = "es"
)

// All are the languages, in the order of the catalogue's columns.
var All = []Lang{EN, DE, FR, PL, RU, IT, NL, ES}

// Default is the language used when nothing else is asked for.
const Default = EN

// Parse reads a language code. It accepts the two-letter code in any
// case and with a region ("pl-PL", "de_AT").
func Parse(s string) (Lang, error) {
	base := strings.ToLower(strings.TrimSpace(s))
	if i := strings.IndexAny(base, "-_"); i >= 0 {
		base = base[:i]
	}
	for _, l := range All {
		if base == string(l) {
			return l, nil
		}
	}
	return "", fmt.Errorf("i18n: unknown language %q: want one of %s", clip(s, 40), strings.Join(codes(), ", "))
}

func codes() []string {
	c := make([]string, len(All))
	for i, l := range All {
		c[i] = string(l)
	}
	return c
}

// clip bounds an untrusted string before it goes into an error message.
func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// FromAcceptLanguage picks the best of All for an HTTP Accept-Language
// header (RFC 9110 12.5.4): the supported language with the highest
// quality, the earliest listed on ties; English when none is supported.
func FromAcceptLanguage(h string) Lang {
	if len(h) > 1024 { // a header this long is not a browser's
		h = h[:1024]
	}
	best, bestQ := Default, -1.0
	for _, part := range strings.Split(h, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		l, err := Parse(tag)
		if err != nil {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.TrimSpace(k) == "q" {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && f >= 0 && f <= 1 {
					q = f
				}
			}
		}
		if q > 0 && q > bestQ {
			best, bestQ = l, q
		}
	}
	return best
}

// index is the language's column in the catalogue; English for unknown
// languages.
func (l Lang) index() int {
	if i := slices.Index(All, l); i >= 0 {
		return i
	}
	return 0
}

// String returns the code.
func (l Lang) String() string { return string(l) }

// Name is the language's name in itself, for a language picker.
func (l Lang) Name() string {
	return [...]string{"English", "Deutsch", "Français", "Polski", "Русский", "Italiano", "Nederlands", "Español"}[l.index()]
}

// MarshalText writes the code.
func (l Lang) MarshalText() ([]byte, error) { return []byte(l), nil }

// UnmarshalText reads a code with Parse.
func (l *Lang) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*l = p
	return nil
}

// T returns the message key in language l, formatted with args as by
// fmt.Sprintf. Args of type Key are translated first. An unknown key
// comes back as the key itself (tests make sure none is used); a missing
// translation falls back to English.
func (l Lang) T(key string, args ...any) string {
	m, ok := catalogue[key]
	if !ok {
		return key
	}
	s := m[l.index()]
	if s == "" {
		s = m[0]
	}
	if len(args) == 0 || !strings.Contains(s, "%") {
		return s // a form that leaves its arguments out
	}
	return fmt.Sprintf(s, l.args(args)...)
}

// args translates the arguments of type Key and Msg.
func (l Lang) args(args []any) []any {
	var out []any
	for i, a := range args {
		var s string
		switch a := a.(type) {
		case Key:
			s = l.T(string(a))
		case Msg:
			s = l.Msg(a)
		default:
			continue
		}
		if out == nil {
			out = slices.Clone(args)
		}
		out[i] = s
	}
	if out == nil {
		return args
	}
	return out
}

// Format returns the message key's format in language l, unformatted
// (English where l lacks it; the key itself when unknown), for callers
// that escape it before formatting, e.g. into HTML.
func (l Lang) Format(key string) string {
	m, ok := catalogue[key]
	if !ok {
		return key
	}
	if s := m[l.index()]; s != "" {
		return s
	}
	return m[0]
}

// N returns the plural message key for the count n in language l. Its
// catalogue entries hold the plural forms separated by "|": one|other in
// English, German, French, Italian, Dutch and Spanish; one|few|many in
// Polish and Russian (CLDR plural rules). args are formatted into the
// chosen form; n is not added, so put it in args where the form shows it.
func (l Lang) N(key string, n int, args ...any) string {
	m, ok := catalogue[key]
	if !ok {
		return key
	}
	s := m[l.index()]
	if s == "" {
		s, l = m[0], EN
	}
	forms := strings.Split(s, "|")
	s = forms[min(pluralForm(l, n), len(forms)-1)]
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, l.args(args)...)
}

// pluralForm is the index of the plural form of n in language l, after
// the CLDR cardinal rules for integers.
func pluralForm(l Lang, n int) int {
	if n < 0 {
		n = -n
	}
	switch l {
	case FR:
		if n <= 1 {
			return 0
		}
		return 1
	case PL:
		switch {
		case n == 1:
			return 0
		case n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14):
			return 1
		}
		return 2
	case RU:
		switch {
		case n%10 == 1 && n%100 != 11:
			return 0
		case n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14):
			return 1
		}
		return 2
	}
	if n == 1 {
		return 0
	}
	return 1
}

// pluralForms is how many "|"-separated forms a plural entry has in each
// language.
func pluralForms(l Lang) int {
	if l == PL || l == RU {
		return 3
	}
	return 2
}

// Key is a message key given as an argument: T and Msg translate it
// before formatting, e.g. T("guide.take-off", Key("colour.white"), "d4").
type Key string

// Msg is a message not yet rendered: a key and its arguments. Packages
// that must not import i18n (the referee) carry the same two fields in
// their own type.
type Msg struct {
	Key  string
	Args []any
}

// Msg renders m in language l.
func (l Lang) Msg(m Msg) string { return l.T(m.Key, m.Args...) }

// Has reports whether key is in the catalogue.
func Has(key string) bool {
	_, ok := catalogue[key]
	return ok
}

// Keys returns every key of the catalogue, sorted.
func Keys() []string {
	k := make([]string, 0, len(catalogue))
	for key := range catalogue {
		k = append(k, key)
	}
	slices.Sort(k)
	return k
}

// Entry is a catalogue entry: the message in each language of All.
type Entry = [8]string

// catalogue holds every area's table.
var catalogue = map[string]Entry{}

// plural marks the keys whose entries are plural forms for N.
var plural = map[string]bool{}

// register adds an area's table to the catalogue; a key in two areas is
// a programming error.
func register(area string, table map[string]Entry) {
	for k, v := range table {
		if _, dup := catalogue[k]; dup {
			panic("i18n: key " + k + " of " + area + " is already in the catalogue")
		}
		catalogue[k] = v
	}
}

// registerPlural adds an area's plural table (entries for N).
func registerPlural(area string, table map[string]Entry) {
	register(area, table)
	for k := range table {
		plural[k] = true
	}
}

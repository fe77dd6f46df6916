package i18n

import (
	"slices"
	"testing"
)

// FuzzAcceptLanguage: any header gives one of All; any accepted ?lang=
// reads back as itself.
func FuzzAcceptLanguage(f *testing.F) {
	for _, s := range []string{"", "pl-PL,pl;q=0.9", "de;q=0.1, ru;q=1", "*;q=0", ";;;,,q=", "fr-CA;q=abc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		if l := FromAcceptLanguage(h); !slices.Contains(All, l) {
			t.Errorf("FromAcceptLanguage(%q) = %q", h, l)
		}
		if l, err := Parse(h); err == nil {
			if p, err := Parse(l.String()); err != nil || p != l {
				t.Errorf("Parse(%q) = %q; reads back as %q, %v", h, l, p, err)
			}
		}
	})
}

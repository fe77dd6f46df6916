// Package textcheck refuses text a scoreboard could not show honestly:
// control characters, bad UTF-8, and invisible format characters (zero
// widths, bidi overrides and isolates, the byte-order mark), which can
// hide or reorder what a name says; and names that are blank.
//
// Layer: base. May import: base.
package textcheck

import (
	"unicode"
	"unicode/utf8"
)

// Problem says what is wrong with s, or "" if nothing is.
func Problem(s string) string {
	if !utf8.ValidString(s) {
		return "bad UTF-8"
	}
	for _, r := range s {
		switch {
		case unicode.IsControl(r):
			return "a control character"
		case unicode.Is(unicode.Cf, r):
			return "an invisible formatting character (zero-width or bidi)"
		}
	}
	return ""
}

// NameProblem is Problem for a name, which must also show something: not
// empty, not only spaces.
func NameProblem(s string) string {
	if p := Problem(s); p != "" {
		return p
	}
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return ""
		}
	}
	return "nothing but spaces"
}

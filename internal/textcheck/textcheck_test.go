package textcheck

import "testing"

func TestNames(t *testing.T) {
	for _, bad := range []string{"", " ", "\u00a0\u3000", "a\u200bb", "\u202eevil", "x\u2066y", "\ufeffann", "a\x00", "\xff"} {
		if NameProblem(bad) == "" {
			t.Errorf("%q accepted as a name", bad)
		}
	}
	for _, good := range []string{"ann", "Zoë Ñandú", "Łukasz", "Иван", "李", "o'neil-smith"} {
		if p := NameProblem(good); p != "" {
			t.Errorf("%q refused: %s", good, p)
		}
	}
}

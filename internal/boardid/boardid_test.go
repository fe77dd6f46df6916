package boardid

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want bool
	}{
		{"board-1", true},
		{"Club_3.table-12", true},
		{strings.Repeat("a", MaxLen), true},
		{strings.Repeat("a", MaxLen+1), false},
		{"", false},
		{"a/b", false},
		{"+", false},
		{"#", false},
		{"$SYS", false},
		{"tab le", false},
		{"tablé", false},
		{"a\x00b", false},
		{"<script>", false},
	} {
		if got := Valid(tc.id); got != tc.want {
			t.Errorf("Valid(%q) = %v; want %v", tc.id, got, tc.want)
		}
		if err := Check(tc.id); (err == nil) != tc.want {
			t.Errorf("Check(%q) = %v; want valid=%v", tc.id, err, tc.want)
		}
	}
}

func TestCheckClipsHostileIDs(t *testing.T) {
	err := Check(strings.Repeat("x", 500000))
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "500000 bytes") {
		t.Errorf("Check(500 kB ID) = %.300v; want a short error giving the length", err)
	}
}

func FuzzValid(f *testing.F) {
	f.Add("board-1")
	f.Add("a/b")
	f.Fuzz(func(t *testing.T, id string) {
		if Valid(id) && (strings.ContainsAny(id, "/+#$ \x00") || len(id) > MaxLen) {
			t.Errorf("Valid(%q) = true", id)
		}
	})
}

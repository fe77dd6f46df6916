package ini

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	src := "# top\n[base]\nboard = 61 # the hexagon\n\n[adc adc0]\nbus = SPI0.0\n"
	secs, err := Parse("x.conf", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) != 2 || secs[0].Name != "base" || secs[1].Arg != "adc0" || secs[1].Line != 5 {
		t.Fatalf("sections %+v", secs)
	}
	if e := secs[0].Get("board"); e == nil || e.Value != "61" || e.Line != 3 {
		t.Errorf("board entry %+v", e)
	}
	if secs[1].Field("bus") != "adc.adc0.bus" || secs[0].Get("none") != nil {
		t.Error("Field or Get")
	}
}

func TestParseErrors(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"[a\nk = v", "x.conf:1: section header \"[a\" has no closing ]"},
		{"[a b c]", "want [name] or [name id]"},
		{"[a]\n[a]", "x.conf:2: section [a] repeats the one on line 1"},
		{"[a]\nnot a pair", "x.conf:2: \"not a pair\": want key = value"},
		{"k = v", "x.conf:1: k: key before the first [section]"},
		{"[a]\n = v", "empty key"},
		{"[a]\nk = 1\nk = 2", "x.conf:3: a.k: repeats line 2"},
	} {
		_, err := Parse("x.conf", strings.NewReader(tt.src))
		var ie *Error
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v; want %q", tt.src, err, tt.want)
		}
	}
}

package config

import (
	"strings"
	"testing"
)

func TestClockControl(t *testing.T) {
	c, err := Parse("z.conf", strings.NewReader("[clock]\ncontrol = fischer:1h30m+30s\n"))
	if err != nil || c.Control.String() != "fischer:1h30m+30s" {
		t.Fatalf("control %v, %v", c, err)
	}
	c, err = Parse("z.conf", strings.NewReader(""))
	if err != nil || c.Control.String() != "none" {
		t.Errorf("default control %v, %v", c.Control, err)
	}
	for _, bad := range []string{"sudden:5s", "fischer:20m", "blitz", "sudden:25"} {
		_, err := Parse("z.conf", strings.NewReader("[clock]\ncontrol = "+bad+"\n"))
		if err == nil || !strings.Contains(err.Error(), "z.conf:2: clock.control") {
			t.Errorf("control = %s: %v", bad, err)
		}
	}
	if _, err := Parse("z.conf", strings.NewReader("[clock]\nbase = 5m\n")); err == nil || !strings.Contains(err.Error(), "clock.base: unknown key") {
		t.Errorf("unknown clock key: %v", err)
	}
}

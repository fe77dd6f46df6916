package view

import (
	"net/url"
	"strings"
	"testing"
)

func TestParseOverlay(t *testing.T) {
	for _, c := range []struct {
		query, class, scale, err string
	}{
		{"", "", "", ""},
		{"overlay=1", "overlay layout-full", "", ""},
		{"layout=lowerthird", "overlay layout-lowerthird", "", ""},
		{"overlay=1&layout=Board&analysis=0&clocks=0&eval=1", "overlay layout-board eval noanalysis noclocks", "", ""},
		{"overlay=1&scale=1.50", "overlay layout-full", "1.5", ""},
		{"layout=side", "", "", `layout="side": want one of full, board, panel, lowerthird`},
		{"overlay=1&scale=9", "", "", `scale="9": want a number from 0.5 to 3`},
		{"overlay=1&scale=NaN", "", "", `scale="NaN"`},
		{"analysis=maybe", "", "", `analysis="maybe": want 1 or 0`},
	} {
		q, _ := url.ParseQuery(c.query)
		o, err := ParseOverlay(q)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v; want %q", c.query, err, c.err)
			}
		case err != nil:
			t.Errorf("%q: %v", c.query, err)
		case o.BodyClass() != c.class || o.Scale != c.scale:
			t.Errorf("%q: class %q scale %q; want %q %q", c.query, o.BodyClass(), o.Scale, c.class, c.scale)
		}
	}
}

package scoreboard

import (
	"io"
	"net/http"
	"net/http/httptest"
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
		o, err := parseOverlay(q)
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

// TestOverlayPage: the page carries the options; a bad one is refused
// with 400 naming it.
func TestOverlayPage(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/board/b1?layout=panel&scale=2&clocks=0"); code != http.StatusNotFound ||
		!strings.Contains(body, `class="overlay layout-panel noclocks boardpage"`) || !strings.Contains(body, `data-scale="2"`) {
		t.Errorf("%d %.600s", code, body)
	}
	if code, body := get("/?layout=corner"); code != http.StatusBadRequest || !strings.Contains(body, "layout=") {
		t.Errorf("a bad layout: %d %q", code, body)
	}
}

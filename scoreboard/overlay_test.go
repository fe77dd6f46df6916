package scoreboard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

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

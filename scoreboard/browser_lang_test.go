package scoreboard

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/zertzboard/zertzboard/i18n"
)

// TestBrowserLanguages opens a board in Russian and follows a game live:
// the page, patched state by state, shows the Russian view (the same DOM
// as the Russian view parsed whole); the picker switches it to Polish.
func TestBrowserLanguages(t *testing.T) {
	br := startBrowser(t, 1280, 720)
	rec, rep := sampleGameOf(t, "37", 30)
	states := gameStates(t, rec, rep, "t1")
	s := New(Options{Logger: testLogger(t)})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	s.Handle("zertz/t1/status", []byte("online"))
	s.Handle("zertz/t1/state", stateJSON(t, states[0]))

	br.navigate(srv.URL + "/board/t1?lang=ru")
	br.waitFor("the Russian page", `document.documentElement.lang === "ru" && document.querySelector(".pool h3").textContent === "Запас"`)
	br.waitFor("the event stream", `window.zbApplied && window.zbApplied.length > 0`)
	for _, st := range states[1:20] {
		s.Handle("zertz/t1/state", stateJSON(t, st))
	}
	seq := states[19].Seq
	br.waitFor(fmt.Sprintf("seq %d", seq), fmt.Sprintf(`window.zbApplied.some((a) => a.seq === %d)`, seq))
	var text string
	br.eval(`document.querySelector(".moves h3").textContent + " | " + document.querySelector(".status").textContent`, &text)
	want := i18n.RU.T("page.moves") + " " + i18n.RU.N("page.played", states[19].Turn, states[19].Turn)
	if len(text) < len(want) || text[:len(want)] != want {
		t.Errorf("moves header and status %q; want it to start %q", text, want)
	}
	var patched int
	br.eval(`window.zbPatched || 0`, &patched)
	if patched == 0 {
		t.Error("no Russian view came as a patch")
	}
	f, _ := s.currentFrameLang("t1", i18n.RU)
	js, _ := json.Marshal(f.HTML)
	var same bool
	br.eval(fmt.Sprintf(`(() => { const d = document.createElement("div"); d.innerHTML = %s; return d.firstElementChild.isEqualNode(document.querySelector("#view").firstElementChild); })()`, js), &same)
	if !same {
		t.Error("the patched Russian page is not the Russian view")
	}
	br.screenshot("scoreboard-37-ru.png")

	var href string
	br.eval(`document.querySelector('.langs a[hreflang="pl"]').getAttribute("href")`, &href)
	br.navigate(srv.URL + href)
	br.waitFor("the Polish page", `document.documentElement.lang === "pl" && document.querySelector(".pool h3") && document.querySelector(".pool h3").textContent === "Pula"`)
}

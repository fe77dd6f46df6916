package scoreboard

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"slices"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/scoreboard/view"
)

// viewerDOM is what the test reads of a position shown.
type viewerDOM struct {
	Turn   string            `json:"turn"`
	Phase  string            `json:"phase"`
	Cells  map[string]string `json:"cells"`
	Cur    string            `json:"cur"`
	Clocks []string          `json:"clocks"`
	Slider string            `json:"slider"`
}

const readViewer = `((root) => {
	const sb = root.querySelector(".sb");
	const cells = {};
	root.querySelectorAll("[data-cell]").forEach((g) => { cells[g.dataset.cell] = g.dataset.content; });
	const cur = root.querySelector(".moves li.cur");
	const slider = document.getElementById("slider");
	return {turn: sb.dataset.turn, phase: sb.dataset.phase, cells, cur: cur ? cur.dataset.n : "",
		clocks: Array.from(root.querySelectorAll(".player .clock")).map((c) => c.textContent), slider: slider ? slider.value : ""};
})`

// checkShown compares the position shown with the record after n turns:
// every cell, the turn, the move marked, and the clocks after that turn.
func checkShown(t *testing.T, got viewerDOM, rec *record.Record, rep *record.Replay, n int, clocks bool) {
	t.Helper()
	b, _, _ := rec.Board()
	cells := rep.Game.PositionAfter(n).Cells()
	for c := 0; c < b.Len(); c++ {
		label := b.Label(engine.Cell(c))
		if want := string(cells[c]); got.Cells[label] != want {
			t.Errorf("turn %d: cell %s shows %q; want %q", n, label, got.Cells[label], want)
		}
	}
	if got.Turn != fmt.Sprint(n) {
		t.Errorf("shows turn %s; want %d", got.Turn, n)
	}
	if want := fmt.Sprint(n); n > 0 && got.Cur != want {
		t.Errorf("turn %d: the move list marks move %q", n, got.Cur)
	}
	if clocks {
		rem := [2]int64{600000, 600000}
		if n > 0 {
			rem = remainingAfter(n)
		}
		if want := []string{view.FmtClock(rem[0]), view.FmtClock(rem[1])}; !slices.Equal(got.Clocks, want) {
			t.Errorf("turn %d: clocks %q; want %q", n, got.Clocks, want)
		}
	}
}

// TestBrowserViewer: the game viewer steps through a whole 61-ring game by
// the arrow keys, then back by clicks on its buttons; a click on a move
// and the slider go to that turn; each position is the record's, with
// the clocks after that turn. The analysis of a position shows when
// asked, and "missed wins" marks the turns the server names. The live
// page steps back through the game under way and returns to live with L.
func TestBrowserViewer(t *testing.T) {
	br := startBrowser(t, 1280, 800)
	f := newPagesFixture(t)
	rec, rep := f.rec61, f.rep61
	total := rep.Game.Len()
	br.navigate(f.srv.URL + "/results/t61-1")
	br.waitFor("the viewer", `document.body.dataset.live && window.zbViewer`)
	var got viewerDOM
	br.eval(readViewer+`(document.getElementById("view"))`, &got)
	checkShown(t, got, rec, rep, total, true)
	if got.Phase != "over" {
		t.Errorf("the final position shows phase %q", got.Phase)
	}
	shown := func(n int) viewerDOM {
		t.Helper()
		br.waitFor(fmt.Sprintf("turn %d", n), fmt.Sprintf(`window.zbViewer.shown === %d && document.querySelector('#view .sb[data-turn="%d"]')`, n, n))
		var got viewerDOM
		br.eval(readViewer+`(document.getElementById("view"))`, &got)
		if got.Slider != fmt.Sprint(n) {
			t.Errorf("turn %d: the slider says %s", n, got.Slider)
		}
		return got
	}

	// By keys: Home, then → through the whole game.
	br.key("Home", "Home", 36)
	checkShown(t, shown(0), rec, rep, 0, true)
	br.screenshot("viewer-start.png")
	for n := 1; n <= total; n++ {
		br.key("ArrowRight", "ArrowRight", 39)
		checkShown(t, shown(n), rec, rep, n, true)
		if t.Failed() {
			t.FailNow()
		}
	}
	br.key("ArrowRight", "ArrowRight", 39) // past the end: stays
	br.key("ArrowLeft", "ArrowLeft", 37)
	checkShown(t, shown(total-1), rec, rep, total-1, true)

	// By clicks: the "previous" button back to the start, the "next" one
	// forward again.
	for n := total - 2; n >= 0; n-- {
		br.click("#prev")
		checkShown(t, shown(n), rec, rep, n, true)
		if t.Failed() {
			t.FailNow()
		}
	}
	for n := 1; n <= total; n++ {
		br.click("#next")
		checkShown(t, shown(n), rec, rep, n, true)
		if t.Failed() {
			t.FailNow()
		}
	}
	// A move in the list, the slider, the first and last buttons.
	br.click(`#view .moves li[data-n="12"]`)
	checkShown(t, shown(12), rec, rep, 12, true)
	br.screenshot("viewer-turn12.png")
	marblesPainted(t, br, "#view")
	br.eval(`(() => { const s = document.getElementById("slider"); s.value = "27"; s.dispatchEvent(new Event("input")); return true; })()`, nil)
	checkShown(t, shown(27), rec, rep, 27, true)
	br.click("#first")
	checkShown(t, shown(0), rec, rep, 0, true)
	br.click("#last")
	checkShown(t, shown(total), rec, rep, total, true)

	// The forced-win search of a position, on demand; and the missed wins.
	resp, err := http.Get(f.srv.URL + "/results/t61-1/missed.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Positions []posSearch `json:"positions"`
		Missed    []int       `json:"missed"`
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err := json.Unmarshal(body, &m); err != nil || len(m.Positions) != total+1 {
		t.Fatalf("missed.json: %v, %d positions: %.300s", err, len(m.Positions), body)
	}
	at := total - 4
	for n := total - 1; n >= 0; n-- {
		if m.Positions[n].Win != nil {
			at = n
			break
		}
	}
	br.eval(fmt.Sprintf(`(() => { const s = document.getElementById("slider"); s.value = "%d"; s.dispatchEvent(new Event("input")); return true; })()`, at), nil)
	shown(at)
	br.click("#analysis")
	want := `#view .banner.analysis`
	if m.Positions[at].Win != nil {
		want = fmt.Sprintf(`#view .banner.analysis.win[data-forced-player="%d"]`, m.Positions[at].Win.Player)
	}
	br.waitFor("the analysis", fmt.Sprintf(`document.querySelector(%q)`, want))
	br.screenshot("viewer-analysis.png")
	br.click("#missed")
	br.waitFor("the missed wins", `window.zbViewer.missed !== undefined`)
	var marked []int
	br.eval(`Array.from(document.querySelectorAll("#view .moves li.missed")).map((li) => Number(li.dataset.n))`, &marked)
	if !slices.Equal(marked, m.Missed) && !(len(marked) == 0 && len(m.Missed) == 0) {
		t.Errorf("the list marks %v; the server names %v", marked, m.Missed)
	}
	t.Logf("%d positions searched; missed wins at turns %v", len(m.Positions), m.Missed)

	// The live page looks back through the game under way.
	br.navigate(f.srv.URL + "/board/t2")
	br.waitFor("the live page", fmt.Sprintf(`document.body.dataset.live && document.querySelector('#view .sb[data-turn="%d"]')`, f.liveN))
	pastAt := func(n int) {
		t.Helper()
		br.waitFor(fmt.Sprintf("turn %d shown", n), fmt.Sprintf(`window.zbPast === %d && getComputedStyle(document.getElementById("view")).visibility === "hidden" && document.querySelector('#past .sb[data-turn="%d"]')`, n, n))
		var got viewerDOM
		br.eval(readViewer+`(document.getElementById("past"))`, &got)
		checkShown(t, got, f.live, f.liveRep, n, true)
		marblesPainted(t, br, "#past")
	}
	br.key("ArrowLeft", "ArrowLeft", 37)
	pastAt(f.liveN - 1)
	br.key("ArrowLeft", "ArrowLeft", 37)
	pastAt(f.liveN - 2)
	br.screenshot("live-look-back.png")
	br.key("ArrowRight", "ArrowRight", 39)
	pastAt(f.liveN - 1)
	br.key("l", "KeyL", 76)
	br.waitFor("live again", `window.zbPast === null && getComputedStyle(document.getElementById("view")).visibility === "visible" && document.getElementById("past").hidden`)
	br.key("Home", "Home", 36)
	pastAt(0)
	br.key("Escape", "Escape", 27)
	br.waitFor("live again", `window.zbPast === null && getComputedStyle(document.getElementById("view")).visibility === "visible"`)
}

// marblesPainted checks, in a screenshot, that a dark marble of the board
// under root is painted: the pixel at its centre differs clearly from the
// one at the centre of a vacant ring (the page's background).
func marblesPainted(t *testing.T, br *browser, root string) {
	t.Helper()
	var at struct {
		MX, MY, RX, RY float64
		Found          bool
	}
	br.eval(fmt.Sprintf(`(() => {
		const m = document.querySelector(%q + ' .cell[data-content="b"] circle.marble, ' + %q + ' .cell[data-content="g"] circle.marble');
		const r = document.querySelector(%q + ' .cell[data-content="o"] circle.ring');
		if (!m || !r) return {Found: false};
		const a = m.getBoundingClientRect(), b = r.getBoundingClientRect();
		return {MX: a.left + a.width / 2, MY: a.top + a.height / 2, RX: b.left + b.width / 2, RY: b.top + b.height / 2, Found: true};
	})()`, root, root, root), &at)
	if !at.Found {
		return
	}
	var r struct {
		Data string `json:"data"`
	}
	br.call("Page.captureScreenshot", map[string]any{"format": "png"}, &r)
	data, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	lum := func(x, y float64) int {
		c, _, _, _ := color.GrayModel.Convert(img.At(int(x), int(y))).RGBA()
		return int(c >> 8)
	}
	if m, bg := lum(at.MX, at.MY), lum(at.RX, at.RY); bg-m < 40 {
		t.Errorf("%s: a dark marble is not painted (luminance %d at its centre, %d in an empty ring)", root, m, bg)
	}
}

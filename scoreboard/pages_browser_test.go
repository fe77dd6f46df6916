package scoreboard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/solve"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/wire"
)

// The pages at a phone's, a tablet's and a 1080p screen's size, the
// overlay's layouts, the game viewer and the live page's look back, in
// headless Chromium. Screenshots go to $ZERTZBOARD_ARTIFACTS (else the
// test's temporary directory; each is logged).

// pagesFixture is a scoreboard with a finished 61-ring game in its
// results (game t61-1, with each turn's clock times), and a 37-ring game
// under way on board t2, with clocks and long names.
type pagesFixture struct {
	s       *Server
	srv     *httptest.Server
	rec61   *record.Record // the finished game as recorded, with its clocks
	rep61   *record.Replay
	live    *record.Record // t2's game so far
	liveRep *record.Replay
	liveN   int // turns played on t2
}

// a61 is a 61-ring sample game, finished on the board if one is, else
// ended by a resignation.
func a61(t testing.TB) (*record.Record, *record.Replay) {
	t.Helper()
	files, err := samples.Records(samples.BuiltinDir())
	if err != nil {
		t.Fatal(err)
	}
	var fallback *record.Record
	var fallbackRep *record.Replay
	for _, f := range files {
		rec, err := record.ReadFile(f)
		if err != nil || rec.Variant != "61" {
			continue
		}
		rep, err := rec.Replay()
		if err != nil || rep.Game.Len() < 20 {
			continue
		}
		if rep.Result.Outcome == record.Win && rep.Result.Reason != "" {
			return recordUpTo(rec, rep, rep.Game.Len()), rep
		}
		if fallback == nil {
			fallback, fallbackRep = recordUpTo(rec, rep, rep.Game.Len()), rep
		}
	}
	if fallback == nil {
		t.Fatal("no 61-ring sample game of 20 turns")
		return nil, nil // testing.TB's Fatal does not return; staticcheck cannot tell
	}
	fallback.Stop = record.Stop{Kind: record.Resign, Player: fallbackRep.Game.Position().ToMove()}
	return fallback, fallbackRep
}

// remainingAfter is the clocks the fixture gives after n turns.
func remainingAfter(n int) [2]int64 {
	return [2]int64{int64(600000 - n*4100), int64(600000 - n*3700)}
}

func newPagesFixture(t *testing.T) *pagesFixture {
	t.Helper()
	f := &pagesFixture{s: New(Options{Logger: testLogger(t)})}
	f.srv = httptest.NewServer(f.s.Handler())
	t.Cleanup(f.srv.Close)
	t.Cleanup(f.s.Close)

	rec, rep := a61(t)
	rec.Players = [2]string{"shoto", "Dumbot"}
	rec.Clock = &record.Clock{Control: "sudden:10m"}
	for n := 1; n <= len(rec.Turns); n++ {
		rem := remainingAfter(n)
		rec.Clock.Turns = append(rec.Clock.Turns, record.TurnTime{UsedMS: 4000, Remaining: &rem})
	}
	// A long tournament name (one word longer than a phone is wide) and
	// its round, on every page the game shows on.
	rec.Event, rec.Round = "Weltmeisterschaftsvorqualifikationsturnierrunde Nordrhein-Westfalen 2026", "12"
	f.rec61, f.rep61 = rec, rep
	states := gameStates(t, rec, rep, "t61")
	for i := range states {
		states[i].Event, states[i].Round = rec.Event, rec.Round
	}
	last := &states[len(states)-1]
	if rec.Stop.Kind == record.Resign {
		w := 1 - rec.Stop.Player
		last.Phase, last.Result, last.Winner = "over", "resignation", &w
	}
	f.s.Handle("zertz/t61/status", []byte("online"))
	for n, st := range states {
		f.feed("t61", st, "t61-1", remainingAfter(n))
		part := *rec
		part.Turns = rec.Turns[:n]
		part.Clock = &record.Clock{Control: rec.Clock.Control, Turns: rec.Clock.Turns[:n]}
		if n < len(states)-1 {
			part.Stop = record.Stop{}
		} else {
			// The arbiter's notes, one a word longer than a phone is
			// wide: on the results page under the game's row.
			part.Notes = []record.Note{{Turn: 0, Text: "board t61 replaced before the start"},
				{Turn: 12, Text: "shoto warned for touch-move"},
				{Turn: n, Text: "result confirmed by both players; Schiedsrichterentscheidungsprotokollnachtragsvermerkzusatz"}}
		}
		f.s.Handle("zertz/t61/record", recordJSON(t, &part))
	}
	if g := f.s.res.Get("t61-1"); g == nil {
		t.Fatal("the 61-ring game is not in the results")
	}

	lrec, lrep := sampleGameOf(t, "37", 24)
	lrec.Players = [2]string{"Anna-Maria Wojciechowska-Kowalczyk", "Bartholomew Featherstonehaugh"}
	f.liveN = 20
	f.live = recordUpTo(lrec, lrep, f.liveN)
	f.live.Players = lrec.Players
	f.liveRep = lrep
	lstates := gameStates(t, lrec, lrep, "t2")
	f.s.Handle("zertz/t2/status", []byte("online"))
	for n := 0; n <= f.liveN; n++ {
		f.feed("t2", lstates[n], "t2-1", remainingAfter(n))
		f.s.Handle("zertz/t2/record", recordJSON(t, recordUpToNamed(lrec, lrep, n)))
	}
	return f
}

// recordUpToNamed is the record a board publishes after n turns: the
// players' names and each turn's clock times.
func recordUpToNamed(rec *record.Record, rep *record.Replay, n int) *record.Record {
	r := recordUpTo(rec, rep, n)
	r.Players = rec.Players
	r.Clock = &record.Clock{Control: "sudden:10m"}
	for i := 1; i <= n; i++ {
		rem := remainingAfter(i)
		r.Clock.Turns = append(r.Clock.Turns, record.TurnTime{UsedMS: 4000, Remaining: &rem})
	}
	return r
}

// feed hands the scoreboard a state as its board publishes it, with clocks.
func (f *pagesFixture) feed(board string, st wire.State, gameID string, rem [2]int64) {
	ps := planState{State: st, GameID: gameID}
	ps.Clock = wire.Clock{Control: "sudden:10m", Remaining: &rem}
	if st.Phase != "over" {
		p := st.ToMove
		ps.Clock.Running = &p
	}
	b, _ := json.Marshal(ps)
	f.s.Handle("zertz/"+board+"/state", b)
}

// resize sets the page's size; narrow sizes are emulated as a phone's or
// a tablet's screen (touch, the viewport meta tag honoured).
func (b *browser) resize(width, height int) {
	b.t.Helper()
	b.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 900}, nil)
}

// key presses a key in the page (keyDown, then keyUp).
func (b *browser) key(key, code string, vk int) {
	b.t.Helper()
	for _, typ := range []string{"rawKeyDown", "keyUp"} {
		b.call("Input.dispatchKeyEvent", map[string]any{"type": typ, "key": key, "code": code, "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk}, nil)
	}
}

// click clicks the centre of the element the selector finds, as a mouse
// would (scrolled into view first).
func (b *browser) click(selector string) {
	b.t.Helper()
	var at struct{ X, Y float64 }
	b.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.scrollIntoView({block: "center"}); const r = e.getBoundingClientRect(); return {X: r.left + r.width / 2, Y: r.top + r.height / 2}; })()`, selector), &at)
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		b.call("Input.dispatchMouseEvent", map[string]any{"type": typ, "x": at.X, "y": at.Y, "button": "left", "clickCount": 1}, nil)
	}
}

// layoutCheck is what the page says of its layout.
type layoutCheck struct {
	Width, Height int
	Overflow      int      // how far the page runs past the right edge
	Problems      []string // elements out of the viewport
}

// checkLayout reads the page's layout: no horizontal overflow; the
// board's box (if any) inside the viewport and, below 900 px, filling
// its width; each clock (if wanted) visible without scrolling.
const checkLayout = `((wantClocks) => {
	const W = innerWidth, H = innerHeight, problems = [];
	const box = (e) => { const r = e.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)]; };
	const inside = (r) => r[0] >= -1 && r[1] >= -1 && r[2] <= W + 1 && r[3] <= H + 1 && r[2] > r[0] && r[3] > r[1];
	window.scrollTo(0, 0);
	const board = document.querySelector("#view svg.board, #past:not([hidden]) svg.board");
	if (board) {
		const r = box(board);
		if (!inside(r)) problems.push("the board's box " + r + " is not inside " + W + "x" + H);
		if (W < 900 && r[2] - r[0] < 0.9 * W) problems.push("the board is " + (r[2] - r[0]) + " px wide of " + W);
	}
	if (wantClocks) {
		const clocks = document.querySelectorAll("#view .sb .clock");
		if (clocks.length === 0) problems.push("no clocks");
		clocks.forEach((c) => { if (!inside(box(c))) problems.push("clock " + c.dataset.k + " at " + box(c) + " is not visible in " + W + "x" + H); });
	}
	// Every element's right edge within the page (what a phone would
	// scroll sideways to).
	for (const e of document.body.querySelectorAll("*")) {
		const r = e.getBoundingClientRect();
		if (r.width > 0 && r.right > W + 1 && getComputedStyle(e).position !== "fixed" && !e.closest("svg")) {
			problems.push(e.tagName.toLowerCase() + "." + e.className + " reaches " + Math.round(r.right) + " px");
			if (problems.length > 8) break;
		}
	}
	return {Width: W, Height: H, Overflow: document.documentElement.scrollWidth - W, Problems: problems};
})`

var screenSizes = []struct {
	name          string
	width, height int
}{{"phone", 390, 844}, {"tablet", 768, 1024}, {"1080p", 1920, 1080}}

// TestBrowserLayouts: every page at the three sizes: nothing runs off the
// right edge, the board's box is inside the viewport (and fills the width
// of a phone or a tablet), and a board page's clocks are visible without
// scrolling.
func TestBrowserLayouts(t *testing.T) {
	br := startBrowser(t, 1280, 720)
	f := newPagesFixture(t)
	pages := []struct {
		name, path, ready string
		clocks            bool
	}{
		{"board", "/board/t2", `document.body.dataset.live && document.querySelector("#view .sb[data-turn]")`, true},
		{"board61", "/board/t61", `document.body.dataset.live && document.querySelector("#view .sb[data-turn]")`, true},
		{"tournament", "/", `document.querySelector('.card[data-board="t2"]')`, false},
		{"results", "/results", `document.querySelector('tr[data-game="t61-1"]') && document.querySelectorAll('tr[data-notes-of="t61-1"] ul.notes li').length === 3`, false},
		{"viewer", "/results/t61-1", `document.body.dataset.live && document.querySelector("#view .sb[data-turn]")`, true},
		{"watch", "/watch", `document.querySelector("svg.qr")`, false},
	}
	for _, sz := range screenSizes {
		br.resize(sz.width, sz.height)
		for _, p := range pages {
			br.navigate(f.srv.URL + p.path)
			br.waitFor(p.name, `document.readyState === "complete" && `+p.ready)
			var got layoutCheck
			br.eval(fmt.Sprintf("%s(%v)", checkLayout, p.clocks), &got)
			if got.Width != sz.width {
				t.Fatalf("%s at %s: the page is %d px wide; want %d", p.name, sz.name, got.Width, sz.width)
			}
			if got.Overflow > 0 || len(got.Problems) > 0 {
				t.Errorf("%s at %s (%dx%d): overflow %d px; %s", p.name, sz.name, got.Width, got.Height, got.Overflow, strings.Join(got.Problems, "; "))
			}
			br.screenshot(fmt.Sprintf("layout-%s-%s.png", p.name, sz.name))
		}
	}
	// The light theme follows the system's preference; the dark one is the
	// default otherwise.
	br.resize(1920, 1080)
	for _, scheme := range []struct{ name, bg string }{{"light", "rgb(238, 242, 245)"}, {"dark", "rgb(23, 36, 49)"}} {
		br.call("Emulation.setEmulatedMedia", map[string]any{"features": []map[string]string{{"name": "prefers-color-scheme", "value": scheme.name}}}, nil)
		for _, p := range pages[:2] {
			br.navigate(f.srv.URL + p.path)
			br.waitFor(p.name, p.ready)
			var bg string
			br.eval(`getComputedStyle(document.documentElement).getPropertyValue("--bg1").trim() === "" ? "" : getComputedStyle(document.body).getPropertyValue("--bg1").trim()`, &bg)
			var want string
			br.eval(fmt.Sprintf(`(() => { const d = document.createElement("div"); d.style.color = %q; document.body.append(d); const c = getComputedStyle(d).color; d.remove(); return c; })()`, bg), &want)
			if want != scheme.bg {
				t.Errorf("%s in the %s scheme: background colour %s (%s); want %s", p.name, scheme.name, bg, want, scheme.bg)
			}
			br.screenshot(fmt.Sprintf("theme-%s-%s.png", p.name, scheme.name))
		}
	}
	br.call("Emulation.setEmulatedMedia", map[string]any{"features": []map[string]string{}}, nil)

	// The tournament view never clips a name: each wraps, whole, with a
	// title; and its black marbles have a light outline.
	br.resize(390, 844)
	br.navigate(f.srv.URL + "/")
	br.waitFor("the cards", `document.querySelector('.card[data-board="t2"]')`)
	var clipped []string
	br.eval(`Array.from(document.querySelectorAll(".card .pname")).filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1 ||
		(e.textContent.length > 16 && e.title !== e.textContent)).map((e) => e.textContent + " (" + e.title + "): " + e.scrollWidth + ">" + e.clientWidth)`, &clipped)
	var long int
	br.eval(`document.querySelectorAll(".card .pname.long[title]").length`, &long)
	if long != 2 {
		t.Errorf("%d long names with a title; want t2's two", long)
	}
	if len(clipped) > 0 {
		t.Errorf("clipped or untitled names: %q", clipped)
	}
	var outline string
	br.eval(`(() => { const m = document.querySelector(".mini .m.b"); return m ? getComputedStyle(m).stroke : "no black marble"; })()`, &outline)
	if outline != "rgb(201, 208, 216)" {
		t.Errorf("a mini-board's black marble has stroke %q; want the light outline", outline)
	}
}

// TestBrowserOverlayLayouts: each overlay layout at 1920x1080 on a
// transparent background: the screenshot's corners are transparent,
// clock digits are 28 px or more and names 20 px or more, banners are as
// wide as their text, and analysis=0 and clocks=0 hide those.
func TestBrowserOverlayLayouts(t *testing.T) {
	br := startBrowser(t, 1920, 1080)
	br.call("Emulation.setDefaultBackgroundColorOverride", map[string]any{"color": map[string]any{"r": 0, "g": 0, "b": 0, "a": 0}}, nil)
	f := newPagesFixture(t)
	// A forced win on t2, for the analysis line.
	st := gameStates(t, f.live, f.liveRep, "t2")[f.liveN]
	st.Analysis = &wire.Analysis{MaxTurns: 2, Depth: 1}
	st.Analysis.ForcedWin = forcedWinOf(t, f.live, f.liveRep, f.liveN)
	f.feed("t2", st, "t2-1", remainingAfter(f.liveN))
	type overlayCheck struct {
		Background string
		Clock      float64 // the smallest clock font size shown (0: none)
		Name       float64 // the smallest name font size shown
		Banner     []string
		Analysis   bool // the analysis line is shown
		Board      bool // the board is shown
		Panel      bool // the players are shown
		Overflow   int
	}
	const read = `(() => {
		const shown = (e) => e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
		const sizes = (sel) => Array.from(document.querySelectorAll(sel)).filter(shown).map((e) => parseFloat(getComputedStyle(e).fontSize));
		const min = (a) => a.length ? Math.min(...a) : 0;
		const banners = [];
		document.querySelectorAll("#view .banner").forEach((b) => {
			if (!shown(b)) return;
			const r = b.getBoundingClientRect();
			const range = document.createRange(); range.selectNodeContents(b);
			const text = range.getBoundingClientRect();
			if (r.width > text.width + 80) banners.push(b.className + ": " + Math.round(r.width) + " px for " + Math.round(text.width) + " px of text");
		});
		return {Background: getComputedStyle(document.body).backgroundColor, Clock: min(sizes("#view .clock")), Name: min(sizes("#view .pname")),
			Banner: banners, Analysis: shown(document.querySelector("#view .analysis-line polyline, #view .analysis-line circle")),
			Board: shown(document.querySelector("#view svg.board")), Panel: shown(document.querySelector("#view .player")),
			Overflow: document.documentElement.scrollWidth - innerWidth};
	})()`
	for _, c := range []struct {
		query                          string
		board, panel, clocks, analysis bool
	}{
		{"overlay=1", true, true, true, true},
		{"layout=full&scale=1.25", true, true, true, true},
		{"layout=board", true, false, false, true},
		{"layout=panel", false, true, true, false},
		{"layout=lowerthird", false, true, true, false},
		{"overlay=1&analysis=0&clocks=0", true, true, false, false},
	} {
		br.navigate(f.srv.URL + "/board/t2?" + c.query)
		br.waitFor(c.query, fmt.Sprintf(`document.body.dataset.live && document.querySelector('#view .sb[data-seq="%d"]')`, st.Seq))
		var got overlayCheck
		br.eval(read, &got)
		name := "overlay-" + strings.NewReplacer("=", "-", "&", "_").Replace(c.query) + ".png"
		path := br.screenshot(name)
		if got.Background != "rgba(0, 0, 0, 0)" {
			t.Errorf("%s: the body's background is %s", c.query, got.Background)
		}
		if corner := cornerAlpha(t, path); corner != 0 {
			t.Errorf("%s: the screenshot's corner has alpha %d; want a transparent frame", c.query, corner)
		}
		if got.Board != c.board || got.Panel != c.panel || got.Analysis != c.analysis || (got.Clock > 0) != c.clocks {
			t.Errorf("%s: board %v panel %v analysis %v clocks %v; want %v %v %v %v", c.query, got.Board, got.Panel, got.Analysis, got.Clock > 0, c.board, c.panel, c.analysis, c.clocks)
		}
		if c.clocks && got.Clock < 28 {
			t.Errorf("%s: clock digits of %g px; want 28 or more", c.query, got.Clock)
		}
		if c.panel && got.Name < 20 {
			t.Errorf("%s: names of %g px; want 20 or more", c.query, got.Name)
		}
		if len(got.Banner) > 0 {
			t.Errorf("%s: banners wider than their text: %q", c.query, got.Banner)
		}
		if got.Overflow > 0 {
			t.Errorf("%s: the page runs %d px past the frame", c.query, got.Overflow)
		}
	}
}

// forcedWinOf is a made-up forced-win line for the position after n
// turns: its first legal turn (the drawing is what is tested).
func forcedWinOf(t *testing.T, rec *record.Record, rep *record.Replay, n int) *solve.ReportWin {
	t.Helper()
	p := rep.Game.PositionAfter(n)
	turns := p.LegalTurns(nil)
	if len(turns) == 0 {
		t.Fatal("no legal turn")
	}
	b, _, _ := rec.Board()
	return &solve.ReportWin{Player: p.ToMove(), Turns: 1, Line: []string{engine.FormatTurn(b, turns[0])}}
}

// cornerAlpha is the alpha of the PNG's top-left pixel.
func cornerAlpha(t *testing.T, path string) uint32 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, a := img.At(0, 0).RGBA()
	return a >> 8
}

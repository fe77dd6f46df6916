package scoreboard

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// domView is what the test reads back from the page.
type domView struct {
	Seq      string            `json:"seq"`
	Turn     string            `json:"turn"`
	ToMove   string            `json:"toMove"`
	Phase    string            `json:"phase"`
	Cells    map[string]string `json:"cells"`
	Rings    int               `json:"rings"`
	Captures []string          `json:"captures"`
	Moves    []string          `json:"moves"`
	Banner   string            `json:"banner"`
}

const readDOM = `(() => {
	const sb = document.querySelector("#view .sb");
	const cells = {};
	document.querySelectorAll("#view [data-cell]").forEach((g) => { cells[g.dataset.cell] = g.dataset.content; });
	return {
		seq: sb.dataset.seq, turn: sb.dataset.turn, toMove: sb.dataset.toMove, phase: sb.dataset.phase, cells,
		rings: document.querySelectorAll("#view svg .ring").length,
		captures: Array.from(document.querySelectorAll("#view .player")).map((p) => p.dataset.captures),
		moves: Array.from(document.querySelectorAll("#view .moves li")).map((li) => li.textContent),
		banner: Array.from(document.querySelectorAll("#view .banner")).map((b) => b.textContent).join(" | "),
	};
})()`

// checkPosition compares the page with the record after n turns, which
// it computes from the record itself, not from the states published.
func checkPosition(t *testing.T, got domView, rec *record.Record, rep *record.Replay, n int) {
	t.Helper()
	b, _, _ := rec.Board()
	p := rep.Game.PositionAfter(n)
	cells := p.Cells()
	if got.Rings != b.Len() || len(got.Cells) != b.Len() {
		t.Errorf("turn %d: %d rings, %d cells on the page; want %d", n, got.Rings, len(got.Cells), b.Len())
	}
	for c := 0; c < b.Len(); c++ {
		label := b.Label(engine.Cell(c))
		if want := string(cells[c]); got.Cells[label] != want {
			t.Errorf("turn %d: cell %s shows %q; want %q", n, label, got.Cells[label], want)
		}
	}
	for i := 0; i < 2; i++ {
		c := p.Captures(i)
		want := fmt.Sprintf("%d %d %d", c[0], c[1], c[2])
		if i >= len(got.Captures) || got.Captures[i] != want {
			t.Errorf("turn %d: player %d captures %v; want %s", n, i, got.Captures, want)
		}
	}
	if want := fmt.Sprint(p.ToMove()); got.ToMove != want {
		t.Errorf("turn %d: to move %s; want %s", n, got.ToMove, want)
	}
	if got.Turn != fmt.Sprint(n) || len(got.Moves) != n {
		t.Errorf("turn %d: the page shows turn %s with %d moves", n, got.Turn, len(got.Moves))
	}
	for i := 0; i < n && i < len(got.Moves); i++ {
		turn, _ := rep.Game.Turn(i)
		if want := engine.FormatTurn(b, turn); got.Moves[i] != want {
			t.Errorf("move %d shows %q; want %q", i+1, got.Moves[i], want)
		}
	}
}

// pickTurn is a mid-game turn whose last move is a capture with the next
// player to place, for a telling screenshot; else the middle turn.
func pickTurn(states []wire.State) int {
	for n := len(states) / 2; n < len(states)-1; n++ {
		if lm := states[n].LastMove; lm != nil && lm.Move.Kind == "capture" && len(lm.Move.Path) > 2 && states[n].Phase == "place" {
			return n
		}
	}
	for n := len(states) / 2; n < len(states)-1; n++ {
		if lm := states[n].LastMove; lm != nil && lm.Move.Kind == "capture" {
			return n
		}
	}
	return len(states) / 2
}

// TestBrowser drives headless Chromium: a page open while a real game is
// published over MQTT shows exactly the record's position, captures and
// turn; so does a page opened afterwards; and the latency from publishing
// a state to the page applying it is measured.
func TestBrowser(t *testing.T) {
	br := startBrowser(t, 1280, 720)
	for _, variant := range []string{"37", "48", "61"} {
		t.Run(variant, func(t *testing.T) {
			parent := br.t
			br.t = t
			defer func() { br.t = parent }()
			browseGame(t, br, variant)
		})
	}
}

func browseGame(t *testing.T, br *browser, variant string) {
	rec, rep := sampleGameOf(t, variant, 30)
	states := gameStates(t, rec, rep, "t1")
	n := pickTurn(states)

	mb := startBroker(t)
	s := New(Options{Logger: testLogger(t)})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close) // runs first: ends the streams srv.Close waits for
	// Subscribe before anything is retained: mochi 2.7.9 races storing a
	// retained message against a subscription's scan of them.
	follow(t, s, mb)
	pub := newBoard(t, mb, "t1")
	closeBrokerFirst(t, mb)
	pub.status("online")
	page := srv.URL + "/board/t1"

	// Live: the page is open before the game starts.
	br.navigate(page)
	br.waitFor("the waiting view", `document.querySelector("#view .sb.waiting")`)
	for i := 0; i <= n; i++ {
		pub.state(states[i])
	}
	seq := states[n].Seq
	br.waitFor(fmt.Sprintf("seq %d", seq), fmt.Sprintf(`document.querySelector('#view .sb[data-seq="%d"]')`, seq))
	var got domView
	br.eval(readDOM, &got)
	checkPosition(t, got, rec, rep, n)

	// A late joiner: a fresh page after the states were published.
	br.navigate("about:blank")
	br.navigate(page)
	br.waitFor(fmt.Sprintf("seq %d", seq), fmt.Sprintf(`document.querySelector('#view .sb[data-seq="%d"]')`, seq))
	got = domView{}
	br.eval(readDOM, &got)
	checkPosition(t, got, rec, rep, n)
	br.waitFor("the event stream", `!document.body.classList.contains("lost") && document.getElementById("conn").hidden`)
	br.screenshot("scoreboard-" + variant + "-board.png")

	// Events for the current state: pending, then illegal, then restored.
	st := states[n]
	var vacant, marble string
	for i, c := range st.Layout {
		switch st.Cells[i] {
		case 'o':
			vacant = c.Label
		case 'w', 'g', 'b':
			marble = c.Label
		}
	}
	publishEvent := pub.event
	publishEvent(referee.Pending{Player: st.ToMove, Need: "remove a free ring", Cells: []string{vacant}})
	br.waitFor("the pending banner", fmt.Sprintf(`document.querySelector('.banner.pending') && document.querySelector('.need[data-cell="%s"]')`, vacant))
	publishEvent(referee.Illegal{Player: st.ToMove, Reason: "a marble was moved", Rule: "placement",
		Cells: []referee.CellFix{{Cell: marble, Is: "o", Should: string(st.Cells[slices.IndexFunc(st.Layout, func(c wire.Cell) bool { return c.Label == marble })])}, {Cell: vacant, Is: "w", Should: "o"}}})
	br.waitFor("the illegal banner", fmt.Sprintf(`document.querySelector('.banner.illegal') && !document.querySelector('.banner.pending') && document.querySelector('.fix[data-cell="%s"]') && document.querySelector('.fix[data-cell="%s"]')`, marble, vacant))
	br.screenshot("scoreboard-" + variant + "-illegal.png")
	publishEvent(referee.Restored{Player: st.ToMove})
	br.waitFor("the illegal banner to go", `!document.querySelector('.banner.illegal') && !document.querySelector('.fix')`)

	br.navigate(page + "?overlay=1")
	br.waitFor("the overlay", fmt.Sprintf(`document.body.classList.contains("overlay") && document.querySelector('#view .sb[data-seq="%d"]')`, seq))
	br.screenshot("scoreboard-" + variant + "-overlay.png")
	// A stream overlay never shows scrollbars: the move box shows the last
	// moves and does not scroll.
	var scrolls bool
	br.eval(`(() => { const ol = document.querySelector('.moves ol'); return !!ol && (ol.scrollHeight > ol.clientHeight + 1 || ol.scrollWidth > ol.clientWidth + 1); })()`, &scrolls)
	if scrolls {
		t.Errorf("%s: the overlay's move box scrolls", variant)
	}

	// Latency: publish the rest of the game one state at a time, each
	// once the page shows the previous one.
	br.navigate(page)
	br.waitFor("the stream", `window.zbApplied && window.zbApplied.length > 0`)
	var lat []time.Duration
	for i := n + 1; i < len(states); i++ {
		sent := time.Now()
		pub.state(states[i])
		br.waitFor(fmt.Sprintf("seq %d", states[i].Seq), fmt.Sprintf(`window.zbApplied.some((a) => a.seq === %d)`, states[i].Seq))
		var at float64
		br.eval(fmt.Sprintf(`window.zbApplied.find((a) => a.seq === %d).at`, states[i].Seq), &at)
		lat = append(lat, time.Duration(at*float64(time.Millisecond))-time.Duration(sent.UnixNano()))
	}
	last := len(states) - 1
	got = domView{}
	br.eval(readDOM, &got)
	checkPosition(t, got, rec, rep, last)
	if states[last].Phase == "over" && got.Phase != "over" {
		t.Errorf("the finished game shows phase %q", got.Phase)
	}
	br.screenshot("scoreboard-" + variant + "-final.png")
	// The views came as patches, and the patched page is the view itself.
	var patched int
	br.eval(`window.zbPatched || 0`, &patched)
	if patched < len(states)-n-2 {
		t.Errorf("%d of %d views came as patches", patched, len(states)-n-1)
	}
	sameAsWhole(t, br, s, "t1")
	if len(lat) > 0 {
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		t.Logf("MQTT publish → browser DOM applied, %d states: min %v, median %v, p90 %v, max %v (includes the publisher's queue, the broker, paho, SSE and the page's JSON parse + innerHTML)",
			len(lat), lat[0].Round(10*time.Microsecond), lat[len(lat)/2].Round(10*time.Microsecond), lat[len(lat)*9/10].Round(10*time.Microsecond), lat[len(lat)-1].Round(10*time.Microsecond))
	}

	// The tournament view lists the board.
	br.navigate(srv.URL + "/")
	br.waitFor("the board's card", `document.querySelector('.card[data-board="t1"].online')`)
	var card string
	br.eval(`document.querySelector('.card[data-board="t1"]').textContent`, &card)
	for _, name := range rec.Players {
		if name != "" && !strings.Contains(card, name) {
			t.Errorf("the card %q lacks player %q", card, name)
		}
	}
	br.screenshot("scoreboard-" + variant + "-index.png")
}

// sameAsWhole checks that the page, after patches, is the same DOM as the
// board's current view parsed whole.
func sameAsWhole(t *testing.T, br *browser, s *Server, board string) {
	t.Helper()
	f, _ := s.currentFrame(board)
	br.waitFor(fmt.Sprintf("view %d", f.Ver), fmt.Sprintf(`document.querySelector("#view").dataset.ver === "%d"`, f.Ver))
	html := f.HTML
	js, _ := json.Marshal(html)
	var diff string
	br.eval(fmt.Sprintf(`(() => {
		const d = document.createElement("div");
		d.innerHTML = %s;
		const want = d.firstElementChild, got = document.querySelector("#view").firstElementChild;
		if (want.isEqualNode(got)) return "";
		const w = want.querySelectorAll("*"), g = got.querySelectorAll("*");
		for (let i = 0; i < Math.max(w.length, g.length); i++) {
			if (!w[i] || !g[i] || !w[i].isEqualNode(g[i])) return "first difference: " + (g[i] ? g[i].outerHTML.slice(0, 300) : "nothing") + " ≠ " + (w[i] ? w[i].outerHTML.slice(0, 300) : "nothing");
		}
		return "the roots differ: " + got.outerHTML.slice(0, 300);
	})()`, js), &diff)
	if diff != "" {
		t.Errorf("the patched page is not the whole view: %s", diff)
	}
}

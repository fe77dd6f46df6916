package scoreboard

import (
	"fmt"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestBrowserClock drives headless Chromium: the running clock counts down
// in the page; a commit stops it at the time the board says and starts the
// opponent's; a pause stops both; a flag fall shows; and a page opened long
// after the state arrived counts from when it arrived. No sleeps: each
// step waits for the page to change.
func TestBrowserClock(t *testing.T) {
	br := startBrowser(t, 1280, 720)
	rec, rep := sampleGame(t, 20)
	states := gameStates(t, rec, rep, "t1")
	mb := startBroker(t)
	s := New(Options{Logger: testLogger(t)})
	var off atomic.Int64 // the scoreboard's clock runs ahead by this much
	s.now = func() time.Time { return time.Now().Add(time.Duration(off.Load())) }
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	follow(t, s, mb)
	pub := newBoard(t, mb, "t1")
	closeBrokerFirst(t, mb)
	pub.status("online")

	clock := func(p int) string { return fmt.Sprintf(`document.querySelector('#view [data-k="p%d-clock"]')`, p) }
	text := func(p int) string {
		var s string
		br.eval(clock(p)+`.textContent`, &s)
		return s
	}
	send := func(i int, remaining [2]int64, running int, paused bool) {
		t.Helper()
		pub.publish("state", 1, true, clocked(t, states[i], "sudden:5m", remaining, running, paused))
		br.waitFor(fmt.Sprintf("seq %d", states[i].Seq), fmt.Sprintf(`document.querySelector('#view .sb[data-seq="%d"]')`, states[i].Seq))
	}

	br.navigate(srv.URL + "/board/t1")
	br.waitFor("the waiting view", `document.querySelector("#view .sb.waiting")`)
	i := 6
	p := states[i].ToMove
	rem := [2]int64{240000, 240000}
	send(i, rem, p, false)
	// The clock starts at the board's time (less the moments the page
	// took) and counts down.
	if got := text(p); got > "4:00" || got < "3:55" {
		t.Errorf("the running clock shows %q at first; want 4:00 (or a few seconds less)", got)
	}
	br.waitFor("the clock to count down", clock(p)+`.textContent <= "3:58"`)
	if got := text(1 - p); got != "4:00" {
		t.Errorf("the waiting clock shows %q; want 4:00", got)
	}

	// A commit: the mover's clock stops at what the board says; the
	// opponent's runs.
	rem[p] = 228765
	send(i+1, rem, 1-p, false)
	if got := text(p); got != "3:48" {
		t.Errorf("after the commit the stopped clock shows %q; want 3:48", got)
	}
	br.waitFor("the opponent's clock to count down", clock(1-p)+`.textContent < "4:00" && !`+clock(p)+`.hasAttribute("data-running")`)
	if got := text(p); got != "3:48" {
		t.Errorf("the stopped clock moved on to %q", got)
	}
	br.screenshot("scoreboard-clock-running.png")
	// The overlay shows both clocks, the running one counting.
	br.navigate(srv.URL + "/board/t1?overlay=1")
	br.waitFor("the overlay's clocks", `document.body.classList.contains("overlay") && document.body.dataset.live && `+
		clock(0)+`.offsetParent && `+clock(1)+`.offsetParent && `+clock(1-p)+`.hasAttribute("data-running")`)
	br.screenshot("scoreboard-clock-overlay.png")
	br.navigate(srv.URL + "/board/t1")
	br.waitFor("the page", `document.body.dataset.live && `+clock(p))

	// The arbiter pauses: neither runs.
	rem[1-p] = 233000
	states[i+1].Seq++ // the pause is a committed change
	send(i+1, rem, 1-p, true)
	br.waitFor("the paused clocks", clock(0)+`.classList.contains("paused") && `+clock(1)+`.classList.contains("paused") && !document.querySelector("#view .clock[data-running]") && document.querySelector("#view .banner.paused")`)
	if got := text(1 - p); got != "3:53" {
		t.Errorf("the paused clock shows %q; want 3:53", got)
	}

	// A late joiner, 40 s after the state arrived, while the clock runs:
	// it must not see the time as it was 40 s ago.
	states[i+1].Seq++
	send(i+1, rem, 1-p, false)
	off.Store(int64(40 * time.Second))
	br.navigate("about:blank")
	br.navigate(srv.URL + "/board/t1")
	br.waitFor("the late joiner's clock", `document.body.dataset.live && `+clock(1-p)+` && `+clock(1-p)+`.hasAttribute("data-running")`)
	if got := text(1 - p); got > "3:13" {
		t.Errorf("40 s after the state, a new page shows %q; want 3:13 or less", got)
	}
	off.Store(0)

	// The flag falls: the board ends the game on time.
	over := states[i+1]
	over.Seq += 5
	over.Phase, over.Result = "over", "time"
	w := p
	over.Winner = &w
	rem[1-p] = 0
	pub.publish("state", 1, true, clocked(t, over, "sudden:5m", rem, -1, false))
	br.waitFor("the flag", clock(1-p)+`.classList.contains("flag") && !document.querySelector("#view .clock[data-running]") && document.querySelector("#view .banner.over").textContent.includes("wins on time")`)
	if got := text(1 - p); got != "0:00.0" {
		t.Errorf("the fallen flag shows %q", got)
	}
	br.screenshot("scoreboard-clock-flag.png")
	sameAsWhole(t, br, s, "t1")
}

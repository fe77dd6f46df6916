package scoreboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/referee"
)

// TestConsoleBrowser drives the arbiter console in headless Chromium: the
// log-in form, the live list of boards, a pause from a board's row (the
// board's state then shows paused), a result declared from the form (the
// results page then lists it), and log-out.
func TestConsoleBrowser(t *testing.T) {
	br := startBrowser(t, 1400, 900)
	r := newConsoleRig(t, ConsoleConfig{})
	rec, rep := sampleGame(t, 12)
	states := gameStates(t, rec, rep, "t1")
	fb1 := newFakeBoard(t, "tcp://"+r.mb.TCPAddr(), "board", "board-pw", "t1", states[7], recordUpTo(rec, rep, 7))
	// t2's referee asks on which socket a marble the board missed is: the
	// arbiter's answer buttons must fit a phone too.
	st2 := gameStates(t, rec, rep, "t2")[2]
	st2.Question = &referee.Question{ID: 1, Turn: 2, About: "cell", Options: []string{"A1", "B2", "D1", "E1", "F3", "G4", referee.OtherRing}, Provisional: -1,
		Text: "the board did not see a marble put down (turn 2 or after): on which ring was it put, A1 or B2 or D1 or E1 or F3 or G4 or another ring?"}
	fb2 := newFakeBoard(t, "tcp://"+r.mb.TCPAddr(), "board", "board-pw", "t2", st2, recordUpTo(rec, rep, 2))
	closeBrokerFirst(t, r.mb)

	br.navigate(r.url + "/console")
	br.waitFor("the log-in form", `document.querySelector('form[action^="/console/login"] input[name=password]')`)
	// A viewer is turned away.
	login := func(user, pass string) {
		br.eval(fmt.Sprintf(`(() => { const f = document.querySelector('form[action^="/console/login"]');
			f.user.value = %q; f.password.value = %q; setTimeout(() => f.submit(), 0); return true; })()`, user, pass), nil)
	}
	login("watcher", "watcher-pw")
	br.poll("the refusal", `document.getElementById("error") && document.getElementById("error").textContent.includes("not an operator")`)
	login("arbiter", "arbiter-pw")
	br.poll("the console", `document.body.dataset.csrf && document.querySelector('#view tr[data-board="t1"]') && document.querySelector('#view tr[data-board="t2"]')`)
	br.waitFor("the live stream", `window.zbConsole && window.zbConsole.applied > 0 && document.getElementById("conn").hidden`)
	var row string
	br.eval(`document.querySelector('#view tr[data-board="t1"]').textContent`, &row)
	for _, want := range []string{rec.Players[0], rec.Players[1], fmt.Sprintf("turn %d", 8), "10:00", "sudden:10m", "online"} {
		if !strings.Contains(row, want) {
			t.Errorf("t1's row %q lacks %q", row, want)
		}
	}

	// The forms name the chosen board's players.
	var winner string
	br.eval(`(() => { const pick = document.getElementById("board"); pick.value = "t1"; pick.dispatchEvent(new Event("change"));
		return document.querySelector('form.act select[name=winner] option[value="1"]').textContent; })()`, &winner)
	if !strings.Contains(winner, rec.Players[1]) {
		t.Errorf("the winner's choice for t1 reads %q; want %s in it", winner, rec.Players[1])
	}

	var answers string
	br.eval(`Array.from(document.querySelectorAll('#view tr[data-board="t2"] button[data-act="answer"]')).map((b) => b.textContent).join("|")`, &answers)
	if answers != "marble on A1|marble on B2|marble on D1|marble on E1|marble on F3|marble on G4|marble on another ring" {
		t.Errorf("t2's answer buttons read %q", answers)
	}

	// Pause t1 from its row.
	br.eval(`document.querySelector('#view tr[data-board="t1"] button[data-act="pause"]').click(), true`, nil)
	br.waitFor("t1 paused", `document.querySelector('#view tr[data-board="t1"][data-paused="true"] button[data-act="resume"]')`)
	br.waitFor("the reply", `window.zbConsole.results.some((r) => r.action === "pause" && r.outcome === "accepted")`)
	if st := fb1.state(); !st.Clock.Paused || st.Clock.Running != nil {
		t.Errorf("t1's state after the console's pause: %+v", st.Clock)
	}
	if got := fb2.received(); len(got) != 0 {
		t.Errorf("t2 received %q", got)
	}

	// An arbiter's note from the form: it shows on t1's row once the
	// board's record carries it, as text (markup and all), a word longer
	// than a phone is wide wrapped.
	const noteText = "clock replaced <b>not bold</b> Schiedsrichterentscheidungsprotokollnachtragsvermerkzusatz"
	br.eval(fmt.Sprintf(`(() => { const pick = document.getElementById("board"); pick.value = "t1";
		const f = document.querySelector('form.act[data-action="note"]'); f.text.value = %q; f.requestSubmit(); return true; })()`, noteText), nil)
	br.waitFor("the note on t1's row", fmt.Sprintf(`Array.from(document.querySelectorAll('#view tr[data-board="t1"] ul.notes li')).some((li) => li.textContent === %q)`, "after turn 7: "+noteText))
	var bold int
	br.eval(`document.querySelectorAll('#view ul.notes b').length`, &bold)
	if bold != 0 {
		t.Error("a note's markup became HTML on the console")
	}
	br.screenshot("console-paused.png")

	// Declare a result on t1 from the form: no winner is preselected (the
	// form refuses to send without one), and the declaration waits for a
	// confirmation that names the board and the winner; cancelled, nothing
	// is sent.
	var pre struct {
		Value, Text string
	}
	br.eval(`(() => { const s = document.querySelector('form.act[data-action="declare-result"] select[name=winner]'); return {Value: s.value, Text: s.options[s.selectedIndex].textContent}; })()`, &pre)
	if pre.Value != "" || strings.Contains(pre.Text, rec.Players[0]) || strings.Contains(pre.Text, rec.Players[1]) {
		t.Errorf("the winner is preselected: %q (%q)", pre.Value, pre.Text)
	}
	br.eval(`(() => {
		const pick = document.getElementById("board"); pick.value = "t1";
		const f = document.querySelector('form.act[data-action="declare-result"]');
		f.result.value = "adjudication"; f.requestSubmit(); return true; })()`, nil)
	br.waitFor("the refusal without a winner", `window.zbConsole.results.some((r) => r.action === "declare-result" && r.outcome === "invalid")`)
	br.eval(`(() => {
		const f = document.querySelector('form.act[data-action="declare-result"]');
		f.winner.value = "1"; f.note.value = "adjudicated by the chief arbiter";
		f.requestSubmit(); return true; })()`, nil)
	br.waitFor("the confirmation", `document.getElementById("confirm").open`)
	var ask string
	br.eval(`document.getElementById("confirm-text").textContent`, &ask)
	if !strings.Contains(ask, "t1") || !strings.Contains(ask, rec.Players[1]) || !strings.Contains(ask, "adjudication") {
		t.Errorf("the confirmation reads %q; want the board, %s and the result in it", ask, rec.Players[1])
	}
	br.screenshot("console-confirm.png")
	br.eval(`document.getElementById("confirm-no").click(), true`, nil)
	br.waitFor("the dialog to close", `!document.getElementById("confirm").open`)
	if st := fb1.state(); st.Result != "" {
		t.Fatalf("a cancelled declaration reached the board: %+v", st)
	}
	br.eval(`(() => { document.querySelector('form.act[data-action="declare-result"]').requestSubmit(); return true; })()`, nil)
	br.waitFor("the confirmation again", `document.getElementById("confirm").open`)
	br.eval(`document.getElementById("confirm-yes").click(), true`, nil)
	br.waitFor("the result's reply", `window.zbConsole.results.some((r) => r.action === "declare-result" && r.outcome === "accepted")`)
	br.waitFor("t1 over", `document.querySelector('#view tr[data-board="t1"][data-phase="over"]')`)
	if st := fb1.state(); st.Result != "adjudication" || st.Winner == nil || *st.Winner != 1 || st.ResultNote != "adjudicated by the chief arbiter" {
		t.Errorf("t1's state after the declared result: %s %v %q", st.Result, st.Winner, st.ResultNote)
	}
	var log string
	br.eval(`document.getElementById("log").textContent`, &log)
	if !strings.Contains(log, "t1: result → accepted") || !strings.Contains(log, "t1: pause → accepted") {
		t.Errorf("the console's log: %q", log)
	}

	// The results page lists it.
	br.navigate(r.url + "/results")
	br.waitFor("the result", `document.querySelector('tr[data-game="t1-1"][data-reason="adjudication"][data-winner="1"]')`)
	var res string
	br.eval(`document.querySelector('tr[data-game="t1-1"]').textContent`, &res)
	if !strings.Contains(res, rec.Players[1]+" wins (adjudication)") || !strings.Contains(res, "adjudicated by the chief arbiter") {
		t.Errorf("the results row %q", res)
	}
	br.screenshot("console-results.png")

	// The console on a phone and a tablet: nothing runs off the right edge.
	br.navigate(r.url + "/console")
	br.waitFor("the console", `document.querySelector('form.logout')`)
	for _, sz := range screenSizes[:2] {
		br.resize(sz.width, sz.height)
		br.navigate(r.url + "/console")
		br.waitFor("the console's boards", `document.readyState === "complete" && document.querySelector('#view tr[data-board="t1"]')`)
		var got layoutCheck
		br.eval(checkLayout+"(false)", &got)
		if got.Overflow > 0 || len(got.Problems) > 0 {
			t.Errorf("the console at %s: overflow %d px; %s", sz.name, got.Overflow, strings.Join(got.Problems, "; "))
		}
		br.screenshot("console-" + sz.name + ".png")
	}
	br.resize(1280, 720)

	// Log out: the console is the log-in form again.
	br.navigate(r.url + "/console")
	br.waitFor("the console", `document.querySelector('form.logout')`)
	br.eval(`setTimeout(() => document.querySelector("form.logout").submit(), 0), true`, nil)
	br.poll("the log-in form", `document.querySelector('form[action^="/console/login"]')`)
}

// poll waits for a JavaScript condition across page loads (a form's
// submission navigates): in the page as waitFor does, at each change of
// the document; an evaluation lost to a navigation is tried again on the
// new page, shortly, as CDP has it ready.
func (b *browser) poll(what, cond string) {
	b.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		left := time.Until(deadline).Milliseconds()
		ok, err := b.tryEval(awaitJS(cond, max(left, 1)))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("timed out waiting in the browser for %s (%s): %v", what, cond, err)
		}
		if err != nil {
			time.Sleep(10 * time.Millisecond) // the page is navigating: no context to evaluate in yet
		}
	}
}

// tryEval is eval of a boolean expression that reports errors instead of
// failing the test.
func (b *browser) tryEval(expr string) (bool, error) {
	b.id++
	id := b.id
	_ = b.ws.SetWriteDeadline(time.Now().Add(wait))
	if err := b.ws.WriteJSON(map[string]any{"id": id, "method": "Runtime.evaluate", "params": map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}}); err != nil {
		return false, err
	}
	_ = b.ws.SetReadDeadline(time.Now().Add(2 * wait))
	for {
		var m struct {
			ID     int `json:"id"`
			Result struct {
				Result struct {
					Value json.RawMessage `json:"value"`
				} `json:"result"`
			} `json:"result"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := b.ws.ReadJSON(&m); err != nil {
			return false, err
		}
		if m.ID != id {
			continue
		}
		if m.Error != nil {
			return false, errors.New(m.Error.Message)
		}
		return string(m.Result.Result.Value) == "true", nil
	}
}

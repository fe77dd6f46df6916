package scoreboard

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/scoreboard/console"
	"github.com/zertzboard/zertzboard/scoreboard/view"
	"github.com/zertzboard/zertzboard/wire"
)

// leakedKey finds a catalogue key shown instead of its text.
var leakedKey = regexp.MustCompile(`\b(console|results)\.[a-z0-9-]+\b`)

// notKeys are file names that look like keys.
var notKeys = strings.NewReplacer("console.css", "", "console.js", "", "results.csv", "", "results.zip", "")

// TestConsoleLanguages renders the console's list (with every alert and
// button), its log-in page with each refusal, the results page and each
// action's outcome in every language: no key shows untranslated, and each
// language's own words are there.
func TestConsoleLanguages(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	clock := &fakeClock{t: time.Date(2026, 11, 23, 1, 0, 0, 0, time.UTC)}
	s.obs.now = clock.now
	if err := s.EnableConsole(ConsoleConfig{Broker: "tcp://127.0.0.1:1"}); err != nil {
		t.Fatal(err)
	}
	rec, rep := sampleGame(t, 10)
	states := gameStates(t, rec, rep, "t1")
	ps := planState{State: states[5], GameID: "t1-1", Takeback: &wire.TakebackRequest{Turn: 5, By: 0}}
	ps.Players = [2]string{"", ""}
	ps.Missed = []int{ps.Turn}
	rem := [2]int64{5000, 70000}
	ps.Clock = wire.Clock{Control: "sudden:5m", Remaining: &rem, Paused: true}
	b, _ := json.Marshal(ps)
	s.Handle("zertz/t1/state", b)
	s.Handle("zertz/t1/status", []byte("offline"))
	// The arbiter's notes on t1's game: more than the console shows.
	var notes []record.Note
	for i := 0; i <= 5; i++ {
		notes = append(notes, record.Note{Turn: i, Text: "n"})
	}
	withNotes := recordUpTo(rec, rep, 5)
	withNotes.GameID, withNotes.Notes = "t1-1", notes
	s.Handle("zertz/t1/record", recordJSON(t, withNotes))
	for _, e := range []string{`{"event":"illegal","reason":"x"}`, `{"event":"touch-move","from":"A1","to":"B2"}`, `{"event":"fault","reason":"sensor faults: C3"}`} {
		s.Handle("zertz/t1/events", []byte(e))
	}
	clock.add(11 * time.Second)
	ps2 := ps
	ps2.BoardID, ps2.GameID, ps2.Takeback, ps2.Missed, ps2.Phase = "t2", "t2-1", nil, nil, "capture"
	ps2.Clock.Paused = false
	b, _ = json.Marshal(ps2)
	s.Handle("zertz/t2/state", b)
	s.Handle("zertz/t3/status", []byte("online"))
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	// Finished games for the results page: every reason.
	for i, r := range []string{"captures", "full-board", "repetition", "no-moves", "time", "resignation", "adjudication", "draw"} {
		w := i % 2
		g := &GameResult{GameID: "g" + r, Board: "t1", Players: [2]string{"Ann", "Bob"}, Reason: engine.Reason(r), Record: json.RawMessage(`{}`)}
		if r == "draw" {
			g.Record = json.RawMessage(`{"notes":[{"turn":0,"text":"n"},{"turn":3,"text":"n"}]}`)
		}
		if r != "repetition" && r != "no-moves" && r != "draw" && i != 4 {
			g.Winner = &w
		}
		s.res.Keep(g)
	}
	s.res.SetDiskErr(errTest("disk full"))

	seen := map[string]string{}
	for _, l := range i18n.All {
		html, _ := s.renderConsole(l)
		_, results := get(t, srv.URL+"/results?lang="+string(l))
		var pages []string
		pages = append(pages, html, string(results))
		for _, key := range []string{"", "console.off", "console.err-origin", "console.err-rate", "console.err-form", "console.err-missing",
			"console.err-password", "console.err-operator", "console.err-full", "console.err-broker"} {
			rw := httptest.NewRecorder()
			req := httptest.NewRequest("GET", "/console?lang="+string(l), nil)
			var args []any
			switch key {
			case "console.err-operator", "console.err-broker":
				args = []any{"x"}
			case "console.err-full":
				args = []any{8}
			}
			s.renderLogin(rw, req, http.StatusOK, key, args...)
			pages = append(pages, rw.Body.String())
		}
		for action := range console.ActionKey {
			for outcome := range console.OutcomeKey {
				pages = append(pages, console.ActionResult{Board: "t1", Outcome: outcome, Reason: "r"}.Describe(action, l))
			}
		}
		for i, p := range pages {
			if m := leakedKey.FindString(notKeys.Replace(p)); m != "" {
				t.Errorf("%s page %d shows the key %q:\n%s", l, i, m, p)
			}
		}
		for _, key := range []string{"console.col-alerts", "console.a-paused", "console.b-accept", "console.a-offline", "console.no-game"} {
			if !strings.Contains(html, view.Esc(l.T(key))) {
				t.Errorf("%s: the console lacks %s (%q)", l, key, l.T(key))
			}
		}
		for _, want := range []string{l.T("console.a-illegal-long", 11, "x"), l.T("console.a-missed-turn", ps.Turn), l.T("console.must-capture", ps.Turn+1, l.T("console.player-n", ps2.ToMove))} {
			if !strings.Contains(html, view.Esc(want)) {
				t.Errorf("%s: the console lacks %q", l, want)
			}
		}
		for _, key := range []string{"results.draw-on-time", "results.r-adjudication", "results.final-clocks", "console.arbiter-notes"} {
			if !strings.Contains(string(results), view.Esc(l.T(key))) {
				t.Errorf("%s: the results page lacks %s (%q)", l, key, l.T(key))
			}
		}
		// The notes, in the same words on both pages: the console shows
		// the latest five of t1's six and counts the first.
		for _, want := range []string{l.T("console.note-before", "n"), l.T("console.note-after", 3, "n")} {
			if !strings.Contains(string(results), view.Esc(want)) {
				t.Errorf("%s: the results page lacks the note %q", l, want)
			}
		}
		for _, want := range []string{l.T("console.note-after", 1, "n"), l.T("console.note-after", 5, "n"), l.N("console.notes-earlier", 1, 1)} {
			if !strings.Contains(html, view.Esc(want)) {
				t.Errorf("%s: the console lacks %q", l, want)
			}
		}
		if !strings.Contains(string(results), `lang="`+string(l)+`"`) {
			t.Errorf("%s: the results page does not say its language", l)
		}
		seen[html] = string(l)
	}
	if len(seen) != len(i18n.All) {
		t.Errorf("the console is the same in %d of %d languages", len(i18n.All)-len(seen)+1, len(i18n.All))
	}
	// Another ?lang= is 400, naming the five.
	for _, u := range []string{"/console?lang=pt", "/results?lang=xx", "/console/events?lang=klingon"} {
		if resp, body := get(t, srv.URL+u); resp.StatusCode != http.StatusBadRequest || !bytes.Contains(body, []byte("en, de, fr, pl, ru, it, nl, es")) {
			t.Errorf("%s: %s %q; want 400 naming the languages", u, resp.Status, body)
		}
	}
	// The language comes from ?lang=, else Accept-Language.
	req := httptest.NewRequest("GET", "/console", nil)
	req.Header.Set("Accept-Language", "pl-PL,pl;q=0.9,en;q=0.5")
	if l := opsLang(req); l != i18n.PL {
		t.Errorf("Accept-Language pl: %s", l)
	}
	req = httptest.NewRequest("GET", "/console?lang=ru", nil)
	req.Header.Set("Accept-Language", "pl")
	if l := opsLang(req); l != i18n.RU {
		t.Errorf("?lang=ru: %s", l)
	}
}

type errTest string

func (e errTest) Error() string { return string(e) }

package scoreboard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/solve"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/scoreboard/stream"
	"github.com/zertzboard/zertzboard/scoreboard/view"
	"github.com/zertzboard/zertzboard/wire"
)

// verbRE matches the fmt verbs of the catalogue's messages.
var verbRE = regexp.MustCompile(`%(\[\d+\])?[sd]`)

// pageViews are views of every kind a page shows: each banner, a game
// over, a capture, the analysis, the waiting view, unnamed players.
func pageViews(t *testing.T) []view.Board {
	t.Helper()
	rec, rep := sampleGame(t, 20)
	states := gameStates(t, rec, rep, "t1")
	var capture, place *wire.State
	for i := range states {
		switch states[i].Phase {
		case "capture":
			if capture == nil {
				capture = &states[i]
			}
		case "place":
			place = &states[i]
		}
	}
	if capture == nil || place == nil {
		t.Fatal("the sample game has no capture or placement")
	}
	last := states[len(states)-1]
	over := last
	over.Phase, over.Result = "over", "time"
	w := 1
	over.Winner = &w
	unnamed := *place
	unnamed.Players = [2]string{"", ""}
	unnamed.Rules, unnamed.Mode = "blitz", "tournament"
	win := *place
	win.Analysis = &wire.Analysis{Report: solve.Report{ForcedWin: &solve.ReportWin{Player: 0, Turns: 2, Line: []string{"WD4-A1"}}}, MaxTurns: 3, Depth: 2}
	none := *place
	none.Analysis = &wire.Analysis{MaxTurns: 3, Depth: 3}
	need := referee.Msg("need.remove-free-ring")
	why := referee.Message{Key: referee.RuleKey("ring-not-free"), Text: "ring A1 is not free: it holds a marble"}
	faults := referee.Msg("fault.list", []referee.Message{referee.Msg("fault.drifting", "E5"), referee.Msg("fault.stuck", "C3")})
	faults.Text = "sensor faults: E5: drifting: 40 counts; C3: stuck"
	fixes := view.CellsOrFixes{Fixes: []referee.CellFix{{Cell: "A1", Is: "w", Should: "o"}, {Cell: "B2", Is: "o", Should: "."}, {Cell: "C3", Is: "o", Should: "b"}}}
	notices := []*view.Notice{
		{Kind: "pending", Body: view.NoticeBody{Player: 0, Need: need.English(), NeedMsg: &need, Cells: view.CellsOrFixes{Labels: []string{"A1"}}}},
		{Kind: "illegal", Body: view.NoticeBody{Player: 1, Reason: why.Text, ReasonMsg: &why, Rule: "ring-not-free", Cells: fixes}},
		{Kind: "touch-move", Body: view.NoticeBody{Player: 0, From: "A1", To: "B2"}},
		{Kind: "missed-capture", Body: view.NoticeBody{Player: 1, Turn: 7}},
		{Kind: "takeback-demand", Body: view.NoticeBody{Turn: 3, Cells: fixes}},
		{Kind: "takeback", Body: view.NoticeBody{Turn: 3, Undone: []string{"WD4-A1"}}},
		{Kind: "fault", Body: view.NoticeBody{Reason: "sensor faults: E5: drifting: 40 counts"}},
		{Kind: "fault", Body: view.NoticeBody{Reason: faults.Text, ReasonMsg: &faults}},
	}
	var ends []view.Board
	for _, e := range []struct {
		result string
		winner *int
	}{{"time", nil}, {"resignation", &w}, {"adjudication", &w}, {"draw", nil}, {"repetition", nil}, {"captures", &w}} {
		st := last
		st.Phase, st.Result, st.Winner = "over", engine.Reason(e.result), e.winner
		ends = append(ends, view.Board{ID: "t1", State: &st, Note: "adjudicated after a sensor failure"})
	}
	paused := *place
	views := []view.Board{{ID: "t1"}, {ID: "t1", Status: "offline"}, {ID: "t1", State: capture, Status: "online"}, {ID: "t1", State: &over},
		{ID: "t1", State: &paused, Clock: &wire.Clock{Control: "fischer:20m+10s", Remaining: &[2]int64{60_000, 5_000}, Paused: true}},
		{ID: "t1", State: place, Clock: &wire.Clock{Control: "sudden:25m", Remaining: &[2]int64{60_000, 5_000}}},
		{ID: "t1", State: &unnamed}, {ID: "t1", State: &win}, {ID: "t1", State: &none}}
	views = append(views, ends...)
	for _, n := range notices {
		n.Seq = place.Seq
		views = append(views, view.Board{ID: "t1", State: place, Notice: n, Status: "online"})
	}
	return views
}

// TestPagesInEveryLanguage renders every kind of view and the tournament
// view in every language: no unformatted message or bare key, and the
// language's own words where English has its own.
func TestPagesInEveryLanguage(t *testing.T) {
	views := pageViews(t)
	for _, l := range i18n.All {
		s := New(Options{})
		for _, v := range views {
			if v.State != nil {
				s.Handle("zertz/t1/state", stateJSON(t, *v.State))
			}
		}
		s.Handle("zertz/t2/status", []byte("online"))
		pages := []string{s.renderIndexLangLocked(l, nil).HTML}
		for _, v := range views {
			v.Lang = l
			pages = append(pages, view.RenderBoard(v))
		}
		all := strings.Join(pages, "\n")
		for _, bad := range []string{"%!", "page.", "guide.", "need.", "rule.", "result.", "colour.", "content."} {
			if i := strings.Index(all, bad); i >= 0 {
				t.Errorf("%s: pages contain %q: …%s…", l, bad, all[max(0, i-80):min(len(all), i+80)])
			}
		}
		// Every word the pages use in this language.
		for _, k := range []string{"page.pool", "page.moves", "page.illegal", "page.touch-move", "page.missed-capture",
			"page.takeback-demanded", "page.fault", "page.boards", "page.restore", "page.conn.offline", "rule.ring-not-free",
			"need.remove-free-ring", "result.repetition", "page.mode.tournament", "page.blitz", "page.wins-on-time", "page.draw-flag",
			"page.wins-adjudication", "page.draw", "page.clocks-paused", "page.control-sudden", "page.control-fischer", "fault.list", "fault.stuck"} {
			words := verbRE.Split(l.Format(k), -1)
			if l == i18n.EN && strings.HasPrefix(k, "rule.") {
				words = []string{"ring A1 is not free: it holds a marble"} // English keeps the engine's words
			}
			for _, w := range words {
				if w = strings.TrimSpace(w); len(w) > 2 && !strings.Contains(all, view.Esc(w)) {
					t.Errorf("%s: no %q (of %s) on any page", l, w, k)
				}
			}
		}
		if l != i18n.EN {
			for _, w := range []string{">Pool<", ">Moves ", "<b>Illegal</b>", "Waiting for board", "No forced win", "Forced win for", " to place<", "Player 1"} {
				if strings.Contains(all, w) {
					t.Errorf("%s: English %q left on a page", l, w)
				}
			}
		}
	}
}

// TestPageLanguage: ?lang= wins, then Accept-Language, then English; a
// bad ?lang= is refused naming the choices; the picker keeps the page's
// other parameters.
func TestPageLanguage(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	s.Handle("zertz/b1/state", stateJSON(t, newState(t, "37", [2]string{"Ann", "Bob"})))
	get := func(path, accept string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if accept != "" {
			req.Header.Set("Accept-Language", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, tc := range []struct {
		path, accept string
		lang         i18n.Lang
		events       string
	}{
		{"/board/b1", "", i18n.EN, `data-events="/events?board=b1"`},
		{"/board/b1", "pl-PL,pl;q=0.9,en;q=0.5", i18n.PL, `data-events="/events?board=b1&amp;lang=pl"`},
		{"/board/b1?lang=ru", "de", i18n.RU, `data-events="/events?board=b1&amp;lang=ru"`},
		{"/board/b1?lang=en", "de", i18n.EN, `data-events="/events?board=b1&amp;lang=en"`},
		{"/?lang=fr&overlay=1", "", i18n.FR, `data-events="/events?lang=fr"`},
	} {
		code, body := get(tc.path, tc.accept)
		if code != 200 || !strings.Contains(body, `<html lang="`+string(tc.lang)+`">`) || !strings.Contains(body, tc.events) {
			t.Errorf("GET %s (Accept-Language %q) = %d; want lang %s and %s:\n%.600s", tc.path, tc.accept, code, tc.lang, tc.events, body)
		}
		if !strings.Contains(body, view.Esc(tc.lang.T("page.reconnecting"))) {
			t.Errorf("GET %s: the page's own words are not in %s", tc.path, tc.lang)
		}
	}
	if _, body := get("/board/b1?overlay=1&lang=de", ""); !strings.Contains(body, `href="/board/b1?lang=pl&amp;overlay=1"`) || !strings.Contains(body, ">Vorrat<") {
		t.Errorf("picker or German view missing:\n%.2000s", body)
	}
	for _, path := range []string{"/board/b1?lang=pt", "/events?board=b1&lang=xx"} {
		code, body := get(path, "")
		if code != http.StatusBadRequest || !strings.Contains(body, "en, de, fr, pl, ru, it, nl, es") {
			t.Errorf("GET %s = %d %q; want 400 naming the languages", path, code, body)
		}
	}
}

// TestStreamsPerLanguage: each stream gets its language's views, a change
// reaches them all, and a language's views go when its last stream does.
func TestStreamsPerLanguage(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	st := newState(t, "37", [2]string{"", ""})
	st.Seq = 1
	s.Handle("zertz/b1/state", stateJSON(t, st))
	en := dialSSE(t, srv.URL+"/events?board=b1")
	ru := dialSSE(t, srv.URL+"/events?board=b1&lang=ru")
	pl := dialSSE(t, srv.URL+"/events?lang=pl")
	for _, c := range []struct {
		c    *sseClient
		want string
	}{{en, ">Pool<"}, {ru, ">Запас<"}, {pl, ">Plansze<"}} {
		if v, err := c.c.next(); err != nil || !strings.Contains(v.HTML, c.want) {
			t.Errorf("first view lacks %q: %v %.300s", c.want, err, v.HTML)
		}
	}
	st.Seq = 2
	st.Players = [2]string{"Ann", "Борис"}
	s.Handle("zertz/b1/state", stateJSON(t, st))
	if v := en.nextSeq(t, 2); !strings.Contains(v.HTML, "Борис") || !strings.Contains(v.HTML, ">Moves ") {
		t.Errorf("English view after the change: %.300s", v.HTML)
	}
	if v := ru.nextSeq(t, 2); !strings.Contains(v.HTML, "Борис") || !strings.Contains(v.HTML, ">Ходы ") {
		t.Errorf("Russian view after the change: %.300s", v.HTML)
	}
	if v, err := pl.next(); err != nil || !strings.Contains(v.HTML, "Борис") || !strings.Contains(v.HTML, ">Plansze<") {
		t.Errorf("Polish tournament view after the change: %v %.300s", err, v.HTML)
	}
	ru.close()
	pl.close()
	waitFor(t, s, "the Russian and Polish views to go", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.langs) == 0
	})
}

// BenchmarkHandleFiveLanguages is BenchmarkHandle with a viewer in each
// of the five languages: each change is rendered five times.
func BenchmarkHandleFiveLanguages(b *testing.B) {
	rec, rep := sampleGame(b, 30)
	states := gameStates(b, rec, rep, "t1")
	payloads := make([][]byte, len(states))
	for i, s := range states {
		payloads[i] = stateJSON(b, s)
	}
	s := New(Options{ClientBuffer: 1 << 20})
	defer s.Close()
	var cs []*stream.Client
	for _, l := range i18n.All {
		c, _ := s.subscribeLang("t1", l)
		cs = append(cs, c)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Handle("zertz/t1/state", payloads[i%len(payloads)])
		for _, c := range cs {
			<-c.Frames()
		}
	}
}

// TestLanguageViewAge: a view rendered in another language when its first
// viewer comes is as old as the data it shows, so the page counts a
// running clock down from when the state arrived, not from the request.
func TestLanguageViewAge(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	s := New(Options{})
	defer s.Close()
	s.mu.Lock()
	s.now = func() time.Time { return now }
	s.mu.Unlock()
	st := newState(t, "37", [2]string{"Ann", "Bob"})
	st.Seq = 1
	s.Handle("zertz/t1/state", stateJSON(t, st))
	arrived := now
	now = now.Add(40 * time.Second)
	for _, board := range []string{"t1", ""} {
		f, _ := s.currentFrameLang(board, i18n.DE)
		if !f.Made.Equal(arrived) {
			t.Errorf("German view of %q made at %v; the state arrived at %v", board, f.Made, arrived)
		}
	}
}

func TestRingsText(t *testing.T) {
	for _, tc := range []struct {
		l     i18n.Lang
		board string
		want  string
	}{
		{i18n.EN, "37", "37 rings"}, {i18n.PL, "44", "44 pierścienie"}, {i18n.PL, "48", "48 pierścieni"},
		{i18n.RU, "61", "61 кольцо"}, {i18n.RU, "43", "43 кольца"}, {i18n.RU, "37", "37 колец"}, {i18n.DE, "custom", "custom Ringe"},
	} {
		if got := view.RingsText(tc.l, tc.board); got != tc.want {
			t.Errorf("ringsText(%s, %q) = %q; want %q", tc.l, tc.board, got, tc.want)
		}
	}
}

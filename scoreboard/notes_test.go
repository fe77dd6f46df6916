package scoreboard

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/record"
)

// notesList is the console's list of a board's notes, its items in order.
var notesList = regexp.MustCompile(`<ul class="notes"[^>]*>(.*?)</ul>`)
var noteItem = regexp.MustCompile(`<li[^>]*>(.*?)</li>`)

// consoleNotes are the notes the console shows on its one board, each
// item's HTML, and whether it shows a list at all.
func consoleNotes(t *testing.T, s *Server, l i18n.Lang) ([]string, bool) {
	t.Helper()
	html, _ := s.renderConsole(l)
	m := notesList.FindStringSubmatch(html)
	if m == nil {
		return nil, false
	}
	var items []string
	for _, it := range noteItem.FindAllStringSubmatch(m[1], -1) {
		items = append(items, it[1])
	}
	return items, true
}

// recordWithNotes is a board's JSON record of the game so far with the
// given notes, written by hand: a hostile or broken board's notes too.
func recordWithNotes(t *testing.T, rec *record.Record, gameID string, notes any) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(recordJSON(t, rec), &m); err != nil {
		t.Fatal(err)
	}
	if gameID != "" {
		m["game_id"] = gameID
	}
	if notes != nil {
		m["notes"] = notes
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type note struct {
	Turn int    `json:"turn"`
	Text string `json:"text"`
}

// TestConsoleNotes: a board's card on the console shows the notes given
// on its game, worded and escaped, the latest five with a count of the
// earlier ones; no list without notes, nor for another game's record; a
// record whose notes cannot be read is kept without them.
func TestConsoleNotes(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	rec, rep := sampleGame(t, 10)
	states := gameStates(t, rec, rep, "t1")
	ps := planState{State: states[6], GameID: "t1-7"}
	b, _ := json.Marshal(ps)
	s.Handle("zertz/t1/status", []byte("online"))
	s.Handle("zertz/t1/state", b)
	sofar := recordUpTo(rec, rep, 6)

	// No notes: no list, and the game's cell as it always was.
	s.Handle("zertz/t1/record", recordWithNotes(t, sofar, "t1-7", nil))
	if _, ok := consoleNotes(t, s, i18n.EN); ok {
		t.Error("a game without notes shows a list of notes")
	}
	html, _ := s.renderConsole(i18n.EN)
	if !regexp.MustCompile(`<td class="game">[^<]*<span class="variant">[^<]*</span></td>`).MatchString(html) {
		t.Errorf("the game's cell without notes changed:\n%s", html)
	}

	// Two notes, one hostile: worded, in order, escaped.
	s.Handle("zertz/t1/record", recordWithNotes(t, sofar, "t1-7", []note{
		{0, "clock replaced before the start"}, {4, `<script>alert("x")</script> & co`}}))
	items, ok := consoleNotes(t, s, i18n.EN)
	want := []string{"before the first turn: clock replaced before the start",
		"after turn 4: &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; co"}
	if !ok || !slices.Equal(items, want) {
		t.Errorf("the notes read %q; want %q", items, want)
	}
	if html, _ := s.renderConsole(i18n.EN); strings.Contains(html, "<script>") {
		t.Error("a note's <script> reached the console as HTML")
	}
	if items, _ := consoleNotes(t, s, i18n.RU); len(items) != 2 || items[0] != "до первого хода: clock replaced before the start" || !strings.HasPrefix(items[1], "после хода 4: ") {
		t.Errorf("the notes in Russian: %q", items)
	}

	// Eight notes: the last five, newest last, then "and 3 earlier".
	var eight []note
	for i := 1; i <= 8; i++ {
		eight = append(eight, note{i - 1, fmt.Sprintf("note %d", i)})
	}
	s.Handle("zertz/t1/record", recordWithNotes(t, sofar, "t1-7", eight))
	items, _ = consoleNotes(t, s, i18n.EN)
	want = []string{"after turn 3: note 4", "after turn 4: note 5", "after turn 5: note 6", "after turn 6: note 7", "after turn 7: note 8", "and 3 earlier"}
	if !slices.Equal(items, want) {
		t.Errorf("eight notes read %q; want %q", items, want)
	}
	if html, _ := s.renderConsole(i18n.EN); !strings.Contains(html, `data-notes="8"`) || !strings.Contains(html, `<li class="earlier">and 3 earlier</li>`) {
		t.Errorf("eight notes: the list does not count them:\n%s", html)
	}
	// Exactly five: no count of earlier ones.
	s.Handle("zertz/t1/record", recordWithNotes(t, sofar, "t1-7", eight[:5]))
	if items, _ = consoleNotes(t, s, i18n.EN); len(items) != 5 || items[0] != "before the first turn: note 1" || items[4] != "after turn 4: note 5" {
		t.Errorf("five notes read %q", items)
	}
	// The count's plural forms.
	for _, c := range []struct {
		n    int
		lang i18n.Lang
		want string
	}{{6, i18n.EN, "and 1 earlier"}, {7, i18n.PL, "i 2 wcześniejsze"}, {10, i18n.PL, "i 5 wcześniejszych"}, {6, i18n.RU, "и ещё 1 более ранняя"}, {6, i18n.FR, "et 1 plus ancienne"}, {8, i18n.FR, "et 3 plus anciennes"}} {
		var many []note
		for i := 0; i < c.n; i++ {
			many = append(many, note{i, "n"})
		}
		s.Handle("zertz/t1/record", recordWithNotes(t, sofar, "t1-7", many))
		if items, _ := consoleNotes(t, s, c.lang); len(items) != 6 || items[5] != c.want {
			t.Errorf("%d notes in %s: %q; want the last to read %q", c.n, c.lang, items, c.want)
		}
	}

	// From the LAN: control characters become spaces, a text longer than
	// a note is clipped.
	long := strings.Repeat("é", 150) // 300 bytes
	s.Handle("zertz/t1/record", recordWithNotes(t, sofar, "t1-7", []note{{2, "line one\nline\ttwo"}, {3, long}}))
	items, _ = consoleNotes(t, s, i18n.EN)
	if len(items) != 2 || items[0] != "after turn 2: line one line two" || items[1] != "after turn 3: "+strings.Repeat("é", record.MaxNote/2)+"…" {
		t.Errorf("notes with control characters and too long: %q", items)
	}

	// The record of the game before (another game ID): not this game's notes.
	s.Handle("zertz/t1/record", recordWithNotes(t, sofar, "t1-6", eight))
	if _, ok := consoleNotes(t, s, i18n.EN); ok {
		t.Error("the notes of another game's record are shown")
	}
	// A board that sends no game ID in its record: its notes are the game's.
	s.Handle("zertz/t1/record", recordWithNotes(t, sofar, "", eight[:1]))
	if items, _ := consoleNotes(t, s, i18n.EN); len(items) != 1 {
		t.Errorf("a record without a game ID: notes %q", items)
	}
	// Notes the scoreboard cannot read: no notes, the record kept.
	s.Handle("zertz/t1/record", recordWithNotes(t, sofar, "t1-7", "not a list"))
	if _, ok := consoleNotes(t, s, i18n.EN); ok {
		t.Error("unreadable notes are shown")
	}
	if s.obs.boardRecord("t1") == nil || !bytes.Contains(s.obs.boardRecord("t1"), []byte("not a list")) {
		t.Error("a record with unreadable notes was not kept")
	}
}

// TestResultsNotes: the results page shows a finished game's notes under
// its row, worded and escaped as on the console, the notes given after
// the end too; a game without notes has no such row; results.csv stays
// as it was.
func TestResultsNotes(t *testing.T) {
	rec, rep, states := finishedGame(t, "t1")
	dir := t.TempDir()
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	if err := s.OpenResults(dir, 0); err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{t: time.Date(2026, 11, 23, 1, 2, 3, 0, time.UTC)}
	s.obs.now = clock.now
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()

	playGame(t, s, "t1", rec, rep, states, "t1-3", false)
	rec2 := *rec
	rec2.Players = [2]string{"Ann", "Bob"}
	playGame(t, s, "t2", &rec2, rep, gameStates(t, &rec2, rep, "t2"), "t2-1", false)
	_, page := get(t, srv.URL+"/results")
	if bytes.Contains(page, []byte(`class="notes"`)) || bytes.Contains(page, []byte(`has-notes`)) {
		t.Errorf("games without notes show notes:\n%s", page)
	}
	_, csvBefore := get(t, srv.URL+"/results.csv")

	// The arbiter notes two things on t1's game, one after the end.
	withNotes := *rec
	withNotes.Notes = []record.Note{{Turn: 0, Text: "board replaced before the start"}, {Turn: len(rec.Turns), Text: `</td><script>alert(1)</script>`}}
	s.Handle("zertz/t1/record", recordJSON(t, &withNotes))
	if g := s.res.Get("t1-3"); g == nil || len(g.Notes()) != 2 {
		t.Fatalf("the result did not take the notes: %+v", g)
	}
	resp, page := get(t, srv.URL+"/results?lang=en")
	if resp.StatusCode != 200 {
		t.Fatalf("/results: %s", resp.Status)
	}
	rows := regexp.MustCompile(`(?s)<tr class="notes" data-notes-of="([^"]*)">(.*?)</tr>`).FindAllSubmatch(page, -1)
	if len(rows) != 1 || string(rows[0][1]) != "t1-3" {
		t.Fatalf("notes rows %q; want one, t1-3's:\n%s", rows, page)
	}
	var items []string
	for _, it := range noteItem.FindAllSubmatch(rows[0][2], -1) {
		items = append(items, string(it[1]))
	}
	want := []string{"before the first turn: board replaced before the start",
		fmt.Sprintf("after turn %d: &lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;", len(rec.Turns))}
	if !slices.Equal(items, want) {
		t.Errorf("t1-3's notes read %q; want %q", items, want)
	}
	if bytes.Contains(page, []byte("<script>")) {
		t.Error("a note's <script> reached the results page as HTML")
	}
	// The notes row follows its game's row, which says it has notes.
	if !regexp.MustCompile(`(?s)<tr data-game="t1-3"[^>]* class="has-notes">.*?</tr>\s*<tr class="notes" data-notes-of="t1-3">`).Match(page) {
		t.Errorf("t1-3's notes are not under its row:\n%s", page)
	}
	if regexp.MustCompile(`<tr data-game="t2-1"[^>]*has-notes`).Match(page) {
		t.Error("t2-1, without notes, is marked as having some")
	}
	_, page = get(t, srv.URL+"/results?lang=de")
	if !bytes.Contains(page, []byte("vor dem ersten Zug: board replaced before the start")) || !bytes.Contains(page, []byte(i18n.DE.T("console.arbiter-notes"))) {
		t.Errorf("the notes in German:\n%s", page)
	}

	// A scoreboard started again on the results directory shows them.
	s2 := New(Options{Logger: testLogger(t)})
	defer s2.Close()
	if err := s2.OpenResults(dir, 0); err != nil {
		t.Fatal(err)
	}
	srv2 := httptest.NewServer(s2.Handler())
	defer srv2.Close()
	if _, page := get(t, srv2.URL+"/results"); !bytes.Contains(page, []byte(`<tr class="notes" data-notes-of="t1-3">`)) || !bytes.Contains(page, []byte(want[0])) {
		t.Errorf("after a restart, t1-3's notes are gone:\n%s", page)
	}

	// results.csv: the same columns and rows as before the notes.
	_, csvAfter := get(t, srv.URL+"/results.csv")
	before, err1 := csv.NewReader(bytes.NewReader(csvBefore)).ReadAll()
	after, err2 := csv.NewReader(bytes.NewReader(csvAfter)).ReadAll()
	if err1 != nil || err2 != nil || len(after) != 3 || !slices.EqualFunc(before, after, slices.Equal) {
		t.Errorf("results.csv changed with the notes (%v, %v):\n%s\nthen\n%s", err1, err2, csvBefore, csvAfter)
	}
}

// TestConsoleNotesLive: a note given from the console arrives on the
// board's card once the board republishes its record (the fake board
// does, as the controller does).
func TestConsoleNotesLive(t *testing.T) {
	r := newConsoleRig(t, ConsoleConfig{})
	rec, rep := sampleGame(t, 12)
	states := gameStates(t, rec, rep, "t1")
	newFakeBoard(t, "tcp://"+r.mb.TCPAddr(), "board", "board-pw", "t1", states[7], recordUpTo(rec, rep, 7))
	closeBrokerFirst(t, r.mb)
	waitFor(t, r.s, "t1's record", func() bool { return r.s.obs.boardRecord("t1") != nil })
	c := r.client()
	c.login("arbiter", "arbiter-pw")
	if code, res := c.act("t1", "note", map[string][]string{"text": {"player 1 warned for touch-move"}}); code != 200 || res.Outcome != "accepted" {
		t.Fatalf("the note: %d %+v", code, res)
	}
	waitFor(t, r.s, "the note on t1's card", func() bool {
		items, _ := consoleNotes(t, r.s, i18n.EN)
		return slices.Equal(items, []string{"after turn 7: player 1 warned for touch-move"})
	})
}

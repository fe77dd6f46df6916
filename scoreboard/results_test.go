package scoreboard

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/scoreboard/results"

	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/wire"
)

// finishedGame is a 37-ring sample game that ends on the board (a winning
// set or a full board), with its states, as a board publishes them.
func finishedGame(t testing.TB, boardID string) (*record.Record, *record.Replay, []wire.State) {
	t.Helper()
	files, err := samples.Records(samples.BuiltinDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		rec, err := record.ReadFile(f)
		if err != nil || rec.Variant != "37" {
			continue
		}
		rep, err := rec.Replay()
		if err != nil || rep.Result.Outcome != record.Win || rep.Result.Reason == "" || rep.Game.Len() < 10 {
			continue
		}
		// The board's record holds exactly the turns played, no Stop.
		played := recordUpTo(rec, rep, rep.Game.Len())
		return played, rep, gameStates(t, played, rep, boardID)
	}
	t.Fatal("no 37-ring sample game ends on the board")
	return nil, nil, nil
}

func recordJSON(t testing.TB, rec *record.Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := record.WriteJSON(&buf, rec); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSpace(buf.Bytes())
}

// playGame feeds s a whole game as a board publishes it: each state, then
// the record of the turns so far. With recordFirst, the record comes
// before its state (as retained messages may on a new subscription).
func playGame(t testing.TB, s *Server, id string, rec *record.Record, rep *record.Replay, states []wire.State, gameID string, recordFirst bool) {
	t.Helper()
	for n, st := range states {
		ps := planState{State: st, GameID: gameID}
		rem := [2]int64{int64(300000 - n*1000), int64(290000 - n*1000)}
		ps.Clock = wire.Clock{Control: "sudden:5m", Remaining: &rem}
		if st.Phase != "over" {
			p := st.ToMove
			ps.Clock.Running = &p
		}
		sb, _ := json.Marshal(ps)
		rb := recordJSON(t, recordUpTo(rec, rep, st.Turn))
		if recordFirst {
			s.Handle("zertz/"+id+"/record", rb)
			s.Handle("zertz/"+id+"/state", sb)
		} else {
			s.Handle("zertz/"+id+"/state", sb)
			s.Handle("zertz/"+id+"/record", rb)
		}
	}
}

func get(t testing.TB, url string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// sameGame checks a downloaded record against the game played.
func sameGame(t *testing.T, what string, data []byte, rec *record.Record) {
	t.Helper()
	got, err := record.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v\n%s", what, err, data)
	}
	if got.Variant != rec.Variant || got.Players != rec.Players || got.First != rec.First || !slices.Equal(got.Turns, rec.Turns) {
		t.Errorf("%s: %s %v first %d, %d turns; want %s %v first %d, %d turns", what, got.Variant, got.Players, got.First, len(got.Turns),
			rec.Variant, rec.Players, rec.First, len(rec.Turns))
	}
	if _, err := got.Replay(); err != nil {
		t.Errorf("%s does not replay: %v", what, err)
	}
}

// TestResults: a game finished on the board is kept once (whatever the
// order of its state and record, however often they are redelivered), and
// the results page, the CSV, the zip and the per-game and per-board
// downloads all carry it; SGF and JSON read back to the game played.
func TestResults(t *testing.T) {
	rec, rep, states := finishedGame(t, "t1")
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	clock := &fakeClock{t: time.Date(2026, 11, 23, 1, 2, 3, 0, time.UTC)}
	s.obs.now = clock.now
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()

	playGame(t, s, "t1", rec, rep, states, "t1-3", false)
	playGame(t, s, "t1", rec, rep, states[len(states)-1:], "t1-3", false) // redelivered
	// Another board's game, its records before its states, no game_id.
	rec2 := *rec
	rec2.Players = [2]string{"=HYPERLINK(\"x\")", "Łucja Ćwik"}
	states2 := gameStates(t, &rec2, rep, "t2")
	clock.add(time.Minute)
	playGame(t, s, "t2", &rec2, rep, states2, "", true)

	// The same board, its journal started afresh: game t1-3 again, another
	// game (here: the same moves by other players).
	rec3 := *rec
	rec3.Players = [2]string{"Ann", "Bob"}
	playGame(t, s, "t1", &rec3, rep, gameStates(t, &rec3, rep, "t1"), "t1-3", false)

	games, _ := s.res.List()
	if len(games) != 3 {
		t.Fatalf("%d results; want 3", len(games))
	}
	if id := games[2].GameID; !strings.HasPrefix(id, "t1-3-") || len(id) != len("t1-3-")+8 || games[2].Players != rec3.Players {
		t.Errorf("a second game t1-3 is kept as %q with %q", id, games[2].Players)
	}
	games = games[:2]
	final := states[len(states)-1]
	g := games[0]
	if g.GameID != "t1-3" || g.Board != "t1" || g.Reason != final.Result || g.Winner == nil || *g.Winner != *final.Winner ||
		g.Turns != len(rec.Turns) || g.Clock == nil || g.Clock.Control != "sudden:5m" || g.Clock.Running != nil {
		t.Errorf("result %+v; want game t1-3 won by %d (%s) in %d turns", g, *final.Winner, final.Result, len(rec.Turns))
	}
	if id := games[1].GameID; !strings.HasPrefix(id, "t2-") || !results.ValidGameID(id) {
		t.Errorf("a board without game_id: game %q", id)
	}

	// The page.
	resp, page := get(t, srv.URL+"/results")
	if resp.StatusCode != 200 || !bytes.Contains(page, []byte(`data-game="t1-3"`)) || !bytes.Contains(page, []byte(`href="/results/t1-3.sgf"`)) ||
		!bytes.Contains(page, []byte(rec.Players[*final.Winner]+" wins ("+i18n.EN.T(reasonKey[final.Result])+")")) ||
		!bytes.Contains(page, []byte(`<td class="winner" data-label="Winner">`+rec.Players[*final.Winner]+`</td>`)) || bytes.Contains(page, []byte(`"x")`)) {
		t.Errorf("/results: %s\n%s", resp.Status, page)
	}

	// CSV: a header and a row per game, formulas defused.
	resp, body := get(t, srv.URL+"/results.csv")
	rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil || resp.Header.Get("Content-Type") != "text/csv; charset=utf-8" || len(rows) != 4 {
		t.Fatalf("/results.csv: %v, %d rows\n%s", err, len(rows), body)
	}
	if !slices.Equal(rows[0], results.CSVHeader) {
		t.Errorf("CSV header %q", rows[0])
	}
	col := func(row []string, name string) string { return row[slices.Index(results.CSVHeader, name)] }
	r1 := rows[1]
	if col(r1, "game_id") != "t1-3" || col(r1, "finished") != "2026-11-23T01:02:03Z" || col(r1, "winner") != jsonInt(*final.Winner) ||
		col(r1, "winner_name") != rec.Players[*final.Winner] || col(r1, "reason") != string(final.Result) || col(r1, "turns") != jsonInt(len(rec.Turns)) ||
		col(r1, "control") != "sudden:5m" || col(r1, "remaining_ms_0") == "" {
		t.Errorf("CSV row %q", r1)
	}
	if p := col(rows[2], "player_0"); p != `'=HYPERLINK("x")` {
		t.Errorf("a formula as a player's name is %q in the CSV; want it quoted with '", p)
	}
	if p := col(rows[2], "player_1"); p != "Łucja Ćwik" {
		t.Errorf("player_1 %q", p)
	}

	// Per game and per board downloads.
	for u, want := range map[string]*record.Record{"/results/t1-3.json": rec, "/results/t1-3.sgf": rec,
		"/board/t1/record.json": &rec3, "/board/t1/record.sgf": &rec3, "/results/" + games[1].GameID + ".sgf": &rec2} {
		resp, body := get(t, srv.URL+u)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("%s: %s %q", u, resp.Status, body)
		}
		sameGame(t, u, body, want)
	}
	for u, want := range map[string]int{
		"/results/nope.json": 404, "/results/t1-3.txt": 400, "/results/..json": 400, "/results/a%2Fb.sgf": 400,
		"/board/t9/record.json": 404, "/board/t%201/record.sgf": 400,
	} {
		if resp, body := get(t, srv.URL+u); resp.StatusCode != want {
			t.Errorf("%s: %s %q; want %d", u, resp.Status, body, want)
		}
	}

	// The zip: the CSV, and each game's JSON and SGF.
	resp, body = get(t, srv.URL+"/results.zip")
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil || resp.Header.Get("Content-Type") != "application/zip" {
		t.Fatalf("/results.zip: %v", err)
	}
	var names []string
	files := map[string][]byte{}
	for _, f := range zr.File {
		names = append(names, f.Name)
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name], _ = io.ReadAll(rc)
		rc.Close()
	}
	id2 := games[1].GameID
	if want := []string{"results.csv", "t1-3.json", "t1-3.sgf", id2 + ".json", id2 + ".sgf"}; !slices.Equal(names[:5], want) || len(names) != 7 {
		t.Fatalf("zip lists %q; want %q", names, want)
	}
	sameGame(t, "zip t1-3.json", files["t1-3.json"], rec)
	sameGame(t, "zip t1-3.sgf", files["t1-3.sgf"], rec)
	sameGame(t, "zip "+id2+".sgf", files[id2+".sgf"], &rec2)
	if zrows, err := csv.NewReader(bytes.NewReader(files["results.csv"])).ReadAll(); err != nil || len(zrows) != 4 {
		t.Errorf("zip results.csv: %v, %d rows", err, len(zrows))
	}
}

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestResultsOffBoard: a result declared off the board is kept once the
// record carrying "end" arrives, not with the record before it.
func TestResultsOffBoard(t *testing.T) {
	rec, rep := sampleGame(t, 12)
	states := gameStates(t, rec, rep, "t1")
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	played := recordUpTo(rec, rep, 8)
	ps := planState{State: states[8], GameID: "t1-9"}
	s.Handle("zertz/t1/state", stateJSON(t, ps.State))
	s.Handle("zertz/t1/record", recordJSON(t, played))
	w := 1
	ps.Seq++
	ps.Phase, ps.Result, ps.Winner, ps.ResultNote = "over", "resignation", &w, "resigned after a blunder"
	b, _ := json.Marshal(ps)
	s.Handle("zertz/t1/state", b)
	if g, _ := s.res.List(); len(g) != 0 {
		t.Fatalf("kept %+v before the record with the resignation", g[0])
	}
	played.Stop = record.Stop{Kind: record.Resign, Player: 0}
	s.Handle("zertz/t1/record", recordJSON(t, played))
	g, _ := s.res.List()
	if len(g) != 1 || g[0].Reason != "resignation" || g[0].Note != "resigned after a blunder" || *g[0].Winner != 1 {
		t.Fatalf("results %+v", g)
	}
	back, err := record.ReadJSON(bytes.NewReader(g[0].Record))
	if err != nil || back.Stop != played.Stop {
		t.Errorf("the kept record: %v, stop %+v", err, back)
	}
	sgf, err := results.SGFOf(g[0].Record)
	if err != nil || !bytes.Contains(sgf, []byte("Resign")) {
		t.Errorf("SGF of a resignation: %v\n%s", err, sgf)
	}
}

// TestResultsPersist: results are written atomically to the directory and
// read back by a new scoreboard; a damaged file is skipped, and the memory
// bound drops the oldest.
func TestResultsPersist(t *testing.T) {
	dir := t.TempDir()
	rec, rep, states := finishedGame(t, "t1")
	s := New(Options{Logger: testLogger(t)})
	if err := s.OpenResults(dir, 0); err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"g-1", "g-2", "g-3"} {
		s.obs.now = func() time.Time { return time.Date(2026, 11, 23, 1, i, 0, 0, time.UTC) }
		playGame(t, s, "t1", rec, rep, states, id, false)
	}
	s.Close()
	if err := os.WriteFile(filepath.Join(dir, "broken.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A write a crash cut short leaves a temporary file: the next start
	// removes it.
	stale := filepath.Join(dir, ".result-123.tmp")
	if err := os.WriteFile(stale, []byte(`{"game_id":`), 0o600); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{".result-123.tmp", "broken.json", "g-1.json", "g-1.result", "g-2.json", "g-2.result", "g-3.json", "g-3.result"}; !slices.Equal(names, want) {
		t.Errorf("the directory holds %q; want %q (no temporary files but the stale one)", names, want)
	}
	// Each GAME.json is a plain record, as replay reads it, with the
	// result; the envelope is beside it.
	kept, err := record.ReadFile(filepath.Join(dir, "g-3.json"))
	if err != nil {
		t.Fatalf("the kept record is not a plain record: %v", err)
	}
	if rep2, err := kept.Replay(); err != nil || rep2.Result != rep.Result {
		t.Errorf("the kept record replays to %+v, %v; want %+v", rep2, err, rep.Result)
	}
	var meta map[string]any
	if data, err := os.ReadFile(filepath.Join(dir, "g-3.result")); err != nil || json.Unmarshal(data, &meta) != nil ||
		meta["game_id"] != "g-3" || meta["record"] != "g-3.json" || meta["board"] != "t1" || meta["winner"] == nil {
		t.Errorf("the envelope g-3.result: %v %v", meta, err)
	}

	s2 := New(Options{Logger: testLogger(t)})
	defer s2.Close()
	if err := s2.OpenResults(dir, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale temporary file is still there: %v", err)
	}
	games, diskErr := s2.res.List()
	if diskErr != nil || len(games) != 2 || games[0].GameID != "g-2" || games[1].GameID != "g-3" {
		t.Fatalf("after a restart with room for 2: %v %v", diskErr, games)
	}
	sameGame(t, "g-3 after a restart", games[1].Record, rec)
	if games[1].Finished != time.Date(2026, 11, 23, 1, 2, 0, 0, time.UTC) || games[1].Clock == nil || games[1].Winner == nil {
		t.Errorf("g-3 after a restart: %+v", games[1])
	}

	// A directory that cannot be written: the game is kept in memory, and
	// the page says results are not saved.
	ro := filepath.Join(t.TempDir(), "ro")
	s3 := New(Options{Logger: testLogger(t)})
	defer s3.Close()
	if err := s3.OpenResults(ro, 0); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(ro) // gone under it
	playGame(t, s3, "t1", rec, rep, states, "g-9", false)
	games, diskErr = s3.res.List()
	if len(games) != 1 || diskErr == nil {
		t.Fatalf("with the directory gone: %d games, error %v", len(games), diskErr)
	}
	srv := httptest.NewServer(s3.Handler())
	defer srv.Close()
	if _, page := get(t, srv.URL+"/results"); !bytes.Contains(page, []byte("not being saved")) {
		t.Error("the results page does not say results are not saved")
	}
}

// TestResultsOldLayout: a directory written by an older scoreboard, one
// GAME.json per game with the record inside the envelope, still loads,
// and is rewritten as plain records with their envelopes beside them; a
// record without its envelope is skipped.
func TestResultsOldLayout(t *testing.T) {
	dir := t.TempDir()
	rec, rep, _ := finishedGame(t, "t1")
	winner := rep.Result.Winner
	old := map[string]any{"game_id": "old-1", "board": "t1", "finished": "2026-11-20T10:00:00Z", "variant": "37",
		"players": rec.Players, "winner": winner, "reason": "captures", "turns": rep.Game.Len(), "record": json.RawMessage(recordJSON(t, rec))}
	data, err := json.MarshalIndent(old, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "old-1.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := record.ReadFile(filepath.Join(dir, "old-1.json")); err == nil {
		t.Fatal("the older layout reads as a record: this test no longer tests a migration")
	}
	// A record a crash left without its envelope.
	if err := os.WriteFile(filepath.Join(dir, "lone.json"), recordJSON(t, rec), 0o644); err != nil {
		t.Fatal(err)
	}
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	if err := s.OpenResults(dir, 0); err != nil {
		t.Fatal(err)
	}
	games, _ := s.res.List()
	if len(games) != 1 || games[0].GameID != "old-1" || games[0].Winner == nil || *games[0].Winner != winner ||
		!games[0].Finished.Equal(time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("loaded %+v; want old-1 alone", games)
	}
	sameGame(t, "old-1 loaded", games[0].Record, rec)
	back, err := record.ReadFile(filepath.Join(dir, "old-1.json"))
	if err != nil {
		t.Fatalf("old-1.json after loading is still not a plain record: %v", err)
	}
	if r, err := back.Replay(); err != nil || r.Result != rep.Result {
		t.Errorf("old-1.json replays to %+v, %v", r, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "old-1.result")); err != nil {
		t.Errorf("no envelope beside the rewritten record: %v", err)
	}
	// A second scoreboard reads the rewritten directory the same.
	s2 := New(Options{Logger: testLogger(t)})
	defer s2.Close()
	if err := s2.OpenResults(dir, 0); err != nil {
		t.Fatal(err)
	}
	if g2, _ := s2.res.List(); len(g2) != 1 || g2[0].GameID != "old-1" || !g2[0].Finished.Equal(games[0].Finished) || g2[0].Reason != "captures" {
		t.Errorf("after the rewrite: %+v", g2)
	}
}

// TestResultSGFHeaders: a finished game's SGF carries its result, the
// date it finished and a Boardspace-style name, and reads back with them.
func TestResultSGFHeaders(t *testing.T) {
	rec, rep, states := finishedGame(t, "t1")
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	s.obs.now = func() time.Time { return time.Date(2026, 11, 26, 14, 22, 33, 0, time.UTC) }
	for i := range states {
		states[i].PublishedMS = 0 // filed at the scoreboard's time
	}
	playGame(t, s, "t1", rec, rep, states, "h-1", false)
	games, _ := s.res.List()
	if len(games) != 1 {
		t.Fatalf("%d games", len(games))
	}
	sgf, err := games[0].SGF()
	if err != nil {
		t.Fatal(err)
	}
	name := func(p int) string { return strings.Join(strings.Fields(rec.Players[p]), "_") }
	wantRE := "RE[Game won by " + rec.Players[rep.Result.Winner] + "]"
	for _, want := range []string{"DT[Thu Nov 26 14:22:33 UTC 2026]", "GN[Z-" + name(0) + "-" + name(1) + "-2026-11-26-1422]", wantRE} {
		if !bytes.Contains(sgf, []byte(want)) {
			t.Errorf("the SGF lacks %s:\n%.400s", want, sgf)
		}
	}
	back, err := record.Read(bytes.NewReader(sgf))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := back.Replay(); err != nil || r.Result != rep.Result || back.ResultText == "" {
		t.Errorf("the SGF read back: %+v, %v, RE %q", r, err, back.ResultText)
	}
}

// TestResultsSGFRefused: a game Boardspace SGF cannot hold (blitz) is a
// 422 naming the reason; its JSON downloads.
func TestResultsSGFRefused(t *testing.T) {
	rec, rep, states := finishedGame(t, "t1")
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	playGame(t, s, "t1", rec, rep, states[:3], "", false)
	blitz := []byte(strings.Replace(string(recordJSON(t, recordUpTo(rec, rep, 2))), `"variant": "37"`, `"variant": "37b"`, 1))
	s.Handle("zertz/t1/record", blitz)
	if resp, body := get(t, srv.URL+"/board/t1/record.sgf"); resp.StatusCode != http.StatusUnprocessableEntity || !bytes.Contains(body, []byte("37b")) {
		t.Errorf("SGF of a blitz game: %s %q; want 422 naming the variant", resp.Status, body)
	}
	if resp, body := get(t, srv.URL+"/board/t1/record.json"); resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"37b"`)) {
		t.Errorf("JSON of a blitz game: %s %q", resp.Status, body)
	}
}

// TestResultsBounds: a record over maxRecord is not kept, so a game that
// ends with one is not listed; the board's download stays the last good
// record.
func TestResultsBounds(t *testing.T) {
	rec, rep, states := finishedGame(t, "t1")
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	playGame(t, s, "t1", rec, rep, states[:len(states)-1], "g1", false)
	before := s.obs.boardRecord("t1")
	huge := recordJSON(t, recordUpTo(rec, rep, len(rec.Turns)))
	huge = append(huge[:len(huge)-1], []byte(`,"pad":"`+strings.Repeat("x", maxRecord)+`"}`)...)
	s.Handle("zertz/t1/state", stateJSON(t, states[len(states)-1]))
	s.Handle("zertz/t1/record", huge)
	if g, _ := s.res.List(); len(g) != 0 {
		t.Errorf("a game kept with a %d-byte record", len(huge))
	}
	if got := s.obs.boardRecord("t1"); !bytes.Equal(got, before) {
		t.Error("an oversized record replaced the board's record")
	}
}

// TestPageLinks: the tournament view links the results (and the console
// when it is on), in the page's language; a board's page offers its
// game's SGF and JSON once the board has a record.
func TestPageLinks(t *testing.T) {
	rec, rep, states := finishedGame(t, "t1")
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	s.Handle("zertz/t1/state", stateJSON(t, states[0]))
	if _, page := get(t, srv.URL+"/board/t1"); bytes.Contains(page, []byte("record.sgf")) {
		t.Error("a board without a record offers a download")
	}
	playGame(t, s, "t1", rec, rep, states[:4], "", false)
	_, page := get(t, srv.URL+"/board/t1?lang=de")
	for _, want := range []string{`<a href="/board/t1/record.sgf" download>SGF dieser Partie</a>`, `<a href="/board/t1/record.json" download>JSON dieser Partie</a>`} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the board page lacks %s", want)
		}
	}
	_, page = get(t, srv.URL+"/?lang=pl")
	if !bytes.Contains(page, []byte(`<a href="/results?lang=pl">Wyniki</a>`)) || bytes.Contains(page, []byte(`/console`)) {
		t.Errorf("the tournament view without the console: %s", page)
	}
	if err := s.EnableConsole(ConsoleConfig{Broker: "tcp://127.0.0.1:1"}); err != nil {
		t.Fatal(err)
	}
	if _, page = get(t, srv.URL+"/?lang=ru"); !bytes.Contains(page, []byte(`<a href="/console?lang=ru">Пульт арбитра</a>`)) {
		t.Errorf("the tournament view with the console lacks its link")
	}
}

// TestEventAndRoundShown: the tournament and round a board's arbiter named
// (state.event and state.round, the record's event and round) show on the
// board's view, its card in the tournament view, the results page and
// the game viewer, in the page's language and escaped, and the kept
// SGF has them as EV and RO, which read back.
func TestEventAndRoundShown(t *testing.T) {
	rec, rep, states := finishedGame(t, "t1")
	rec.Event, rec.Round = `Club <Open> 2026`, "3"
	for i := range states {
		states[i].Event, states[i].Round = rec.Event, rec.Round
	}
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	playGame(t, s, "t1", rec, rep, states[:len(states)-1], "e-1", false)
	const shown = `Club &lt;Open&gt; 2026 · round 3`
	if h, _ := s.Current("t1"); !strings.Contains(h, `<span class="event">`+shown+`</span>`) {
		t.Errorf("the board's view does not show the event and round:\n%.600s", h)
	}
	if h, _ := s.Current(""); !strings.Contains(h, `>`+shown+`</span>`) {
		t.Errorf("the tournament view does not show them:\n%s", h)
	}
	if _, page := get(t, srv.URL+"/board/t1?lang=de"); !bytes.Contains(page, []byte(`Club &lt;Open&gt; 2026 · Runde 3`)) {
		t.Error("the German board page does not say Runde 3")
	}
	playGame(t, s, "t1", rec, rep, states[len(states)-1:], "e-1", false)
	if _, page := get(t, srv.URL+"/results"); !bytes.Contains(page, []byte(`<span class="ev">`+shown+`</span>`)) {
		t.Errorf("/results does not show them:\n%s", page)
	}
	if _, page := get(t, srv.URL+"/results/e-1"); !bytes.Contains(page, []byte(` · `+shown+`</span>`)) { // in its header
		t.Errorf("the viewer does not show them:\n%s", page)
	}
	resp, sgf := get(t, srv.URL+"/results/e-1.sgf")
	if resp.StatusCode != 200 || !bytes.Contains(sgf, []byte(`EV[Club <Open> 2026]`)) || !bytes.Contains(sgf, []byte(`RO[3]`)) {
		t.Fatalf("the SGF: %s\n%.500s", resp.Status, sgf)
	}
	back, err := record.Read(bytes.NewReader(sgf))
	if err != nil || back.Event != rec.Event || back.Round != "3" {
		t.Errorf("the SGF read back: event %q round %q, %v", back.Event, back.Round, err)
	}
	// A board whose arbiter named nothing shows nothing of it.
	for i := range states {
		states[i].Event, states[i].Round = "", ""
	}
	playGame(t, s, "t2", rec, rep, states[:1], "", false)
	if h, _ := s.Current("t2"); strings.Contains(h, `class="event"`) {
		t.Errorf("an unnamed board's view shows an event:\n%.600s", h)
	}
}

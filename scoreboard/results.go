package scoreboard

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/zertzboard/zertzboard/scoreboard/view"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/record"
)

// Limits on the results kept.
const (
	// DefaultMaxResults bounds the finished games kept in memory; the
	// oldest go first (their files stay on disk).
	DefaultMaxResults = 10000
	maxGameID         = 100
	maxResultFile     = 2 << 20 // a record of the longest game is tens of kB
)

// GameResult is one finished game as the scoreboard keeps it: the final
// state's result and clocks, and the board's JSON record (with its clock
// times per turn) as the board published it.
type GameResult struct {
	GameID   string          `json:"game_id"`
	Board    string          `json:"board"`
	Finished time.Time       `json:"finished"` // when the game ended (finishedAt)
	Variant  string          `json:"variant"`
	Mode     string          `json:"mode,omitempty"`
	Players  [2]string       `json:"players"`
	Winner   *int            `json:"winner"`
	Reason   string          `json:"reason"`
	Note     string          `json:"note,omitempty"`
	Turns    int             `json:"turns"`
	Clock    *ClockState     `json:"clock,omitempty"`
	Record   json.RawMessage `json:"record"`

	sgfOnce sync.Once // the SGF is made once, on first use
	sgf     []byte
	sgfErr  error
}

// SGF is the game as Boardspace SGF (or why it cannot be), made once.
func (g *GameResult) SGF() ([]byte, error) {
	g.sgfOnce.Do(func() { g.sgf, g.sgfErr = sgfOfResult(g) })
	return g.sgf, g.sgfErr
}

// results keeps the finished games, in the order they finished, and
// writes each to its own file in dir (if any) atomically.
type results struct {
	dir string
	max int
	log *slog.Logger
	now func() time.Time

	mu      sync.Mutex
	games   []*GameResult
	byID    map[string]*GameResult
	diskErr error // the latest failure to save, nil once one succeeds
}

func newResults(max int, log *slog.Logger, now func() time.Time) *results {
	if max <= 0 {
		max = DefaultMaxResults
	}
	return &results{max: max, log: log, now: now, byID: map[string]*GameResult{}}
}

// validGameID reports whether id can name a game in a URL and a file:
// 1 to 100 characters of A-Z a-z 0-9 . _ -, not starting with a dot.
func validGameID(id string) bool {
	if id == "" || len(id) > maxGameID || id[0] == '.' {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// gameID is the state's game_id, or for boards that send none, the board
// ID and a digest of the record (so redeliveries of the retained state and
// record make the same ID).
func gameID(b *opBoard) string {
	if id := b.state.GameID; validGameID(id) {
		return id
	}
	sum := sha256.Sum256(b.record)
	return b.id + "-" + hex.EncodeToString(sum[:6])
}

// finishedAt is when a game ended: when its board published the final
// state (state.published_ms, Unix ms), so that every scoreboard following
// the board files the game at the same time, wherever and whenever it saw
// it; now, when this scoreboard saw the game end, for a board that does
// not say (or whose clock is clearly wrong: before 2000, or ahead of ours
// by more than a day).
func finishedAt(t int64, now time.Time) time.Time {
	at := time.UnixMilli(t)
	if t <= 0 || at.Year() < 2000 || at.After(now.Add(24*time.Hour)) {
		at = now
	}
	return at.UTC().Truncate(time.Millisecond)
}

// add keeps the finished game of b, unless it is kept already: the same
// game ID with the same record is a redelivery. A board whose journal
// started afresh numbers its games from 1 again, so the same ID with
// another record is another game, kept under the ID and a digest of its
// record.
func (r *results) add(b *opBoard) {
	id := gameID(b)
	rec := bytes.TrimSpace(b.record)
	r.mu.Lock()
	defer r.mu.Unlock()
	if old := r.byID[id]; old != nil {
		if bytes.Equal(old.Record, rec) {
			return
		}
		sum := sha256.Sum256(rec)
		id = clipID(id, 91) + "-" + hex.EncodeToString(sum[:4])
		if r.byID[id] != nil {
			return
		}
	}
	s := b.state
	g := &GameResult{GameID: id, Board: b.id, Finished: finishedAt(s.Published, r.now()), Variant: s.Variant, Mode: s.Mode,
		Players: s.Players, Winner: s.Winner, Reason: s.Result, Note: s.ResultNote, Turns: s.Turn, Clock: s.Clock,
		Record: json.RawMessage(rec)}
	r.keepLocked(g)
	r.log.Info("scoreboard: game finished", "game", id, "board", b.id, "reason", g.Reason, "winner", winnerText(g.Winner))
	if r.dir != "" {
		if err := r.save(g); err != nil {
			r.diskErr = err
			r.log.Error("scoreboard: saving a result", "game", id, "err", err)
		} else {
			r.diskErr = nil
		}
	}
}

// clipID shortens a game ID (ASCII) to n bytes.
func clipID(id string, n int) string {
	if len(id) > n {
		return id[:n]
	}
	return id
}

func (r *results) keepLocked(g *GameResult) {
	r.games = append(r.games, g)
	r.byID[g.GameID] = g
	if len(r.games) > r.max {
		old := r.games[0]
		r.games = r.games[1:]
		delete(r.byID, old.GameID)
		r.log.Warn("scoreboard: too many results in memory; the oldest is left on disk only", "game", old.GameID, "max", r.max)
	}
}

// The results directory holds, for each game, its record and the
// scoreboard's envelope beside it:
//
//	GAME.json    the board's JSON record, as published: a plain record
//	             that replay (record.ReadFile) reads
//	GAME.result  the envelope, JSON: the board, when the game finished,
//	             the players, winner, reason, note, turns and final
//	             clocks (GameResult without the record)
//
// so "zertzboard replay DIR/*.json" checks every game. Directories of
// older scoreboards held one GAME.json per game with the record inside
// the envelope; load reads those and rewrites them in this layout.
const resultExt = ".result"

// resultMeta is the envelope: a GameResult without its record.
type resultMeta struct {
	GameID   string      `json:"game_id"`
	Board    string      `json:"board"`
	Finished time.Time   `json:"finished"`
	Variant  string      `json:"variant"`
	Mode     string      `json:"mode,omitempty"`
	Players  [2]string   `json:"players"`
	Winner   *int        `json:"winner"`
	Reason   string      `json:"reason"`
	Note     string      `json:"note,omitempty"`
	Turns    int         `json:"turns"`
	Clock    *ClockState `json:"clock,omitempty"`
	// Record names the record's file beside it, GAME.json.
	Record string `json:"record"`
}

func metaOf(g *GameResult) resultMeta {
	return resultMeta{GameID: g.GameID, Board: g.Board, Finished: g.Finished, Variant: g.Variant, Mode: g.Mode,
		Players: g.Players, Winner: g.Winner, Reason: g.Reason, Note: g.Note, Turns: g.Turns, Clock: g.Clock,
		Record: g.GameID + ".json"}
}

// save writes g to dir: the record to GAME.json, then the envelope to
// GAME.result, each atomically (a temporary file, synced, renamed over
// the final name), and the directory synced. A game is complete once
// its envelope is there; load skips a record without one.
func (r *results) save(g *GameResult) error {
	return saveResult(r.dir, g)
}

func saveResult(dir string, g *GameResult) error {
	meta, err := json.MarshalIndent(metaOf(g), "", "  ")
	if err != nil {
		return err
	}
	if err := writeAtomic(dir, g.GameID+".json", append(bytes.TrimSpace(g.Record), '\n')); err != nil {
		return err
	}
	if err := writeAtomic(dir, g.GameID+resultExt, append(meta, '\n')); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		err = d.Sync()
		d.Close()
		return err
	}
	return nil
}

// writeAtomic writes data to dir/name through a synced temporary file
// renamed over it.
func writeAtomic(dir, name string, data []byte) error {
	tmp, err := os.CreateTemp(dir, ".result-*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// load reads every result in dir, oldest first; a file that cannot be
// read is logged and skipped, and left alone. A game in the older
// layout (the record inside GAME.json's envelope) is read, and rewritten
// as GAME.json and GAME.result.
func (r *results) load(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("results directory %s: %w", dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("results directory %s: %w", dir, err)
	}
	var games []*GameResult
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".result-") && strings.HasSuffix(name, ".tmp") {
			os.Remove(filepath.Join(dir, name)) // a write a crash cut short
			continue
		}
		id, ok := strings.CutSuffix(name, ".json")
		if !ok || !e.Type().IsRegular() || !validGameID(id) {
			continue
		}
		g, old, err := readResult(dir, id)
		if err != nil {
			r.log.Warn("scoreboard: skipping a result file", "file", filepath.Join(dir, name), "err", err)
			continue
		}
		if old {
			if err := saveResult(dir, g); err != nil {
				r.log.Warn("scoreboard: a result in the older layout could not be rewritten; it is read as it is", "file", filepath.Join(dir, name), "err", err)
			} else {
				r.log.Info("scoreboard: rewrote a result as a plain record and its envelope", "record", filepath.Join(dir, name), "envelope", filepath.Join(dir, id+resultExt))
			}
		}
		games = append(games, g)
	}
	sort.SliceStable(games, func(i, j int) bool { return games[i].Finished.Before(games[j].Finished) })
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dir = dir
	for _, g := range games {
		if r.byID[g.GameID] == nil {
			r.keepLocked(g)
		}
	}
	return nil
}

// readBounded reads a result file of at most maxResultFile bytes.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxResultFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxResultFile {
		return nil, fmt.Errorf("larger than %d bytes", maxResultFile)
	}
	return data, nil
}

// readResult reads game id from dir: GAME.json and its envelope
// GAME.result, or GAME.json in the older layout, an envelope with the
// record inside (old is then true).
func readResult(dir, id string) (g *GameResult, old bool, err error) {
	data, err := readBounded(filepath.Join(dir, id+".json"))
	if err != nil {
		return nil, false, err
	}
	var probe struct {
		Format string          `json:"format"`
		GameID *string         `json:"game_id"`
		Record json.RawMessage `json:"record"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, false, err
	}
	if probe.Format == "" && probe.GameID != nil && len(probe.Record) > 0 {
		// The older layout: the envelope with the record inside.
		g = new(GameResult)
		if err := json.Unmarshal(data, g); err != nil {
			return nil, false, err
		}
		if !json.Valid(g.Record) || bytes.TrimSpace(g.Record)[0] != '{' {
			return nil, false, errors.New("no record")
		}
		if g.GameID != id {
			return nil, false, fmt.Errorf("it holds game %q", g.GameID)
		}
		return g, true, nil
	}
	if probe.Format != record.JSONFormat {
		return nil, false, fmt.Errorf("not a zertzboard JSON record (format %q)", view.ClipText(probe.Format, 40))
	}
	metaData, err := readBounded(filepath.Join(dir, id+resultExt))
	if err != nil {
		return nil, false, fmt.Errorf("the record has no envelope beside it: %w", err)
	}
	var m resultMeta
	if err := json.Unmarshal(metaData, &m); err != nil {
		return nil, false, fmt.Errorf("%s%s: %w", id, resultExt, err)
	}
	if m.GameID != id {
		return nil, false, fmt.Errorf("%s%s holds game %q", id, resultExt, view.ClipText(m.GameID, 120))
	}
	g = &GameResult{GameID: m.GameID, Board: m.Board, Finished: m.Finished, Variant: m.Variant, Mode: m.Mode,
		Players: m.Players, Winner: m.Winner, Reason: m.Reason, Note: m.Note, Turns: m.Turns, Clock: m.Clock,
		Record: json.RawMessage(bytes.TrimSpace(data))}
	return g, false, nil
}

// list returns the kept games, oldest first.
func (r *results) list() ([]*GameResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*GameResult(nil), r.games...), r.diskErr
}

func (r *results) get(id string) *GameResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byID[id]
}

func winnerText(w *int) string {
	if w == nil {
		return ""
	}
	return strconv.Itoa(*w)
}

// sgfOf converts a JSON record to Boardspace SGF (record.WriteSGF).
func sgfOf(rec []byte) ([]byte, error) {
	r, err := record.ReadJSON(bytes.NewReader(rec))
	if err != nil {
		return nil, err
	}
	return writeSGF(r)
}

// sgfOfResult is a finished game's SGF with the headers Boardspace's
// own records have: when the record lacks them, DT[] is when the game
// finished, in Boardspace's form ("Thu Nov 26 14:22:33 UTC 2026"), and
// GN[] the game's name in the form of Boardspace's file names
// ("Z11-alice-bob-2026-11-26-1422").
func sgfOfResult(g *GameResult) ([]byte, error) {
	r, err := record.ReadJSON(bytes.NewReader(g.Record))
	if err != nil {
		return nil, err
	}
	at := g.Finished.UTC()
	if r.Date == "" && !at.IsZero() {
		r.Date = at.Format("Mon Jan 02 15:04:05 MST 2006")
	}
	if r.Name == "" && !at.IsZero() {
		if prefix, ok := sgfNamePrefix[r.Variant]; ok {
			name := func(p int) string {
				if n := strings.Join(strings.Fields(r.Players[p]), "_"); n != "" {
					return n
				}
				return fmt.Sprintf("P%d", p)
			}
			r.Name = prefix + "-" + name(0) + "-" + name(1) + "-" + at.Format("2006-01-02-1504")
		}
	}
	return writeSGF(r)
}

// sgfNamePrefix is how Boardspace's file names start for each board.
var sgfNamePrefix = map[string]string{"37": "Z", "48": "Z11", "61": "Z24"}

func writeSGF(r *record.Record) ([]byte, error) {
	var buf bytes.Buffer
	if err := record.WriteSGF(&buf, r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ---------- HTTP ----------

func (s *Server) resultRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /results", langChecked(s.serveResults))
	mux.HandleFunc("GET /results.csv", s.serveResultsCSV)
	mux.HandleFunc("GET /results.zip", s.serveResultsZip)
	mux.HandleFunc("GET /results/{file}", func(w http.ResponseWriter, r *http.Request) {
		file := r.PathValue("file")
		id, ext := file, ""
		if i := strings.LastIndexByte(file, '.'); i > 0 {
			id, ext = file[:i], file[i:]
		}
		if ext != ".json" && ext != ".sgf" && validGameID(file) && (ext == "" || s.res.get(file) != nil) {
			if g := s.replayedGame(w, file); g != nil { // the game viewer (viewer.go)
				s.serveViewer(w, r, g)
			}
			return
		}
		if !validGameID(id) || (ext != ".json" && ext != ".sgf") {
			http.Error(w, fmt.Sprintf("scoreboard: %q is not GAME.json or GAME.sgf with a valid game ID", view.ClipText(file, 120)), http.StatusBadRequest)
			return
		}
		g := s.res.get(id)
		if g == nil {
			http.Error(w, fmt.Sprintf("scoreboard: no finished game %q", id), http.StatusNotFound)
			return
		}
		serveRecord(w, id+ext, g.Record, g.SGF)
	})
	for _, ext := range []string{".json", ".sgf"} {
		mux.HandleFunc("GET /board/{id}/record"+ext, func(w http.ResponseWriter, r *http.Request) {
			id := r.PathValue("id")
			if !badBoard(w, id) {
				return
			}
			rec := s.obs.boardRecord(id)
			if rec == nil {
				http.Error(w, fmt.Sprintf("scoreboard: no record from board %q yet", id), http.StatusNotFound)
				return
			}
			serveRecord(w, id+ext, rec, func() ([]byte, error) { return sgfOf(rec) })
		})
	}
}

// pageLink is a link in the scoreboard page's corner.
type pageLink struct {
	Text, URL string
	Download  bool
}

// pageLinks are the tournament view's links to the results and the
// console, and a board page's downloads of its game (once it has a record).
func (s *Server) pageLinks(board string, l i18n.Lang) []pageLink {
	q := "?lang=" + string(l)
	if board == "" {
		links := []pageLink{{Text: l.T("console.results"), URL: "/results" + q}}
		if s.ops != nil {
			links = append(links, pageLink{Text: l.T("console.title"), URL: "/console" + q})
		}
		return links
	}
	if s.obs.boardRecord(board) == nil {
		return nil
	}
	base := "/board/" + url.PathEscape(board) + "/record"
	return []pageLink{{Text: l.T("results.download", "SGF"), URL: base + ".sgf", Download: true},
		{Text: l.T("results.download", "JSON"), URL: base + ".json", Download: true}}
}

// serveRecord writes a record as a download: JSON as published, or SGF.
func serveRecord(w http.ResponseWriter, name string, rec []byte, sgfOf func() ([]byte, error)) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	if strings.HasSuffix(name, ".sgf") {
		sgf, err := sgfOf()
		if err != nil {
			h.Del("Content-Disposition")
			http.Error(w, "scoreboard: this game cannot be written as Boardspace SGF (download the JSON record): "+err.Error(), http.StatusUnprocessableEntity)
			return
		}
		h.Set("Content-Type", "application/x-go-sgf")
		w.Write(sgf)
		return
	}
	h.Set("Content-Type", "application/json")
	w.Write(bytes.TrimSpace(rec))
	w.Write([]byte("\n"))
}

var csvHeader = []string{"game_id", "board", "finished", "variant", "mode", "player_0", "player_1", "winner", "winner_name", "reason", "note", "turns", "control", "remaining_ms_0", "remaining_ms_1"}

// csvRow is one game; a cell a spreadsheet would take for a formula
// (=, +, -, @ first) is quoted with an apostrophe, so that a player's name
// cannot run one on the arbiter's computer.
func csvRow(g *GameResult) []string {
	winner, wname := "", ""
	if g.Winner != nil && (*g.Winner == 0 || *g.Winner == 1) {
		winner, wname = strconv.Itoa(*g.Winner), g.Players[*g.Winner]
	}
	control, r0, r1 := "", "", ""
	if c := g.Clock; c != nil {
		control = c.Control
		if c.RemainingMS != nil {
			r0, r1 = strconv.FormatInt(c.RemainingMS[0], 10), strconv.FormatInt(c.RemainingMS[1], 10)
		}
	}
	row := []string{g.GameID, g.Board, g.Finished.UTC().Format(time.RFC3339), g.Variant, g.Mode, g.Players[0], g.Players[1],
		winner, wname, g.Reason, g.Note, strconv.Itoa(g.Turns), control, r0, r1}
	for i, c := range row {
		if formulaLike(c) {
			row[i] = "'" + c
		}
	}
	return row
}

// formulaLike reports whether a spreadsheet could take cell for a
// formula: its first character, after any spaces (a no-break space
// included) and invisible format characters, is = + - @, a tab or a
// carriage return, or their fullwidth forms.
func formulaLike(cell string) bool {
	for _, r := range cell {
		switch {
		case unicode.IsSpace(r) && r != '\t' && r != '\r', unicode.Is(unicode.Cf, r):
			continue
		}
		return strings.ContainsRune("=+-@\t\r\uff1d\uff0b\uff0d\uff20\ufe62\ufe63\ufe66", r)
	}
	return false
}

func writeCSV(w io.Writer, games []*GameResult) error {
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	for _, g := range games {
		cw.Write(csvRow(g))
	}
	cw.Flush()
	return cw.Error()
}

func (s *Server) serveResultsCSV(w http.ResponseWriter, r *http.Request) {
	games, _ := s.res.list()
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Disposition", `attachment; filename="results.csv"`)
	if err := writeCSV(w, games); err != nil {
		s.log.Debug("scoreboard: writing results.csv", "err", err)
	}
}

// serveResultsZip streams every record, JSON and SGF (where Boardspace
// SGF can hold the game), and results.csv.
func (s *Server) serveResultsZip(w http.ResponseWriter, r *http.Request) {
	games, _ := s.res.list()
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Disposition", `attachment; filename="results.zip"`)
	zw := zip.NewWriter(w)
	add := func(name string, mod time.Time, data []byte) error {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: mod})
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	}
	var csvBuf bytes.Buffer
	writeCSV(&csvBuf, games)
	err := add("results.csv", s.obs.now(), csvBuf.Bytes())
	for _, g := range games {
		if err != nil {
			break
		}
		err = add(g.GameID+".json", g.Finished, append(bytes.TrimSpace(g.Record), '\n'))
		if sgf, serr := g.SGF(); serr == nil && err == nil {
			err = add(g.GameID+".sgf", g.Finished, sgf)
		}
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		s.log.Debug("scoreboard: writing results.zip", "err", err)
	}
}

// resultsPages is the results page's template in each language.
var resultsPages = pageTemplates("web/results.html")

type resultRow struct {
	*GameResult
	WinnerName string // "" for a draw
	Result     string
	Clocks     string
	Size       string // "37 rings", "48 rings, blitz"
	ViewURL    string // the game viewer (viewer.go)
}

func (s *Server) serveResults(w http.ResponseWriter, r *http.Request) {
	l := opsLang(r)
	games, diskErr := s.res.list()
	rows := make([]resultRow, 0, len(games))
	for i := len(games) - 1; i >= 0; i-- { // newest first
		g := games[i]
		row := resultRow{GameResult: g, Result: gameResultText(g, l), Clocks: finalClocks(g.Clock),
			Size: variantText(l, g.Variant), ViewURL: withLang("/results/"+url.PathEscape(g.GameID), l)}
		if g.Winner != nil && (*g.Winner == 0 || *g.Winner == 1) {
			row.WinnerName = nameOf(g.Players, *g.Winner, l)
		}
		rows = append(rows, row)
	}
	d := struct {
		Lang    i18n.Lang
		Langs   []opsLangLink
		Rows    []resultRow
		DiskErr string
	}{Lang: l, Langs: opsLangLinks(r, l), Rows: rows}
	if diskErr != nil {
		d.DiskErr = diskErr.Error()
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")
	if err := resultsPages[l].Execute(w, d); err != nil {
		s.log.Debug("scoreboard: writing the results page", "err", err)
	}
}

// gameResultText is a result in words: "alice wins (captures)", "draw".
func gameResultText(g *GameResult, l i18n.Lang) string {
	reason := g.Reason
	if k := reasonKey[reason]; k != "" {
		reason = l.T(k)
	}
	if g.Winner != nil && (*g.Winner == 0 || *g.Winner == 1) {
		return l.T("results.wins", nameOf(g.Players, *g.Winner, l), reason)
	}
	switch g.Reason {
	case "time":
		return l.T("results.draw-on-time")
	case "draw", "repetition", "no-moves":
		if g.Reason == "draw" {
			return l.T("results.draw")
		}
		return l.T("results.draw") + " (" + reason + ")"
	}
	return l.T("results.over", reason)
}

// reasonKey names the state's result reasons.
var reasonKey = map[string]string{
	"captures": "results.r-captures", "full-board": "results.r-full-board", "repetition": "results.r-repetition",
	"no-moves": "results.r-no-moves", "time": "results.r-time", "resignation": "results.r-resignation",
	"adjudication": "results.r-adjudication", "draw": "results.r-draw",
}

func finalClocks(c *ClockState) string {
	if c == nil || c.RemainingMS == nil {
		return ""
	}
	return view.FmtClock(max(c.RemainingMS[0], 0)) + " – " + view.FmtClock(max(c.RemainingMS[1], 0))
}

// variantText names a variant in words: "37 rings", "48 rings blitz".
func variantText(l i18n.Lang, variant string) string {
	base, blitz := strings.CutSuffix(variant, "b")
	t := view.RingsText(l, base)
	if blitz {
		t += " " + l.T("page.blitz")
	}
	return t
}

package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/record"
)

// Limits on the results kept.
const (
	// DefaultMaxResults bounds the finished games kept in memory; the
	// oldest go first (their files stay on disk).
	DefaultMaxResults = 10000
	MaxGameID         = 100
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
	Reason   engine.Reason   `json:"reason"`
	Note     string          `json:"note,omitempty"`
	Turns    int             `json:"turns"`
	Clock    *ClockState     `json:"clock,omitempty"`
	Record   json.RawMessage `json:"record"`

	sgfOnce sync.Once // the SGF is made once, on first use
	sgf     []byte
	sgfErr  error

	notesOnce sync.Once // the notes are read once, on first use
	notes     []record.Note
}

// Notes are the arbiter's notes in the game's record (its "notes", the
// note command's), in the order of their turns; none when the record has
// none or they cannot be read. Read once: a result whose notes change is
// a new GameResult (Store.Add).
func (g *GameResult) Notes() []record.Note {
	g.notesOnce.Do(func() {
		var r struct {
			Notes []struct {
				Turn int    `json:"turn"`
				Text string `json:"text"`
			} `json:"notes"`
		}
		if json.Unmarshal(g.Record, &r) != nil {
			return
		}
		for _, n := range r.Notes {
			g.notes = append(g.notes, record.Note{Turn: n.Turn, Text: n.Text})
		}
	})
	return g.notes
}

// Naming is the tournament and round the game's record names ("" for
// none).
func (g *GameResult) Naming() (event, round string) {
	var r struct {
		Event string `json:"event"`
		Round string `json:"round"`
	}
	_ = json.Unmarshal(g.Record, &r) // kept records are JSON records
	return r.Event, r.Round
}

// SGF is the game as Boardspace SGF (or why it cannot be), made once.
func (g *GameResult) SGF() ([]byte, error) {
	g.sgfOnce.Do(func() { g.sgf, g.sgfErr = sgfOfResult(g) })
	return g.sgf, g.sgfErr
}

// Store keeps the finished games, in the order they finished, and
// writes each to its own file in dir (if any) atomically.
type Store struct {
	dir string
	Max int
	log *slog.Logger
	now func() time.Time

	mu      sync.Mutex
	games   []*GameResult
	byID    map[string]*GameResult
	diskErr error // the latest failure to save, nil once one succeeds
}

// NewStore is an empty store keeping at most max games (DefaultMaxResults
// if max <= 0), in memory until Load gives it a directory.
func NewStore(max int, log *slog.Logger, now func() time.Time) *Store {
	if max <= 0 {
		max = DefaultMaxResults
	}
	return &Store{Max: max, log: log, now: now, byID: map[string]*GameResult{}}
}

// ValidGameID reports whether id can name a game in a URL and a file:
// 1 to 100 characters of A-Z a-z 0-9 . _ -, not starting with a dot.
func ValidGameID(id string) bool {
	if id == "" || len(id) > MaxGameID || id[0] == '.' {
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

// Finished is a game that has just ended, as the board published it: what
// Store.Add files.
type Finished struct {
	Board     string // the board's ID
	GameID    string // state.game_id, "" if the board sends none
	Published int64  // state.published_ms of the final state
	Variant   string
	Mode      string
	Players   [2]string
	Winner    *int
	Reason    engine.Reason // state.result
	Note      string        // the arbiter's note on the result
	Turns     int
	Clock     *ClockState
	Record    []byte // the game's retained record, as received
}

// gameID is the state's game_id, or for boards that send none, the board
// ID and a digest of the record (so redeliveries of the retained state and
// record make the same ID).
func gameID(f Finished) string {
	if id := f.GameID; ValidGameID(id) {
		return id
	}
	sum := sha256.Sum256(f.Record)
	return f.Board + "-" + hex.EncodeToString(sum[:6])
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
func (r *Store) Add(b Finished) {
	id := gameID(b)
	rec := bytes.TrimSpace(b.Record)
	r.mu.Lock()
	defer r.mu.Unlock()
	if old := r.byID[id]; old != nil {
		if bytes.Equal(old.Record, rec) {
			return
		}
		if corrects(old.Record, rec) {
			// The players answered the referee's question after the
			// end: the same game, its answered turns corrected.
			g := old.clone()
			g.Finished, g.Winner, g.Reason, g.Note = finishedAt(b.Published, r.now()), b.Winner, b.Reason, b.Note
			g.Turns, g.Clock, g.Record = b.Turns, b.Clock, json.RawMessage(rec)
			r.log.Info("scoreboard: result corrected", "game", id, "board", b.Board, "reason", g.Reason, "winner", winnerText(g.Winner))
			r.replaceLocked(old, g)
			return
		}
		if onlyNotes(old.Record, rec) {
			// The arbiter noted something after the end: the same
			// game and result, its record with the notes.
			g := old.clone()
			g.Record = json.RawMessage(rec)
			r.log.Info("scoreboard: arbiter's notes added to a result", "game", id, "board", b.Board)
			r.replaceLocked(old, g)
			return
		}
		sum := sha256.Sum256(rec)
		id = clipID(id, 91) + "-" + hex.EncodeToString(sum[:4])
		if r.byID[id] != nil {
			return
		}
	}
	g := &GameResult{GameID: id, Board: b.Board, Finished: finishedAt(b.Published, r.now()), Variant: b.Variant, Mode: b.Mode,
		Players: b.Players, Winner: b.Winner, Reason: b.Reason, Note: b.Note, Turns: b.Turns, Clock: b.Clock,
		Record: json.RawMessage(rec)}
	r.keepLocked(g)
	r.log.Info("scoreboard: game finished", "game", id, "board", b.Board, "reason", g.Reason, "winner", winnerText(g.Winner))
	r.saveLocked(g)
}

// clone is a copy of g's result, its SGF not yet made.
func (g *GameResult) clone() *GameResult {
	return &GameResult{GameID: g.GameID, Board: g.Board, Finished: g.Finished, Variant: g.Variant, Mode: g.Mode, Players: g.Players,
		Winner: g.Winner, Reason: g.Reason, Note: g.Note, Turns: g.Turns, Clock: g.Clock, Record: g.Record}
}

// replaceLocked puts g, a result changed, in old's place and saves it. A
// new value rather than old changed: pages may be reading old, and g's
// SGF is made afresh from its record.
func (r *Store) replaceLocked(old, g *GameResult) {
	for i, o := range r.games {
		if o == old {
			r.games[i] = g
		}
	}
	r.byID[g.GameID] = g
	r.saveLocked(g)
}

// saveLocked saves g in the results directory, if there is one.
func (r *Store) saveLocked(g *GameResult) {
	if r.dir == "" {
		return
	}
	if err := r.save(g); err != nil {
		r.diskErr = err
		r.log.Error("scoreboard: saving a result", "game", g.GameID, "err", err)
	} else {
		r.diskErr = nil
	}
}

// onlyNotes reports whether records a and b differ in their notes (the
// arbiter's, which the note command adds after the end too) and in
// nothing else.
func onlyNotes(a, b []byte) bool {
	var x, y map[string]json.RawMessage
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	if bytes.Equal(x["notes"], y["notes"]) {
		return false
	}
	delete(x, "notes")
	delete(y, "notes")
	if len(x) != len(y) {
		return false
	}
	for k, v := range x {
		if w, ok := y[k]; !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}

// corrects reports whether record b is record a corrected: the same game
// (variant, first player, players, date), whose turns differ only in
// turns b lists as answered (the players answered the referee's question
// about them after the game ended), in one turn at least.
func corrects(a, b []byte) bool {
	type rec struct {
		Variant  string    `json:"variant"`
		First    int       `json:"first"`
		Players  [2]string `json:"players"`
		Date     string    `json:"date"`
		Turns    []string  `json:"turns"`
		Answered []int     `json:"answered_turns"`
	}
	var x, y rec
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	if x.Variant != y.Variant || x.First != y.First || x.Players != y.Players || x.Date != y.Date {
		return false
	}
	answered := map[int]bool{}
	for _, n := range y.Answered {
		answered[n] = true
	}
	differ := false
	for i := 0; i < max(len(x.Turns), len(y.Turns)); i++ {
		if i < len(x.Turns) && i < len(y.Turns) && x.Turns[i] == y.Turns[i] {
			continue
		}
		if !answered[i+1] {
			return false
		}
		differ = true
	}
	return differ
}

// clipID shortens a game ID (ASCII) to n bytes.
func clipID(id string, n int) string {
	if len(id) > n {
		return id[:n]
	}
	return id
}

// Keep files g as it is (no ID checks, nothing saved): for a game made
// elsewhere, and for tests.
func (r *Store) Keep(g *GameResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.keepLocked(g)
}

// SetDiskErr records a failure to save (nil once one succeeds), which the
// results page shows.
func (r *Store) SetDiskErr(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.diskErr = err
}

func (r *Store) keepLocked(g *GameResult) {
	r.games = append(r.games, g)
	r.byID[g.GameID] = g
	if len(r.games) > r.Max {
		old := r.games[0]
		r.games = r.games[1:]
		delete(r.byID, old.GameID)
		r.log.Warn("scoreboard: too many results in memory; the oldest is left on disk only", "game", old.GameID, "max", r.Max)
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
	GameID   string        `json:"game_id"`
	Board    string        `json:"board"`
	Finished time.Time     `json:"finished"`
	Variant  string        `json:"variant"`
	Mode     string        `json:"mode,omitempty"`
	Players  [2]string     `json:"players"`
	Winner   *int          `json:"winner"`
	Reason   engine.Reason `json:"reason"`
	Note     string        `json:"note,omitempty"`
	Turns    int           `json:"turns"`
	Clock    *ClockState   `json:"clock,omitempty"`
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
func (r *Store) save(g *GameResult) error {
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

// Load reads every result in dir, oldest first; a file that cannot be
// read is logged and skipped, and left alone. A game in the older
// layout (the record inside GAME.json's envelope) is read, and rewritten
// as GAME.json and GAME.result.
func (r *Store) Load(dir string) error {
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
		if !ok || !e.Type().IsRegular() || !ValidGameID(id) {
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
		return nil, false, fmt.Errorf("not a zertzboard JSON record (format %q)", clipText(probe.Format, 40))
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
		return nil, false, fmt.Errorf("%s%s holds game %q", id, resultExt, clipText(m.GameID, 120))
	}
	g = &GameResult{GameID: m.GameID, Board: m.Board, Finished: m.Finished, Variant: m.Variant, Mode: m.Mode,
		Players: m.Players, Winner: m.Winner, Reason: m.Reason, Note: m.Note, Turns: m.Turns, Clock: m.Clock,
		Record: json.RawMessage(bytes.TrimSpace(data))}
	return g, false, nil
}

// List returns the kept games, oldest first.
func (r *Store) List() ([]*GameResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*GameResult(nil), r.games...), r.diskErr
}

// Get is the game filed under id, or nil.
func (r *Store) Get(id string) *GameResult {
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

// SGFOf converts a JSON record to Boardspace SGF (record.WriteSGF).
func SGFOf(rec []byte) ([]byte, error) {
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

// CSVHeader is the first row of /results.csv: its columns, in order (docs/CONTRACTS.md).
var CSVHeader = []string{"game_id", "board", "finished", "variant", "mode", "player_0", "player_1", "winner", "winner_name", "reason", "note", "turns", "control", "remaining_ms_0", "remaining_ms_1"}

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
		winner, wname, string(g.Reason), g.Note, strconv.Itoa(g.Turns), control, r0, r1}
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

// WriteCSV writes games as /results.csv: CSVHeader, then a row a game.
func WriteCSV(w io.Writer, games []*GameResult) error {
	cw := csv.NewWriter(w)
	cw.Write(CSVHeader)
	for _, g := range games {
		cw.Write(csvRow(g))
	}
	cw.Flush()
	return cw.Error()
}

// ClockState is the state's "clock" object (docs/CONTRACTS.md 5.2).
type ClockState struct {
	Control     string    `json:"control"`
	RemainingMS *[2]int64 `json:"remaining_ms"`
	Running     *int      `json:"running"`
	Paused      bool      `json:"paused"`
	IncrementMS int64     `json:"increment_ms,omitempty"`
}

// clipText bounds a string from a file for an error message, on a rune
// boundary (as view.ClipText does for pages; results stays below view).
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := n; i > 0; i-- {
		if s[i]&0xC0 != 0x80 {
			return s[:i] + "…"
		}
	}
	return ""
}

// Package journal keeps the game in progress on disk so that a power cut
// or a crash loses no committed turn. It is an append-only file of JSON
// lines, one per committed change, each written and fsync'd before the
// change is announced:
//
//	{"op":"game","seq":1,"t":0,"variant":"48","first":0,"mode":"casual","players":["ann","bob"]}
//	{"op":"turn","seq":2,"t":5230,"turn":"WD4-A1"}
//	{"op":"turn","seq":3,"t":9100,"turn":"BC3-G4","missed":true}
//	{"op":"takeback","seq":4,"t":9900,"n":1}
//	{"op":"players","seq":5,"t":9950,"players":["ann","cat"]}
//
// "seq" is the broadcast sequence number after the change. A crash can
// tear only the last line, which Open drops. Open also compacts the file
// to the current game.
package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/zertzboard/zertzboard/engine"
)

// Entry is one line of the journal.
type Entry struct {
	Op      string     `json:"op"` // game, turn, takeback, players
	Seq     uint64     `json:"seq"`
	T       int64      `json:"t"`
	Variant string     `json:"variant,omitempty"`
	First   int        `json:"first,omitempty"`
	Mode    string     `json:"mode,omitempty"`
	Players *[2]string `json:"players,omitempty"`
	Turn    string     `json:"turn,omitempty"`
	Missed  bool       `json:"missed,omitempty"`
	N       int        `json:"n,omitempty"`
}

// Game is the game a journal holds.
type Game struct {
	Variant string
	Mode    string
	Players [2]string
	Game    *engine.Game
	Missed  []int  // turns (1-based) played over a compulsory capture
	Seq     uint64 // the sequence number of the last change
	T       int64  // the time of the last change
}

// Journal appends to the journal file. It is not safe for concurrent use.
type Journal struct {
	path string
	f    *os.File
	game *Game
	buf  []byte
}

// Open opens (or creates) the journal at path and returns it with the game
// it holds, or a nil Game when it holds none. Errors name the file and line.
func Open(path string) (*Journal, *Game, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	entries, err := parse(path, data)
	if err != nil {
		return nil, nil, err
	}
	// Keep only the current game, written afresh: this drops a torn last
	// line and the games before.
	start := 0
	for i, e := range entries {
		if e.Op == "game" {
			start = i
		}
	}
	entries = entries[start:]
	var g *Game
	for i, e := range entries {
		if g, err = apply(g, e); err != nil {
			return nil, nil, fmt.Errorf("journal: %s: entry %d (%s): %w", path, start+i+1, e.Op, err)
		}
	}
	if err := rewrite(path, entries); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	return &Journal{path: path, f: f, game: g}, g, nil
}

// parse reads the entries; a torn (unterminated, unreadable) last line is
// dropped, any other bad line is an error.
func parse(path string, data []byte) ([]Entry, error) {
	var out []Entry
	line := 0
	for len(data) > 0 {
		line++
		i := bytes.IndexByte(data, '\n')
		if i < 0 { // no newline: the write was cut short
			var e Entry
			if json.Unmarshal(data, &e) == nil && e.Op != "" {
				out = append(out, e) // complete but for the newline
			}
			break
		}
		var e Entry
		if err := json.Unmarshal(data[:i], &e); err != nil || e.Op == "" {
			return nil, fmt.Errorf("journal: %s:%d: not a journal entry: %q", path, line, truncate(data[:i]))
		}
		out = append(out, e)
		data = data[i+1:]
	}
	return out, nil
}

func truncate(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

// apply replays one entry onto the game.
func apply(g *Game, e Entry) (*Game, error) {
	if e.Op == "game" {
		b, rules, err := engine.ParseVariant(e.Variant)
		if err != nil {
			return nil, err
		}
		if e.First != 0 && e.First != 1 {
			return nil, fmt.Errorf("first player %d", e.First)
		}
		ng := &Game{Variant: e.Variant, Mode: e.Mode, Game: engine.NewGame(engine.NewPosition(b, rules, e.First)), Seq: e.Seq, T: e.T}
		if e.Players != nil {
			ng.Players = *e.Players
		}
		return ng, nil
	}
	if g == nil {
		return nil, fmt.Errorf("a %q entry before any game", e.Op)
	}
	switch e.Op {
	case "turn":
		t, err := engine.ParseTurn(g.Game.Position().Board(), e.Turn)
		if err != nil {
			return nil, err
		}
		if e.Missed {
			err = g.Game.PlayOverCapture(t)
			g.Missed = append(g.Missed, g.Game.Len())
		} else {
			err = g.Game.Play(t)
		}
		if err != nil {
			return nil, err
		}
	case "takeback":
		if err := g.Game.Undo(e.N); err != nil {
			return nil, err
		}
		for len(g.Missed) > 0 && g.Missed[len(g.Missed)-1] > g.Game.Len() {
			g.Missed = g.Missed[:len(g.Missed)-1]
		}
	case "players":
		if e.Players == nil {
			return nil, fmt.Errorf("no players")
		}
		g.Players = *e.Players
	default:
		return nil, fmt.Errorf("unknown op %q", e.Op)
	}
	g.Seq, g.T = e.Seq, e.T
	return g, nil
}

// rewrite replaces the file with entries, atomically: a temporary file,
// fsync, rename, fsync of the directory.
func rewrite(path string, entries []Entry) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".journal-*")
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	for _, e := range entries {
		b, _ := json.Marshal(e)
		w.Write(b)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return fmt.Errorf("journal: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("journal: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("journal: syncing %s: %w", dir, err)
	}
	return nil
}

// Game returns the game the journal holds, or nil.
func (j *Journal) Game() *Game { return j.game }

// NewGame starts a new game.
func (j *Journal) NewGame(seq uint64, t int64, variant string, first int, mode string, players [2]string) error {
	return j.append(Entry{Op: "game", Seq: seq, T: t, Variant: variant, First: first, Mode: mode, Players: &players})
}

// Turn records a committed turn; missed marks a placement over a
// compulsory capture (tournament rules).
func (j *Journal) Turn(seq uint64, t int64, turn string, missed bool) error {
	return j.append(Entry{Op: "turn", Seq: seq, T: t, Turn: turn, Missed: missed})
}

// Takeback records that the last n turns were taken back.
func (j *Journal) Takeback(seq uint64, t int64, n int) error {
	return j.append(Entry{Op: "takeback", Seq: seq, T: t, N: n})
}

// Players records the players' names.
func (j *Journal) Players(seq uint64, t int64, players [2]string) error {
	return j.append(Entry{Op: "players", Seq: seq, T: t, Players: &players})
}

// append checks the entry against the game, then writes and fsyncs it,
// and only then applies it. Only a change the journal could replay is
// written, and a failed write leaves the game as it was.
func (j *Journal) append(e Entry) error {
	if err := check(j.game, e); err != nil {
		return fmt.Errorf("journal: %s entry refused: %w", e.Op, err)
	}
	b, _ := json.Marshal(e)
	j.buf = append(append(j.buf[:0], b...), '\n')
	if _, err := j.f.Write(j.buf); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	g, err := apply(j.game, e)
	if err != nil { // check said it would apply
		return fmt.Errorf("journal: %s entry: %w", e.Op, err)
	}
	j.game = g
	return nil
}

// check reports whether e would apply to g, without changing g.
func check(g *Game, e Entry) error {
	if e.Op == "game" {
		_, err := apply(nil, e)
		return err
	}
	if g == nil {
		return fmt.Errorf("a %q entry before any game", e.Op)
	}
	switch e.Op {
	case "turn":
		p := g.Game.Position()
		t, err := engine.ParseTurn(p.Board(), e.Turn)
		if err != nil {
			return err
		}
		if e.Missed {
			_, err = p.PlayOverCapture(t)
		} else {
			_, err = p.Play(t)
		}
		return err
	case "takeback":
		if e.N < 1 || e.N > g.Game.Len() {
			return fmt.Errorf("cannot take back %d turns of %d", e.N, g.Game.Len())
		}
	case "players":
		if e.Players == nil {
			return fmt.Errorf("no players")
		}
	default:
		return fmt.Errorf("unknown op %q", e.Op)
	}
	return nil
}

// Close closes the file.
func (j *Journal) Close() error { return j.f.Close() }

var _ io.Closer = (*Journal)(nil)

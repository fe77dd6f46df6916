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
// With a time control the game entry names it and the clocks ride along:
// every turn entry carries the clocks after it and the time the turn used;
// "clock" entries are clock changes (pause, resume, add time: seq+1) and,
// while a clock runs, checkpoints (same seq) at most every few seconds;
// "end" ends the game off the board; "arbiter" records a command from the
// arbiter before it is carried out (it changes nothing by itself):
//
//	{"op":"game","seq":1,"t":0,"variant":"48","first":0,"mode":"tournament","players":["ann","bob"],"control":"fischer:20m+10s"}
//	{"op":"turn","seq":2,"t":5230,"turn":"WD4-A1","clock":{"remaining_ms":[1205000,1200000],"running":1,"flag":-1,"used_ms":[0,0],"turn_ms":5000}}
//	{"op":"clock","seq":2,"t":15230,"clock":{"remaining_ms":[1205000,1190000],"running":1,"flag":-1,"used_ms":[0,10000]}}
//	{"op":"arbiter","seq":2,"t":16000,"command":"pause","id":"c7","fields":{}}
//	{"op":"clock","seq":3,"t":16000,"clock":{"remaining_ms":[1205000,1189230],"running":1,"paused":true,"flag":-1,"used_ms":[0,10770]}}
//	{"op":"end","seq":4,"t":17000,"end":{"winner":0,"reason":"resignation","note":""}}
//
// A game against the engine says which side it plays, at which level:
//
//	{"op":"game","seq":5,"t":18000,"variant":"37","first":0,"mode":"casual","players":["ann",""],"control":"none","engine":{"player":1,"level":6}}
//
// The arbiter may name the tournament and its round with the players
// (set-players' event and round); a later game keeps them, and its game
// entry says them again:
//
//	{"op":"players","seq":6,"t":19000,"players":["ann","cat"],"event":"Open 2026","round":"3"}
//	{"op":"game","seq":7,"t":20000,"variant":"37","first":0,"mode":"tournament","players":["ann","cat"],"event":"Open 2026","round":"3"}
//
// "seq" is the broadcast sequence number after the change. Each line ends
// with "crc", the CRC-32C (Castagnoli) of the line as it would be without
// it, as 8 hex digits:
//
//	{"op":"turn","seq":2,"t":5230,"turn":"WD4-A1","crc":"6c1e2b0a"}
//
// A crash can tear only the last line, which Open drops. Any other bad
// line (a checksum that does not match, text that is not an entry, an
// entry that does not apply) is damage. Each game is checked on its own:
// the current game is the last good "game" entry and what follows it, so
// damage in an older game costs nothing; in the current game Open keeps
// the good entries before the first bad line. It copies the lines from the
// first bad one on to PATH.damaged and reports the damage
// (Journal.Damage); if it cannot copy them it refuses to open, so nothing
// is ever thrown away. Journals written before checksums load as they
// are. Open compacts the file to the current game, and so does an append
// once the file passes Journal.CompactAt (a snapshot of the game: see
// snapshot).
//
// Layer: services. May import: base, game, services.
package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"

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
	Control string     `json:"control,omitempty"` // game: the time control
	Clock   *Clock     `json:"clock,omitempty"`   // turn, clock, end: the clocks after it
	End     *End       `json:"end,omitempty"`     // end
	Command string     `json:"command,omitempty"` // arbiter: the command's name
	ID      string     `json:"id,omitempty"`      // arbiter: the command's id
	// Fields are the arbiter command's fields (arbiter).
	Fields json.RawMessage `json:"fields,omitempty"`
	// Request is the take-back request now waiting for the arbiter
	// (request); a request entry without it: none waits any more.
	Request *Request `json:"request,omitempty"`
	// QA is the referee's question (question) or its answer (answer).
	QA *QA `json:"qa,omitempty"`
	// Engine (game): the engine plays one side of this game.
	Engine *Engine `json:"engine,omitempty"`
	// Event and Round (players, game): the tournament and its round as
	// the arbiter named them ("" cleared); absent, they stay as they were.
	Event *string `json:"event,omitempty"`
	Round *string `json:"round,omitempty"`
}

// Naming is the tournament and round the arbiter named for the board's
// games (set-players' event and round): a nil field was never named (or
// not since this game's entry), so the board's configuration applies.
type Naming struct {
	Event, Round *string
}

// Engine is play against the engine: the player it plays, its level and
// the seed that breaks its ties.
type Engine struct {
	Player int    `json:"player"`
	Level  int    `json:"level"`
	Seed   uint64 `json:"seed,omitempty"`
}

// QA is a question the referee asked the players, or their answer: the
// question's id, what it was about and its options (question), or the
// option chosen and the turns it put in the game (answer).
type QA struct {
	ID          int      `json:"id"`
	Turn        int      `json:"turn,omitempty"`
	About       string   `json:"about,omitempty"`
	Options     []string `json:"options,omitempty"`
	Provisional int      `json:"provisional,omitempty"`
	Option      int      `json:"option,omitempty"`
	Turns       []int    `json:"turns,omitempty"`
}

// The bounds on a QA entry: what the referee asks stays well inside them.
const (
	maxQAOptions = 16
	maxQAText    = 400
)

// Request is a take-back request waiting for the arbiter (tournament):
// the turn to take back and the player who asked.
type Request struct {
	Turn int `json:"turn"`
	By   int `json:"by"`
}

// Clock is the game clocks as the journal keeps them (clock.State).
type Clock struct {
	Remaining [2]int64 `json:"remaining_ms"`
	Running   int      `json:"running"` // the runner, -1 for none
	Paused    bool     `json:"paused,omitempty"`
	Flag      int      `json:"flag"`              // the player whose flag fell, -1 for none
	Used      [2]int64 `json:"used_ms"`           // charged since the current turn began
	TurnMS    int64    `json:"turn_ms,omitempty"` // turn entries: the time the turn used
}

// End is how a game ended off the board.
type End struct {
	Winner *int   `json:"winner"` // null for a draw
	Reason string `json:"reason"` // time, resignation, adjudication, draw
	Note   string `json:"note"`
}

// TurnClock is one turn's time: what it used and both clocks after it.
type TurnClock struct {
	Used      int64
	Remaining [2]int64
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
	// GameSeq is the sequence number of the game entry: with the board's
	// ID it names the game.
	GameSeq uint64
	// Control is the time control ("" in journals from before clocks).
	Control string
	// Clock is the clocks as last written, nil if never.
	Clock *Clock
	// Clocks holds each turn's time, one per turn, when every turn had it
	// (turns of a journal from before clocks have none: nil).
	Clocks []TurnClock
	// End says how the game ended off the board, or is nil.
	End *End
	// Request is the take-back request waiting for the arbiter, or nil;
	// a turn, a take-back or an end answers it.
	Request *Request
	// Answered lists the turns (1-based) the players answered rather
	// than the board showed.
	Answered []int
	// GameT is the time of the game entry.
	GameT int64
	// Engine is play against the engine, nil when people play both sides.
	Engine *Engine
	// Naming is the tournament and round the arbiter named.
	Naming Naming
}

// Journal appends to the journal file. It is not safe for concurrent use.
type Journal struct {
	// CompactAt is the file size beyond which an append compacts the
	// journal to the current game's snapshot (DefaultCompactAt from
	// Open; 0 never compacts while running), so that a flood of entries
	// (player names, arbiter commands) cannot make it, and the next
	// start, grow without bound.
	CompactAt int64

	path   string
	f      *os.File
	game   *Game
	buf    []byte
	damage *Damage
	// Compactions counts the compactions while running.
	Compactions int
	size        int64 // bytes in the file
	next        int64 // compact beyond this size (0: CompactAt)
}

// DefaultCompactAt is the size at which a running journal compacts.
const DefaultCompactAt = 256 << 10

// Damage is what Open found wrong in a journal and what it did about it.
type Damage struct {
	Path   string // the journal
	Line   int    // the bad line that matters: the first in the current game, else the first
	Reason string // what is wrong with it
	Lines  int    // bad lines found
	// Older: every bad line is in an older game, and the current game
	// was resumed whole.
	Older   bool
	Kept    int    // entries of the current game resumed
	Dropped int    // lines of the current game not resumed (the bad one and those after it)
	Turns   int    // turns of the resumed game
	Moved   string // where the lines from the first bad one on were moved (copied, with the current game's good ones)
}

func (d *Damage) Error() string {
	what := fmt.Sprintf("resumed the current game up to it (%d entries, %d turns; %d lines not resumed)", d.Kept, d.Turns, d.Dropped)
	if d.Older {
		what = fmt.Sprintf("only older games are hurt; the current game was resumed whole (%d entries, %d turns)", d.Kept, d.Turns)
	}
	return fmt.Sprintf("journal %s damaged at line %d (%s; %d bad lines in all): %s; the lines from the first bad one on were moved to %s",
		d.Path, d.Line, d.Reason, d.Lines, what, d.Moved)
}

// Kind names the damage as a referee-style event ("journal-damaged") for
// the MQTT events topic.
func (d *Damage) Kind() string { return "journal-damaged" }

// MarshalJSON writes the event's fields.
func (d *Damage) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Path    string `json:"path"`
		Line    int    `json:"line"`
		Reason  string `json:"reason"`
		Lines   int    `json:"lines"`
		Older   bool   `json:"older"`
		Kept    int    `json:"kept"`
		Dropped int    `json:"dropped"`
		Turns   int    `json:"turns"`
		Moved   string `json:"moved"`
		Message string `json:"message"`
	}{d.Path, d.Line, d.Reason, d.Lines, d.Older, d.Kept, d.Dropped, d.Turns, d.Moved, d.Error()})
}

// Damage returns what Open found wrong, or nil.
func (j *Journal) Damage() *Damage { return j.damage }

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// crcSuffix is what a checksummed line ends with: ,"crc":"xxxxxxxx"}
const crcSuffixLen = len(`,"crc":"00000000"}`)

// seal appends the checksum to a marshalled entry.
func seal(dst, entry []byte) []byte {
	sum := crc32.Checksum(entry, castagnoli)
	dst = append(dst, entry[:len(entry)-1]...)
	dst = append(dst, `,"crc":"`...)
	dst = fmt.Appendf(dst, "%08x", sum)
	return append(dst, `"}`...)
}

// unseal checks a line's checksum. It returns the entry's text without
// it, whether the line had one, and whether it matched.
func unseal(line []byte) (entry []byte, sealed, ok bool) {
	n := len(line)
	if n < crcSuffixLen+2 || !bytes.HasPrefix(line[n-crcSuffixLen:], []byte(`,"crc":"`)) || !bytes.HasSuffix(line, []byte(`"}`)) {
		return line, false, false
	}
	want, err := strconv.ParseUint(string(line[n-10:n-2]), 16, 32)
	if err != nil {
		return line, true, false
	}
	entry = append(append([]byte(nil), line[:n-crcSuffixLen]...), '}')
	return entry, true, crc32.Checksum(entry, castagnoli) == uint32(want)
}

// Open opens (or creates) the journal at path and returns it with the game
// it holds, or a nil Game when it holds none. Damage in the file does not
// stop it (see the package comment and Journal.Damage); a file it cannot
// read or write does, and so does damage it cannot move aside to
// PATH.damaged: nothing is thrown away.
//
// Each game's entries are checked on their own: the current game is the
// last good "game" entry and what follows it, so a bad line in an older
// game never costs the current one. Within the current game, the entries
// before the first bad line are kept.
func Open(path string) (*Journal, *Game, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	lines := parse(data)
	start := -1 // the current game's entry
	for i, l := range lines {
		if l.reason == "" && l.Op == "game" {
			start = i
		}
	}
	var (
		g       *Game
		current []Entry
		dmg     *Damage
	)
	hurt := func(l numbered, reason string, older bool) {
		if dmg == nil {
			dmg = &Damage{Path: path, Line: l.line, Reason: reason, Older: older}
		}
		dmg.Lines++
	}
	for i := 0; i < max(start, 0); i++ {
		if lines[i].reason != "" {
			hurt(lines[i], lines[i].reason, true)
		}
	}
	if start >= 0 {
		for i := start; i < len(lines); i++ {
			l := lines[i]
			reason := l.reason
			if reason == "" {
				ng, err := apply(g, l.Entry)
				if err == nil {
					g = ng
					current = append(current, l.Entry)
					continue
				}
				reason = fmt.Sprintf("entry %s does not apply: %v", l.Op, err)
			}
			if dmg != nil && dmg.Older {
				dmg.Line, dmg.Reason = l.line, reason // the damage that costs the game comes first
			}
			hurt(l, reason, false)
			dmg.Older = false
			dmg.Dropped = len(lines) - i
			break
		}
	} else if len(lines) > 0 {
		l := lines[0]
		reason := l.reason
		if reason == "" {
			reason = fmt.Sprintf("a %q entry before any game", l.Op)
		}
		hurt(l, reason, false)
		dmg.Dropped = len(lines)
	}
	if dmg != nil {
		dmg.Kept = len(current)
		if g != nil {
			dmg.Turns = g.Game.Len()
		}
		first := dmg.Line
		for _, l := range lines {
			if l.reason != "" {
				first = min(first, l.line)
				break
			}
		}
		moved, err := saveDamaged(path, data, first)
		if err != nil {
			return nil, nil, fmt.Errorf("journal: %s is damaged at line %d (%s) and its lines cannot be moved aside: %w", path, dmg.Line, dmg.Reason, err)
		}
		dmg.Moved = moved
	}
	if err := rewrite(path, current); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{path: path, f: f, game: g, damage: dmg, CompactAt: DefaultCompactAt}
	if fi, err := f.Stat(); err == nil {
		j.size = fi.Size()
	}
	return j, g, nil
}

// numbered is a line: its entry, or why it is bad.
type numbered struct {
	Entry
	line   int
	reason string // "" for a good entry
}

// parse reads every line. A torn (unterminated) last line is dropped
// without complaint: it is what a crash in the middle of a write leaves.
// Lines without a checksum after checksummed ones are bad; a bad line does
// not stop the reading, so that a later game can be checked on its own.
func parse(data []byte) []numbered {
	var out []numbered
	line, sealed := 0, false
	for len(data) > 0 {
		line++
		i := bytes.IndexByte(data, '\n')
		torn := i < 0
		raw := data
		if !torn {
			raw = data[:i]
			data = data[i+1:]
		} else {
			data = nil
		}
		entry, hasCRC, ok := unseal(raw)
		var e Entry
		switch {
		case torn:
			if (ok || !hasCRC && !sealed) && json.Unmarshal(entry, &e) == nil && e.Op != "" {
				out = append(out, numbered{Entry: e, line: line}) // complete but for the newline
			}
			return out
		case hasCRC && !ok:
			out = append(out, numbered{line: line, reason: fmt.Sprintf("checksum mismatch: %q", truncate(raw))})
			continue
		case !hasCRC && sealed:
			out = append(out, numbered{line: line, reason: fmt.Sprintf("no checksum after checksummed lines: %q", truncate(raw))})
			continue
		}
		sealed = sealed || hasCRC
		if err := json.Unmarshal(entry, &e); err != nil || e.Op == "" {
			out = append(out, numbered{line: line, reason: fmt.Sprintf("not a journal entry: %q", truncate(raw))})
			continue
		}
		out = append(out, numbered{Entry: e, line: line})
	}
	return out
}

// saveDamaged appends the lines from bad on to PATH.damaged, with a
// header saying where they came from, and syncs it.
func saveDamaged(path string, data []byte, bad int) (string, error) {
	rest := data
	for l := 1; l < bad && len(rest) > 0; l++ {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			rest = nil
			break
		}
		rest = rest[i+1:]
	}
	out := path + ".damaged"
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(f, "# from %s, line %d on\n", path, bad)
	f.Write(rest)
	if len(rest) > 0 && rest[len(rest)-1] != '\n' {
		f.Write([]byte{'\n'})
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return "", err
	}
	return out, f.Close()
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
		if en := e.Engine; en != nil && (en.Player != 0 && en.Player != 1 || en.Level < 0 || en.Level > 10) {
			return nil, fmt.Errorf("engine player %d level %d", en.Player, en.Level)
		}
		ng := &Game{Variant: e.Variant, Mode: e.Mode, Game: engine.NewGame(engine.NewPosition(b, rules, e.First)), Seq: e.Seq, T: e.T,
			GameSeq: e.Seq, GameT: e.T, Control: e.Control, Clock: e.Clock, Clocks: []TurnClock{}, Engine: e.Engine, Naming: Naming{e.Event, e.Round}}
		if e.Players != nil {
			ng.Players = *e.Players
		}
		return ng, nil
	}
	if g == nil {
		return nil, fmt.Errorf("a %q entry before any game", e.Op)
	}
	if g.End != nil && (e.Op == "turn" || e.Op == "takeback" || e.Op == "end") {
		return nil, fmt.Errorf("the game ended (%s)", g.End.Reason)
	}
	switch e.Op {
	case "turn":
		t, err := engine.ParseTurn(g.Game.Position().Board(), e.Turn)
		if err != nil {
			return nil, err
		}
		if e.Clock != nil && g.Clocks != nil && len(g.Clocks) == g.Game.Len() {
			g.Clocks = append(g.Clocks, TurnClock{Used: e.Clock.TurnMS, Remaining: e.Clock.Remaining})
		} else {
			g.Clocks = nil // a turn without its time: the times are incomplete
		}
		if e.Clock != nil {
			g.Clock = e.Clock
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
		for len(g.Answered) > 0 && g.Answered[len(g.Answered)-1] > g.Game.Len() {
			g.Answered = g.Answered[:len(g.Answered)-1]
		}
		if len(g.Clocks) > g.Game.Len() {
			g.Clocks = g.Clocks[:g.Game.Len()]
		}
		if e.Clock != nil {
			g.Clock = e.Clock
		}
	case "players":
		if e.Players == nil {
			return nil, fmt.Errorf("no players")
		}
		g.Players = *e.Players
		if e.Event != nil {
			g.Naming.Event = e.Event
		}
		if e.Round != nil {
			g.Naming.Round = e.Round
		}
	case "clock":
		if e.Clock == nil {
			return nil, fmt.Errorf("no clock")
		}
		g.Clock = e.Clock
	case "end":
		if err := checkEnd(e.End); err != nil {
			return nil, err
		}
		end := *e.End
		g.End = &end
		if e.Clock != nil {
			g.Clock = e.Clock
		}
	case "arbiter":
		if e.Command == "" {
			return nil, fmt.Errorf("no command")
		}
		return g, nil // a record of what was asked: seq and time stay
	case "question":
		return g, nil // a record of what the referee asked
	case "answer":
		for _, n := range e.QA.Turns {
			if len(g.Answered) == 0 || g.Answered[len(g.Answered)-1] < n {
				g.Answered = append(g.Answered, n)
			}
		}
		return g, nil // the turns themselves are turn entries
	case "request":
		if err := checkRequest(g, e.Request); err != nil {
			return nil, err
		}
		g.Request = nil
		if e.Request != nil {
			r := *e.Request
			g.Request = &r
		}
		return g, nil // not a change of the game: seq and time stay
	default:
		return nil, fmt.Errorf("unknown op %q", e.Op)
	}
	if e.Op == "turn" || e.Op == "takeback" || e.Op == "end" {
		g.Request = nil
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
	var line []byte
	for _, e := range entries {
		b, _ := json.Marshal(e)
		line = seal(line[:0], b)
		w.Write(line)
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

// NewTimedGame starts a new game under a time control (clock.Control's
// text), with the clocks at its start (nil: none yet).
func (j *Journal) NewTimedGame(seq uint64, t int64, variant string, first int, mode string, players [2]string, control string, clk *Clock) error {
	return j.append(Entry{Op: "game", Seq: seq, T: t, Variant: variant, First: first, Mode: mode, Players: &players, Control: control, Clock: clk})
}

// NewEngineGame is NewTimedGame of a game in which the engine plays one
// side (eng; nil: people play both).
func (j *Journal) NewEngineGame(seq uint64, t int64, variant string, first int, mode string, players [2]string, control string, clk *Clock, eng *Engine) error {
	return j.NewNamedGame(seq, t, variant, first, mode, players, Naming{}, control, clk, eng)
}

// NewNamedGame is NewEngineGame of a game the arbiter's naming (its
// tournament and round) goes on to.
func (j *Journal) NewNamedGame(seq uint64, t int64, variant string, first int, mode string, players [2]string, n Naming, control string, clk *Clock, eng *Engine) error {
	return j.append(Entry{Op: "game", Seq: seq, T: t, Variant: variant, First: first, Mode: mode, Players: &players, Control: control, Clock: clk, Engine: eng,
		Event: n.Event, Round: n.Round})
}

// Turn records a committed turn; missed marks a placement over a
// compulsory capture (tournament rules).
func (j *Journal) Turn(seq uint64, t int64, turn string, missed bool) error {
	return j.TimedTurn(seq, t, turn, missed, nil)
}

// TimedTurn is Turn with the clocks after it (TurnMS: the time it used).
func (j *Journal) TimedTurn(seq uint64, t int64, turn string, missed bool, clk *Clock) error {
	return j.append(Entry{Op: "turn", Seq: seq, T: t, Turn: turn, Missed: missed, Clock: clk})
}

// Clock records the clocks: a change (pause, resume, added time, a flag
// fall) or a checkpoint while one runs.
func (j *Journal) Clock(seq uint64, t int64, clk Clock) error {
	return j.append(Entry{Op: "clock", Seq: seq, T: t, Clock: &clk})
}

// End records that the game ended off the board, with the clocks then.
func (j *Journal) End(seq uint64, t int64, end End, clk *Clock) error {
	return j.append(Entry{Op: "end", Seq: seq, T: t, End: &end, Clock: clk})
}

// Arbiter records a command from the arbiter, before it is carried out:
// its name, id and fields (a JSON object; nil for none).
func (j *Journal) Arbiter(seq uint64, t int64, command, id string, fields json.RawMessage) error {
	return j.append(Entry{Op: "arbiter", Seq: seq, T: t, Command: command, ID: id, Fields: fields})
}

// Takeback records that the last n turns were taken back.
func (j *Journal) Takeback(seq uint64, t int64, n int) error {
	return j.TimedTakeback(seq, t, n, nil)
}

// TimedTakeback is Takeback with the clocks after it.
func (j *Journal) TimedTakeback(seq uint64, t int64, n int, clk *Clock) error {
	return j.append(Entry{Op: "takeback", Seq: seq, T: t, N: n, Clock: clk})
}

// TakebackRequest records the take-back request now waiting for the
// arbiter, or, with nil, that none waits any more (refused or accepted).
func (j *Journal) TakebackRequest(seq uint64, t int64, r *Request) error {
	return j.append(Entry{Op: "request", Seq: seq, T: t, Request: r})
}

// Players records the players' names.
func (j *Journal) Players(seq uint64, t int64, players [2]string) error {
	return j.NamePlayers(seq, t, players, Naming{})
}

// NamePlayers records the players' names and what the arbiter named of
// the tournament and its round with them (a nil field stays as it was).
func (j *Journal) NamePlayers(seq uint64, t int64, players [2]string, n Naming) error {
	return j.append(Entry{Op: "players", Seq: seq, T: t, Players: &players, Event: n.Event, Round: n.Round})
}

// append checks the entry against the game, then writes and fsyncs it,
// and only then applies it. Only a change the journal could replay is
// written, and a failed write leaves the game as it was.
func (j *Journal) append(e Entry) error {
	if err := check(j.game, e); err != nil {
		return fmt.Errorf("journal: %s entry refused: %w", e.Op, err)
	}
	b, _ := json.Marshal(e)
	j.buf = append(seal(j.buf[:0], b), '\n')
	if j.f == nil {
		if err := j.reopen(); err != nil {
			return err
		}
	}
	if _, err := j.f.Write(j.buf); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	j.size += int64(len(j.buf))
	g, err := apply(j.game, e)
	if err != nil { // check said it would apply
		return fmt.Errorf("journal: %s entry: %w", e.Op, err)
	}
	j.game = g
	if j.CompactAt > 0 && j.size > max(j.CompactAt, j.next) {
		j.compact()
	}
	return nil
}

// compact rewrites the file as the current game's snapshot (see
// snapshot). It changes nothing if the snapshot would not replay to the
// same game (a kind of entry it does not know), and if the disk fails the
// old file stays as it was and is appended to; either way it tries again
// only once the file has doubled.
func (j *Journal) compact() {
	j.next = 2 * j.size
	entries := snapshot(j.game)
	if entries == nil {
		return
	}
	if err := rewrite(j.path, entries); err != nil {
		return
	}
	// Appends go to the new file from now on; if it cannot be opened,
	// append opens it again (and fails until it can).
	j.f.Close()
	j.f = nil
	if err := j.reopen(); err != nil {
		return
	}
	j.next = 2 * j.size
	j.Compactions++
}

// reopen opens the file for appending after a compaction.
func (j *Journal) reopen() error {
	f, err := os.OpenFile(j.path, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	j.f = f
	j.size = 0
	if fi, err := f.Stat(); err == nil {
		j.size = fi.Size()
	}
	return nil
}

// snapshot is the shortest journal that replays to g: its game entry,
// its turns, and entries setting the end, the players, the clocks and the
// take-back request as they are now. Arbiter entries and turns taken back
// are left out. It returns nil if the snapshot would not replay to g.
func snapshot(g *Game) []Entry {
	if g == nil {
		return nil
	}
	out := snapshotEntries(g)
	var h *Game
	for _, e := range out {
		var err error
		if h, err = apply(h, e); err != nil {
			return nil
		}
	}
	if !sameGame(h, g) {
		return nil
	}
	return out
}

// sameGame reports whether a and b hold the same game: every field, the
// engine's games compared turn by turn (a game taken back to its start
// holds empty slices where a new one holds none).
func sameGame(a, b *Game) bool {
	x, y := *a, *b
	x.Game, y.Game = nil, nil
	if len(x.Missed) == 0 {
		x.Missed = nil
	}
	if len(y.Missed) == 0 {
		y.Missed = nil
	}
	if len(x.Answered) == 0 {
		x.Answered = nil
	}
	if len(y.Answered) == 0 {
		y.Answered = nil
	}
	if !reflect.DeepEqual(x, y) || a.Game.Len() != b.Game.Len() || !reflect.DeepEqual(a.Game.Start(), b.Game.Start()) {
		return false
	}
	for i := 0; i < a.Game.Len(); i++ {
		ta, ca := a.Game.Turn(i)
		tb, cb := b.Game.Turn(i)
		if !reflect.DeepEqual(ta, tb) || len(ca) != len(cb) || len(ca) > 0 && !reflect.DeepEqual(ca, cb) ||
			!reflect.DeepEqual(a.Game.PositionAfter(i+1), b.Game.PositionAfter(i+1)) {
			return false
		}
	}
	return true
}

// snapshotEntries are snapshot's entries, unchecked.
func snapshotEntries(g *Game) []Entry {
	first := g.Game.Start().ToMove()
	players := g.Players
	out := []Entry{{Op: "game", Seq: g.GameSeq, T: g.GameT, Variant: g.Variant, First: first, Mode: g.Mode, Players: &players, Control: g.Control, Engine: g.Engine}}
	missed := map[int]bool{}
	for _, m := range g.Missed {
		missed[m] = true
	}
	for i := 0; i < g.Game.Len(); i++ {
		t, _ := g.Game.Turn(i)
		e := Entry{Op: "turn", Seq: g.GameSeq, T: g.GameT, Turn: engine.FormatTurn(g.Game.PositionAfter(i).Board(), t), Missed: missed[i+1]}
		if g.Clocks != nil {
			e.Clock = &Clock{Remaining: g.Clocks[i].Remaining, Running: -1, Flag: -1, TurnMS: g.Clocks[i].Used}
		}
		out = append(out, e)
	}
	if len(g.Answered) > 0 {
		// The questions themselves are history; which turns were
		// answered is part of the game.
		out = append(out, Entry{Op: "answer", Seq: g.Seq, T: g.T, QA: &QA{ID: 1, Turns: append([]int(nil), g.Answered...)}})
	}
	if g.End != nil {
		end := *g.End
		out = append(out, Entry{Op: "end", Seq: g.Seq, T: g.T, End: &end})
	}
	out = append(out, Entry{Op: "players", Seq: g.Seq, T: g.T, Players: &players, Event: g.Naming.Event, Round: g.Naming.Round})
	if g.Clock != nil {
		c := *g.Clock
		out = append(out, Entry{Op: "clock", Seq: g.Seq, T: g.T, Clock: &c})
	}
	if g.Request != nil {
		r := *g.Request
		out = append(out, Entry{Op: "request", Seq: g.Seq, T: g.T, Request: &r})
	}
	return out
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
	if g.End != nil && (e.Op == "turn" || e.Op == "takeback" || e.Op == "end") {
		return fmt.Errorf("the game ended (%s)", g.End.Reason)
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
	case "clock":
		if e.Clock == nil {
			return fmt.Errorf("no clock")
		}
	case "end":
		return checkEnd(e.End)
	case "arbiter":
		if e.Command == "" {
			return fmt.Errorf("no command")
		}
		if len(e.Fields) > maxFields || len(e.Fields) > 0 && !json.Valid(e.Fields) {
			return fmt.Errorf("the command's fields are not a JSON object of at most %d bytes", maxFields)
		}
	case "request":
		return checkRequest(g, e.Request)
	case "question", "answer":
		return checkQA(g, e)
	default:
		return fmt.Errorf("unknown op %q", e.Op)
	}
	return nil
}

// checkQA checks a question or an answer: bounded, and an answer's turns
// are the game's.
func checkQA(g *Game, e Entry) error {
	q := e.QA
	if q == nil || q.ID < 1 {
		return fmt.Errorf("no question")
	}
	if len(q.Options) > maxQAOptions || len(q.Turns) > g.Game.Len() {
		return fmt.Errorf("question %d: too many options or turns", q.ID)
	}
	for _, o := range q.Options {
		if len(o) > maxQAText {
			return fmt.Errorf("question %d: an option of more than %d bytes", q.ID, maxQAText)
		}
	}
	if len(q.About) > 16 {
		return fmt.Errorf("question %d: about %q", q.ID, q.About)
	}
	for _, n := range q.Turns {
		if n < 1 || n > g.Game.Len() {
			return fmt.Errorf("question %d: turn %d of %d", q.ID, n, g.Game.Len())
		}
	}
	return nil
}

// Question records a question the referee asked the players.
func (j *Journal) Question(seq uint64, t int64, q QA) error {
	return j.append(Entry{Op: "question", Seq: seq, T: t, QA: &q})
}

// Answer records the answer to a question: the option and the turns it
// put in the game (played before this entry, as turn entries).
func (j *Journal) Answer(seq uint64, t int64, q QA) error {
	return j.append(Entry{Op: "answer", Seq: seq, T: t, QA: &q})
}

// checkRequest checks a take-back request against the game: the turn to
// take back is the last one played, and the one who asks is a player.
func checkRequest(g *Game, r *Request) error {
	if r == nil {
		return nil
	}
	if r.Turn < 1 || r.Turn != g.Game.Len() || (r.By != 0 && r.By != 1) {
		return fmt.Errorf("take-back request of turn %d by player %d: the game has %d turns", r.Turn, r.By, g.Game.Len())
	}
	if g.End != nil {
		return fmt.Errorf("take-back request: the game ended (%s)", g.End.Reason)
	}
	return nil
}

// maxFields bounds an arbiter entry's fields (a command is at most 4 KiB).
const maxFields = 4 << 10

func checkEnd(e *End) error {
	if e == nil {
		return fmt.Errorf("no end")
	}
	switch e.Reason {
	case "time", "resignation", "adjudication", "draw":
	default:
		return fmt.Errorf("end reason %q", e.Reason)
	}
	if e.Winner != nil && *e.Winner != 0 && *e.Winner != 1 {
		return fmt.Errorf("end winner %d", *e.Winner)
	}
	return nil
}

// Close closes the file.
func (j *Journal) Close() error {
	if j.f == nil {
		return nil
	}
	return j.f.Close()
}

var _ io.Closer = (*Journal)(nil)

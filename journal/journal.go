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
// The journal is typed, append-only entries (Entry: NewGame, Turn,
// Takeback, ClockEvent, Ended, Arbiter, TakebackRequest, Players,
// Question, Answer), all written by one Append. It replays the file only
// to open it (Open returns the game it holds) and, reading the file
// again, to compact it: it keeps no game of its own. The controller owns
// the live game; it resumes what Open returned and decides what to
// append.
//
// A write that fails (a full disk, an I/O error) loses nothing while the
// process lives: the entry stays in memory, Append reports the failure
// (a *WriteError), and the next Append, or Retry, writes the entries
// still missing: it retries on the same file, then, if that fails or the
// file is in doubt (a write cut short, a failed sync), resyncs from the
// file (re-reads it, truncates what a failed write left after the last
// line known on disk, opens it again) and writes them. Past MaxPending
// the entries in memory are folded, with the file, into a snapshot of the
// game, which replaces the file once the disk works.
//
// An arbiter's note (the note command's "arbiter" entry) is kept with the
// game at the turns played when it was given (Game.Notes), for the game's
// record.
//
// It imports the engine (to replay turns), record (the notes' bounds) and
// the standard library only;
// the controller, the board's runtime and the commands that read
// journals import it.
//
// Layer: services. May import: base, game, services.
package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Journal appends to the journal file. It is not safe for concurrent use.
type Journal struct {
	// CompactAt is the file size beyond which an append compacts the
	// journal to the current game's snapshot (DefaultCompactAt from
	// Open; 0 never compacts while running), so that a flood of entries
	// (player names, arbiter commands) cannot make it, and the next
	// start, grow without bound.
	CompactAt int64
	// Compactions counts the compactions while running.
	Compactions int

	path   string
	open   func(path string) (File, error)
	f      File // nil when closed after a failure or a compaction
	damage *Damage
	size   int64 // bytes in the file known to be on disk (written and synced)
	next   int64 // compact beyond this size (0: CompactAt)
	// pending holds the lines appended but not known to be on disk:
	// whole lines, oldest first; n counts them.
	pending []byte
	n       int
	// fault is the last write's error, nil when the file holds every
	// entry appended.
	fault error
	// doubt: a write was cut short or a sync failed; the file must be
	// resynced before it is written again.
	doubt bool
	// whole: pending is the whole journal (folded into a snapshot while
	// the disk failed), to replace the file rather than be appended.
	whole bool
	// maxPending is how many bytes pending may hold before they are
	// folded (MaxPending; tests lower it); folded is their size after the
	// last fold (they are folded again past twice that).
	maxPending int
	folded     int
	// rewrite replaces the file atomically (rewriteBytes; tests fail it).
	rewrite func(path string, data []byte) error
}

// MaxPending bounds the entries a failing disk leaves in memory: past it
// they, and the file, are folded into a snapshot of the current game (as
// a compaction), which replaces the file once the disk works. So a flood
// of entries (arbiter commands from the LAN) during a long failure cannot
// grow the memory without bound.
const MaxPending = 256 << 10

// File is what the journal appends to: an *os.File, or in tests a file
// that fails (WithOpenFile).
type File interface {
	io.Writer
	Sync() error
	Close() error
}

// Option adjusts Open.
type Option func(*Journal)

// WithOpenFile has the journal open its file for appending with open (at
// Open, after a failed write, after a compaction) rather than as the file
// itself: tests put a failing disk behind it (/dev/full).
func WithOpenFile(open func(path string) (File, error)) Option {
	return func(j *Journal) { j.open = open }
}

// DefaultCompactAt is the size at which a running journal compacts.
const DefaultCompactAt = 256 << 10

// WriteError is a failed write: the entries not on disk are kept in
// memory, and the next Append or Retry writes them once the file takes
// them.
type WriteError struct {
	Path    string
	Pending int // entries kept in memory, this one included
	Err     error
}

func (e *WriteError) Error() string {
	return fmt.Sprintf("journal: writing %s: %v; %d entries kept in memory until the disk takes them", e.Path, e.Err, e.Pending)
}

func (e *WriteError) Unwrap() error { return e.Err }

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

// Open opens (or creates) the journal at path and returns it with the game
// it holds, or a nil Game when it holds none. Damage in the file does not
// stop it (see the package comment and Journal.Damage); a file it cannot
// read or write does, and so does damage it cannot move aside to
// PATH.damaged: nothing is thrown away.
func Open(path string, opts ...Option) (*Journal, *Game, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	r := replay(path, parse(data))
	if dmg := r.damage; dmg != nil {
		if err := moveDamage(path, data, dmg); err != nil {
			return nil, nil, err
		}
	}
	if err := rewrite(path, r.current); err != nil {
		return nil, nil, err
	}
	j := &Journal{path: path, open: openFile, damage: r.damage, CompactAt: DefaultCompactAt, maxPending: MaxPending, rewrite: rewriteBytes}
	for _, o := range opts {
		o(j)
	}
	if err := j.reopen(); err != nil {
		return nil, nil, err
	}
	return j, r.game, nil
}

// moveDamage copies the lines from the first bad one on to PATH.damaged.
func moveDamage(path string, data []byte, dmg *Damage) error {
	first := dmg.Line
	for _, l := range parse(data) {
		if l.reason != "" {
			first = min(first, l.line)
			break
		}
	}
	moved, err := saveDamaged(path, data, first)
	if err != nil {
		return fmt.Errorf("journal: %s is damaged at line %d (%s) and its lines cannot be moved aside: %w", path, dmg.Line, dmg.Reason, err)
	}
	dmg.Moved = moved
	return nil
}

// Read replays the journal at path without changing it: the game it
// holds (nil for none) and what is wrong with it (Damage.Moved empty).
func Read(path string) (*Game, *Damage, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	r := replay(path, parse(data))
	return r.game, r.damage, nil
}

func openFile(path string) (File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644)
}

// Append writes the entry and syncs it; only then is the change it
// records committed. An entry that is wrong on its own (a field out of
// bounds) is refused and not kept. A failed write returns a *WriteError
// and keeps the entry in memory: the next Append, or Retry, writes it
// first.
func (j *Journal) Append(e Entry) error {
	l := e.Line()
	if err := e.check(); err != nil {
		return fmt.Errorf("journal: %s entry refused: %w", l.Op, err)
	}
	j.pending = appendLine(j.pending, l)
	j.n++
	return j.flush()
}

// Retry writes the entries a failed write kept in memory, resyncing the
// file first. It returns nil when the file holds every entry appended.
func (j *Journal) Retry() error {
	if j.fault == nil && j.n == 0 {
		return nil
	}
	return j.flush()
}

// Fault returns the failed write the journal is recovering from, nil when
// the file holds every entry appended.
func (j *Journal) Fault() error { return j.fault }

// flush writes the pending lines and syncs them. After a failed write it
// retries on the same file, unless the file is in doubt; if that fails
// too, or the file is in doubt, it resyncs from the file and writes
// again.
func (j *Journal) flush() error {
	if j.whole {
		return j.replace()
	}
	if j.f != nil && !j.doubt {
		err := j.write()
		if err == nil || j.fault == nil { // done, or the first failure: say so
			return j.wrote(err)
		}
	}
	if err := j.resync(); err != nil {
		return j.failed(err)
	}
	return j.wrote(j.write())
}

// write writes the pending lines and syncs them. A write cut short, or a
// failed sync, leaves the file in doubt: what it holds after its last
// line known on disk is unknown.
func (j *Journal) write() error {
	n, err := j.f.Write(j.pending)
	if err != nil {
		j.doubt = j.doubt || n > 0
		return err
	}
	if err := j.f.Sync(); err != nil {
		j.doubt = true
		return err
	}
	return nil
}

// wrote takes the result of a write: the pending lines on disk, or the
// failure.
func (j *Journal) wrote(err error) error {
	if err != nil {
		return j.failed(err)
	}
	j.size += int64(len(j.pending))
	j.pending, j.n, j.fault = j.pending[:0], 0, nil
	if j.CompactAt > 0 && j.size > max(j.CompactAt, j.next) {
		j.compact()
	}
	return nil
}

// failed records the failure err, and folds the pending entries once
// they pass maxPending.
func (j *Journal) failed(err error) error {
	j.fault = err
	if len(j.pending) > max(j.maxPending, 2*j.folded) {
		j.fold()
	}
	return &WriteError{Path: j.path, Pending: j.n, Err: err}
}

// fold replaces the pending entries, and the file's lines known on disk,
// with a snapshot of the game they replay to: the whole journal, which
// replace writes once the disk works. It changes nothing if they do not
// replay whole (the file cannot be read, an entry does not fit) or the
// snapshot would not replay to the same game.
func (j *Journal) fold() {
	data, err := os.ReadFile(j.path)
	if err != nil {
		return
	}
	known := data[:wholeLines(data[:min(int64(len(data)), j.size)])]
	if j.whole {
		known = nil // pending is the whole journal already
	}
	r := replay(j.path, parse(append(known[:len(known):len(known)], j.pending...)))
	if r.damage != nil {
		return
	}
	entries := snapshot(r.game)
	if entries == nil {
		return
	}
	var b []byte
	for _, e := range entries {
		b = appendLine(b, e)
	}
	j.pending, j.n, j.whole, j.folded = b, len(entries), true, len(b)
}

// replace writes the folded journal over the file (atomically, as a
// compaction does) and appends to it from then on.
func (j *Journal) replace() error {
	if j.f != nil {
		j.f.Close()
		j.f = nil
	}
	if err := j.rewrite(j.path, j.pending); err != nil {
		return j.failed(err)
	}
	if err := j.reopen(); err != nil {
		return j.failed(err)
	}
	j.pending, j.n, j.fault, j.whole, j.folded = j.pending[:0], 0, nil, false, 0
	j.next = 2 * j.size
	return nil
}

// resync makes the file whole up to what is known to be on disk, after a
// failed write: it re-reads the file and truncates it after its last line
// known on disk (a failed write may have left part of a line, or lines
// not synced), or, if the file holds less than that, after its last whole
// line; then the pending lines are written again.
func (j *Journal) resync() error {
	if j.f != nil {
		j.f.Close() // the handle is in doubt; its error says nothing more
		j.f = nil
	}
	data, err := os.ReadFile(j.path)
	if err != nil {
		return err
	}
	keep := j.size
	if int64(len(data)) < keep || wholeLines(data[:keep]) != keep {
		keep = wholeLines(data) // the file lost lines it held: keep what is whole
	}
	if keep != int64(len(data)) {
		if err := os.Truncate(j.path, keep); err != nil {
			return err
		}
	}
	f, err := j.open(j.path)
	if err != nil {
		return err
	}
	j.f, j.size, j.doubt = f, keep, false
	return nil
}

// compact rewrites the file as the current game's snapshot (see
// snapshot), replayed from the file itself. It changes nothing if the
// file does not replay whole (an entry that does not fit: kept for Open
// to report) or the snapshot would not replay to the same game, and if
// the disk fails the old file stays as it was and is appended to; either
// way it tries again only once the file has doubled.
func (j *Journal) compact() {
	j.next = 2 * j.size
	data, err := os.ReadFile(j.path)
	if err != nil {
		return
	}
	r := replay(j.path, parse(data))
	if r.damage != nil {
		return
	}
	entries := snapshot(r.game)
	if entries == nil {
		return
	}
	if err := rewrite(j.path, entries); err != nil {
		return
	}
	// Appends go to the new file from now on; if it cannot be opened,
	// the next append opens it again (and fails until it can).
	j.f.Close()
	j.f = nil
	if err := j.reopen(); err != nil {
		return
	}
	j.next = 2 * j.size
	j.Compactions++
}

// reopen opens the file for appending, at Open and after a compaction:
// the file is whole.
func (j *Journal) reopen() error {
	f, err := j.open(j.path)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	j.f = f
	fi, err := os.Stat(j.path)
	if err != nil {
		f.Close()
		j.f = nil
		return fmt.Errorf("journal: %w", err)
	}
	j.size = fi.Size()
	return nil
}

// Close writes what a failed write kept in memory, if the disk takes it
// now, and closes the file. It reports the entries it could not write.
func (j *Journal) Close() error {
	var err error
	if j.n > 0 || j.fault != nil {
		err = j.Retry()
	}
	if j.f != nil {
		if cerr := j.f.Close(); err == nil {
			err = cerr
		}
		j.f = nil
	}
	return err
}

var _ io.Closer = (*Journal)(nil)

package journal

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/record"
)

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
	Winner *int          `json:"winner"` // null for a draw
	Reason engine.Reason `json:"reason"` // time, resignation, adjudication, draw
	Note   string        `json:"note"`
}

// TurnClock is one turn's time: what it used and both clocks after it.
type TurnClock struct {
	Used      int64
	Remaining [2]int64
}

// Game is the game a journal file holds, as Open replayed it: what the
// controller resumes. The journal keeps no game of its own once open.
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
	// Notes are the arbiter's notes (the "note" command's arbiter
	// entries), each at the turns played when it was given; a take-back
	// brings the notes after the turns it takes back to the turns left.
	Notes []record.Note
}

// numbered is a line of the file: its entry, or why it is bad.
type numbered struct {
	Line
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
		raw, rest, torn := cutLine(data)
		data = rest
		entry, hasCRC, ok := unseal(raw)
		var e Line
		switch {
		case torn:
			if (ok || !hasCRC && !sealed) && json.Unmarshal(entry, &e) == nil && e.Op != "" {
				out = append(out, numbered{Line: e, line: line}) // complete but for the newline
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
		out = append(out, numbered{Line: e, line: line})
	}
	return out
}

// cutLine splits off the first line; torn: it has no newline.
func cutLine(data []byte) (line, rest []byte, torn bool) {
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		return data, nil, true
	}
	return data[:i], data[i+1:], false
}

func truncate(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

// replayed is what a journal file holds: its current game replayed, the
// entries that replay to it, and what is wrong with the file (Damage
// without Moved), nil if nothing.
type replayed struct {
	game    *Game
	current []Line
	damage  *Damage
}

// replay replays the file's lines. Each game is checked on its own: the
// current game is the last good "game" entry and what follows it, so a bad
// line in an older game never costs the current one. Within the current
// game, the entries before the first bad line are kept.
func replay(path string, lines []numbered) replayed {
	start := -1 // the current game's entry
	for i, l := range lines {
		if l.reason == "" && l.Op == "game" {
			start = i
		}
	}
	var r replayed
	for i := 0; i < max(start, 0); i++ {
		if lines[i].reason != "" {
			r.hurt(path, lines[i], lines[i].reason, true)
		}
	}
	switch {
	case start >= 0:
		r.replayGame(path, lines[start:])
	case len(lines) > 0:
		l := lines[0]
		reason := l.reason
		if reason == "" {
			reason = fmt.Sprintf("a %q entry before any game", l.Op)
		}
		r.hurt(path, l, reason, false)
		r.damage.Dropped = len(lines)
	}
	if d := r.damage; d != nil {
		d.Kept = len(r.current)
		if r.game != nil {
			d.Turns = r.game.Game.Len()
		}
	}
	return r
}

// replayGame replays the current game's lines up to the first bad one.
func (r *replayed) replayGame(path string, lines []numbered) {
	for i, l := range lines {
		reason := l.reason
		if reason == "" {
			g, err := apply(r.game, l.Line)
			if err == nil {
				r.game = g
				r.current = append(r.current, l.Line)
				continue
			}
			reason = fmt.Sprintf("entry %s does not apply: %v", l.Op, err)
		}
		if d := r.damage; d != nil && d.Older {
			d.Line, d.Reason = l.line, reason // the damage that costs the game comes first
		}
		r.hurt(path, l, reason, false)
		r.damage.Older = false
		r.damage.Dropped = len(lines) - i
		return
	}
}

// hurt counts a bad line; the first names the damage.
func (r *replayed) hurt(path string, l numbered, reason string, older bool) {
	if r.damage == nil {
		r.damage = &Damage{Path: path, Line: l.line, Reason: reason, Older: older}
	}
	r.damage.Lines++
}

// apply replays one entry onto the game: it plays turns and takes them
// back, and refuses what does not fit the game.
func apply(g *Game, e Line) (*Game, error) {
	if e.Op == "game" {
		return newGame(e)
	}
	if g == nil {
		return nil, fmt.Errorf("a %q entry before any game", e.Op)
	}
	if g.End != nil && (e.Op == "turn" || e.Op == "takeback" || e.Op == "end") {
		return nil, fmt.Errorf("the game ended (%s)", g.End.Reason)
	}
	var err error
	switch e.Op {
	case "turn":
		err = g.turn(e)
	case "takeback":
		err = g.takeback(e)
	case "players":
		err = g.players(e)
	case "clock":
		if e.Clock == nil {
			return nil, fmt.Errorf("no clock")
		}
		g.Clock = e.Clock
	case "end":
		err = g.end(e)
	case "arbiter", "question", "answer", "request":
		return g, g.record(e) // not a change of the game: seq and time stay
	default:
		return nil, fmt.Errorf("unknown op %q", e.Op)
	}
	if err != nil {
		return nil, err
	}
	if e.Op == "turn" || e.Op == "takeback" || e.Op == "end" {
		g.Request = nil
	}
	g.Seq, g.T = e.Seq, e.T
	return g, nil
}

// turn plays a turn entry.
func (g *Game) turn(e Line) error {
	t, err := engine.ParseTurn(g.Game.Position().Board(), e.Turn)
	if err != nil {
		return err
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
	return err
}

// takeback replays a take-back entry.
func (g *Game) takeback(e Line) error {
	if e.N < 1 || e.N > g.Game.Len() {
		return fmt.Errorf("cannot take back %d turns of %d", e.N, g.Game.Len())
	}
	if err := g.Game.Undo(e.N); err != nil {
		return err
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
	for i := range g.Notes {
		g.Notes[i].Turn = min(g.Notes[i].Turn, g.Game.Len())
	}
	if e.Clock != nil {
		g.Clock = e.Clock
	}
	return nil
}

func (g *Game) players(e Line) error {
	if e.Players == nil {
		return fmt.Errorf("no players")
	}
	g.Players = *e.Players
	if e.Event != nil {
		g.Naming.Event = e.Event
	}
	if e.Round != nil {
		g.Naming.Round = e.Round
	}
	return nil
}

func (g *Game) end(e Line) error {
	if err := checkEnd(e.End); err != nil {
		return err
	}
	end := *e.End
	g.End = &end
	if e.Clock != nil {
		g.Clock = e.Clock
	}
	return nil
}

// record replays the entries that are records of what was said (an
// arbiter's command, a question, an answer, a take-back request): they
// change no turn, and seq and time stay.
func (g *Game) record(e Line) error {
	switch e.Op {
	case "arbiter":
		if e.Command == "" {
			return fmt.Errorf("no command")
		}
		if e.Command == "note" {
			return g.note(e.Fields)
		}
	case "question", "answer":
		if err := checkQAFits(g, e.QA); err != nil {
			return err
		}
		if e.Op == "answer" {
			for _, n := range e.QA.Turns {
				if len(g.Answered) == 0 || g.Answered[len(g.Answered)-1] < n {
					g.Answered = append(g.Answered, n)
				}
			}
		}
	case "request":
		if err := checkRequest(g, e.Request); err != nil {
			return err
		}
		g.Request = nil
		if e.Request != nil {
			r := *e.Request
			g.Request = &r
		}
	}
	return nil
}

// note keeps the arbiter's note a note command's fields hold, at the
// turns played.
func (g *Game) note(fields json.RawMessage) error {
	text, err := noteText(fields)
	if err != nil {
		return err
	}
	if len(g.Notes) >= record.MaxNotes {
		return fmt.Errorf("note: the game has %d notes already; a record carries at most %d", len(g.Notes), record.MaxNotes)
	}
	g.Notes = append(g.Notes, record.Note{Turn: g.Game.Len(), Text: text})
	return nil
}

// noteText is the text of a note command's fields, checked as the record
// bounds it.
func noteText(fields json.RawMessage) (string, error) {
	var f struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(fields, &f); err != nil {
		return "", fmt.Errorf("note: %w", err)
	}
	if err := record.CheckNote(f.Text); err != nil {
		return "", fmt.Errorf("note: %w", err)
	}
	return f.Text, nil
}

// checkQAFits checks a question or an answer against the game: bounded,
// and an answer's turns are the game's.
func checkQAFits(g *Game, q *QA) error {
	if q == nil {
		return fmt.Errorf("no question")
	}
	if err := checkQA(*q); err != nil {
		return err
	}
	for _, n := range q.Turns {
		if n > g.Game.Len() {
			return fmt.Errorf("question %d: turn %d of %d", q.ID, n, g.Game.Len())
		}
	}
	return nil
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

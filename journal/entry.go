package journal

import (
	"encoding/json"
	"fmt"

	"github.com/zertzboard/zertzboard/engine"
)

// Entry is one committed change, as the controller hands it to Append:
// NewGame, Turn, Takeback, ClockEvent, Ended, Arbiter, TakebackRequest,
// Players, Question or Answer. The set is closed: each writes one Line.
// An entry checks only itself (its fields in bounds); whether it fits the
// game is the controller's to know, which owns the live game. Open, which
// replays the file, finds an entry that does not fit (damage).
type Entry interface {
	// Line is the entry as it is written.
	Line() Line
	// check says what is wrong with the entry on its own, or nil.
	check() error
}

// Line is one line of the journal file, as it is written and read. Its
// fields and their order are the file format (see the package comment):
// a journal written by an earlier version reads into it.
type Line struct {
	Op      string     `json:"op"` // game, turn, takeback, players, clock, end, arbiter, request, question, answer
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

// NewGame starts a game: its variant, first player, mode ("casual",
// "tournament"), players, what the arbiter named of the tournament, the
// time control (clock.Control's text, "" in journals from before clocks),
// the clocks at its start (nil: none yet) and the engine's side (nil:
// people play both).
type NewGame struct {
	Seq     uint64
	T       int64
	Variant string
	First   int
	Mode    string
	Players [2]string
	Naming  Naming
	Control string
	Clock   *Clock
	Engine  *Engine
}

// Turn is a committed turn in notation; Missed marks a placement over a
// compulsory capture (tournament rules); Clock is the clocks after it
// (TurnMS: the time it used), nil without clocks.
type Turn struct {
	Seq      uint64
	T        int64
	Notation string
	Missed   bool
	Clock    *Clock
}

// Takeback takes back the last N turns, with the clocks after it.
type Takeback struct {
	Seq   uint64
	T     int64
	N     int
	Clock *Clock
}

// ClockEvent is the clocks: a change (pause, resume, added time, a flag
// fall, the start: seq+1) or a checkpoint while one runs (same seq).
type ClockEvent struct {
	Seq   uint64
	T     int64
	Clock Clock
}

// Ended ends the game off the board (a result declared, a flag fall),
// with the clocks then.
type Ended struct {
	Seq   uint64
	T     int64
	End   End
	Clock *Clock
}

// Arbiter is a command from the arbiter, written before it is carried
// out: its name, id and fields (a JSON object; nil for none). It changes
// nothing by itself.
type Arbiter struct {
	Seq     uint64
	T       int64
	Command string
	ID      string
	Fields  json.RawMessage
}

// TakebackRequest is the take-back request now waiting for the arbiter,
// or, with a nil Request, that none waits any more.
type TakebackRequest struct {
	Seq     uint64
	T       int64
	Request *Request
}

// Players names the players, and what the arbiter named of the
// tournament and its round with them (a nil field stays as it was).
type Players struct {
	Seq     uint64
	T       int64
	Players [2]string
	Naming  Naming
}

// Question is a question the referee asked the players.
type Question struct {
	Seq uint64
	T   int64
	QA  QA
}

// Answer is the answer to a question: the option and the turns it put in
// the game (played before it, as Turn entries).
type Answer struct {
	Seq uint64
	T   int64
	QA  QA
}

// Line implements Entry.
func (e NewGame) Line() Line {
	p := e.Players
	return Line{Op: "game", Seq: e.Seq, T: e.T, Variant: e.Variant, First: e.First, Mode: e.Mode, Players: &p, Control: e.Control,
		Clock: e.Clock, Engine: e.Engine, Event: e.Naming.Event, Round: e.Naming.Round}
}

// Line implements Entry.
func (e Turn) Line() Line {
	return Line{Op: "turn", Seq: e.Seq, T: e.T, Turn: e.Notation, Missed: e.Missed, Clock: e.Clock}
}

// Line implements Entry.
func (e Takeback) Line() Line {
	return Line{Op: "takeback", Seq: e.Seq, T: e.T, N: e.N, Clock: e.Clock}
}

// Line implements Entry.
func (e ClockEvent) Line() Line {
	c := e.Clock
	return Line{Op: "clock", Seq: e.Seq, T: e.T, Clock: &c}
}

// Line implements Entry.
func (e Ended) Line() Line {
	end := e.End
	return Line{Op: "end", Seq: e.Seq, T: e.T, End: &end, Clock: e.Clock}
}

// Line implements Entry.
func (e Arbiter) Line() Line {
	return Line{Op: "arbiter", Seq: e.Seq, T: e.T, Command: e.Command, ID: e.ID, Fields: e.Fields}
}

// Line implements Entry.
func (e TakebackRequest) Line() Line {
	return Line{Op: "request", Seq: e.Seq, T: e.T, Request: e.Request}
}

// Line implements Entry.
func (e Players) Line() Line {
	p := e.Players
	return Line{Op: "players", Seq: e.Seq, T: e.T, Players: &p, Event: e.Naming.Event, Round: e.Naming.Round}
}

// Line implements Entry.
func (e Question) Line() Line {
	q := e.QA
	return Line{Op: "question", Seq: e.Seq, T: e.T, QA: &q}
}

// Line implements Entry.
func (e Answer) Line() Line {
	q := e.QA
	return Line{Op: "answer", Seq: e.Seq, T: e.T, QA: &q}
}

func (e NewGame) check() error {
	_, err := newGame(e.Line())
	return err
}

func (e Turn) check() error {
	if e.Notation == "" || len(e.Notation) > maxNotation {
		return fmt.Errorf("turn %q: want notation of 1 to %d bytes", e.Notation, maxNotation)
	}
	return nil
}

func (e Takeback) check() error {
	if e.N < 1 {
		return fmt.Errorf("cannot take back %d turns", e.N)
	}
	return nil
}

func (ClockEvent) check() error { return nil }

func (e Ended) check() error { return checkEnd(&e.End) }

func (e Arbiter) check() error {
	if e.Command == "" {
		return fmt.Errorf("no command")
	}
	if len(e.Fields) > maxFields || len(e.Fields) > 0 && !json.Valid(e.Fields) {
		return fmt.Errorf("the command's fields are not a JSON object of at most %d bytes", maxFields)
	}
	if e.Command == "note" {
		_, err := noteText(e.Fields)
		return err
	}
	return nil
}

func (e TakebackRequest) check() error {
	if r := e.Request; r != nil && (r.Turn < 1 || r.By != 0 && r.By != 1) {
		return fmt.Errorf("take-back request of turn %d by player %d", r.Turn, r.By)
	}
	return nil
}

func (Players) check() error { return nil }

func (e Question) check() error { return checkQA(e.QA) }

func (e Answer) check() error { return checkQA(e.QA) }

// The bounds on an entry: what the controller writes stays well inside
// them.
const (
	maxQAOptions = 16
	maxQAText    = 400
	maxQATurns   = 1024
	maxNotation  = 256
	// maxFields bounds an arbiter entry's fields (a command is at most
	// 4 KiB).
	maxFields = 4 << 10
)

// checkQA checks a question or an answer on its own: bounded, its turns
// counted from 1.
func checkQA(q QA) error {
	if q.ID < 1 {
		return fmt.Errorf("no question")
	}
	if len(q.Options) > maxQAOptions || len(q.Turns) > maxQATurns {
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
		if n < 1 {
			return fmt.Errorf("question %d: turn %d", q.ID, n)
		}
	}
	return nil
}

func checkEnd(e *End) error {
	if e == nil {
		return fmt.Errorf("no end")
	}
	if !e.Reason.OffBoard() {
		return fmt.Errorf("end reason %q", e.Reason)
	}
	if e.Winner != nil && *e.Winner != 0 && *e.Winner != 1 {
		return fmt.Errorf("end winner %d", *e.Winner)
	}
	return nil
}

// newGame is the game a game line starts.
func newGame(e Line) (*Game, error) {
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
	g := &Game{Variant: e.Variant, Mode: e.Mode, Game: engine.NewGame(engine.NewPosition(b, rules, e.First)), Seq: e.Seq, T: e.T,
		GameSeq: e.Seq, GameT: e.T, Control: e.Control, Clock: e.Clock, Clocks: []TurnClock{}, Engine: e.Engine, Naming: Naming{e.Event, e.Round}}
	if e.Players != nil {
		g.Players = *e.Players
	}
	return g, nil
}

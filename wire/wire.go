// Package wire is the live game as zertzboard publishes it: the retained
// "state" snapshot from which any subscriber can draw the board, and the
// "moves" message. The shapes are contracts (docs/CONTRACTS.md, section 5);
// fields may be added, never removed or changed.
//
// Of this module it imports only engine, engine/solve and referee: the shapes, never who publishes them.
// Layer: game. May import: base, game.
package wire

import (
	"encoding/json"
	"strconv"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/solve"
	"github.com/zertzboard/zertzboard/referee"
)

// Schema is the version of State. It changes only if a field's meaning
// changes; new fields keep it.
const Schema = 1

// Counts are marbles per colour.
type Counts struct {
	White int `json:"white"`
	Grey  int `json:"grey"`
	Black int `json:"black"`
}

func counts(a [3]int) Counts { return Counts{a[0], a[1], a[2]} }

// Cell is one cell of the layout: its label and doubled coordinates
// (column x; cells of a column are two apart in y; neighbours are
// (x, y±2) and (x±1, y±1)).
type Cell struct {
	Label string `json:"cell"`
	X     int    `json:"x"`
	Y     int    `json:"y"`
}

// WinSets are the variant's winning sets: so many of one colour, or Each
// of every colour.
type WinSets struct {
	Counts
	Each int `json:"each"`
}

// State is the full snapshot published, retained, on "state".
type State struct {
	Schema int    `json:"schema"`
	Seq    uint64 `json:"seq"` // +1 per committed change: a turn, a take-back, a new game
	T      int64  `json:"t"`   // the frame time of the change, milliseconds
	// PublishedMS is the board's wall clock when it first published this
	// state, Unix milliseconds (set by broadcast.Publisher; 0, and absent,
	// before). Every reader of the retained state sees the same value, so
	// scoreboards file a finished game at the same time.
	PublishedMS int64        `json:"published_ms,omitempty"`
	BoardID     string       `json:"board_id"`
	Board       string       `json:"board"`   // the layout's name, e.g. "48"
	Variant     string       `json:"variant"` // e.g. "48", "37b"
	Rules       string       `json:"rules"`   // "standard" or "blitz"
	Mode        referee.Mode `json:"mode"`    // casual or tournament
	// Layout lists the cells in board order; Cells holds each one's
	// content in the same order, in the frame-log alphabet: '.' no ring,
	// 'o' vacant ring, 'w', 'g', 'b' a marble.
	Layout   []Cell    `json:"layout"`
	Cells    string    `json:"cells"`
	Pool     Counts    `json:"pool"`
	Captures [2]Counts `json:"captures"`
	Win      WinSets   `json:"win"`
	Players  [2]string `json:"players"`
	ToMove   int       `json:"to_move"`
	// Phase is place (a placement is due), capture (a capture is
	// compulsory) or over.
	Phase    engine.Phase           `json:"phase"`
	Forced   *referee.ForcedCapture `json:"forced"`    // null unless Phase is "capture"
	LastMove *referee.Move          `json:"last_move"` // null before the first turn
	Turn     int                    `json:"turn"`      // turns played
	Moves    []string               `json:"moves"`     // every turn in notation, in order
	Winner   *int                   `json:"winner"`    // null unless won
	Result   engine.Reason          `json:"result"`    // "" while playing; else the engine's or the arbiter's reason
	Status   string                 `json:"status"`    // the referee's status line
	// StatusMsg is Status as messages (key and arguments), so that a
	// viewer can say it in its own language (package i18n).
	StatusMsg []referee.Message `json:"status_msg"`
	Missed    []int             `json:"missed_captures"`
	// Analysis is the forced-win search on this position, null while it
	// runs, when analysis is off (tournament play) and once the game is
	// over. The state is published again, same seq, when it finishes.
	Analysis *Analysis `json:"analysis"`
	// Clock is the game clocks, always an object (see Clock).
	Clock Clock `json:"clock"`
	// ResultNote is the arbiter's note on a result declared off the
	// board, "" otherwise.
	ResultNote string `json:"result_note"`
	// TakebackRequest is a take-back the opponent asked for (tournament
	// mode, the take-back button) awaiting the arbiter's answer, or null.
	TakebackRequest *TakebackRequest `json:"takeback_request"`
	// GameID names the game on this board: "<board-id>-<seq of its
	// start>".
	GameID string `json:"game_id"`
	// Event and Round name the tournament and its round ("" or absent
	// when not named): the board's configured event, or what the arbiter
	// named with set-players.
	Event string `json:"event,omitempty"`
	Round string `json:"round,omitempty"`
	// Question is the referee's open question to the players, or null:
	// the board is explained by more than one line of play (the options),
	// and the players, with the buttons, or an operator, with the answer
	// command, say which was played.
	Question *referee.Question `json:"question"`
	// Answered lists the turns (1-based) the players or an operator
	// answered rather than the board showed.
	Answered []int `json:"answered_turns"`
	// DeadCells lists the cells whose sensors read nothing for seconds, or
	// were found stuck at one reading:
	// the referee goes on without them and asks when a turn there is
	// unclear.
	DeadCells []string `json:"dead_cells"`
	// Play is play against the engine on this board, absent when both
	// players are people.
	Play *Play `json:"play,omitempty"`
}

// Play is play against the engine: the engine's player and level, whether
// it is thinking, the turn it chose that the players have still to carry
// out as the LEDs show it, and a hint shown for the person.
type Play struct {
	Engine   int    `json:"engine"`
	Level    int    `json:"level"`
	Thinking bool   `json:"thinking"`
	Turn     string `json:"turn,omitempty"`
	Hint     string `json:"hint,omitempty"`
}

// Clock is the game clocks in the state. Remaining is each player's time
// when the state was published, null without a time control; Running is
// the player whose clock runs, null when none does (not started, paused,
// game over, no time control). A viewer counts the running clock down
// from the moment it received the state.
type Clock struct {
	Control     string    `json:"control"` // clock.Control's text: none, sudden:25m, fischer:20m+10s
	Remaining   *[2]int64 `json:"remaining_ms"`
	Running     *int      `json:"running"`
	Paused      bool      `json:"paused"` // the arbiter paused the game
	IncrementMS int64     `json:"increment_ms"`
}

// TakebackRequest is a pending take-back request: the turn to take back
// and the player who asked.
type TakebackRequest struct {
	Turn int `json:"turn"`
	By   int `json:"by"`
}

// Analysis is the forced-win search's result: the fields of zertzboard
// analyze --json (forced_win, complete, nodes, ms), and what a viewer needs
// to say "no forced win within K" without knowing the configuration.
type Analysis struct {
	solve.Report
	// MaxTurns is the K asked: wins within so many of the mover's turns.
	MaxTurns int `json:"max_turns"`
	// Depth is the K fully searched without a win: "no forced win within
	// Depth turns" holds even when the budget ran out before MaxTurns.
	Depth int `json:"depth"`
	// WinProb is the engine's evaluation (engine/search): each player's
	// chance to win, player 0 first, summing to 1. Absent when the
	// evaluation is off or did not finish a depth within the budget; 1
	// and 0 for a proven win.
	WinProb *[2]float64 `json:"win_prob,omitempty"`
	// BestTurn is the engine's turn for the player to move, in notation
	// (absent with WinProb).
	BestTurn string `json:"best_turn,omitempty"`
	// EvalDepth is the engine search's last completed depth, in turns.
	EvalDepth int `json:"eval_depth,omitempty"`
	// EvalScore is its score for the player to move (about 100 a
	// marble; ±30000 less the turns to a proven end).
	EvalScore int `json:"eval_score,omitempty"`
}

// Snapshot describes the referee's official game.
func Snapshot(ref *referee.Referee, boardID string, players [2]string, seq uint64, t int64) State {
	g := ref.Game()
	p := g.Position()
	b := p.Board()
	s := State{
		Schema: Schema, Seq: seq, T: t, BoardID: boardID,
		Board: b.Name(), Variant: p.Variant(), Rules: p.Rules().Name, Mode: ref.Mode(),
		Cells: p.Cells(), Pool: counts(p.Pool()), Captures: [2]Counts{counts(p.Captures(0)), counts(p.Captures(1))},
		Win:     WinSets{Counts: counts(p.Rules().Win), Each: p.Rules().WinEach},
		Players: players, ToMove: p.ToMove(), Turn: g.Len(), Moves: []string{},
		Status: ref.Guidance().Status, StatusMsg: ref.Guidance().Parts, Missed: ref.MissedCaptures(),
	}
	if s.Missed == nil {
		s.Missed = []int{}
	}
	if q, ok := ref.Asking(); ok {
		s.Question = &q
	}
	s.Answered, s.DeadCells = ref.Answered(), ref.DeadCells()
	for c := 0; c < b.Len(); c++ {
		xy := b.Coord(engine.Cell(c))
		s.Layout = append(s.Layout, Cell{Label: b.Label(engine.Cell(c)), X: xy.X, Y: xy.Y})
	}
	for i := 0; i < g.Len(); i++ {
		turn, _ := g.Turn(i)
		s.Moves = append(s.Moves, engine.FormatTurn(b, turn))
	}
	if n := g.Len(); n > 0 {
		turn, claimed := g.Turn(n - 1)
		s.LastMove = &referee.Move{Turn: n, Player: g.PositionAfter(n - 1).ToMove(), Move: engine.NewMoveObject(b, turn, claimed), Notation: s.Moves[n-1]}
	}
	s.Clock.Control = "none"
	s.Phase = ref.Phase()
	switch res := p.Result(); {
	case ref.Ended() != nil:
		e := ref.Ended()
		s.Result, s.Winner, s.ResultNote = e.Reason, e.Winner, e.Note
	case res.Over:
		s.Result = res.Reason
		if res.Winner >= 0 {
			w := res.Winner
			s.Winner = &w
		}
	case s.Phase == engine.PhaseCapture:
		fc := referee.ForcedCaptureOf(p)
		s.Forced = &fc
	}
	return s
}

// MoveMessage is the payload on "moves": the referee's move event with the
// seq of the state it led to.
type MoveMessage struct {
	Event referee.Event
	Seq   uint64
	// PublishedMS is the board's wall clock when it published the move,
	// Unix milliseconds, as State.PublishedMS (set by broadcast.Publisher;
	// 0, and absent, before).
	PublishedMS int64
}

// MarshalJSON writes the move event's fields, "seq" and "published_ms"
// when set.
func (m MoveMessage) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(m.Event)
	if err != nil {
		return nil, err
	}
	out := append(b[:len(b)-1], `,"seq":`...)
	out = strconv.AppendUint(out, m.Seq, 10)
	if m.PublishedMS != 0 {
		out = append(out, `,"published_ms":`...)
		out = strconv.AppendInt(out, m.PublishedMS, 10)
	}
	return append(out, '}'), nil
}

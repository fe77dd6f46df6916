package referee

import (
	"encoding/json"
	"fmt"

	"github.com/zertzboard/zertzboard/engine"
)

// Event is something the referee tells the players, the screen and the
// broadcast. On the wire it is one JSON object with "t" (the frame time,
// milliseconds) and "event" (its Kind), then its Body's fields.
type Event struct {
	T    int64
	Body Body
}

// Body is the kind-specific part of an Event.
type Body interface{ Kind() string }

// MarshalJSON writes {"t":…,"event":…, body fields…}.
func (e Event) MarshalJSON() ([]byte, error) {
	body, err := json.Marshal(e.Body)
	if err != nil {
		return nil, err
	}
	out := fmt.Appendf(nil, `{"t":%d,"event":%q`, e.T, e.Body.Kind())
	if len(body) > 2 { // not "{}"
		out = append(out, ',')
		out = append(out, body[1:]...)
	} else {
		out = append(out, '}')
	}
	return out, nil
}

func (e Event) String() string {
	b, _ := e.MarshalJSON()
	return string(b)
}

// Move: a turn was committed.
type Move struct {
	Turn     int               `json:"turn"` // 1-based
	Player   int               `json:"player"`
	Move     engine.MoveObject `json:"move"`
	Notation string            `json:"notation"`
}

// Pending: a legal turn is under way; Need says what is still needed and
// Cells which cells to light.
type Pending struct {
	Player int      `json:"player"`
	Need   string   `json:"need"`
	Cells  []string `json:"cells"`
	// NeedMsg is Need as a Message, for other languages.
	NeedMsg *Message `json:"need_msg,omitempty"`
}

// Jump is one capture hop.
type Jump struct {
	From string `json:"from"`
	Over string `json:"over"`
	To   string `json:"to"`
}

// ForcedCapture: the player to move must capture. From lists the marbles
// that can start a chain, Jumps their first hops and Chains every legal
// chain in notation.
type ForcedCapture struct {
	Player int      `json:"player"`
	From   []string `json:"from"`
	Jumps  []Jump   `json:"jumps"`
	Chains []string `json:"chains"`
}

// CellFix says what one cell holds and what it should hold, in frame-log
// characters.
type CellFix struct {
	Cell   string `json:"cell"`
	Is     string `json:"is"`
	Should string `json:"should"`
}

// Illegal: the board differs from every legal continuation. Cells says,
// per cell, what to restore to get back to the official position.
type Illegal struct {
	Player int       `json:"player"`
	Reason string    `json:"reason"`
	Rule   string    `json:"rule,omitempty"`
	Cells  []CellFix `json:"cells"`
	// ReasonMsg is Reason as a Message (the rule's sentence; Text holds
	// Reason), for other languages.
	ReasonMsg *Message `json:"reason_msg,omitempty"`
}

// Restored: after an illegal board, the board is back at the official
// position (or at a legal turn in progress).
type Restored struct {
	Player int `json:"player"`
}

// Takeback: the board returned to an earlier position and the game was
// reverted to it. Turn is the number of turns now played; Undone lists the
// turns taken back, in notation, latest first.
type Takeback struct {
	Turn   int      `json:"turn"`
	Undone []string `json:"undone"`
}

// TouchMove (tournament): a marble rested on one ring and was then moved
// to another. The arbiter judges it.
type TouchMove struct {
	Player int    `json:"player"`
	From   string `json:"from"`
	To     string `json:"to"`
}

// MissedCapture (tournament): a placement was made while a capture was
// compulsory. The opponent may demand it be taken back, or play on.
type MissedCapture struct {
	Turn   int    `json:"turn"`
	Player int    `json:"player"`
	Jumps  []Jump `json:"jumps"`
}

// TakebackDemand (tournament): the opponent demands the last turn be taken
// back; Cells says what to restore.
type TakebackDemand struct {
	Turn  int       `json:"turn"`
	By    int       `json:"by"`
	Cells []CellFix `json:"cells"`
}

// GameOver: the game ended. Winner is 0 or 1, or null for a draw.
type GameOver struct {
	Winner *int          `json:"winner"`
	Reason engine.Reason `json:"reason"`
	Note   string        `json:"note,omitempty"` // an arbiter's note on a game ended off the board
}

// SetUp: after a finished game, the players cleared the board and set it
// up again: a new game may begin (the controller starts one).
type SetUp struct{}

// Fault: the input could not be used, e.g. a frame of the wrong length.
type Fault struct {
	Reason string `json:"reason"`
	// ReasonMsg, when set, is Reason as a Message, for viewers in other
	// languages (sensor faults). Reason stays the English wording.
	ReasonMsg *Message `json:"reason_msg,omitempty"`
}

// Kind names each body as the contract does.
func (Move) Kind() string           { return "move" }
func (Pending) Kind() string        { return "pending" }
func (ForcedCapture) Kind() string  { return "forced-capture" }
func (Illegal) Kind() string        { return "illegal" }
func (Restored) Kind() string       { return "restored" }
func (Takeback) Kind() string       { return "takeback" }
func (TouchMove) Kind() string      { return "touch-move" }
func (MissedCapture) Kind() string  { return "missed-capture" }
func (TakebackDemand) Kind() string { return "takeback-demand" }
func (GameOver) Kind() string       { return "game-over" }
func (Fault) Kind() string          { return "fault" }
func (SetUp) Kind() string          { return "set-up" }

// Package command is the board's one set of commands: one Go type per
// thing the arbiter (MQTT's cmd/ topics, the console) or the board's
// buttons can ask, and the one JSON codec that names them on the wire.
//
// A command's name ("new-game", "add-time", ...) is written in this
// package only: in its codec entry (codec.go). Everything else switches on
// the Go type: broadcast decodes and validates a payload with Decode, the
// console encodes a form with Payload, the controller carries the typed
// value out, and the journal keeps Fields, the command as the arbiter
// sent it.
//
// Adding a command: a type here with its codec entry, its case in the
// controller, an example in the codec test; then its row in
// docs/CONTRACTS.md (5.3).
//
// It is a leaf of the game's layers: it imports the standard library,
// clock (time controls), engine (variants) and internal/textcheck, and
// nothing above them.
package command

import "github.com/zertzboard/zertzboard/clock"

// Command is one of this package's command types. Every type is a plain
// value (comparable), and has its entry in the codec.
type Command interface {
	isCommand()
}

// NoEngine as NewGame.Engine: both players are people.
const NoEngine = -1

// NewGame abandons the game and starts another.
type NewGame struct {
	First   int    // the player who moves first, 0 or 1
	Variant string // e.g. "48" or "37b"; "" keeps the board and rules
	// Players names the two players, in player order; nil keeps them.
	Players *[2]string
	// Event and Round name the tournament and its round for the
	// board's records and pages: nil keeps one, "" clears it.
	Event, Round *string
	// Control is the time control; nil is the configured one.
	Control *clock.Control
	// Engine is the player the engine plays, 0 or 1, or NoEngine; nil
	// is the configured one. Level is its level, 1 to MaxEngineLevel; 0
	// is the configured one.
	Engine *int
	Level  int
}

// SetPlayers names the players, and the tournament and its round.
type SetPlayers struct {
	Players      [2]string
	Event, Round *string // nil keeps one, "" clears it
}

// Takeback demands that the last turn be taken back.
type Takeback struct{}

// Pause stops both clocks (the arbiter's pause).
type Pause struct{}

// Resume restarts the clock of the player to move.
type Resume struct{}

// AddTime adds time to a player's clock.
type AddTime struct {
	Player int   // whose clock, 0 or 1
	MS     int64 // 1 .. clock.MaxAddMS
}

// DeclareResult ends the game off the board.
type DeclareResult struct {
	Result string // resignation, time, adjudication or draw
	Winner *int   // 0 or 1; nil only for a draw
	Note   string // at most MaxNote bytes
}

// TakebackRequest asks the arbiter to take the last turn back: the
// take-back button in tournament mode. The board's own; never on the wire.
type TakebackRequest struct{}

// TakebackAnswer answers the pending take-back request.
type TakebackAnswer struct {
	Accept bool
}

// Answer answers the referee's open question with one of its options:
// by index from 0 (OptionText "") or by the option's text (a colour
// letter, a socket, or a line of play in notation).
type Answer struct {
	Question   int // the open question's id, 1 or more
	Option     int
	OptionText string
}

// Hint asks the engine for a hint (casual play against the engine: the
// confirm button). The board's own; never on the wire.
type Hint struct{}

// ShowLast shows the engine's last turn again (casual play against the
// engine). The board's own; never on the wire.
type ShowLast struct{}

// HealthCheck does nothing: it checks that commands reach the board. The
// broadcast answers it; it never reaches the game.
type HealthCheck struct{}

func (NewGame) isCommand()         {}
func (SetPlayers) isCommand()      {}
func (Takeback) isCommand()        {}
func (Pause) isCommand()           {}
func (Resume) isCommand()          {}
func (AddTime) isCommand()         {}
func (DeclareResult) isCommand()   {}
func (TakebackRequest) isCommand() {}
func (TakebackAnswer) isCommand()  {}
func (Answer) isCommand()          {}
func (Hint) isCommand()            {}
func (ShowLast) isCommand()        {}
func (HealthCheck) isCommand()     {}

// Envelope is a command as it came from outside the board: the command
// and the correlation id the sender chose ("" if none), which replies
// echo. A command in an envelope is the arbiter's: the board logs and
// journals it (Fields, never the token) before carrying it out.
type Envelope struct {
	Command Command
	ID      string
}

// Package command is the board's one set of commands: one Go type per
// thing the arbiter (MQTT's cmd/ topics, the console) or the board's
// buttons can ask, and the one JSON codec that names them on the wire.
//
// A command's name ("new-game", "add-time", ...) is written in this
// package only: in its codec entry (command.go). Everything else switches
// on the Go type: broadcast decodes and validates a payload with Decode,
// the console encodes a form with Payload, the controller carries the
// typed value out, and the journal keeps Fields, the command as the
// arbiter sent it.
//
// Adding a command touches three Go files: its type, its fields and its
// codec entry in command.go; its examples in codec_test.go (the test
// fails without them); its case in controller/commands.go. Then its row
// in docs/CONTRACTS.md (5.3), which cmd/zertzboard's docs test checks.
//
// It is a leaf of the game's layers: it imports the standard library,
// clock (time controls), engine (variants) and internal/textcheck, and
// nothing above them; broadcast, the controller, the board and the
// console import it.
//
// Layer: game. May import: base, game.
package command

import (
	"fmt"
	"strings"

	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/engine"
)

// This file holds every command: its Go type, and its codec entry (its
// name on the wire, the fields it takes and how they are checked);
// codec.go is the machinery that uses them.

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
	Result engine.Reason // resignation, time, adjudication or draw (Reason.OffBoard)
	Winner *int          // 0 or 1; nil only for a draw
	Note   string        // at most MaxNote bytes
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

// Note is the arbiter's note about the game ("clock replaced after turn
// 12", "player 1 warned"): journalled with the game at its turn and time,
// and sent as an arbiter-note event. It changes nothing of the game.
type Note struct {
	Text string // 1 to MaxNote bytes, no control characters
}

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
func (Note) isCommand()            {}
func (HealthCheck) isCommand()     {}

// Envelope is a command as it came from outside the board: the command
// and the correlation id the sender chose ("" if none), which replies
// echo. A command in an envelope is the arbiter's: the board logs and
// journals it (Fields, never the token) before carrying it out.
type Envelope struct {
	Command Command
	ID      string
}

// codecs lists every command; the order is the one "unknown command"
// lists them in.
var codecs = []entry{
	{name: "new-game", wire: true, zero: NewGame{}, decode: decodeNewGame, encode: encodeNewGame,
		fields: []string{"first", "variant", "players", "time_control", "engine", "level", "event", "round"}},
	{name: "set-players", wire: true, zero: SetPlayers{}, decode: decodeSetPlayers, encode: encodeSetPlayers,
		fields: []string{"players", "event", "round"}},
	{name: "takeback", wire: true, zero: Takeback{}},
	{name: "pause", wire: true, zero: Pause{}},
	{name: "resume", wire: true, zero: Resume{}},
	{name: "add-time", wire: true, zero: AddTime{}, decode: decodeAddTime, encode: encodeAddTime,
		fields: []string{"player", "ms"}},
	{name: "declare-result", wire: true, zero: DeclareResult{}, decode: decodeDeclareResult, encode: encodeDeclareResult,
		fields: []string{"result", "winner", "note"}},
	{name: "takeback-answer", wire: true, zero: TakebackAnswer{}, fields: []string{"accept"},
		decode: func(a *args) (Command, string) {
			if a.Accept == nil {
				return nil, `field "accept" must be true or false`
			}
			return TakebackAnswer{Accept: *a.Accept}, ""
		},
		encode: func(c Command, m map[string]any) { m["accept"] = c.(TakebackAnswer).Accept }},
	{name: "answer", wire: true, zero: Answer{}, decode: decodeAnswer, encode: encodeAnswer,
		fields: []string{"question", "option"}},
	{name: "note", wire: true, zero: Note{}, fields: []string{"text"},
		decode: func(a *args) (Command, string) {
			if a.Text == nil || strings.TrimSpace(*a.Text) == "" {
				return nil, fmt.Sprintf(`field "text" must be the note, 1 to %d bytes`, MaxNote)
			}
			if r := checkNote("text", *a.Text, MaxNote); r != "" {
				return nil, r
			}
			return Note{Text: *a.Text}, ""
		},
		encode: func(c Command, m map[string]any) { m["text"] = c.(Note).Text }},
	{name: "health-check", wire: true, zero: HealthCheck{}},
	{name: "takeback-request", zero: TakebackRequest{}},
	{name: "hint", zero: Hint{}},
	{name: "show-last", zero: ShowLast{}},
}

// args is every field any command may carry; each entry says which ones
// its command takes. Pointers tell "absent" from a zero value. The order
// of the fields after id is the order present checks them in.
type args struct {
	Token       *string    `json:"token"`
	ID          *string    `json:"id"`
	First       *int       `json:"first"`
	Variant     *string    `json:"variant"`
	Players     *[]string  `json:"players"`
	TimeControl *string    `json:"time_control"`
	Player      *int       `json:"player"`
	MS          *int64     `json:"ms"`
	Result      *string    `json:"result"`
	Winner      *int       `json:"winner"`
	Note        *string    `json:"note"`
	Accept      *bool      `json:"accept"`
	Question    *int       `json:"question"`
	Option      *option    `json:"option"`
	Engine      *engineArg `json:"engine"`
	Level       *int       `json:"level"`
	Event       *string    `json:"event"`
	Round       *string    `json:"round"`
	Text        *string    `json:"text"`
}

// ---------- each command's fields ----------

func decodeNewGame(a *args) (Command, string) {
	var c NewGame
	var r string
	if c.Event, c.Round, r = decodeNaming(a); r != "" {
		return nil, r
	}
	if a.Players != nil {
		p, r := decodePlayers(a)
		if r != "" {
			return nil, r
		}
		c.Players = &p
	}
	if a.TimeControl != nil {
		ctl, err := clock.Parse(*a.TimeControl)
		if err != nil {
			return nil, `field "time_control" must be none, sudden:DUR or fischer:DUR+INC (DUR 10s to 6h, INC up to 10m, in h, m and s), e.g. fischer:20m+10s`
		}
		c.Control = &ctl
	}
	if a.First != nil {
		if *a.First != 0 && *a.First != 1 {
			return nil, `field "first" must be 0 or 1`
		}
		c.First = *a.First
	}
	if a.Variant != nil {
		if _, _, err := engine.ParseVariant(*a.Variant); err != nil || len(*a.Variant) > 8 {
			return nil, `field "variant" must be a ring count such as "37", or "37b" for blitz`
		}
		c.Variant = *a.Variant
	}
	if a.Engine != nil {
		p := NoEngine
		switch *a.Engine {
		case "0":
			p = 0
		case "1":
			p = 1
		case "none":
		default:
			return nil, `field "engine" must be 0 or 1 (the player the engine plays) or "none"`
		}
		c.Engine = &p
	}
	if a.Level != nil {
		if *a.Level < 1 || *a.Level > MaxEngineLevel {
			return nil, fmt.Sprintf(`field "level" must be 1 to %d`, MaxEngineLevel)
		}
		c.Level = *a.Level
	}
	return c, ""
}

func encodeNewGame(cmd Command, m map[string]any) {
	c := cmd.(NewGame)
	m["first"] = c.First
	if c.Variant != "" {
		m["variant"] = c.Variant
	}
	if c.Players != nil {
		m["players"] = *c.Players
	}
	if c.Control != nil {
		m["time_control"] = c.Control.String()
	}
	if c.Engine != nil {
		m["engine"] = EngineName(*c.Engine)
	}
	if c.Level != 0 {
		m["level"] = c.Level
	}
	encodeNaming(c.Event, c.Round, m)
}

// EngineName is new-game's engine field for player p: "0", "1" or "none".
func EngineName(p int) string {
	switch p {
	case 0, 1:
		return fmt.Sprint(p)
	}
	return "none"
}

func decodeSetPlayers(a *args) (Command, string) {
	var c SetPlayers
	var r string
	if c.Players, r = decodePlayers(a); r != "" {
		return nil, r
	}
	if c.Event, c.Round, r = decodeNaming(a); r != "" {
		return nil, r
	}
	return c, ""
}

func encodeSetPlayers(cmd Command, m map[string]any) {
	c := cmd.(SetPlayers)
	m["players"] = c.Players
	encodeNaming(c.Event, c.Round, m)
}

// decodePlayers reads "players": two names a scoreboard can show.
func decodePlayers(a *args) ([2]string, string) {
	var p [2]string
	if a.Players == nil || len(*a.Players) != 2 {
		return p, `field "players" must list two names`
	}
	for i, name := range *a.Players {
		if reason := checkText("players", name); reason != "" {
			return p, reason
		}
		p[i] = name
	}
	return p, ""
}

// decodeNaming reads the tournament's and the round's names, if given.
func decodeNaming(a *args) (event, round *string, reason string) {
	if a.Event != nil {
		if r := checkLabel("event", *a.Event, MaxEvent); r != "" {
			return nil, nil, r
		}
		event = a.Event
	}
	if a.Round != nil {
		if r := checkLabel("round", *a.Round, MaxRound); r != "" {
			return nil, nil, r
		}
		round = a.Round
	}
	return event, round, ""
}

func encodeNaming(event, round *string, m map[string]any) {
	if event != nil {
		m["event"] = *event
	}
	if round != nil {
		m["round"] = *round
	}
}

func decodeAddTime(a *args) (Command, string) {
	if a.Player == nil || *a.Player != 0 && *a.Player != 1 {
		return nil, `field "player" must be 0 or 1`
	}
	if a.MS == nil || *a.MS < 1 || *a.MS > clock.MaxAddMS {
		return nil, fmt.Sprintf(`field "ms" must be 1 to %d`, clock.MaxAddMS)
	}
	return AddTime{Player: *a.Player, MS: *a.MS}, ""
}

func encodeAddTime(cmd Command, m map[string]any) {
	c := cmd.(AddTime)
	m["player"], m["ms"] = c.Player, c.MS
}

func decodeDeclareResult(a *args) (Command, string) {
	var c DeclareResult
	if a.Result == nil {
		return nil, `field "result" must be resignation, time, adjudication or draw`
	}
	switch engine.Reason(*a.Result) {
	case engine.ReasonDraw:
		if a.Winner != nil {
			return nil, `field "winner" does not apply to a draw`
		}
	case engine.ReasonResignation, engine.ReasonTime, engine.ReasonAdjudication:
		if a.Winner == nil || *a.Winner != 0 && *a.Winner != 1 {
			return nil, `field "winner" must be 0 or 1`
		}
		c.Winner = a.Winner
	default:
		return nil, `field "result" must be resignation, time, adjudication or draw`
	}
	c.Result = engine.Reason(*a.Result)
	if a.Note != nil {
		if r := checkNote("note", *a.Note, MaxNote); r != "" {
			return nil, r
		}
		c.Note = *a.Note
	}
	return c, ""
}

func encodeDeclareResult(cmd Command, m map[string]any) {
	c := cmd.(DeclareResult)
	m["result"] = c.Result
	if c.Winner != nil {
		m["winner"] = *c.Winner
	}
	if c.Note != "" {
		m["note"] = c.Note
	}
}

func decodeAnswer(a *args) (Command, string) {
	if a.Question == nil || *a.Question < 1 {
		return nil, `field "question" must be the open question's id (1 or more)`
	}
	if a.Option == nil {
		return nil, `field "option" must be the option's index (from 0) or its text`
	}
	if a.Option.text != "" {
		if r := checkNote("option", a.Option.text, MaxOption); r != "" {
			return nil, r
		}
	} else if a.Option.index < 0 || a.Option.index >= maxOptions {
		return nil, `field "option" must be the option's index (from 0) or its text`
	}
	return Answer{Question: *a.Question, Option: a.Option.index, OptionText: a.Option.text}, ""
}

func encodeAnswer(cmd Command, m map[string]any) {
	c := cmd.(Answer)
	m["question"] = c.Question
	if c.OptionText != "" {
		m["option"] = c.OptionText
	} else {
		m["option"] = c.Option
	}
}

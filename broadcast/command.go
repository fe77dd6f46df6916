package broadcast

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/textcheck"
)

// Command names: the last level of <prefix>cmd/<name>.
const (
	CmdNewGame        = "new-game"
	CmdSetPlayers     = "set-players"
	CmdTakeback       = "takeback"
	CmdPause          = "pause"
	CmdResume         = "resume"
	CmdAddTime        = "add-time"
	CmdDeclareResult  = "declare-result"
	CmdTakebackAnswer = "takeback-answer"
	CmdAnswer         = "answer"
)

// commandFields lists, per command, the fields it takes besides id and
// token; any other field is refused.
var commandFields = map[string][]string{
	CmdNewGame:        {"first", "variant", "players", "time_control", "engine", "level", "event", "round"},
	CmdSetPlayers:     {"players", "event", "round"},
	CmdTakeback:       nil,
	CmdPause:          nil,
	CmdResume:         nil,
	CmdAddTime:        {"player", "ms"},
	CmdDeclareResult:  {"result", "winner", "note"},
	CmdTakebackAnswer: {"accept"},
	CmdAnswer:         {"question", "option"},
	CmdHealthCheck:    nil,
}

// commandNames lists the commands for the "unknown command" reason.
const commandNames = "new-game, set-players, takeback, pause, resume, add-time, declare-result, takeback-answer, answer or health-check"

// MaxOption bounds an answer's option given as text: a line of play in
// notation, a few turns long.
const MaxOption = 200

// MaxNote bounds declare-result's note.
const MaxNote = 200

// MaxEvent and MaxRound bound set-players' event (the tournament's name,
// as [board] event in the configuration) and round.
const (
	MaxEvent = 100
	MaxRound = 32
)

// MaxCommandSize bounds a command payload. Commands are a few fields; a
// larger payload is a mistake or an attack, and is refused unread.
const MaxCommandSize = 4 << 10

// maxName bounds player names, IDs and echoed command names.
const maxName = 64

// Command is a validated command from <prefix>cmd/<name>.
type Command struct {
	Name string // CmdNewGame, CmdSetPlayers or CmdTakeback
	// ID is the payload's "id", a correlation the sender chose; replies
	// echo it. "" if the payload had none.
	ID string

	First   int       // new-game: the player who moves first, 0 or 1 (default 0)
	Variant string    // new-game: e.g. "48" or "37b"; "" keeps the current variant
	Players [2]string // set-players, and new-game if HasPlayers: the two players' names, in player order
	// Event and Round (set-players and new-game, if HasEvent, HasRound)
	// name the tournament and its round for the board's records and
	// pages; "" clears one. Absent, they stay as they were.
	Event, Round       string
	HasEvent, HasRound bool
	// HasPlayers: new-game names the players (else they stay).
	HasPlayers bool
	// Control is new-game's time control if HasControl (else the
	// configured one).
	Control    clock.Control
	HasControl bool
	// Engine is new-game's "engine": "0" or "1" (the player the engine
	// plays) or "none"; "" keeps the configured one. Level is its level,
	// 1 to 10; 0 keeps the configured one.
	Engine string
	Level  int

	Player int   // add-time: whose clock, 0 or 1
	MS     int64 // add-time: 1 .. 3 600 000

	Result    string // declare-result: resignation, time, adjudication or draw
	Winner    int    // declare-result: 0 or 1 if HasWinner (every result but draw)
	HasWinner bool
	Note      string // declare-result: at most MaxNote bytes

	Accept bool // takeback-answer

	// answer: the referee's question (its id) and the option played,
	// by index from 0 (OptionText "") or as the option's text (a colour
	// letter, or a line of play in notation).
	Question   int
	Option     int
	OptionText string
}

// Fields returns the command's fields as a JSON object, as the arbiter
// sent them (without id and token): what the board journals.
func (c Command) Fields() json.RawMessage {
	m := map[string]any{}
	switch c.Name {
	case CmdNewGame:
		m["first"] = c.First
		if c.Variant != "" {
			m["variant"] = c.Variant
		}
		if c.HasPlayers {
			m["players"] = c.Players
		}
		if c.HasControl {
			m["time_control"] = c.Control.String()
		}
		if c.Engine != "" {
			m["engine"] = c.Engine
		}
		if c.Level != 0 {
			m["level"] = c.Level
		}
		c.namingFields(m)
	case CmdSetPlayers:
		m["players"] = c.Players
		c.namingFields(m)
	case CmdAddTime:
		m["player"], m["ms"] = c.Player, c.MS
	case CmdDeclareResult:
		m["result"] = c.Result
		if c.HasWinner {
			m["winner"] = c.Winner
		}
		if c.Note != "" {
			m["note"] = c.Note
		}
	case CmdTakebackAnswer:
		m["accept"] = c.Accept
	case CmdAnswer:
		m["question"] = c.Question
		if c.OptionText != "" {
			m["option"] = c.OptionText
		} else {
			m["option"] = c.Option
		}
	}
	b, _ := json.Marshal(m)
	return b
}

// namingFields adds the event and round the command gives to m.
func (c Command) namingFields(m map[string]any) {
	if c.HasEvent {
		m["event"] = c.Event
	}
	if c.HasRound {
		m["round"] = c.Round
	}
}

// args is every field any command may carry; parse checks which ones the
// named command accepts. Pointers tell "absent" from a zero value.
type args struct {
	Token       *string    `json:"token"`
	ID          *string    `json:"id"`
	First       *int       `json:"first"`
	Variant     *string    `json:"variant"`
	Players     *[]string  `json:"players"`
	TimeControl *string    `json:"time_control"`
	Engine      *engineArg `json:"engine"`
	Level       *int       `json:"level"`
	Player      *int       `json:"player"`
	MS          *int64     `json:"ms"`
	Result      *string    `json:"result"`
	Winner      *int       `json:"winner"`
	Note        *string    `json:"note"`
	Accept      *bool      `json:"accept"`
	Question    *int       `json:"question"`
	Option      *option    `json:"option"`
	Event       *string    `json:"event"`
	Round       *string    `json:"round"`
}

// MaxEngineLevel is the engine's highest level (engine/search.MaxLevel).
const MaxEngineLevel = 10

// engineArg is new-game's engine: 0, 1, "0", "1" or "none".
type engineArg string

func (e *engineArg) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*e = engineArg(s)
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*e = engineArg(fmt.Sprint(n))
	return nil
}

// option is an answer's option: a number (the index) or a string (the
// option's text).
type option struct {
	index int
	text  string
}

func (o *option) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &o.text)
	}
	return json.Unmarshal(b, &o.index)
}

// present lists the fields the payload had, besides id and token.
func (a *args) present() []string {
	var out []string
	for _, f := range []struct {
		name string
		ok   bool
	}{
		{"first", a.First != nil}, {"variant", a.Variant != nil}, {"players", a.Players != nil},
		{"time_control", a.TimeControl != nil}, {"player", a.Player != nil}, {"ms", a.MS != nil},
		{"result", a.Result != nil}, {"winner", a.Winner != nil}, {"note", a.Note != nil}, {"accept", a.Accept != nil},
		{"question", a.Question != nil}, {"option", a.Option != nil}, {"engine", a.Engine != nil}, {"level", a.Level != nil},
		{"event", a.Event != nil}, {"round", a.Round != nil},
	} {
		if f.ok {
			out = append(out, f.name)
		}
	}
	return out
}

// parseCommand validates one command. It returns the reason for refusing
// it, "" if it is good. The reason goes back on the events topic, so it
// never quotes the token.
func parseCommand(name string, payload []byte, token string) (Command, string) {
	cmd := Command{Name: name}
	if len(payload) > MaxCommandSize {
		return cmd, fmt.Sprintf("payload too large (%d bytes; the limit is %d)", len(payload), MaxCommandSize)
	}
	allowed, known := commandFields[name]
	if !known {
		return cmd, "unknown command (want " + commandNames + ")"
	}
	if !json.Valid(payload) {
		return cmd, "payload is not JSON"
	}
	if t := bytes.TrimLeft(payload, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return cmd, "payload is not a JSON object"
	}
	var a args
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return cmd, decodeReason(err)
	}
	if token != "" {
		got := ""
		if a.Token != nil {
			got = *a.Token
		}
		g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(token))
		if subtle.ConstantTimeCompare(g[:], w[:]) != 1 {
			return cmd, "missing or wrong token"
		}
	}
	if a.ID != nil {
		if reason := checkText("id", *a.ID); reason != "" {
			return cmd, reason
		}
		cmd.ID = *a.ID
	}
	for _, f := range a.present() {
		ok := false
		for _, g := range allowed {
			ok = ok || f == g
		}
		if !ok {
			return cmd, fmt.Sprintf("field %q does not apply to %s", f, name)
		}
	}
	players := func() string {
		if a.Players == nil || len(*a.Players) != 2 {
			return `field "players" must list two names`
		}
		for i, p := range *a.Players {
			if reason := checkText("players", p); reason != "" {
				return reason
			}
			cmd.Players[i] = p
		}
		return ""
	}
	naming := func() string {
		if a.Event != nil {
			if r := checkLabel("event", *a.Event, MaxEvent); r != "" {
				return r
			}
			cmd.Event, cmd.HasEvent = *a.Event, true
		}
		if a.Round != nil {
			if r := checkLabel("round", *a.Round, MaxRound); r != "" {
				return r
			}
			cmd.Round, cmd.HasRound = *a.Round, true
		}
		return ""
	}
	switch name {
	case CmdNewGame:
		if r := naming(); r != "" {
			return cmd, r
		}
		if a.Players != nil {
			if r := players(); r != "" {
				return cmd, r
			}
			cmd.HasPlayers = true
		}
		if a.TimeControl != nil {
			c, err := clock.Parse(*a.TimeControl)
			if err != nil {
				return cmd, `field "time_control" must be none, sudden:DUR or fischer:DUR+INC (DUR 10s to 6h, INC up to 10m, in h, m and s), e.g. fischer:20m+10s`
			}
			cmd.Control, cmd.HasControl = c, true
		}
		if a.First != nil {
			if *a.First != 0 && *a.First != 1 {
				return cmd, `field "first" must be 0 or 1`
			}
			cmd.First = *a.First
		}
		if a.Variant != nil {
			if _, _, err := engine.ParseVariant(*a.Variant); err != nil || len(*a.Variant) > 8 {
				return cmd, `field "variant" must be a ring count such as "37", or "37b" for blitz`
			}
			cmd.Variant = *a.Variant
		}
		if a.Engine != nil {
			switch e := string(*a.Engine); e {
			case "0", "1", "none":
				cmd.Engine = e
			default:
				return cmd, `field "engine" must be 0 or 1 (the player the engine plays) or "none"`
			}
		}
		if a.Level != nil {
			if *a.Level < 1 || *a.Level > MaxEngineLevel {
				return cmd, fmt.Sprintf(`field "level" must be 1 to %d`, MaxEngineLevel)
			}
			cmd.Level = *a.Level
		}
	case CmdSetPlayers:
		if r := players(); r != "" {
			return cmd, r
		}
		if r := naming(); r != "" {
			return cmd, r
		}
	case CmdAddTime:
		if a.Player == nil || *a.Player != 0 && *a.Player != 1 {
			return cmd, `field "player" must be 0 or 1`
		}
		if a.MS == nil || *a.MS < 1 || *a.MS > clock.MaxAddMS {
			return cmd, fmt.Sprintf(`field "ms" must be 1 to %d`, clock.MaxAddMS)
		}
		cmd.Player, cmd.MS = *a.Player, *a.MS
	case CmdDeclareResult:
		if a.Result == nil {
			return cmd, `field "result" must be resignation, time, adjudication or draw`
		}
		switch engine.Reason(*a.Result) {
		case engine.ReasonDraw:
			if a.Winner != nil {
				return cmd, `field "winner" does not apply to a draw`
			}
		case engine.ReasonResignation, engine.ReasonTime, engine.ReasonAdjudication:
			if a.Winner == nil || *a.Winner != 0 && *a.Winner != 1 {
				return cmd, `field "winner" must be 0 or 1`
			}
			cmd.Winner, cmd.HasWinner = *a.Winner, true
		default:
			return cmd, `field "result" must be resignation, time, adjudication or draw`
		}
		cmd.Result = *a.Result
		if a.Note != nil {
			if len(*a.Note) > MaxNote {
				return cmd, fmt.Sprintf(`field "note" is longer than %d bytes`, MaxNote)
			}
			for _, r := range *a.Note {
				if unicode.IsControl(r) || r == utf8.RuneError {
					return cmd, `field "note" holds a control character or bad UTF-8`
				}
			}
			cmd.Note = *a.Note
		}
	case CmdTakebackAnswer:
		if a.Accept == nil {
			return cmd, `field "accept" must be true or false`
		}
		cmd.Accept = *a.Accept
	case CmdAnswer:
		if a.Question == nil || *a.Question < 1 {
			return cmd, `field "question" must be the open question's id (1 or more)`
		}
		if a.Option == nil {
			return cmd, `field "option" must be the option's index (from 0) or its text`
		}
		if a.Option.text != "" {
			if len(a.Option.text) > MaxOption {
				return cmd, fmt.Sprintf(`field "option" is longer than %d bytes`, MaxOption)
			}
			for _, r := range a.Option.text {
				if unicode.IsControl(r) || r == utf8.RuneError {
					return cmd, `field "option" holds a control character or bad UTF-8`
				}
			}
		} else if a.Option.index < 0 || a.Option.index >= 64 {
			return cmd, `field "option" must be the option's index (from 0) or its text`
		}
		cmd.Question, cmd.Option, cmd.OptionText = *a.Question, a.Option.index, a.Option.text
	}
	return cmd, ""
}

// decodeReason turns a JSON error into a reason fit for the wire.
func decodeReason(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %q has the wrong type", te.Field)
	}
	if msg, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return "unknown field " + clip(msg)
	}
	return "payload is not a valid command"
}

// checkText refuses names and IDs a scoreboard could not show safely:
// too long, control or invisible formatting characters, bad UTF-8; and
// player names that show nothing.
func checkText(field, s string) string {
	if len(s) > maxName {
		return fmt.Sprintf("field %q is longer than %d bytes", field, maxName)
	}
	p := textcheck.Problem(s)
	if field == "players" {
		p = textcheck.NameProblem(s)
	}
	if p != "" {
		return fmt.Sprintf("field %q holds %s", field, p)
	}
	return ""
}

// checkLabel checks an event's or a round's name: at most limit bytes of
// text that shows nothing hidden; "" (clearing it) is good.
func checkLabel(field, s string, limit int) string {
	if len(s) > limit {
		return fmt.Sprintf("field %q is longer than %d bytes", field, limit)
	}
	if s == "" {
		return ""
	}
	if p := textcheck.Problem(s); p != "" {
		return fmt.Sprintf("field %q holds %s", field, p)
	}
	if strings.TrimSpace(s) == "" {
		return fmt.Sprintf("field %q holds only spaces (send \"\" to clear it)", field)
	}
	return ""
}

// clip shortens a string echoed from untrusted input.
func clip(s string) string {
	if len(s) <= maxName {
		return s
	}
	for i := maxName; i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return s[:i] + "…"
		}
	}
	return ""
}

// commandReply is the body of the events the publisher sends about
// commands: "command-accepted" and "command-refused".
type commandReply struct {
	kind    string
	Command string `json:"command"`
	ID      string `json:"id,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

func (r commandReply) Kind() string { return r.kind }

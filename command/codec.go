package command

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/textcheck"
)

// Limits on what a command may carry. Commands come from the LAN: every
// field is bounded.
const (
	// MaxCommandSize bounds a payload. Commands are a few fields; a
	// larger payload is a mistake or an attack, and is refused unread.
	MaxCommandSize = 4 << 10
	// MaxName bounds player names and ids.
	MaxName = 64
	// MaxOption bounds an answer's option given as text: a line of play
	// in notation, a few turns long.
	MaxOption = 200
	// MaxNote bounds declare-result's note.
	MaxNote = 200
	// MaxEvent and MaxRound bound the tournament's name (as [board]
	// event in the configuration) and its round.
	MaxEvent = 100
	MaxRound = 32
	// MaxEngineLevel is the engine's highest level (search.MaxLevel).
	MaxEngineLevel = 10
	// maxOptions bounds an answer's option index: a question offers at
	// most 24 options; 64 leaves room.
	maxOptions = 64
)

// entry is one command's codec: its name on the wire, the fields it takes
// besides id and token, and how its fields become the Go value and back.
type entry struct {
	name   string
	fields []string
	// wire: accepted on the cmd/ topics. The board's own commands (the
	// buttons') are not.
	wire   bool
	zero   Command
	decode func(a *args) (Command, string)
	encode func(c Command, m map[string]any)
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
	{name: "health-check", wire: true, zero: HealthCheck{}},
	{name: "takeback-request", zero: TakebackRequest{}},
	{name: "hint", zero: Hint{}},
	{name: "show-last", zero: ShowLast{}},
}

var (
	byName = map[string]*entry{}
	byType = map[reflect.Type]*entry{}
	// wireNames is the "unknown command" reason's list.
	wireNames string
)

func init() {
	var names []string
	for i := range codecs {
		e := &codecs[i]
		byName[e.name], byType[reflect.TypeOf(e.zero)] = e, e
		if e.wire {
			names = append(names, e.name)
		}
	}
	wireNames = strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Name is c's name on the wire ("new-game", ...), "" if c is not one of
// this package's commands.
func Name(c Command) string {
	if c == nil {
		return ""
	}
	if e := byType[reflect.TypeOf(c)]; e != nil {
		return e.name
	}
	return ""
}

// WireNames lists the commands taken on the cmd/ topics, in order.
func WireNames() []string {
	var out []string
	for _, e := range codecs {
		if e.wire {
			out = append(out, e.name)
		}
	}
	return out
}

// Fields returns c's fields as a JSON object with its keys in order,
// without id and token: the command as the arbiter sent it, which the
// board journals. Decoded again, it gives c back.
func Fields(c Command) json.RawMessage {
	m := map[string]any{}
	if e := byType[reflect.TypeOf(c)]; e != nil && e.encode != nil {
		e.encode(c, m)
	}
	b, _ := json.Marshal(m)
	return b
}

// Payload returns the topic's last level and the payload that send e on
// the cmd/ topics: its fields and its id.
func Payload(e Envelope) (name string, payload []byte) {
	m := map[string]any{}
	if en := byType[reflect.TypeOf(e.Command)]; en != nil && en.encode != nil {
		en.encode(e.Command, m)
	}
	if e.ID != "" {
		m["id"] = e.ID
	}
	b, _ := json.Marshal(m)
	return Name(e.Command), b
}

// Decode validates the payload of a command published on cmd/<name>: its
// size, its JSON, its token (if token is not ""), its id and each field.
// It returns the reason for refusing it, "" if it is good; the reason
// goes back on the events topic, so it never quotes the token. A refused
// envelope has no command, but the id when the payload gave a good one.
func Decode(name string, payload []byte, token string) (Envelope, string) {
	return decode(name, payload, token, false)
}

// decode is Decode; internal takes the board's own commands too.
func decode(name string, payload []byte, token string, internal bool) (Envelope, string) {
	var env Envelope
	if len(payload) > MaxCommandSize {
		return env, fmt.Sprintf("payload too large (%d bytes; the limit is %d)", len(payload), MaxCommandSize)
	}
	e := byName[name]
	if e == nil || !e.wire && !internal {
		return env, "unknown command (want " + wireNames + ")"
	}
	a, reason := readArgs(payload)
	if reason != "" {
		return env, reason
	}
	if token != "" {
		got := ""
		if a.Token != nil {
			got = *a.Token
		}
		g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(token))
		if subtle.ConstantTimeCompare(g[:], w[:]) != 1 {
			return env, "missing or wrong token"
		}
	}
	if a.ID != nil {
		if reason := checkText("id", *a.ID); reason != "" {
			return env, reason
		}
		env.ID = *a.ID
	}
	for _, f := range a.present() {
		ok := false
		for _, g := range e.fields {
			ok = ok || f == g
		}
		if !ok {
			return env, fmt.Sprintf("field %q does not apply to %s", f, name)
		}
	}
	if e.decode == nil {
		env.Command = e.zero
		return env, ""
	}
	c, reason := e.decode(a)
	if reason != "" {
		return env, reason
	}
	env.Command = c
	return env, ""
}

// readArgs reads a payload that must be one JSON object of known fields.
func readArgs(payload []byte) (*args, string) {
	if !json.Valid(payload) {
		return nil, "payload is not JSON"
	}
	if t := bytes.TrimLeft(payload, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, "payload is not a JSON object"
	}
	var a args
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return nil, decodeReason(err)
	}
	return &a, ""
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
}

// present lists the fields the payload had, besides id and token.
func (a *args) present() []string {
	var out []string
	v := reflect.ValueOf(a).Elem()
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Tag.Get("json")
		if name != "token" && name != "id" && !v.Field(i).IsNil() {
			out = append(out, name)
		}
	}
	return out
}

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
	switch *a.Result {
	case "draw":
		if a.Winner != nil {
			return nil, `field "winner" does not apply to a draw`
		}
	case "resignation", "time", "adjudication":
		if a.Winner == nil || *a.Winner != 0 && *a.Winner != 1 {
			return nil, `field "winner" must be 0 or 1`
		}
		c.Winner = a.Winner
	default:
		return nil, `field "result" must be resignation, time, adjudication or draw`
	}
	c.Result = *a.Result
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

// ---------- checks ----------

// decodeReason turns a JSON error into a reason fit for the wire.
func decodeReason(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %q has the wrong type", te.Field)
	}
	if msg, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return "unknown field " + Clip(msg)
	}
	return "payload is not a valid command"
}

// checkText refuses names and ids a scoreboard could not show safely:
// too long, control or invisible formatting characters, bad UTF-8; and
// player names that show nothing.
func checkText(field, s string) string {
	if len(s) > MaxName {
		return fmt.Sprintf("field %q is longer than %d bytes", field, MaxName)
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

// checkNote checks free text: at most limit bytes, no control characters
// and no bad UTF-8.
func checkNote(field, s string, limit int) string {
	if len(s) > limit {
		return fmt.Sprintf(`field %q is longer than %d bytes`, field, limit)
	}
	for _, r := range s {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return fmt.Sprintf(`field %q holds a control character or bad UTF-8`, field)
		}
	}
	return ""
}

// Clip shortens a string echoed from untrusted input to MaxName bytes.
func Clip(s string) string {
	if len(s) <= MaxName {
		return s
	}
	for i := MaxName; i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return s[:i] + "…"
		}
	}
	return ""
}

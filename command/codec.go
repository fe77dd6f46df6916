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

package referee

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Message is guidance not yet put into words, so that the screen and the
// scoreboard can say it in the players' language: a key of zertzboard's
// message catalogue (package i18n) and its arguments. An argument is a
// literal string (a cell label), an int, a Message (said in the same
// language) or a []Message (said and listed with ", ").
//
// The referee itself speaks English on the wire (Guidance.Status, the
// events' need and reason): English renders a Message with the English
// formats below, and i18n's English column must match them (a test in
// display checks).
type Message struct {
	Key  string `json:"key"`
	Args []any  `json:"args,omitempty"`
	// Text, when set, is the English wording, which says more than the
	// key's: an engine's reason names cells, while the catalogue has one
	// sentence per engine rule.
	Text string `json:"text,omitempty"`
}

// Msg builds a Message.
func Msg(key string, args ...any) Message { return Message{Key: key, Args: args} }

// English formats of the referee's message keys. They are the wire
// English of Guidance.Status and the events' need; the catalogue's other
// languages translate them.
var English = map[string]string{
	"guide.player":             "P%d",
	"guide.pending":            "%s: %s",
	"guide.illegal":            "Illegal: %s. Restore %s",
	"guide.takeback-demand":    "Take back turn %d: restore %s",
	"guide.question":           "Which colour was on %s? Take-back button: next colour, confirm: answer",
	"guide.question-turns":     "Which turns were played after turn %d? Take-back button: next, confirm: answer",
	"guide.take-off-claimed":   "take off the claimed rings %s",
	"guide.over-win":           "Game over: %s wins (%s)",
	"guide.over-draw":          "Game over: drawn (%s)",
	"guide.must-capture":       "%s must capture: %s can jump %s",
	"guide.to-move":            "%s to move: %s",
	"guide.place-and-remove":   "place a marble, then remove a free ring",
	"guide.place-no-free-ring": "place a marble (no ring is free to remove)",
	"guide.fix":                "%s %s",
	"guide.engine-turn":        "%s (the engine) plays %s: carry it out as lit",
	"guide.engine-thinking":    "%s (the engine) is thinking",
	"guide.hint":               "Hint: %s",
	"guide.engine-last":        "The engine played %s",
	"need.engine-turn":         "carry out %s as lit",
	"need.take-off-captured":   "take off the captured marbles %s",
	"need.continue-capture":    "continue capturing from %s",
	"need.finish-capture":      "finish the capture",
	"need.place-marble":        "place a marble on a vacant ring",
	"need.remove-free-ring":    "remove a free ring",
	"fault.dead-cells":         "no reading from %s: refereeing on without it, and asking when a turn there is unclear",
	"fault.cells-read":         "every socket reads again",
	"fault.stuck-cell":         "the sensor of %s reads the same whatever is on it: refereeing on without it, and asking about the turns it misread",
	"fault.stuck-reads":        "the sensor of %s reads again",
	"fault.stuck-trusted":      "the players' answer clears the sensor of %s: it is read again",
	"need.finish-turn":         "finish the turn (two turns seen at once)",
	"content.no-ring":          "(no ring)",
	"content.vacant":           "(empty ring)",
	"content.white":            "(white)",
	"content.grey":             "(grey)",
	"content.black":            "(black)",
	"content.unknown":          "(?)",
	// Game results (engine.Reason, and the arbiter's): the wire words.
	"result.captures":     "captures",
	"result.full-board":   "full-board",
	"result.repetition":   "repetition",
	"result.no-moves":     "no-moves",
	"result.time":         "time",
	"result.resignation":  "resignation",
	"result.adjudication": "adjudication",
	"result.draw":         "draw",
}

// RuleKey is the catalogue key of an engine rule's illegal reason
// ("rule.ring-not-free"); "rule.other" for an error without a rule.
func RuleKey(rule string) string {
	if rule == "" {
		return "rule.other"
	}
	return "rule." + rule
}

// English says m as the referee does on the wire.
func (m Message) English() string {
	if m.Text != "" {
		return m.Text
	}
	f, ok := English[m.Key]
	if !ok {
		return m.Key
	}
	if len(m.Args) == 0 {
		return f
	}
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		switch a := a.(type) {
		case Message:
			args[i] = a.English()
		case []Message:
			parts := make([]string, len(a))
			for j, p := range a {
				parts[j] = p.English()
			}
			args[i] = strings.Join(parts, ", ")
		default:
			args[i] = a
		}
	}
	return fmt.Sprintf(f, args...)
}

// Bounds on a Message read from JSON (a viewer reads them from MQTT): the
// referee's own nest three deep with a few arguments each.
const (
	maxMessageDepth = 8
	maxMessageArgs  = 64
)

// UnmarshalJSON reads a Message back with its arguments' Go types: a
// number is an int, an object a Message, an array a []Message. It refuses
// messages nested deeper than 8 or with more than 64 arguments (or list
// items), naming the key.
func (m *Message) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("referee: message: %w", err)
	}
	msg, err := messageFrom(v, 0)
	if err != nil {
		return err
	}
	*m = msg
	return nil
}

// messageFrom converts a decoded JSON object into a Message.
func messageFrom(v any, depth int) (Message, error) {
	o, ok := v.(map[string]any)
	if !ok {
		return Message{}, fmt.Errorf("referee: message: want an object, not %T", v)
	}
	key, _ := o["key"].(string)
	if _, ok := o["key"]; ok && key == "" {
		return Message{}, fmt.Errorf("referee: message: key must be a string")
	}
	if depth > maxMessageDepth {
		return Message{}, fmt.Errorf("referee: message %.40q nests deeper than %d", key, maxMessageDepth)
	}
	m := Message{Key: key}
	if t, ok := o["text"]; ok {
		if m.Text, ok = t.(string); !ok {
			return Message{}, fmt.Errorf("referee: message %.40q: text must be a string", key)
		}
	}
	args, _ := o["args"].([]any)
	if a, ok := o["args"]; ok && a != nil && args == nil {
		return Message{}, fmt.Errorf("referee: message %.40q: args must be an array", key)
	}
	if len(args) > maxMessageArgs {
		return Message{}, fmt.Errorf("referee: message %.40q has %d arguments; at most %d", key, len(args), maxMessageArgs)
	}
	for _, a := range args {
		switch a := a.(type) {
		case string:
			m.Args = append(m.Args, a)
		case json.Number:
			n, err := strconv.Atoi(a.String())
			if err != nil {
				return Message{}, fmt.Errorf("referee: message %.40q: argument %.20s is not an int", key, a)
			}
			m.Args = append(m.Args, n)
		case map[string]any:
			sub, err := messageFrom(a, depth+1)
			if err != nil {
				return Message{}, err
			}
			m.Args = append(m.Args, sub)
		case []any:
			if len(a) > maxMessageArgs {
				return Message{}, fmt.Errorf("referee: message %.40q lists %d messages; at most %d", key, len(a), maxMessageArgs)
			}
			subs := make([]Message, 0, len(a))
			for _, x := range a {
				sub, err := messageFrom(x, depth+1)
				if err != nil {
					return Message{}, err
				}
				subs = append(subs, sub)
			}
			m.Args = append(m.Args, subs)
		default:
			return Message{}, fmt.Errorf("referee: message %.40q: argument of type %T", key, a)
		}
	}
	return m, nil
}

func player(p int) Message { return Msg("guide.player", p) }

// guidance builds Guidance from its parts: the Status is their English,
// joined with "; ".
func guidance(h hints, parts ...Message) Guidance {
	s := make([]string, len(parts))
	for i, p := range parts {
		s[i] = p.English()
	}
	return Guidance{Hints: h, Status: strings.Join(s, "; "), Parts: parts}
}

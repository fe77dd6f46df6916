package referee

import (
	"encoding/json"
	"fmt"
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
	"guide.take-off-claimed":   "take off the claimed rings %s",
	"guide.over-win":           "Game over: %s wins (%s)",
	"guide.over-draw":          "Game over: drawn (%s)",
	"guide.must-capture":       "%s must capture: %s can jump %s",
	"guide.to-move":            "%s to move: %s",
	"guide.place-and-remove":   "place a marble, then remove a free ring",
	"guide.place-no-free-ring": "place a marble (no ring is free to remove)",
	"guide.fix":                "%s %s",
	"need.take-off-captured":   "take off the captured marbles %s",
	"need.continue-capture":    "continue capturing from %s",
	"need.finish-capture":      "finish the capture",
	"need.place-marble":        "place a marble on a vacant ring",
	"need.remove-free-ring":    "remove a free ring",
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

// UnmarshalJSON reads a Message back with its arguments' Go types: a
// number is an int, an object a Message, an array a []Message.
func (m *Message) UnmarshalJSON(b []byte) error {
	var w struct {
		Key  string            `json:"key"`
		Args []json.RawMessage `json:"args"`
		Text string            `json:"text"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if len(w.Args) > 16 {
		return fmt.Errorf("referee: message %q has %d arguments; at most 16", w.Key, len(w.Args))
	}
	*m = Message{Key: w.Key, Text: w.Text}
	for _, raw := range w.Args {
		var a any
		switch s := strings.TrimSpace(string(raw)); {
		case strings.HasPrefix(s, "{"):
			var sub Message
			if err := json.Unmarshal(raw, &sub); err != nil {
				return err
			}
			a = sub
		case strings.HasPrefix(s, "["):
			var subs []Message
			if err := json.Unmarshal(raw, &subs); err != nil {
				return err
			}
			a = subs
		case strings.HasPrefix(s, `"`):
			var str string
			if err := json.Unmarshal(raw, &str); err != nil {
				return err
			}
			a = str
		default:
			var n int
			if err := json.Unmarshal(raw, &n); err != nil {
				return fmt.Errorf("referee: message %q argument %.20s: %w", w.Key, s, err)
			}
			a = n
		}
		m.Args = append(m.Args, a)
	}
	return nil
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

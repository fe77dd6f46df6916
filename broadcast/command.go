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

	"github.com/zertzboard/zertzboard/engine"
)

// Command names: the last level of <prefix>cmd/<name>.
const (
	CmdNewGame    = "new-game"
	CmdSetPlayers = "set-players"
	CmdTakeback   = "takeback"
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
	Players [2]string // set-players: the two players' names, in player order
}

// args is every field any command may carry; parse checks which ones the
// named command accepts. Pointers tell "absent" from a zero value.
type args struct {
	Token   *string   `json:"token"`
	ID      *string   `json:"id"`
	First   *int      `json:"first"`
	Variant *string   `json:"variant"`
	Players *[]string `json:"players"`
}

// parseCommand validates one command. It returns the reason for refusing
// it, "" if it is good. The reason goes back on the events topic, so it
// never quotes the token.
func parseCommand(name string, payload []byte, token string) (Command, string) {
	cmd := Command{Name: name}
	if len(payload) > MaxCommandSize {
		return cmd, fmt.Sprintf("payload too large (%d bytes; the limit is %d)", len(payload), MaxCommandSize)
	}
	switch name {
	case CmdNewGame, CmdSetPlayers, CmdTakeback:
	default:
		return cmd, fmt.Sprintf("unknown command (want %s, %s or %s)", CmdNewGame, CmdSetPlayers, CmdTakeback)
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
	foreign := func(field string, present bool) string {
		if present {
			return fmt.Sprintf("field %q does not apply to %s", field, name)
		}
		return ""
	}
	switch name {
	case CmdNewGame:
		if r := foreign("players", a.Players != nil); r != "" {
			return cmd, r
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
	case CmdSetPlayers:
		for _, r := range []string{foreign("first", a.First != nil), foreign("variant", a.Variant != nil)} {
			if r != "" {
				return cmd, r
			}
		}
		if a.Players == nil || len(*a.Players) != 2 {
			return cmd, `field "players" must list two names`
		}
		for i, p := range *a.Players {
			if reason := checkText("players", p); reason != "" {
				return cmd, reason
			}
			cmd.Players[i] = p
		}
	case CmdTakeback:
		for _, r := range []string{foreign("first", a.First != nil), foreign("variant", a.Variant != nil), foreign("players", a.Players != nil)} {
			if r != "" {
				return cmd, r
			}
		}
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

// checkText refuses names and IDs a scoreboard could not show safely.
func checkText(field, s string) string {
	if len(s) > maxName {
		return fmt.Sprintf("field %q is longer than %d bytes", field, maxName)
	}
	for _, r := range s {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return fmt.Sprintf("field %q holds a control character or bad UTF-8", field)
		}
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

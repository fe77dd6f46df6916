package broadcast

import (
	"github.com/zertzboard/zertzboard/command"
)

// healthCheck is the command the board sends itself after each
// connection: its coming back proves that the broker delivers the board's
// commands. Another client's health-check is answered command-accepted and
// does nothing else.
var healthCheck = command.Name(command.HealthCheck{})

// MaxCommandSize bounds a command payload (command.MaxCommandSize).
const MaxCommandSize = command.MaxCommandSize

// clip shortens a string echoed from untrusted input.
func clip(s string) string { return command.Clip(s) }

// commandReply is the body of the events the publisher sends about
// commands: "command-accepted" and "command-refused".
type commandReply struct {
	kind    string
	Command string `json:"command"`
	ID      string `json:"id,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

func (r commandReply) Kind() string { return r.kind }

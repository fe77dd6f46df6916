// Package hall writes the configuration of a tournament hall's MQTT
// broker: the accounts and access rules that give Debian's mosquitto the
// rights of the embedded broker's roles (docs/CONTRACTS.md 5.4), so that
// many boards, the arbiter's console and the scoreboards can share one
// broker; the bridges of hall brokers to a central one and that centre's
// accounts (bridge.go); and nginx in front of several scoreboards
// (proxy.go). docs/HALL.md says how to run a hall and a larger event;
// firmware-config/mosquitto/ and firmware-config/nginx/ have examples
// written by this package.
//
// Layer: services. May import: base, game, services.
package hall

import (
	"fmt"
	"strings"

	"github.com/zertzboard/zertzboard/internal/boardid"
)

// Accounts are the broker's users by role. Each board's user name is its
// board ID, so a board can publish only under its own prefix.
type Accounts struct {
	Prefix    string   // the topic root, ending in "/"; default "zertz/"
	Boards    []string // board IDs, each also the board's user name
	Operators []string // the arbiter's console and operators' tools
	Viewers   []string // scoreboards and other watchers with an account
}

// viewerTopics are what a viewer may read of each board.
var viewerTopics = []string{"status", "state", "moves", "events", "record"}

// ACL returns a mosquitto acl_file (mosquitto.conf(5), acl_file) giving:
//
//   - a board: publish anything under its own prefix; read its own
//     commands and its own status (to correct a stale Will);
//   - an operator: publish any board's commands; read everything under the
//     prefix;
//   - a viewer, and a client without a user name: read each board's
//     status, state, moves, events and record, never a command; publish
//     nothing.
//
// It refuses board IDs that are not valid (internal/boardid) and names
// that would break the file's lines.
func ACL(a Accounts) (string, error) {
	p := a.Prefix
	if p == "" {
		p = "zertz/"
	}
	if !strings.HasSuffix(p, "/") || strings.ContainsAny(p, "+#\n\r \t") {
		return "", fmt.Errorf("hall: prefix %q: want a topic root ending in / without wildcards or spaces", p)
	}
	seen := map[string]string{}
	check := func(role, name string) error {
		if name == "" || strings.ContainsAny(name, "\n\r \t:#+/") || len(name) > 64 {
			return fmt.Errorf("hall: %s user %q: want 1 to 64 characters without spaces, ':', '/', '+' or '#'", role, name)
		}
		if r, dup := seen[name]; dup {
			return fmt.Errorf("hall: user %q is both %s and %s", name, r, role)
		}
		seen[name] = role
		return nil
	}
	var b strings.Builder
	b.WriteString("# mosquitto acl_file for a zertzboard hall: the roles of docs/CONTRACTS.md 5.4.\n")
	b.WriteString("# Written by package hall. A client without a user name gets the first\n# section's rights; a user with a password but no section here gets none.\n\n")
	b.WriteString("# Viewers without an account: each board's public topics, never a command.\n")
	for _, t := range viewerTopics {
		fmt.Fprintf(&b, "topic read %s+/%s\n", p, t)
	}
	for _, id := range a.Boards {
		if err := boardid.Check(id); err != nil {
			return "", fmt.Errorf("hall: board %q: %w", id, err)
		}
		if err := check("board", id); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n# Board %s: publishes under its own prefix, reads its commands and its status.\nuser %s\ntopic write %s%s/#\ntopic read %s%s/cmd/#\ntopic read %s%s/status\n",
			id, id, p, id, p, id, p, id)
	}
	for _, op := range a.Operators {
		if err := check("operator", op); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n# Operator %s: sends any board's commands, reads everything.\nuser %s\ntopic write %s+/cmd/#\ntopic read %s#\n", op, op, p, p)
	}
	for _, v := range a.Viewers {
		if err := check("viewer", v); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n# Viewer %s: each board's public topics.\nuser %s\n", v, v)
		for _, t := range viewerTopics {
			fmt.Fprintf(&b, "topic read %s+/%s\n", p, t)
		}
	}
	return b.String(), nil
}

// Config returns a mosquitto.conf for a hall: one listener, the password
// and ACL files, anonymous viewers allowed (the ACL limits them), and no
// persistence (the boards publish their state again on reconnection).
func Config(listen string, port int, passwordFile, aclFile string) string {
	return fmt.Sprintf(`# mosquitto.conf for a zertzboard hall (written by package hall).
per_listener_settings false
listener %d %s
allow_anonymous true
password_file %s
acl_file %s
persistence false
# A board's state and record are retained; a slow viewer may queue this many.
max_queued_messages 1000
log_dest stderr
log_type error
log_type warning
log_type notice
`, port, listen, passwordFile, aclFile)
}

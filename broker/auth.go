package broker

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"strings"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// Role is what an account may do.
type Role string

const (
	// RoleBoard is the controller itself: it publishes anything under the
	// prefix and subscribes only to commands (<prefix>+/cmd/…) and to the
	// status topics (<prefix>+/status), to correct a stale Will.
	RoleBoard Role = "board"
	// RoleOperator runs the game from a console: it publishes commands
	// (<prefix>+/cmd/…) and subscribes to anything under the prefix.
	RoleOperator Role = "operator"
	// RoleViewer watches: it subscribes under the prefix and never
	// publishes. Anonymous clients are viewers.
	RoleViewer Role = "viewer"
)

// User is one account.
type User struct {
	Name     string `json:"name"`
	Password string `json:"password"`
	Role     Role   `json:"role"`
}

// authHook authenticates CONNECTs and checks every publish and subscribe
// against the client's role. The role is found again from the username on
// each check: the username is the one authenticated at connect, and mochi
// offers no per-client storage.
type authHook struct {
	mqtt.HookBase
	users  map[string]user
	prefix string
	anon   bool
	log    *slog.Logger
}

type user struct {
	hash [sha256.Size]byte
	role Role
}

func newAuthHook(users []User, prefix string, anon bool, log *slog.Logger) (*authHook, error) {
	h := &authHook{users: map[string]user{}, prefix: prefix, anon: anon, log: log}
	for i, u := range users {
		switch {
		case u.Name == "":
			return nil, fmt.Errorf("broker: user %d has no name", i)
		case u.Password == "":
			return nil, fmt.Errorf("broker: user %q has no password", u.Name)
		case u.Role != RoleBoard && u.Role != RoleOperator && u.Role != RoleViewer:
			return nil, fmt.Errorf("broker: user %q has unknown role %q (want board, operator or viewer)", u.Name, u.Role)
		}
		if _, dup := h.users[u.Name]; dup {
			return nil, fmt.Errorf("broker: user %q is listed twice", u.Name)
		}
		h.users[u.Name] = user{hash: sha256.Sum256([]byte(u.Password)), role: u.Role}
	}
	return h, nil
}

func (h *authHook) ID() string { return "zertzboard-auth" }

func (h *authHook) Provides(b byte) bool {
	return b == mqtt.OnConnectAuthenticate || b == mqtt.OnACLCheck
}

// OnConnectAuthenticate admits known users with the right password, and
// anonymous viewers if allowed. A Last Will is a publish made on the
// client's behalf, which mochi does not check against the ACL, so a Will
// the role could not publish itself refuses the connection.
func (h *authHook) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	name := string(pk.Connect.Username)
	role, ok := h.authenticate(name, pk.Connect.Password, pk.Connect.PasswordFlag)
	if !ok {
		h.log.Warn("broker: connection refused: bad credentials", "user", name, "client", cl.ID, "remote", cl.Net.Remote)
		return false
	}
	if pk.Connect.WillFlag && !h.allowed(role, pk.Connect.WillTopic, true) {
		h.log.Warn("broker: connection refused: will topic not permitted", "user", name, "role", role, "topic", pk.Connect.WillTopic)
		return false
	}
	return true
}

func (h *authHook) authenticate(name string, password []byte, hasPassword bool) (Role, bool) {
	if name == "" {
		return RoleViewer, h.anon && !hasPassword
	}
	u, known := h.users[name]
	// Compare digests so that the time taken depends neither on the
	// password's length nor on whether the user exists.
	got := sha256.Sum256(password)
	match := subtle.ConstantTimeCompare(got[:], u.hash[:]) == 1
	return u.role, known && match
}

func (h *authHook) OnACLCheck(cl *mqtt.Client, topic string, write bool) bool {
	role := RoleViewer
	if name := string(cl.Properties.Username); name != "" {
		u, ok := h.users[name]
		if !ok { // cannot happen after authentication; deny anyway
			return false
		}
		role = u.role
	}
	ok := h.allowed(role, topic, write)
	if !ok {
		h.log.Info("broker: denied", "user", string(cl.Properties.Username), "role", role, "topic", topic, "write", write)
	}
	return ok
}

// allowed is the role table. topic is a topic name when write is true, and
// a subscription filter otherwise.
func (h *authHook) allowed(role Role, topic string, write bool) bool {
	rest, under := strings.CutPrefix(topic, h.prefix)
	if !under || rest == "" {
		return false
	}
	switch role {
	case RoleBoard:
		if write {
			return true
		}
		return isCommandFilter(rest) || isStatusFilter(rest)
	case RoleOperator:
		if write {
			return isCommandFilter(rest)
		}
		return true
	default:
		return !write
	}
}

// isCommandFilter reports whether every topic the filter (or topic name)
// rest can match is a command: <board>/cmd/<name>[/…]. The board level may
// be "+", the command levels "+" or "#".
func isCommandFilter(rest string) bool {
	levels := strings.Split(rest, "/")
	return len(levels) >= 3 && levels[0] != "" && levels[0] != "#" && levels[1] == "cmd" && levels[2] != ""
}

// isStatusFilter reports whether rest is <board>/status.
func isStatusFilter(rest string) bool {
	board, topic, ok := strings.Cut(rest, "/")
	return ok && topic == "status" && board != "" && board != "#"
}

package broker

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/zertzboard/zertzboard/internal/boardid"
	"github.com/zertzboard/zertzboard/internal/connlimit"
	"github.com/zertzboard/zertzboard/internal/loginlimit"
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
	// RoleViewer watches: it reads a board's status, state, moves, events
	// and record, never its commands, and never publishes. Anonymous
	// clients are viewers.
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
//
// It also applies the per-client Limits mochi has no setting for, and
// keeps MQTT 3.1.1 clients from receiving DISCONNECT packets.
type authHook struct {
	mqtt.HookBase
	users  map[string]user
	prefix string
	anon   bool
	log    *slog.Logger
	limits Limits
	srv    *mqtt.Server // for CONNACKs sent from OnConnect

	// Password guessing: attempts with a user name are limited per
	// address and per user (loginlimit.Console, the console's policy);
	// an address where the user logged in before is spared both, so
	// that guesses at the board's password from elsewhere never keep the
	// board itself out.
	byAddr, byUser *loginlimit.Limiter

	mu       sync.Mutex
	owners   map[string]string          // client ID → the account that holds it
	ids      map[string][]string        // account → its client IDs, oldest first
	good     map[string]map[string]bool // account → addresses it logged in from
	failed   int                        // failed authentications not yet logged
	lastLog  time.Time                  // of the last failed-authentication warning
	slowedN  int                        // commands slowed not yet logged
	lastSlow time.Time                  // of the last "commands slowed" warning
	now      func() time.Time
}

// Bounds of the identity tables: per account, the client IDs it holds and
// the addresses it logged in from (the oldest go first).
const (
	maxIDsPerUser   = 16
	maxAddrsPerUser = 16
	// authLogEvery spaces the warnings about failed authentications;
	// each says how many failed since the last.
	authLogEvery = 5 * time.Second
)

type user struct {
	hash [sha256.Size]byte
	role Role
}

func newAuthHook(users []User, prefix string, anon bool, limits Limits, log *slog.Logger) (*authHook, error) {
	h := &authHook{users: map[string]user{}, prefix: prefix, anon: anon, limits: limits.withDefaults(), log: log,
		byAddr: loginlimit.New(loginlimit.Console, nil), byUser: loginlimit.New(loginlimit.Console, nil),
		owners: map[string]string{}, ids: map[string][]string{}, good: map[string]map[string]bool{}, now: time.Now}
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
	switch b {
	case mqtt.OnConnect, mqtt.OnConnectAuthenticate, mqtt.OnACLCheck, mqtt.OnPacketEncode, mqtt.OnPublishDropped, mqtt.OnSubscribe, mqtt.OnPublish:
		return true
	}
	return false
}

// OnConnect refuses over-long client IDs with the CONNACK code for a bad
// identifier, and bounds the keepalive so that a silent connection ends.
func (h *authHook) OnConnect(cl *mqtt.Client, pk packets.Packet) error {
	if id := pk.Connect.ClientIdentifier; len(id) > h.limits.MaxClientIDLen {
		h.log.Warn("broker: connection refused: client ID too long", "bytes", len(id), "max", h.limits.MaxClientIDLen, "remote", cl.Net.Remote)
		if h.srv != nil {
			_ = h.srv.SendConnack(cl, packets.ErrClientIdentifierNotValid, false, nil)
		}
		return packets.ErrClientIdentifierNotValid
	}
	if reason := h.admitViewer(cl, pk); reason != "" {
		h.log.Warn("broker: connection refused: "+reason, "client", pk.Connect.ClientIdentifier, "remote", cl.Net.Remote)
		if h.srv != nil {
			_ = h.srv.SendConnack(cl, packets.ErrServerUnavailable, false, nil)
		}
		return packets.ErrServerUnavailable
	}
	if owner, taken := h.owner(pk.Connect.ClientIdentifier); taken && owner != string(pk.Connect.Username) {
		// Taking over the session would disconnect its holder and, with
		// a clean session, wipe its subscriptions: the board would go on
		// publishing but never hear a command again.
		h.log.Warn("broker: connection refused: client ID belongs to another account", "client", pk.Connect.ClientIdentifier, "user", string(pk.Connect.Username), "remote", cl.Net.Remote)
		if h.srv != nil {
			_ = h.srv.SendConnack(cl, packets.ErrClientIdentifierNotValid, false, nil)
		}
		return packets.ErrClientIdentifierNotValid
	}
	if ka := pk.Connect.Keepalive; ka == 0 || ka > h.limits.MaxKeepalive {
		cl.State.Keepalive = h.limits.MaxKeepalive
		cl.State.ServerKeepalive = true // MQTT 5: told in CONNACK [MQTT-3.2.2-21]
	}
	return nil
}

// OnPacketEncode keeps DISCONNECT packets from MQTT 3.1.1 (and 3.1)
// clients: in those versions only a client sends DISCONNECT, and a broker
// that wants a client gone closes the connection [MQTT-3.14]; mosquitto's
// clients report one as a protocol error. Mochi writes one on an ACL
// denial, a session take-over and at shutdown; an unencodable packet makes
// its write fail, after which mochi closes the connection as it would
// anyway. MQTT 5 CONNACKs learn the maximum packet size, which mochi does
// not announce.
func (h *authHook) OnPacketEncode(cl *mqtt.Client, pk packets.Packet) packets.Packet {
	switch {
	case pk.FixedHeader.Type == packets.Disconnect && cl.Properties.ProtocolVersion < 5:
		pk.FixedHeader.Type = packets.Reserved
	case pk.FixedHeader.Type == packets.Connack && cl.Properties.ProtocolVersion == 5:
		pk.Properties.MaximumPacketSize = h.limits.MaxPacketSize
	}
	return pk
}

// OnSubscribe refuses the filters that would take a client past
// MaxSubscriptions, by making them invalid: mochi then answers each with
// "topic filter invalid" in SUBACK, one code per filter as MQTT requires.
func (h *authHook) OnSubscribe(cl *mqtt.Client, pk packets.Packet) packets.Packet {
	if cl.Net.Inline {
		return pk
	}
	connlimit.SetIdle(cl.Net.Conn, false) // a viewer watching is not idle
	n := cl.State.Subscriptions.Len()
	filters := make(packets.Subscriptions, len(pk.Filters))
	copy(filters, pk.Filters)
	for i, f := range filters {
		if _, have := cl.State.Subscriptions.Get(f.Filter); have {
			continue
		}
		if n >= h.limits.MaxSubscriptions {
			h.log.Warn("broker: subscription refused: too many", "client", cl.ID, "max", h.limits.MaxSubscriptions)
			filters[i].Filter = ""
			continue
		}
		n++
	}
	pk.Filters = filters
	return pk
}

// OnPublishDropped disconnects a client whose write queue is full: it has
// stopped reading, and would otherwise miss messages without knowing. Its
// connection is closed without a DISCONNECT, which could not get through.
func (h *authHook) OnPublishDropped(cl *mqtt.Client, _ packets.Packet) {
	if !cl.Closed() {
		h.log.Warn("broker: client disconnected: it fell behind", "client", cl.ID, "remote", cl.Net.Remote, "queued", h.limits.MaxQueued)
		cl.Stop(packets.ErrPendingClientWritesExceeded)
	}
}

// OnConnectAuthenticate admits known users with the right password, and
// anonymous viewers if allowed. A Last Will is a publish made on the
// client's behalf, which mochi does not check against the ACL, so a Will
// the role could not publish itself refuses the connection.
func (h *authHook) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	name := string(pk.Connect.Username)
	addr := remoteHost(cl.Net.Remote)
	if name != "" && !h.allowAttempt(name, addr) {
		h.authFailed("too many attempts", name, cl.Net.Remote)
		return false
	}
	role, ok := h.authenticate(name, pk.Connect.Password, pk.Connect.PasswordFlag)
	if !ok {
		h.authFailed("bad credentials", name, cl.Net.Remote)
		return false
	}
	if name != "" {
		h.loggedIn(name, addr, cl.ID)
	}
	if g, ok := cl.Net.Conn.(*guardConn); ok && role == RoleBoard {
		g.trust()
	}
	if role != RoleViewer {
		connlimit.SetIdle(cl.Net.Conn, false) // an account's slot is never taken
	}
	if pk.Connect.WillFlag && (!h.allowed(role, pk.Connect.WillTopic, true) || h.isCommand(pk.Connect.WillTopic)) {
		// A command as a Will would be carried out when the client
		// drops off, by nobody's decision.
		h.log.Warn("broker: connection refused: will topic not permitted", "client", cl.ID, "user", name, "role", role, "topic", pk.Connect.WillTopic)
		return false
	}
	if role == RoleViewer {
		// A viewer's session ends with its connection, whatever it asked
		// for: otherwise anyone could leave sessions behind, each holding
		// subscriptions and up to MaxInflight messages, under new client
		// IDs for as long as sessions last.
		cl.Properties.Clean = true
		cl.Properties.Props.SessionExpiryInterval = 0
	}
	return true
}

// isCommand reports whether topic is a command topic.
func (h *authHook) isCommand(topic string) bool {
	rest, ok := strings.CutPrefix(topic, h.prefix)
	return ok && isCommandFilter(rest)
}

// isViewer reports whether a CONNECT with this user name would be a
// viewer's (its password is checked later).
func (h *authHook) isViewer(name string) bool {
	if name == "" {
		return true
	}
	u, ok := h.users[name]
	return ok && u.role == RoleViewer
}

// admitViewer applies the viewers' share of the listener
// (Limits.ReservedConns, MaxViewersPerAddr) to a viewer's CONNECT; it
// returns why it is refused, or "". At the share, an anonymous viewer
// without subscriptions on the same listener makes room.
func (h *authHook) admitViewer(cl *mqtt.Client, pk packets.Packet) string {
	if h.srv == nil || !h.isViewer(string(pk.Connect.Username)) {
		return ""
	}
	addr := remoteHost(cl.Net.Remote)
	n, fromAddr := 0, 0
	var idle *mqtt.Client
	for _, o := range h.srv.Clients.GetAll() {
		if o == cl || o.Net.Inline || o.Closed() || o.Net.Listener != cl.Net.Listener || !h.isViewer(string(o.Properties.Username)) {
			continue
		}
		n++
		if remoteHost(o.Net.Remote) == addr {
			fromAddr++
		}
		if idle == nil && len(o.Properties.Username) == 0 && o.State.Subscriptions.Len() == 0 {
			idle = o
		}
	}
	if fromAddr >= h.limits.MaxViewersPerAddr {
		return "too many viewers from this address"
	}
	if n < h.limits.MaxConns-h.limits.ReservedConns {
		return ""
	}
	if idle == nil {
		return "the viewers' share of the connections is full"
	}
	h.log.Warn("broker: idle anonymous viewer disconnected to make room", "client", idle.ID, "remote", idle.Net.Remote)
	idle.Stop(packets.ErrServerBusy)
	return ""
}

// owner returns the account holding client ID id, if one does.
func (h *authHook) owner(id string) (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	o, ok := h.owners[id]
	return o, ok
}

// allowAttempt takes an attempt at name's password from addr out of the
// limits; false refuses it before the password is looked at. An address
// where the account logged in before (the board's own, the console's) is
// not limited: guesses from elsewhere must never keep the board out. Nor
// is the host's own 127.0.0.1 (see the code).
func (h *authHook) allowAttempt(name, addr string) bool {
	if addr == "127.0.0.1" || addr == "::1" {
		// The host itself: the board, and the arbiter console, which
		// limits its own log-ins per browser's address and would
		// otherwise lock every operator out after a few failures.
		return true
	}
	h.mu.Lock()
	known := h.good[name][addr]
	h.mu.Unlock()
	if known {
		return true
	}
	if !h.byAddr.Allow(addr) {
		return false
	}
	if !h.byUser.Allow(name) {
		h.byAddr.Refund(addr) // refused without a guess
		return false
	}
	return true
}

// loggedIn records a successful log-in: its attempts are given back, the
// address is known good for the account, and the client ID is the
// account's from now on.
func (h *authHook) loggedIn(name, addr, id string) {
	h.byAddr.Refund(addr)
	h.byUser.Refund(name)
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.good[name]
	if g == nil {
		g = map[string]bool{}
		h.good[name] = g
	}
	if !g[addr] && len(g) >= maxAddrsPerUser {
		for a := range g { // forget one
			delete(g, a)
			break
		}
	}
	g[addr] = true
	if h.owners[id] == name {
		return
	}
	ids := h.ids[name]
	if len(ids) >= maxIDsPerUser {
		delete(h.owners, ids[0])
		ids = ids[1:]
	}
	h.owners[id] = name
	h.ids[name] = append(ids, id)
}

// authFailed logs failed authentications at a warning, at most one line per
// authLogEvery with the count since the last line.
func (h *authHook) authFailed(why, name, remote string) {
	now := h.now()
	h.mu.Lock()
	h.failed++
	if now.Sub(h.lastLog) < authLogEvery {
		h.mu.Unlock()
		return
	}
	n := h.failed
	h.failed, h.lastLog = 0, now
	h.mu.Unlock()
	h.log.Warn("broker: authentication failed", "reason", why, "user", name, "remote", remote, "failures", n, "every", authLogEvery)
}

// remoteHost is the address part of host:port.
func remoteHost(remote string) string {
	if h, _, err := net.SplitHostPort(remote); err == nil {
		return h
	}
	return remote
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

// OnPublish paces commands and keeps them from being acknowledged and then
// dropped. It runs on the publishing client's reading goroutine, so
// waiting here slows that client alone (TCP pushes back on it).
//
// A client over Limits.CommandRate waits for its next command. A QoS 1
// command for a board that has half of MaxInflight messages
// unacknowledged waits up to Limits.CommandWait for it to catch up: mochi
// acknowledges a publish and then drops it for a subscriber at
// MaxInflight ("client store quota reached"), which would lose a command
// the sender believes delivered. If the board does not catch up, the
// command is refused instead (MQTT 5: PUBACK 0x97; 3.1.1: the sender is
// disconnected, unacknowledged, and sends it again).
func (h *authHook) OnPublish(cl *mqtt.Client, pk packets.Packet) (packets.Packet, error) {
	if cl.Net.Inline {
		return pk, nil
	}
	rest, ok := strings.CutPrefix(pk.TopicName, h.prefix)
	if !ok || !isCommandFilter(rest) {
		return pk, nil
	}
	if g, ok := cl.Net.Conn.(*guardConn); ok {
		if d := g.cmds.take(); d > 0 {
			h.slowed(cl)
			t := time.NewTimer(d)
			<-t.C
		}
	}
	if pk.FixedHeader.Qos == 0 || h.srv == nil {
		return pk, nil
	}
	if h.boardsCatchUp(pk.TopicName) {
		return pk, nil
	}
	h.log.Warn("broker: command refused: the board is not acknowledging its messages", "client", cl.ID, "user", string(cl.Properties.Username), "topic", pk.TopicName, "waited", h.limits.CommandWait)
	if cl.Properties.ProtocolVersion == 5 {
		return pk, packets.ErrQuotaExceeded
	}
	cl.Stop(packets.ErrQuotaExceeded)
	return pk, packets.ErrRejectPacket
}

// boardsCatchUp waits, up to Limits.CommandWait, until every board
// subscribed to topic has fewer than half of MaxInflight messages
// unacknowledged.
func (h *authHook) boardsCatchUp(topic string) bool {
	limit := max(1, int(h.limits.MaxInflight)/2)
	deadline := time.Now().Add(h.limits.CommandWait)
	for {
		behind := false
		for id := range h.srv.Topics.Subscribers(topic).Subscriptions {
			// A board away with its session kept counts too: mochi
			// keeps its messages in flight for it, up to the same limit.
			b, ok := h.srv.Clients.Get(id)
			if !ok {
				continue
			}
			if u, ok := h.users[string(b.Properties.Username)]; ok && u.role == RoleBoard && b.State.Inflight.Len() >= limit {
				behind = true
				break
			}
		}
		if !behind {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		t := time.NewTimer(5 * time.Millisecond)
		<-t.C
	}
}

// slowed logs, at most every authLogEvery, that a client sends commands
// faster than Limits.CommandRate.
func (h *authHook) slowed(cl *mqtt.Client) {
	now := h.now()
	h.mu.Lock()
	h.slowedN++
	if now.Sub(h.lastSlow) < authLogEvery {
		h.mu.Unlock()
		return
	}
	n := h.slowedN
	h.slowedN, h.lastSlow = 0, now
	h.mu.Unlock()
	h.log.Warn("broker: commands slowed: a client sends more than the command rate", "client", cl.ID, "user", string(cl.Properties.Username), "remote", cl.Net.Remote, "rate", h.limits.CommandRate, "slowed", n)
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
	switch {
	case ok:
	case write:
		h.log.Warn("broker: publish denied", "client", cl.ID, "user", string(cl.Properties.Username), "role", role, "topic", topic)
	default: // also every message a subscription's filter matches but the role may not read
		h.log.Debug("broker: read denied", "client", cl.ID, "user", string(cl.Properties.Username), "role", role, "topic", topic)
	}
	return ok
}

// allowed is the role table. topic is a topic name when write is true, and
// a topic name or a subscription filter otherwise: mochi checks a
// subscription's filter when it is made and each message's topic as it is
// delivered, so a viewer may subscribe to <prefix># and still never read a
// command.
func (h *authHook) allowed(role Role, topic string, write bool) bool {
	rest, under := strings.CutPrefix(topic, h.prefix)
	if !under || rest == "" {
		return false
	}
	if board, _, _ := strings.Cut(rest, "/"); !boardid.Valid(board) && (write || board != "+" && board != "#") {
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
		return !write && viewerMayRead(rest)
	}
}

// viewerTopics are what viewers may read of each board.
var viewerTopics = map[string]bool{"status": true, "state": true, "moves": true, "events": true, "record": true}

// viewerMayRead reports whether the filter (or topic name) rest can match
// a topic viewers may read: <board>/<one of viewerTopics>. A filter that
// also matches commands ("#", "+/#") is allowed; its commands are denied
// one by one as they are delivered.
func viewerMayRead(rest string) bool {
	levels := strings.Split(rest, "/")
	switch {
	case levels[0] == "#":
		return true
	case len(levels) == 1:
		return false
	case levels[1] == "#":
		return len(levels) == 2
	case len(levels) == 2:
		return levels[1] == "+" || viewerTopics[levels[1]]
	}
	return false
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

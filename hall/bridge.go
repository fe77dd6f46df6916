package hall

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/zertzboard/zertzboard/internal/boardid"
)

// A larger event has one mosquitto per hall (the hall's boards use it) and
// one central mosquitto, where the scoreboards and the arbiter's console
// connect. Each hall broker bridges to the centre (mosquitto.conf(5),
// "Bridges"): the boards' public topics go out to the centre, their
// commands come in from it, and the bridge says on the centre whether it is
// up. docs/HALL.md describes the set-up; TestBridge (sim/simboard) runs
// it with real mosquitto processes.

// Bridge is one hall broker's connection to the centre.
type Bridge struct {
	// Name names the hall: the bridge's connection name, its client ID on
	// the centre (stable, so that the centre keeps its session) and the
	// level of its status topic (BridgeStatusTopic). A board ID's
	// characters (internal/boardid).
	Name string
	// Centre is the central broker's host:port.
	Centre string
	// Username and Password are the bridge's account on the centre; ""
	// connects anonymously.
	Username, Password string
	// Prefix is the topic root, ending in "/"; default "zertz/".
	Prefix string
	// Boards, if not empty, are the hall's board IDs: the bridge then
	// takes from the centre only these boards' commands. Empty: every
	// board's commands reach the hall (boards ignore other boards'
	// commands, but the hall broker sees them).
	Boards []string
	// RestartTimeout is mosquitto's restart_timeout: the bridge retries
	// after a back-off from the first to the second value, in seconds.
	// Zero: 1 to 10 s, so a hall is back on the centre within ten
	// seconds of its link.
	RestartTimeout [2]int
}

// BridgeStatusTopic is where a bridge says on the centre whether it is
// up: a retained "1" when it connects, and "0", its Will, when its link
// drops (mosquitto's bridge notifications, on the topic mosquitto uses by
// default for a bridge whose remote client ID is the hall's name). The
// scoreboard reads it (scoreboard.Options.Halls) to tell a board whose hall
// is unreachable from a board that went offline.
func BridgeStatusTopic(hall string) string { return "$SYS/broker/connection/" + hall + "/state" }

// bridgeTopics are the topics a hall sends to the centre, with the QoS
// over the bridge: the retained status, state and record, and the moves,
// at QoS 1 (the centre acknowledges each; the hall queues them while the
// link is down); events at QoS 0, as the board publishes them.
var bridgeTopics = []struct {
	name string
	qos  int
}{{"status", 1}, {"state", 1}, {"record", 1}, {"moves", 1}, {"events", 0}}

// check validates the bridge.
func (b Bridge) check() (prefix string, err error) {
	if err := boardid.Check(b.Name); err != nil {
		return "", fmt.Errorf("hall: bridge name %q: %w", b.Name, err)
	}
	host, port, err := net.SplitHostPort(b.Centre)
	if n, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || n < 1 || n > 65535 || strings.ContainsAny(host, " \t\r\n#") {
		return "", fmt.Errorf("hall: bridge %s: centre %q: want host:port", b.Name, b.Centre)
	}
	for _, s := range []string{b.Username, b.Password} {
		if strings.ContainsAny(s, "\r\n") || strings.TrimSpace(s) != s {
			return "", fmt.Errorf("hall: bridge %s: the centre's user name and password must be one line without surrounding spaces", b.Name)
		}
	}
	if b.Password != "" && b.Username == "" {
		return "", fmt.Errorf("hall: bridge %s: a password without a user name", b.Name)
	}
	prefix = b.Prefix
	if prefix == "" {
		prefix = "zertz/"
	}
	if !strings.HasSuffix(prefix, "/") || strings.ContainsAny(prefix, "+#\n\r \t") || strings.HasPrefix(prefix, "$") {
		return "", fmt.Errorf("hall: prefix %q: want a topic root ending in / without wildcards or spaces", prefix)
	}
	for _, id := range b.Boards {
		if err := boardid.Check(id); err != nil {
			return "", fmt.Errorf("hall: bridge %s: board %q: %w", b.Name, id, err)
		}
	}
	r := b.RestartTimeout
	if r != [2]int{} && (r[0] < 1 || r[1] < r[0]) {
		return "", fmt.Errorf("hall: bridge %s: restart timeout %v: want 1 ≤ first ≤ second seconds", b.Name, r)
	}
	return prefix, nil
}

// BridgeConfig returns the lines of a hall broker's mosquitto.conf that
// bridge it to the centre:
//
//   - out to the centre: each board's status, state and record (retained:
//     the bridge keeps the retain flag, so the centre holds every board's
//     latest) and moves, at QoS 1; events at QoS 0;
//   - in from the centre: the boards' cmd/… at QoS 1;
//   - persistent sessions on both sides (cleansession false): the hall
//     queues the moves and the centre the commands while the link is down,
//     and they cross, in order, when it is back;
//   - notifications on BridgeStatusTopic, on the centre as well as in the
//     hall.
//
// On (re)connection the hall sends its retained messages again, so a
// centre restarted without persistence gets every board back.
func BridgeConfig(b Bridge) (string, error) {
	p, err := b.check()
	if err != nil {
		return "", err
	}
	r := b.RestartTimeout
	if r == [2]int{} {
		r = [2]int{1, 10}
	}
	var s strings.Builder
	fmt.Fprintf(&s, "# Bridge of hall %s to the centre (written by package hall).\n", b.Name)
	fmt.Fprintf(&s, "connection %s\naddress %s\n", b.Name, b.Centre)
	fmt.Fprintf(&s, "remote_clientid %s\nlocal_clientid %s.local\n", b.Name, b.Name)
	if b.Username != "" {
		fmt.Fprintf(&s, "remote_username %s\n", b.Username)
	}
	if b.Password != "" {
		fmt.Fprintf(&s, "remote_password %s\n", b.Password)
	}
	s.WriteString("# Both ends keep the bridge's session: the hall queues moves and the\n# centre commands while the link is down.\ncleansession false\nlocal_cleansession false\n")
	s.WriteString("# mosquitto to mosquitto: the centre knows the bridge, so retain flags\n# cross as published and nothing loops back.\ntry_private true\n")
	fmt.Fprintf(&s, "# The bridge's own status on the centre: 1 while up, 0 (its Will) when\n# the link drops.\nnotifications true\nnotifications_local_only false\nnotification_topic %s\n", BridgeStatusTopic(b.Name))
	fmt.Fprintf(&s, "restart_timeout %d %d\nkeepalive_interval 20\nstart_type automatic\n", r[0], r[1])
	s.WriteString("# Out to the centre: what viewers read. In from the centre: commands.\n")
	for _, t := range bridgeTopics {
		fmt.Fprintf(&s, "topic %s+/%s out %d\n", p, t.name, t.qos)
	}
	if len(b.Boards) == 0 {
		fmt.Fprintf(&s, "topic %s+/cmd/# in 1\n", p)
	}
	for _, id := range b.Boards {
		fmt.Fprintf(&s, "topic %s%s/cmd/# in 1\n", p, id)
	}
	return s.String(), nil
}

// BridgedHallConfig returns a whole hall broker's mosquitto.conf that
// bridges to the centre: one listener, anonymous clients allowed (extra,
// e.g. the password_file and acl_file lines of Config, follows the
// listener when not empty), queues long enough for an outage of the link,
// and the bridge (BridgeConfig).
func BridgedHallConfig(listen string, port int, extra string, b Bridge) (string, error) {
	bridge, err := BridgeConfig(b)
	if err != nil {
		return "", err
	}
	if extra != "" && !strings.HasSuffix(extra, "\n") {
		extra += "\n"
	}
	return fmt.Sprintf(`# mosquitto.conf for a zertzboard hall bridged to a centre (written by package hall).
per_listener_settings false
listener %d %s
allow_anonymous true
%spersistence false
# The hall's queue for the bridge while its link is down: about fifty
# moves per game and board, and a state and record per move.
max_queued_messages 20000
log_dest stderr
log_type error
log_type warning
log_type notice

%s`, port, listen, extra, bridge), nil
}

// CentreConfig returns a central broker's mosquitto.conf: one listener,
// anonymous clients allowed (extra as for BridgedHallConfig), persistence
// in dir (so a restarted centre still has every board's retained state
// and the bridges' and operators' sessions; "" keeps it in memory), and
// queues for the bridges' commands and the viewers' sessions.
func CentreConfig(listen string, port int, extra, dir string) string {
	if extra != "" && !strings.HasSuffix(extra, "\n") {
		extra += "\n"
	}
	persist := "persistence false\n"
	if dir != "" {
		persist = "persistence true\npersistence_location " + strings.TrimSuffix(dir, "/") + "/\nautosave_interval 60\n"
	}
	return fmt.Sprintf(`# mosquitto.conf for the centre of bridged zertzboard halls (written by package hall).
per_listener_settings false
listener %d %s
allow_anonymous true
%s%smax_queued_messages 20000
log_dest stderr
log_type error
log_type warning
log_type notice
`, port, listen, extra, persist)
}

// Centre is the accounts of a central broker.
type Centre struct {
	Prefix string // the topic root, ending in "/"; default "zertz/"
	// Bridges are the halls' bridges that log in with an account
	// (Bridge.Username): each may publish its boards' public topics (all
	// boards' when Bridge.Boards is empty) and its own status, and read
	// its boards' commands.
	Bridges []Bridge
	// AnonymousBridges gives clients without a user name a bridge's
	// rights for any board and hall, so that bridges without an account
	// (bridge-hall.conf as it comes) can try the set-up. Never on a
	// network others reach: anyone could then publish as any board.
	AnonymousBridges bool
	Operators        []string // the arbiter's console: any board's commands, reads everything
	Viewers          []string // scoreboards with an account: the public topics
}

// CentreACL returns the central broker's acl_file for c: everyone reads
// each board's public topics and the bridges' status, as in a hall
// (ACL); bridges and operators have the rights above.
func CentreACL(c Centre) (string, error) {
	p := c.Prefix
	if p == "" {
		p = "zertz/"
	}
	if !strings.HasSuffix(p, "/") || strings.ContainsAny(p, "+#\n\r \t") || strings.HasPrefix(p, "$") {
		return "", fmt.Errorf("hall: prefix %q: want a topic root ending in / without wildcards or spaces", p)
	}
	seen := map[string]bool{}
	name := func(role, n string) error {
		if n == "" || strings.ContainsAny(n, "\n\r \t:#+/") || len(n) > 64 {
			return fmt.Errorf("hall: %s user %q: want 1 to 64 characters without spaces, ':', '/', '+' or '#'", role, n)
		}
		if seen[n] {
			return fmt.Errorf("hall: user %q given twice", n)
		}
		seen[n] = true
		return nil
	}
	status := BridgeStatusTopic("+")
	var b strings.Builder
	b.WriteString("# mosquitto acl_file for the centre of bridged zertzboard halls (written by package hall).\n\n")
	b.WriteString("# Clients without a user name: each board's public topics and the bridges' status.\n")
	public := func() {
		for _, t := range viewerTopics {
			fmt.Fprintf(&b, "topic read %s+/%s\n", p, t)
		}
		fmt.Fprintf(&b, "topic read %s\n", status)
	}
	public()
	if c.AnonymousBridges {
		b.WriteString("# ... and, for trying bridges without accounts, a bridge's rights for every hall.\n")
		for _, t := range bridgeTopics {
			fmt.Fprintf(&b, "topic write %s+/%s\n", p, t.name)
		}
		fmt.Fprintf(&b, "topic write %s\ntopic read %s+/cmd/#\n", status, p)
	}
	for _, br := range c.Bridges {
		if _, err := br.check(); err != nil {
			return "", err
		}
		if err := name("bridge", br.Username); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n# Bridge of hall %s: its boards' public topics and its status out, their commands in.\nuser %s\n", br.Name, br.Username)
		boards := br.Boards
		if len(boards) == 0 {
			boards = []string{"+"}
		}
		for _, id := range boards {
			for _, t := range bridgeTopics {
				fmt.Fprintf(&b, "topic write %s%s/%s\n", p, id, t.name)
			}
			fmt.Fprintf(&b, "topic read %s%s/cmd/#\n", p, id)
		}
		fmt.Fprintf(&b, "topic readwrite %s\n", BridgeStatusTopic(br.Name))
	}
	for _, op := range c.Operators {
		if err := name("operator", op); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n# Operator %s: sends any board's commands, reads everything.\nuser %s\ntopic write %s+/cmd/#\ntopic read %s#\ntopic read %s\n", op, op, p, p, status)
	}
	for _, v := range c.Viewers {
		if err := name("viewer", v); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n# Viewer %s: each board's public topics and the bridges' status.\nuser %s\n", v, v)
		public()
	}
	return b.String(), nil
}

package console

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zertzboard/zertzboard/scoreboard/view"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"

	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/internal/textcheck"
)

// Config enables the arbiter console (/console).
//
// An operator logs in with the broker's own account: the scoreboard opens
// an MQTT connection to Broker with the user name and password given, and
// admits the account only if it has an operator's rights: publishing
// commands and reading events, and nothing else (checkOperator). That
// connection is the session's: actions are published on it, so the broker
// checks each one against the operator's rights, and the board's reply
// comes back on it.
type Config struct {
	// Broker is the MQTT URL operators log in against: tcp://, ssl://,
	// ws:// or wss://.
	Broker string
	TLS    *tls.Config // for ssl:// and wss://
	// MaxSessions bounds the operators logged in at once (default 8);
	// each holds one MQTT connection.
	MaxSessions int
	// IdleTimeout logs out a session without requests or an open console
	// page for that long (default 30 minutes).
	IdleTimeout time.Duration
	// ReplyTimeout bounds the wait for a board's reply to a command
	// (default 10 s): an offline board does not answer.
	ReplyTimeout time.Duration
	// LoginTimeout bounds connecting to the broker at log-in (default 10 s).
	LoginTimeout time.Duration
	// ProbeTimeout bounds the wait for the operator probe's command to
	// come back (default LoginTimeout); on mosquitto, a viewer's log-in is
	// refused after it.
	ProbeTimeout time.Duration
}

// Console limits.
const (
	maxSessionActions = 8                // commands one session may await at once
	maxLoginAddrs     = 4096             // addresses the log-in limiter remembers
	LoginBurst        = 5                // log-in attempts an address may make at once,
	LoginEvery        = 12 * time.Second // then one per this
	maxConsoleStreams = 32               // console event streams, all sessions together
	MaxSessionStreams = 4                // console event streams of one session
	MaxActionBody     = 4 << 10          // bytes of one action's form
	maxNote           = command.MaxNote  // bytes of a result's note (the board's limit)
	maxEvent          = command.MaxEvent // bytes of a tournament's name (the board's limit)
	maxRound          = command.MaxRound // bytes of a round's name (the board's limit)
	SessionCookie     = "zb_console"
)

// Console is the arbiter Console's sessions and log-in limiter.
type Console struct {
	cfg    Config
	prefix string
	log    *slog.Logger
	now    func() time.Time

	mu       sync.Mutex
	sessions map[[32]byte]*Session // by the SHA-256 of the cookie's token
	tries    map[string]*bucket    // log-in attempts by remote address
	streams  int
}

// Session is one operator logged in.
type Session struct {
	user string
	addr string
	csrf string
	mc   mqtt.Client
	key  [32]byte

	mu       sync.Mutex
	lastSeen time.Time
	waiting  map[string]chan cmdReply // by command id
	closed   bool
	streams  int // console event streams open
}

// cmdReply is a board's command-accepted or command-refused event.
type cmdReply struct {
	Event   string `json:"event"`
	Command string `json:"command"`
	ID      string `json:"id"`
	Reason  string `json:"reason"`
}

type bucket struct {
	tokens float64
	at     time.Time
}

// ---------- sessions ----------

// New is a console with no sessions, for the boards under prefix;
// cfg is complete (EnableConsole fills in its defaults).
func New(cfg Config, prefix string, log *slog.Logger, now func() time.Time) *Console {
	return &Console{cfg: cfg, prefix: prefix, log: log, now: now,
		sessions: map[[32]byte]*Session{}, tries: map[string]*bucket{}}
}

// OpenStream counts a console event stream of se, unless the console or
// the session has as many open as allowed.
func (c *Console) OpenStream(se *Session) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	se.mu.Lock()
	defer se.mu.Unlock()
	if c.streams >= maxConsoleStreams || se.streams >= MaxSessionStreams {
		return false
	}
	c.streams++
	se.streams++
	return true
}

// CloseStream counts one stream of se less.
func (c *Console) CloseStream(se *Session) {
	c.mu.Lock()
	c.streams--
	c.mu.Unlock()
	se.mu.Lock()
	se.streams--
	se.mu.Unlock()
}

// user is the operator logged in.
func (se *Session) User() string { return se.user }

// CSRF is the token the session's forms must carry.
func (se *Session) CSRF() string { return se.csrf }

// SessionCount is how many sessions are open.
func (c *Console) SessionCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.sessions)
}

// Sweep logs out the sessions idle longer than the IdleTimeout.
func (c *Console) Sweep() {
	now := c.now()
	var gone []*Session
	c.mu.Lock()
	for k, se := range c.sessions {
		se.mu.Lock()
		idle := now.Sub(se.lastSeen) > c.cfg.IdleTimeout
		se.mu.Unlock()
		if idle {
			delete(c.sessions, k)
			gone = append(gone, se)
		}
	}
	c.mu.Unlock()
	for _, se := range gone {
		c.log.Info("console: session expired", "operator", se.user, "remote", se.addr)
		se.close()
	}
}

// CloseAll logs out every session (the server is closing).
func (c *Console) CloseAll() {
	c.mu.Lock()
	all := c.sessions
	c.sessions = map[[32]byte]*Session{}
	c.mu.Unlock()
	for _, se := range all {
		se.close()
	}
}

func (se *Session) close() {
	se.mu.Lock()
	if se.closed {
		se.mu.Unlock()
		return
	}
	se.closed = true
	for id, ch := range se.waiting {
		close(ch)
		delete(se.waiting, id)
	}
	se.mu.Unlock()
	se.mc.Disconnect(100)
}

// Lookup returns the request's live Lookup, and marks it seen.
func (c *Console) Lookup(r *http.Request) *Session {
	ck, err := r.Cookie(SessionCookie)
	if err != nil || len(ck.Value) != 64 {
		return nil
	}
	key := sha256.Sum256([]byte(ck.Value))
	c.mu.Lock()
	se := c.sessions[key]
	c.mu.Unlock()
	if se == nil {
		return nil
	}
	now := c.now()
	se.mu.Lock()
	defer se.mu.Unlock()
	if se.closed || now.Sub(se.lastSeen) > c.cfg.IdleTimeout {
		return nil
	}
	se.lastSeen = now
	return se
}

// AllowLogin takes one log-in attempt from addr out of its bucket.
func (c *Console) AllowLogin(addr string) bool {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.tries[addr]
	if b == nil {
		if len(c.tries) >= maxLoginAddrs {
			for a, ob := range c.tries { // forget the addresses back at full burst
				if ob.tokens+now.Sub(ob.at).Seconds()/LoginEvery.Seconds() >= LoginBurst {
					delete(c.tries, a)
				}
			}
			if len(c.tries) >= maxLoginAddrs {
				return false
			}
		}
		b = &bucket{tokens: LoginBurst, at: now}
		c.tries[addr] = b
	}
	b.tokens = min(LoginBurst, b.tokens+now.Sub(b.at).Seconds()/LoginEvery.Seconds())
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// RefundLogin gives back the attempt of a successful log-in.
func (c *Console) RefundLogin(addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b := c.tries[addr]; b != nil {
		b.tokens = min(LoginBurst, b.tokens+1)
	}
}

// LoginError is a log-in refusal the operator may read: msg for the log,
// key and args for the page.
type LoginError struct {
	Status int    // the HTTP status of the refusal
	msg    string // for the log
	Key    string // the i18n key of what the log-in form says
	Args   []any  // its arguments
}

// Error is the refusal as the log says it.
func (e *LoginError) Error() string { return e.msg }

// BrokerErr is a log-in refused because the broker could not be asked.
func BrokerErr(msg string) *LoginError {
	return &LoginError{http.StatusBadGateway, msg, "console.err-broker", []any{msg}}
}

func notOperator(user, why string) *LoginError {
	return &LoginError{http.StatusForbidden, fmt.Sprintf("account %q is not an operator: %s", user, why), "console.err-operator", []any{strconv.Quote(user)}}
}

// Login connects to the broker as user and checks the account is an
// operator's; it returns the new session.
func (c *Console) Login(user, password, addr string) (se *Session, token string, err error) {
	c.Sweep()
	c.mu.Lock()
	full := len(c.sessions) >= c.cfg.MaxSessions
	c.mu.Unlock()
	if full {
		return nil, "", &LoginError{http.StatusServiceUnavailable, fmt.Sprintf("%d operators are logged in already, the most allowed; log out elsewhere first", c.cfg.MaxSessions), "console.err-full", []any{c.cfg.MaxSessions}}
	}
	se = &Session{user: user, addr: addr, csrf: randomHex(16), waiting: map[string]chan cmdReply{}, lastSeen: c.now()}
	events := c.prefix + "+/events"
	o := mqtt.NewClientOptions().AddBroker(c.cfg.Broker).SetClientID("zertzboard-console-" + randomHex(6)).
		SetUsername(user).SetPassword(password).SetProtocolVersion(4).SetCleanSession(true).
		SetAutoReconnect(true).SetConnectRetry(false).SetMaxReconnectInterval(10 * time.Second).
		SetConnectTimeout(c.cfg.LoginTimeout).SetKeepAlive(30 * time.Second).SetOrderMatters(false)
	if c.cfg.TLS != nil {
		o.SetTLSConfig(c.cfg.TLS)
	}
	handle := func(_ mqtt.Client, m mqtt.Message) { se.Reply(c.prefix, m.Topic(), m.Payload()) }
	first := true
	var firstMu sync.Mutex
	o.SetOnConnectHandler(func(mc mqtt.Client) {
		firstMu.Lock()
		again := !first
		first = false
		firstMu.Unlock()
		if again { // a clean session forgets subscriptions: renew it
			go mc.Subscribe(events, 0, handle)
		}
	})
	mc := mqtt.NewClient(o)
	se.mc = mc
	tok := mc.Connect()
	if !tok.WaitTimeout(c.cfg.LoginTimeout + time.Second) {
		mc.Disconnect(0)
		return nil, "", BrokerErr("the broker did not answer in time")
	}
	if err := tok.Error(); err != nil {
		mc.Disconnect(0)
		if errors.Is(err, packets.ErrorRefusedBadUsernameOrPassword) || errors.Is(err, packets.ErrorRefusedNotAuthorised) {
			return nil, "", &LoginError{http.StatusUnauthorized, "wrong user name or password", "console.err-password", nil}
		}
		return nil, "", BrokerErr("cannot reach the broker: " + err.Error())
	}
	if err := c.checkOperator(mc, user, handle); err != nil {
		mc.Disconnect(0)
		return nil, "", err
	}

	token = randomHex(32)
	se.key = sha256.Sum256([]byte(token))
	c.mu.Lock()
	if len(c.sessions) >= c.cfg.MaxSessions {
		c.mu.Unlock()
		mc.Disconnect(0)
		return nil, "", &LoginError{http.StatusServiceUnavailable, "too many operators are logged in; log out elsewhere first", "console.err-full", []any{c.cfg.MaxSessions}}
	}
	c.sessions[se.key] = se
	c.mu.Unlock()
	return se, token, nil
}

// checkOperator makes sure the account mc logged in with is an
// operator's: it may publish commands and read everything, and may not
// publish anything else.
//
// First the subscriptions: the embedded broker refuses <prefix>+/cmd/#
// to viewers and <prefix>+/events to boards in SUBACK. Debian's mosquitto
// grants every subscription and applies its acl_file to each message as
// it is delivered instead (eclipse/mosquitto#803), so then a probe
// decides: on a board ID of its own, the console publishes a QoS 0
// message on a topic that is not a command, then a QoS 1 command, and
// reads both back. The command must come back (an operator may send it
// and read it), the other must not (only boards may publish it), and a
// broker delivers one client's messages to a subscriber in order, so
// once the command is back the other would be too. Boards ignore the
// probe's board ID, and viewers never read either topic.
func (c *Console) checkOperator(mc mqtt.Client, user string, handle mqtt.MessageHandler) error {
	events := c.prefix + "+/events"
	cmds := c.prefix + "+/cmd/#"
	probe := c.prefix + "zb-console-probe-" + randomHex(6)
	var (
		mu       sync.Mutex
		gotOther bool
		gotCmd   = make(chan struct{})
	)
	onProbe := func(_ mqtt.Client, m mqtt.Message) {
		mu.Lock()
		defer mu.Unlock()
		if strings.HasSuffix(m.Topic(), "/cmd/console-probe") {
			select {
			case <-gotCmd:
			default:
				close(gotCmd)
			}
		} else {
			gotOther = true
		}
	}
	st := mc.SubscribeMultiple(map[string]byte{cmds: 0, events: 0, probe + "/#": 1}, func(cl mqtt.Client, m mqtt.Message) {
		if strings.HasPrefix(m.Topic(), probe+"/") {
			onProbe(cl, m)
		} else if strings.HasSuffix(m.Topic(), "/events") {
			handle(cl, m)
		}
	})
	if !st.WaitTimeout(c.cfg.LoginTimeout) || st.Error() != nil {
		return BrokerErr("the broker did not answer the subscription")
	}
	granted := st.(*mqtt.SubscribeToken).Result()
	for _, f := range []string{cmds, events, probe + "/#"} {
		if code, ok := granted[f]; !ok || code >= 0x80 {
			return notOperator(user, "the broker refused it "+f)
		}
	}
	// The command filter goes at once: the console has no use for other
	// operators' commands.
	mc.Unsubscribe(cmds).WaitTimeout(c.cfg.LoginTimeout)
	mc.Publish(probe+"/console-probe", 0, false, "{}")
	pt := mc.Publish(probe+"/cmd/console-probe", 1, false, "{}")
	timer := time.NewTimer(c.cfg.ProbeTimeout)
	defer timer.Stop()
	select {
	case <-gotCmd:
	case <-timer.C:
		return notOperator(user, "the broker did not pass its command on")
	}
	pt.WaitTimeout(c.cfg.LoginTimeout)
	mc.Unsubscribe(probe + "/#").WaitTimeout(c.cfg.LoginTimeout)
	mu.Lock()
	defer mu.Unlock()
	if gotOther {
		return notOperator(user, "it may publish more than commands (a board's account?)")
	}
	return nil
}

// Logout ends se and closes its broker connection.
func (c *Console) Logout(se *Session) {
	c.mu.Lock()
	delete(c.sessions, se.key)
	c.mu.Unlock()
	se.close()
}

// Reply routes a board's command Reply to the action awaiting it.
func (se *Session) Reply(prefix, topic string, payload []byte) {
	if len(payload) > 4096 || !strings.HasPrefix(topic, prefix) {
		return
	}
	var r cmdReply
	if json.Unmarshal(payload, &r) != nil || (r.Event != "command-accepted" && r.Event != "command-refused") || r.ID == "" {
		return
	}
	board, _, _ := strings.Cut(strings.TrimPrefix(topic, prefix), "/")
	se.mu.Lock()
	defer se.mu.Unlock()
	ch := se.waiting[board+"\x00"+r.ID]
	if ch == nil {
		return
	}
	delete(se.waiting, board+"\x00"+r.ID)
	ch <- r // buffered
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// ---------- actions ----------

// BuildCommand checks an action's form and returns the command it sends.
// Errors name the bad field.
func BuildCommand(f url.Values) (command.Command, error) {
	switch action := f.Get("action"); action {
	case "set-players":
		return buildSetPlayers(f)
	case "new-game":
		return buildNewGame(f)
	case "pause":
		return command.Pause{}, nil
	case "resume":
		return command.Resume{}, nil
	case "answer":
		q, err := strconv.Atoi(f.Get("question"))
		if err != nil || q < 1 {
			return nil, fmt.Errorf("question %q: want the open question's number", view.ClipText(f.Get("question"), 20))
		}
		o, err := strconv.Atoi(f.Get("option"))
		if err != nil || o < 0 || o > 63 {
			return nil, fmt.Errorf("option %q: want the option's index, 0 to 63", view.ClipText(f.Get("option"), 20))
		}
		return command.Answer{Question: q, Option: o}, nil
	case "takeback-accept", "takeback-refuse":
		return command.TakebackAnswer{Accept: action == "takeback-accept"}, nil
	case "declare-result":
		return buildDeclareResult(f)
	case "add-time":
		p, err := formPlayer(f, "player")
		if err != nil {
			return nil, err
		}
		sec, err := strconv.Atoi(f.Get("seconds"))
		if err != nil || sec < 1 || sec > 3600 {
			return nil, fmt.Errorf("seconds %q: want 1 to 3600", view.ClipText(f.Get("seconds"), 20))
		}
		return command.AddTime{Player: p, MS: int64(sec) * 1000}, nil
	case "note":
		text := strings.TrimSpace(f.Get("text"))
		if text == "" {
			return nil, errors.New("text: write the note")
		}
		if err := CheckText("text", text, maxNote); err != nil {
			return nil, err
		}
		return command.Note{Text: text}, nil
	default:
		return nil, fmt.Errorf("unknown action %q", view.ClipText(action, 40))
	}
}

// formPlayer reads a player's number, 0 or 1, from field.
func formPlayer(f url.Values, field string) (int, error) {
	switch f.Get(field) {
	case "0":
		return 0, nil
	case "1":
		return 1, nil
	}
	return 0, fmt.Errorf("%s must be 0 or 1, not %q", field, view.ClipText(f.Get(field), 20))
}

// formNaming reads the tournament's and the round's names, if given (an
// empty field keeps the board's).
func formNaming(f url.Values) (event, round *string, err error) {
	for _, n := range []struct {
		field string
		max   int
		to    **string
	}{{"event", maxEvent, &event}, {"round", maxRound, &round}} {
		if v := strings.TrimSpace(f.Get(n.field)); v != "" {
			if err := CheckText(n.field, v, n.max); err != nil {
				return nil, nil, err
			}
			*n.to = &v
		}
	}
	return event, round, nil
}

// formPlayers reads the players' names; with optional, both blank is
// none (nil).
func formPlayers(f url.Values, optional bool) (*[2]string, error) {
	p := [2]string{strings.TrimSpace(f.Get("player0")), strings.TrimSpace(f.Get("player1"))}
	if optional && p[0] == "" && p[1] == "" {
		return nil, nil
	}
	for i, name := range p {
		if name == "" && optional {
			return nil, fmt.Errorf("player%d: name both players or neither", i)
		}
		if name == "" {
			return nil, fmt.Errorf("player%d: name both players", i)
		}
		if err := CheckText(fmt.Sprintf("player%d", i), name, command.MaxName); err != nil {
			return nil, err
		}
	}
	return &p, nil
}

func buildSetPlayers(f url.Values) (command.Command, error) {
	p, err := formPlayers(f, false)
	if err != nil {
		return nil, err
	}
	c := command.SetPlayers{Players: *p}
	if c.Event, c.Round, err = formNaming(f); err != nil {
		return nil, err
	}
	return c, nil
}

func buildNewGame(f url.Values) (command.Command, error) {
	var c command.NewGame
	var err error
	if c.Event, c.Round, err = formNaming(f); err != nil {
		return nil, err
	}
	if v := f.Get("variant"); v != "" {
		if !validVariant(v) {
			return nil, fmt.Errorf("variant %q: want a ring count such as 37, 48 or 61, or 37b for blitz", view.ClipText(v, 20))
		}
		c.Variant = v
	}
	if f.Get("first") != "" {
		if c.First, err = formPlayer(f, "first"); err != nil {
			return nil, err
		}
	}
	if c.Players, err = formPlayers(f, true); err != nil {
		return nil, err
	}
	if tc := strings.TrimSpace(f.Get("time_control")); tc != "" {
		ctl, err := clock.Parse(tc)
		if err != nil {
			return nil, fmt.Errorf("time_control %q: want none, sudden:25m or fischer:20m+10s (%v)", view.ClipText(tc, 40), err)
		}
		c.Control = &ctl
	}
	switch e := f.Get("engine"); e {
	case "":
	case "none", "0", "1":
		p := command.NoEngine
		if e != "none" {
			p = int(e[0] - '0')
		}
		c.Engine = &p
	default:
		return nil, fmt.Errorf("engine %q: want 0 or 1 (the player the engine plays) or none", view.ClipText(e, 20))
	}
	if l := f.Get("level"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > command.MaxEngineLevel {
			return nil, fmt.Errorf("level %q: want an engine level from 1 to %d", view.ClipText(l, 20), command.MaxEngineLevel)
		}
		c.Level = n
	}
	return c, nil
}

func buildDeclareResult(f url.Values) (command.Command, error) {
	c := command.DeclareResult{Result: engine.Reason(f.Get("result"))}
	switch c.Result {
	case engine.ReasonResignation, engine.ReasonTime, engine.ReasonAdjudication:
		p, err := formPlayer(f, "winner")
		if err != nil {
			return nil, err
		}
		c.Winner = &p
	case engine.ReasonDraw:
		if f.Get("winner") != "" {
			return nil, errors.New("winner: a draw has none")
		}
	default:
		return nil, fmt.Errorf("result %q: want resignation, time, adjudication or draw", view.ClipText(string(c.Result), 20))
	}
	if note := strings.TrimSpace(f.Get("note")); note != "" {
		if err := CheckText("note", note, maxNote); err != nil {
			return nil, err
		}
		c.Note = note
	}
	return c, nil
}

func validVariant(v string) bool {
	if len(v) < 2 || len(v) > 4 {
		return false
	}
	v = strings.TrimSuffix(v, "b")
	_, err := strconv.Atoi(v)
	return err == nil && v[0] != '0'
}

// CheckText checks a text field of a form: at most max bytes, and nothing
// textcheck refuses (names by its rules for names); the error names the field.
func CheckText(field, s string, max int) error {
	if len(s) > max {
		return fmt.Errorf("%s is longer than %d bytes", field, max)
	}
	p := textcheck.Problem(s)
	if strings.HasPrefix(field, "player") {
		p = textcheck.NameProblem(s)
	}
	if p != "" {
		return fmt.Errorf("%s holds %s", field, p)
	}
	return nil
}

// ActionResult is what /console/act answers.
type ActionResult struct {
	ID      string `json:"id,omitempty"`
	Board   string `json:"board,omitempty"`
	Command string `json:"command,omitempty"`
	Outcome string `json:"outcome"` // accepted, refused, no reply, invalid, failed
	Reason  string `json:"reason,omitempty"`
	// Text is the outcome in the page's language, for the console's log:
	// "t1: pause → accepted".
	Text string `json:"text,omitempty"`
}

// ActionKey and OutcomeKey name actions and outcomes in the catalogue.
var (
	ActionKey = map[string]string{
		"new-game": "console.act-new-game", "set-players": "console.act-set-players", "pause": "console.act-pause", "resume": "console.act-resume",
		"takeback-accept": "console.act-takeback-accept", "takeback-refuse": "console.act-takeback-refuse",
		"declare-result": "console.act-declare-result", "add-time": "console.act-add-time",
		"answer": "console.act-answer", "note": "console.act-note",
	}
	OutcomeKey = map[string]string{
		"accepted": "console.out-accepted", "refused": "console.out-refused", "no reply": "console.out-no-reply",
		"invalid": "console.out-invalid", "failed": "console.out-failed",
	}
)

// Describe says res in language l.
func (res ActionResult) Describe(action string, l i18n.Lang) string {
	a := action
	if k := ActionKey[action]; k != "" {
		a = l.T(k)
	}
	t := res.Board + ": " + a + " → " + l.T(OutcomeKey[res.Outcome])
	if res.Reason != "" && res.Outcome != "no reply" {
		t += " (" + res.Reason + ")"
	}
	return t
}

// Act publishes one command on the session's connection and awaits the
// board's reply.
func (c *Console) Act(se *Session, board string, cmd command.Command) (ActionResult, int) {
	id := "console-" + randomHex(8)
	name, payload := command.Payload(command.Envelope{Command: cmd, ID: id})
	res := ActionResult{ID: id, Board: board, Command: name}
	ch := make(chan cmdReply, 1)
	key := board + "\x00" + id
	se.mu.Lock()
	if se.closed || len(se.waiting) >= maxSessionActions {
		se.mu.Unlock()
		res.Outcome, res.Reason = "failed", fmt.Sprintf("%d commands are awaiting replies already", maxSessionActions)
		return res, http.StatusTooManyRequests
	}
	se.waiting[key] = ch
	se.mu.Unlock()
	forget := func() {
		se.mu.Lock()
		delete(se.waiting, key)
		se.mu.Unlock()
	}
	tok := se.mc.Publish(c.prefix+board+"/cmd/"+name, 1, false, payload)
	if !tok.WaitTimeout(c.cfg.ReplyTimeout) || tok.Error() != nil {
		forget()
		res.Outcome, res.Reason = "failed", "the broker did not take the command"
		if err := tok.Error(); err != nil {
			res.Reason += ": " + err.Error()
		}
		return res, http.StatusBadGateway
	}
	timer := time.NewTimer(c.cfg.ReplyTimeout)
	defer timer.Stop()
	select {
	case r, ok := <-ch:
		if !ok {
			res.Outcome, res.Reason = "failed", "logged out"
			return res, http.StatusUnauthorized
		}
		if r.Event == "command-accepted" {
			res.Outcome = "accepted"
		} else {
			res.Outcome, res.Reason = "refused", view.ClipText(r.Reason, 300)
		}
		return res, http.StatusOK
	case <-timer.C:
		forget()
		res.Outcome, res.Reason = "no reply", fmt.Sprintf("board %s did not answer within %v (offline?)", board, c.cfg.ReplyTimeout)
		return res, http.StatusGatewayTimeout
	}
}

// ---------- HTTP ----------

// SameOrigin reports whether a state-changing request comes from the
// console's own pages: its Origin (or, without one, Sec-Fetch-Site) must
// name this host. A request with neither is not from a browser, and so
// cannot be a cross-site forgery; it still needs the session's cookie and
// CSRF token.
func SameOrigin(r *http.Request) bool {
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		// The scheme counts too: https://host is another origin than
		// http://host. Behind an HTTPS proxy, X-Forwarded-Proto says so
		// (a cross-site page cannot set it without a preflight).
		scheme := "http"
		if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
			scheme = "https"
		}
		return err == nil && strings.EqualFold(u.Host, r.Host) && strings.EqualFold(u.Scheme, scheme)
	}
	if sf := r.Header.Get("Sec-Fetch-Site"); sf != "" {
		return sf == "same-origin" || sf == "none"
	}
	return true
}

// RemoteHost is the address a request came from, for the log and the
// log-in limiter.
func RemoteHost(r *http.Request) string {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return h
}

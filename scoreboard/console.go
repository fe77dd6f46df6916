package scoreboard

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/zertzboard/zertzboard/scoreboard/results"
	"github.com/zertzboard/zertzboard/scoreboard/view"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"

	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/internal/boardid"
	"github.com/zertzboard/zertzboard/internal/textcheck"
)

// ConsoleConfig enables the arbiter console (/console).
//
// An operator logs in with the broker's own account: the scoreboard opens
// an MQTT connection to Broker with the user name and password given, and
// admits the account only if it has an operator's rights: publishing
// commands and reading events, and nothing else (checkOperator). That
// connection is the session's: actions are published on it, so the broker
// checks each one against the operator's rights, and the board's reply
// comes back on it.
type ConsoleConfig struct {
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
	loginBurst        = 5                // log-in attempts an address may make at once,
	loginEvery        = 12 * time.Second // then one per this
	maxConsoleStreams = 32               // console event streams, all sessions together
	maxSessionStreams = 4                // console event streams of one session
	maxActionBody     = 4 << 10          // bytes of one action's form
	maxNote           = 200              // bytes of a result's note (the board's limit)
	sessionCookie     = "zb_console"
)

// console is the arbiter console's sessions and log-in limiter.
type console struct {
	cfg    ConsoleConfig
	prefix string
	log    *slog.Logger
	now    func() time.Time

	mu       sync.Mutex
	sessions map[[32]byte]*session // by the SHA-256 of the cookie's token
	tries    map[string]*bucket    // log-in attempts by remote address
	streams  int
}

// session is one operator logged in.
type session struct {
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

// initOps makes the parts of the console and results that need no
// configuration; called by New.
func (s *Server) initOps() {
	s.obs = newObserver(nil)
	now := func() time.Time { return s.obs.now() }
	s.res = results.NewStore(0, s.log, now)
	s.obs.onOver = func(b *opBoard) { s.res.Add(finishedOf(b)) }
}

// OpenResults keeps the finished games in dir, one file per game, and
// reads the ones kept there before, so a restart loses none; max bounds
// those held in memory (0: DefaultMaxResults). Call it before the
// scoreboard handles messages.
func (s *Server) OpenResults(dir string, max int) error {
	if max > 0 {
		s.res.Max = max
	}
	return s.res.Load(dir)
}

// EnableConsole turns the arbiter console on. Call it before Handler.
func (s *Server) EnableConsole(cfg ConsoleConfig) error {
	u, err := url.Parse(cfg.Broker)
	if err != nil || u.Host == "" {
		return fmt.Errorf("scoreboard: console broker URL %q: want tcp://host:port, ssl://, ws:// or wss://", cfg.Broker)
	}
	switch u.Scheme {
	case "tcp", "mqtt", "ssl", "tls", "mqtts", "ws", "wss":
	default:
		return fmt.Errorf("scoreboard: console broker URL %q: scheme must be tcp, ssl, ws or wss", cfg.Broker)
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = 8
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 30 * time.Minute
	}
	if cfg.ReplyTimeout <= 0 {
		cfg.ReplyTimeout = 10 * time.Second
	}
	if cfg.LoginTimeout <= 0 {
		cfg.LoginTimeout = 10 * time.Second
	}
	if cfg.ProbeTimeout <= 0 {
		cfg.ProbeTimeout = cfg.LoginTimeout
	}
	c := &console{cfg: cfg, prefix: s.opts.Prefix, log: s.log, now: s.obs.now,
		sessions: map[[32]byte]*session{}, tries: map[string]*bucket{}}
	s.ops = c
	go func() { // log out idle sessions, and all at Close
		tick := time.NewTicker(time.Minute)
		defer tick.Stop()
		for {
			select {
			case <-s.done:
				c.closeAll()
				return
			case <-tick.C:
				c.sweep()
			}
		}
	}()
	return nil
}

// ---------- sessions ----------

func (c *console) sweep() {
	now := c.now()
	var gone []*session
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

func (c *console) closeAll() {
	c.mu.Lock()
	all := c.sessions
	c.sessions = map[[32]byte]*session{}
	c.mu.Unlock()
	for _, se := range all {
		se.close()
	}
}

func (se *session) close() {
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

// session returns the request's live session, and marks it seen.
func (c *console) session(r *http.Request) *session {
	ck, err := r.Cookie(sessionCookie)
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

// allowLogin takes one log-in attempt from addr out of its bucket.
func (c *console) allowLogin(addr string) bool {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.tries[addr]
	if b == nil {
		if len(c.tries) >= maxLoginAddrs {
			for a, ob := range c.tries { // forget the addresses back at full burst
				if ob.tokens+now.Sub(ob.at).Seconds()/loginEvery.Seconds() >= loginBurst {
					delete(c.tries, a)
				}
			}
			if len(c.tries) >= maxLoginAddrs {
				return false
			}
		}
		b = &bucket{tokens: loginBurst, at: now}
		c.tries[addr] = b
	}
	b.tokens = min(loginBurst, b.tokens+now.Sub(b.at).Seconds()/loginEvery.Seconds())
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// refundLogin gives back the attempt of a successful log-in.
func (c *console) refundLogin(addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b := c.tries[addr]; b != nil {
		b.tokens = min(loginBurst, b.tokens+1)
	}
}

// errLogin is a log-in refusal the operator may read: msg for the log,
// key and args for the page.
type errLogin struct {
	status int
	msg    string
	key    string
	args   []any
}

func (e *errLogin) Error() string { return e.msg }

func brokerErr(msg string) *errLogin {
	return &errLogin{http.StatusBadGateway, msg, "console.err-broker", []any{msg}}
}

func notOperator(user, why string) *errLogin {
	return &errLogin{http.StatusForbidden, fmt.Sprintf("account %q is not an operator: %s", user, why), "console.err-operator", []any{strconv.Quote(user)}}
}

// login connects to the broker as user and checks the account is an
// operator's; it returns the new session.
func (c *console) login(user, password, addr string) (se *session, token string, err error) {
	c.sweep()
	c.mu.Lock()
	full := len(c.sessions) >= c.cfg.MaxSessions
	c.mu.Unlock()
	if full {
		return nil, "", &errLogin{http.StatusServiceUnavailable, fmt.Sprintf("%d operators are logged in already, the most allowed; log out elsewhere first", c.cfg.MaxSessions), "console.err-full", []any{c.cfg.MaxSessions}}
	}
	se = &session{user: user, addr: addr, csrf: randomHex(16), waiting: map[string]chan cmdReply{}, lastSeen: c.now()}
	events := c.prefix + "+/events"
	o := mqtt.NewClientOptions().AddBroker(c.cfg.Broker).SetClientID("zertzboard-console-" + randomHex(6)).
		SetUsername(user).SetPassword(password).SetProtocolVersion(4).SetCleanSession(true).
		SetAutoReconnect(true).SetConnectRetry(false).SetMaxReconnectInterval(10 * time.Second).
		SetConnectTimeout(c.cfg.LoginTimeout).SetKeepAlive(30 * time.Second).SetOrderMatters(false)
	if c.cfg.TLS != nil {
		o.SetTLSConfig(c.cfg.TLS)
	}
	handle := func(_ mqtt.Client, m mqtt.Message) { se.reply(c.prefix, m.Topic(), m.Payload()) }
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
		return nil, "", brokerErr("the broker did not answer in time")
	}
	if err := tok.Error(); err != nil {
		mc.Disconnect(0)
		if errors.Is(err, packets.ErrorRefusedBadUsernameOrPassword) || errors.Is(err, packets.ErrorRefusedNotAuthorised) {
			return nil, "", &errLogin{http.StatusUnauthorized, "wrong user name or password", "console.err-password", nil}
		}
		return nil, "", brokerErr("cannot reach the broker: " + err.Error())
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
		return nil, "", &errLogin{http.StatusServiceUnavailable, "too many operators are logged in; log out elsewhere first", "console.err-full", []any{c.cfg.MaxSessions}}
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
func (c *console) checkOperator(mc mqtt.Client, user string, handle mqtt.MessageHandler) error {
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
		return brokerErr("the broker did not answer the subscription")
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

func (c *console) logout(se *session) {
	c.mu.Lock()
	delete(c.sessions, se.key)
	c.mu.Unlock()
	se.close()
}

// reply routes a board's command reply to the action awaiting it.
func (se *session) reply(prefix, topic string, payload []byte) {
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

// Action names the console's forms use, and the command each sends.
var actionCommand = map[string]string{
	"new-game":        "new-game",
	"pause":           "pause",
	"resume":          "resume",
	"takeback-accept": "takeback-answer",
	"takeback-refuse": "takeback-answer",
	"declare-result":  "declare-result",
	"add-time":        "add-time",
	"answer":          "answer",
}

// buildCommand checks an action's form and returns the command's name and
// fields (without id). Errors name the bad field.
func buildCommand(f url.Values) (string, map[string]any, error) {
	action := f.Get("action")
	name, ok := actionCommand[action]
	if !ok {
		return "", nil, fmt.Errorf("unknown action %q", view.ClipText(action, 40))
	}
	body := map[string]any{}
	player := func(field string) (int, error) {
		switch f.Get(field) {
		case "0":
			return 0, nil
		case "1":
			return 1, nil
		}
		return 0, fmt.Errorf("%s must be 0 or 1, not %q", field, view.ClipText(f.Get(field), 20))
	}
	switch action {
	case "new-game":
		if v := f.Get("variant"); v != "" {
			if !validVariant(v) {
				return "", nil, fmt.Errorf("variant %q: want a ring count such as 37, 48 or 61, or 37b for blitz", view.ClipText(v, 20))
			}
			body["variant"] = v
		}
		if f.Get("first") != "" {
			p, err := player("first")
			if err != nil {
				return "", nil, err
			}
			body["first"] = p
		}
		p0, p1 := strings.TrimSpace(f.Get("player0")), strings.TrimSpace(f.Get("player1"))
		if p0 != "" || p1 != "" {
			for i, p := range []string{p0, p1} {
				if p == "" {
					return "", nil, fmt.Errorf("player%d: name both players or neither", i)
				}
				if err := checkConsoleText(fmt.Sprintf("player%d", i), p, 64); err != nil {
					return "", nil, err
				}
			}
			body["players"] = []string{p0, p1}
		}
		if tc := strings.TrimSpace(f.Get("time_control")); tc != "" {
			if len(tc) > 40 || strings.ContainsFunc(tc, func(r rune) bool { return r <= ' ' || r > '~' }) {
				return "", nil, fmt.Errorf("time_control %q: want none, sudden:25m or fischer:20m+10s", view.ClipText(tc, 40))
			}
			body["time_control"] = tc
		}
	case "pause", "resume":
	case "answer":
		q, err := strconv.Atoi(f.Get("question"))
		if err != nil || q < 1 {
			return "", nil, fmt.Errorf("question %q: want the open question's number", view.ClipText(f.Get("question"), 20))
		}
		o, err := strconv.Atoi(f.Get("option"))
		if err != nil || o < 0 || o > 63 {
			return "", nil, fmt.Errorf("option %q: want the option's index, 0 to 63", view.ClipText(f.Get("option"), 20))
		}
		body["question"], body["option"] = q, o
	case "takeback-accept", "takeback-refuse":
		body["accept"] = action == "takeback-accept"
	case "declare-result":
		res := f.Get("result")
		switch res {
		case "resignation", "time", "adjudication":
			p, err := player("winner")
			if err != nil {
				return "", nil, err
			}
			body["winner"] = p
		case "draw":
			if f.Get("winner") != "" {
				return "", nil, errors.New("winner: a draw has none")
			}
		default:
			return "", nil, fmt.Errorf("result %q: want resignation, time, adjudication or draw", view.ClipText(res, 20))
		}
		body["result"] = res
		if note := strings.TrimSpace(f.Get("note")); note != "" {
			if err := checkConsoleText("note", note, maxNote); err != nil {
				return "", nil, err
			}
			body["note"] = note
		}
	case "add-time":
		p, err := player("player")
		if err != nil {
			return "", nil, err
		}
		sec, err := strconv.Atoi(f.Get("seconds"))
		if err != nil || sec < 1 || sec > 3600 {
			return "", nil, fmt.Errorf("seconds %q: want 1 to 3600", view.ClipText(f.Get("seconds"), 20))
		}
		body["player"], body["ms"] = p, sec*1000
	}
	return name, body, nil
}

func validVariant(v string) bool {
	if len(v) < 2 || len(v) > 4 {
		return false
	}
	v = strings.TrimSuffix(v, "b")
	_, err := strconv.Atoi(v)
	return err == nil && v[0] != '0'
}

func checkConsoleText(field, s string, max int) error {
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

// actionResult is what /console/act answers.
type actionResult struct {
	ID      string `json:"id,omitempty"`
	Board   string `json:"board,omitempty"`
	Command string `json:"command,omitempty"`
	Outcome string `json:"outcome"` // accepted, refused, no reply, invalid, failed
	Reason  string `json:"reason,omitempty"`
	// Text is the outcome in the page's language, for the console's log:
	// "t1: pause → accepted".
	Text string `json:"text,omitempty"`
}

// actionKey and outcomeKey name actions and outcomes in the catalogue.
var (
	actionKey = map[string]string{
		"new-game": "console.act-new-game", "pause": "console.act-pause", "resume": "console.act-resume",
		"takeback-accept": "console.act-takeback-accept", "takeback-refuse": "console.act-takeback-refuse",
		"declare-result": "console.act-declare-result", "add-time": "console.act-add-time",
		"answer": "console.act-answer",
	}
	outcomeKey = map[string]string{
		"accepted": "console.out-accepted", "refused": "console.out-refused", "no reply": "console.out-no-reply",
		"invalid": "console.out-invalid", "failed": "console.out-failed",
	}
)

// text says res in language l.
func (res actionResult) text(action string, l i18n.Lang) string {
	a := action
	if k := actionKey[action]; k != "" {
		a = l.T(k)
	}
	t := res.Board + ": " + a + " → " + l.T(outcomeKey[res.Outcome])
	if res.Reason != "" && res.Outcome != "no reply" {
		t += " (" + res.Reason + ")"
	}
	return t
}

// act publishes one command on the session's connection and awaits the
// board's reply.
func (c *console) act(se *session, board, name string, body map[string]any) (actionResult, int) {
	id := "console-" + randomHex(8)
	res := actionResult{ID: id, Board: board, Command: name}
	body["id"] = id
	payload, _ := json.Marshal(body)
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

// sameOrigin reports whether a state-changing request comes from the
// console's own pages: its Origin (or, without one, Sec-Fetch-Site) must
// name this host. A request with neither is not from a browser, and so
// cannot be a cross-site forgery; it still needs the session's cookie and
// CSRF token.
func sameOrigin(r *http.Request) bool {
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

func remoteHost(r *http.Request) string {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return h
}

// consolePages is the console's template in each language.
var consolePages = pageTemplates("web/console.html")

// pageTemplates parses a page once per language, with "t" translating.
func pageTemplates(name string) map[i18n.Lang]*template.Template {
	out := map[i18n.Lang]*template.Template{}
	for _, l := range i18n.All {
		out[l] = template.Must(template.New(path.Base(name)).Funcs(template.FuncMap{"t": l.T}).ParseFS(webFS, name))
	}
	return out
}

// langChecked answers 400, naming the languages, for a ?lang= that is
// none of them, as the scoreboard's other pages do (pageLang).
func langChecked(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, err := pageLang(r); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		h(w, r)
	}
}

// opsLang is a console or results request's language: ?lang=, else the
// browser's Accept-Language, else English.
func opsLang(r *http.Request) i18n.Lang {
	if l, err := i18n.Parse(r.URL.Query().Get("lang")); err == nil {
		return l
	}
	return i18n.FromAcceptLanguage(r.Header.Get("Accept-Language"))
}

// opsLangLink is one entry of a page's language picker.
type opsLangLink struct {
	Lang    i18n.Lang
	Name    string
	URL     string
	Current bool
}

func opsLangLinks(r *http.Request, cur i18n.Lang) []opsLangLink {
	links := make([]opsLangLink, len(i18n.All))
	for i, l := range i18n.All {
		links[i] = opsLangLink{Lang: l, Name: l.Name(), URL: r.URL.Path + "?lang=" + string(l), Current: l == cur}
	}
	return links
}

// withLang is path with ?lang=l.
func withLang(path string, l i18n.Lang) string { return path + "?lang=" + string(l) }

type consoleData struct {
	Lang    i18n.Lang
	Langs   []opsLangLink
	Enabled bool
	User    string
	CSRF    string
	Error   string
	Seq     uint64
	HTML    template.HTML
}

func consoleHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	// Browsers send "Origin: null" from a page whose policy is
	// no-referrer (Secure's), and the console's own requests must show
	// where they come from; other sites still learn nothing.
	h.Set("Referrer-Policy", "same-origin")
}

func (s *Server) consoleRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /console", langChecked(s.serveConsole))
	mux.HandleFunc("POST /console/login", langChecked(s.serveLogin))
	mux.HandleFunc("POST /console/logout", langChecked(s.serveLogout))
	mux.HandleFunc("POST /console/act", langChecked(s.serveAct))
	mux.HandleFunc("GET /console/events", langChecked(s.serveConsoleEvents))
}

// renderLogin writes the log-in page, with the message key (and args)
// as its error if key is not "".
func (s *Server) renderLogin(w http.ResponseWriter, r *http.Request, status int, key string, args ...any) {
	l := opsLang(r)
	d := consoleData{Lang: l, Langs: opsLangLinks(r, l), Enabled: s.ops != nil}
	if key != "" {
		d.Error = l.T(key, args...)
	}
	consoleHeaders(w)
	w.WriteHeader(status)
	if err := consolePages[l].Execute(w, d); err != nil {
		s.log.Debug("scoreboard: writing the console", "err", err)
	}
}

func (s *Server) serveConsole(w http.ResponseWriter, r *http.Request) {
	if s.ops == nil {
		s.renderLogin(w, r, http.StatusNotFound, "console.off")
		return
	}
	se := s.ops.session(r)
	if se == nil {
		s.renderLogin(w, r, http.StatusOK, "")
		return
	}
	l := opsLang(r)
	html, seq := s.renderConsole(l)
	consoleHeaders(w)
	d := consoleData{Lang: l, Langs: opsLangLinks(r, l), Enabled: true, User: se.user, CSRF: se.csrf, Seq: seq, HTML: template.HTML(html)}
	if err := consolePages[l].Execute(w, d); err != nil {
		s.log.Debug("scoreboard: writing the console", "err", err)
	}
}

func (s *Server) serveLogin(w http.ResponseWriter, r *http.Request) {
	if s.ops == nil {
		http.Error(w, "scoreboard: the arbiter console is off", http.StatusNotFound)
		return
	}
	addr := remoteHost(r)
	if !sameOrigin(r) {
		s.log.Warn("console: cross-origin log-in refused", "remote", addr, "origin", view.ClipText(r.Header.Get("Origin"), 100))
		s.renderLogin(w, r, http.StatusForbidden, "console.err-origin")
		return
	}
	if !s.ops.allowLogin(addr) {
		s.log.Warn("console: log-in rate-limited", "remote", addr)
		w.Header().Set("Retry-After", strconv.Itoa(int(loginEvery.Seconds())))
		s.renderLogin(w, r, http.StatusTooManyRequests, "console.err-rate")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxActionBody)
	if err := r.ParseForm(); err != nil {
		s.renderLogin(w, r, http.StatusBadRequest, "console.err-form")
		return
	}
	user, pass := r.PostForm.Get("user"), r.PostForm.Get("password")
	if user == "" || pass == "" || checkConsoleText("user", user, 64) != nil || len(pass) > 256 {
		s.renderLogin(w, r, http.StatusBadRequest, "console.err-missing")
		return
	}
	_, token, err := s.ops.login(user, pass, addr)
	if err != nil {
		le, ok := err.(*errLogin)
		if !ok {
			le = brokerErr(err.Error())
		}
		s.log.Warn("console: log-in refused", "operator", user, "remote", addr, "reason", err.Error())
		if le.status == http.StatusServiceUnavailable {
			// Refused for want of a session, not for the password: no
			// guess was made.
			s.ops.refundLogin(addr)
		}
		s.renderLogin(w, r, le.status, le.key, le.args...)
		return
	}
	s.ops.refundLogin(addr) // only failures count against an address
	if old := s.ops.session(r); old != nil {
		// Logging in again ends the session the browser had.
		s.ops.logout(old)
		s.log.Info("console: earlier session ended by a new log-in", "operator", old.user, "remote", addr)
	}
	s.log.Info("console: logged in", "operator", user, "remote", addr)
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: token, Path: "/console", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	http.Redirect(w, r, withLang("/console", opsLang(r)), http.StatusSeeOther)
}

// authorise checks a state-changing console request: same origin, a
// session, and its CSRF token (header X-CSRF-Token or form field csrf).
func (s *Server) authorise(w http.ResponseWriter, r *http.Request) *session {
	if s.ops == nil {
		http.Error(w, "scoreboard: the arbiter console is off", http.StatusNotFound)
		return nil
	}
	if !sameOrigin(r) {
		s.log.Warn("console: cross-origin request refused", "path", r.URL.Path, "remote", remoteHost(r), "origin", view.ClipText(r.Header.Get("Origin"), 100))
		writeJSON(w, http.StatusForbidden, actionResult{Outcome: "invalid", Reason: "cross-origin request refused"})
		return nil
	}
	se := s.ops.session(r)
	if se == nil {
		writeJSON(w, http.StatusUnauthorized, actionResult{Outcome: "invalid", Reason: "not logged in (or the session expired)"})
		return nil
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxActionBody)
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, actionResult{Outcome: "invalid", Reason: "the form is too large or malformed"})
		return nil
	}
	tok := r.Header.Get("X-CSRF-Token")
	if tok == "" {
		tok = r.PostForm.Get("csrf")
	}
	if len(tok) != len(se.csrf) || !constantEqual(tok, se.csrf) {
		s.log.Warn("console: request without the session's CSRF token", "operator", se.user, "remote", remoteHost(r))
		writeJSON(w, http.StatusForbidden, actionResult{Outcome: "invalid", Reason: "missing or wrong CSRF token"})
		return nil
	}
	return se
}

func constantEqual(a, b string) bool {
	ha, hb := sha256.Sum256([]byte(a)), sha256.Sum256([]byte(b))
	return ha == hb
}

func (s *Server) serveLogout(w http.ResponseWriter, r *http.Request) {
	se := s.authorise(w, r)
	if se == nil {
		return
	}
	s.ops.logout(se)
	s.log.Info("console: logged out", "operator", se.user, "remote", remoteHost(r))
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/console", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, withLang("/console", opsLang(r)), http.StatusSeeOther)
}

func (s *Server) serveAct(w http.ResponseWriter, r *http.Request) {
	se := s.authorise(w, r)
	if se == nil {
		return
	}
	l := opsLang(r)
	if pl, err := i18n.Parse(r.PostForm.Get("lang")); err == nil {
		l = pl
	}
	action := r.PostForm.Get("action")
	board := r.PostForm.Get("board")
	if !boardid.Valid(board) {
		res := actionResult{Outcome: "invalid", Reason: fmt.Sprintf("board %q is not a valid board ID", view.ClipText(board, 70))}
		res.Text = res.text(action, l)
		writeJSON(w, http.StatusBadRequest, res)
		return
	}
	name, body, err := buildCommand(r.PostForm)
	if err != nil {
		res := actionResult{Board: board, Outcome: "invalid", Reason: err.Error()}
		res.Text = res.text(action, l)
		writeJSON(w, http.StatusBadRequest, res)
		return
	}
	res, status := s.ops.act(se, board, name, body)
	s.log.Info("console: action", "operator", se.user, "remote", remoteHost(r), "board", board, "command", name, "id", res.ID,
		"outcome", res.Outcome, "reason", res.Reason)
	res.Text = res.text(action, l)
	writeJSON(w, status, res)
}

// consoleEvent encodes the console's list as one SSE "view" event,
// {"seq":…,"html":…}; JSON keeps the HTML on one data line.
func consoleEvent(seq uint64, html string) []byte {
	var buf bytes.Buffer
	buf.WriteString("event: view\ndata: ")
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	_ = e.Encode(struct {
		Seq  uint64 `json:"seq"`
		HTML string `json:"html"`
	}{seq, html})
	buf.WriteString("\n") // Encode ended the data line
	return buf.Bytes()
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// serveConsoleEvents streams the console's board list as server-sent
// "view" events, re-rendered at each change (coalesced); it keeps the
// session alive while open.
func (s *Server) serveConsoleEvents(w http.ResponseWriter, r *http.Request) {
	if s.ops == nil {
		http.Error(w, "scoreboard: the arbiter console is off", http.StatusNotFound)
		return
	}
	se := s.ops.session(r)
	if se == nil {
		http.Error(w, "scoreboard: not logged in", http.StatusUnauthorized)
		return
	}
	l := opsLang(r)
	s.ops.mu.Lock()
	se.mu.Lock()
	if s.ops.streams >= maxConsoleStreams || se.streams >= maxSessionStreams {
		se.mu.Unlock()
		s.ops.mu.Unlock()
		http.Error(w, fmt.Sprintf("scoreboard: too many console pages open (at most %d per operator)", maxSessionStreams), http.StatusServiceUnavailable)
		return
	}
	s.ops.streams++
	se.streams++
	se.mu.Unlock()
	s.ops.mu.Unlock()
	defer func() {
		s.ops.mu.Lock()
		s.ops.streams--
		s.ops.mu.Unlock()
		se.mu.Lock()
		se.streams--
		se.mu.Unlock()
	}()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	write := func(b []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(s.opts.WriteTimeout))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !write([]byte("retry: 1000\n\n")) {
		return
	}
	tick := time.NewTicker(s.opts.Heartbeat)
	defer tick.Stop()
	for {
		wake, _ := s.obs.changes()
		html, seq := s.renderConsole(l)
		if !write(consoleEvent(seq, html)) {
			return
		}
		for waiting := true; waiting; {
			select {
			case <-r.Context().Done():
				return
			case <-s.done:
				return
			case <-wake:
				waiting = false
			case <-tick.C:
				if s.ops.session(r) == nil { // logged out or expired
					return
				}
				if !write([]byte(": ping\n\n")) {
					return
				}
			}
		}
	}
}

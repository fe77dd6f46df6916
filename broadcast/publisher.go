package broadcast

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/internal/boardid"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// Topic names under the prefix, as the contract fixes them.
const (
	TopicStatus = "status"
	TopicState  = "state"
	TopicMoves  = "moves"
	TopicEvents = "events"
	TopicRecord = "record"
	TopicCmd    = "cmd/"
)

// Status payloads. The first word is always "online" or "offline"; a
// consumer that only wants up or down reads that word.
const (
	Online  = "online"
	Offline = "offline"
	// OnlineCommandPathFailed is the status of a board that is connected
	// and publishing, but whose own health-check command did not come back
	// (its commands are not reaching it), until a later check passes.
	OnlineCommandPathFailed = "online command-path-failed"
)

// Queue bounds. Moves are kept while the broker is away; a game has about
// fifty turns, so hitting the bound means a very long outage in a looping
// simulation, and the oldest moves go first (the state still lists every
// turn). Events are ephemeral.
const (
	maxQueuedMoves  = 10000
	maxQueuedEvents = 256
	commandBuffer   = 16
	recentIDs       = 64
)

// ErrClosed is returned by the Publish methods after Close.
var ErrClosed = errors.New("broadcast: publisher closed")

// Config configures a Publisher.
type Config struct {
	// Brokers are tried in order: tcp://host:1883, ssl://host:8883,
	// ws://host:8083/ or wss://…. At least one.
	Brokers []string
	// BoardID names the board in topics and the default client ID.
	BoardID string
	// ClientID must be stable across restarts: the broker keeps the
	// session (queued commands, in-flight messages) under it. Default
	// "zertzboard-<BoardID>".
	ClientID string
	Username string
	Password string
	TLS      TLSConfig
	// Prefix is the root of the topics; default "zertz/<BoardID>/".
	Prefix string
	// StoreDir holds paho's persistent store, so that unacknowledged
	// messages survive a restart. "" keeps them in memory only. A disk
	// error (full, read-only, gone) never stops the board: the store keeps
	// messages in memory until the disk works again, and says so on
	// "events" and through OnStoreFault.
	StoreDir string
	// OnStoreFault, if not nil, is called when the store falls back to
	// memory (err says why) and when it is back on disk (err is nil), for
	// the board's screen. It must not block.
	OnStoreFault func(err error)
	// OnCommandPath, if not nil, is called when the health check after a
	// (re)connection fails (err says why; the publisher then reconnects)
	// and when a later one passes again (err is nil), for the board's
	// screen. It must not block.
	OnCommandPath func(err error)
	// HealthTimeout bounds the wait for the board's own health-check
	// command to come back after each connection (default 10s).
	HealthTimeout time.Duration
	// CommandToken, if set, must be the "token" field of every command.
	// It is for external brokers without ACLs; the embedded broker checks
	// roles itself.
	CommandToken string

	Logger *slog.Logger     // nil discards
	Now    func() time.Time // the clock stamping replies; nil means time.Now

	// MinReconnect is the interval between attempts at the first
	// connection (default 1s); MaxReconnect bounds paho's exponential
	// backoff after a lost connection (default 30s).
	MinReconnect time.Duration
	MaxReconnect time.Duration
	// ConnectTimeout bounds a connection attempt and a blocked write
	// (default 10s).
	ConnectTimeout time.Duration
	KeepAlive      time.Duration // default 30s
	// CloseTimeout bounds how long Close waits for queued messages to be
	// acknowledged before leaving them in the store (default 2s).
	CloseTimeout time.Duration
}

// TLSConfig configures TLS for ssl:// and wss:// brokers.
type TLSConfig struct {
	CAFile     string // PEM roots; "" uses the system roots
	CertFile   string // client certificate (PEM), optional, with KeyFile
	KeyFile    string
	ServerName string // overrides the host name checked, optional
	// InsecureSkipVerify turns off server verification. For a lab only.
	InsecureSkipVerify bool
}

// Publisher publishes a board's live game and receives its commands. Its
// methods never wait for the network: messages go to a queue that one
// goroutine hands to paho.
//
// Delivery: QoS 1 messages go out one at a time, the next only once the
// broker has acknowledged the previous (see store). That keeps moves in
// order across reconnects, where paho would otherwise resend stored
// messages while new ones overtake them. On loopback this costs a round
// trip of well under a millisecond per message.
type Publisher struct {
	cfg    Config
	log    *slog.Logger
	now    func() time.Time
	client mqtt.Client
	store  *store
	prefix string

	cmds    chan command.Envelope
	wake    chan struct{} // capacity 1: "the queue changed"
	closing chan struct{} // closed by Close
	done    chan struct{} // closed when run returns
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup // token watchers

	closeOnce sync.Once

	connMu sync.Mutex
	conn   *breakableConn // the connection paho uses now, broken to force a reconnect

	mu         sync.Mutex
	closed     bool
	health     string // the id of the health check awaited, "" when none
	healthGen  int    // counts connections, so a stale timer does nothing
	pathErr    error  // the last health check's failure, nil when it passed
	pathTimer  *time.Timer
	verified   int      // health checks passed, one per connection at most
	notices    [][]byte // events said again after every connection
	failures   int      // health checks failed in a row
	status     *message // "online" due after a connect
	moves      []message
	state      *message // latest not yet handed to paho
	record     *message
	lastState  *message // latest handed over, republished after a reconnect
	lastRecord *message
	final      *message // "offline" at Close, after everything else
	events     []message
	dropped    int      // events dropped since the last log line
	recent     []string // IDs of recent commands, against redelivery
}

type message struct {
	topic   string
	qos     byte
	retain  bool
	payload []byte
}

// New validates cfg, starts connecting in the background and returns at
// once; messages published before the connection is up are queued.
func New(cfg Config) (*Publisher, error) {
	if err := checkLevel(cfg.BoardID); err != nil {
		return nil, err
	}
	if len(cfg.Brokers) == 0 {
		return nil, errors.New("broadcast: no broker URL")
	}
	if cfg.ClientID == "" {
		cfg.ClientID = "zertzboard-" + cfg.BoardID
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "zertz/" + cfg.BoardID + "/"
	}
	if !strings.HasSuffix(cfg.Prefix, "/") || strings.ContainsAny(cfg.Prefix, "+#") || cfg.Prefix == "/" {
		return nil, fmt.Errorf("broadcast: bad topic prefix %q (want levels without wildcards ending in \"/\")", cfg.Prefix)
	}
	setDefault(&cfg.MinReconnect, time.Second)
	setDefault(&cfg.MaxReconnect, 30*time.Second)
	setDefault(&cfg.ConnectTimeout, 10*time.Second)
	setDefault(&cfg.KeepAlive, 30*time.Second)
	setDefault(&cfg.CloseTimeout, 2*time.Second)
	setDefault(&cfg.HealthTimeout, 10*time.Second)
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}

	o := mqtt.NewClientOptions()
	needTLS := cfg.TLS != (TLSConfig{})
	for _, b := range cfg.Brokers {
		u, err := url.Parse(b)
		if err != nil {
			return nil, fmt.Errorf("broadcast: broker URL %q: %w", b, err)
		}
		switch u.Scheme {
		case "tcp", "mqtt", "ws":
		case "ssl", "tls", "mqtts", "wss":
			needTLS = true
		default:
			return nil, fmt.Errorf("broadcast: broker URL %q: scheme must be tcp, ssl, ws or wss", b)
		}
		o.AddBroker(b)
	}
	if needTLS {
		tc, err := cfg.TLS.Build()
		if err != nil {
			return nil, err
		}
		o.SetTLSConfig(tc)
	}

	if cfg.StoreDir != "" {
		// A store that cannot be made works in memory (see store).
		_ = os.MkdirAll(cfg.StoreDir, 0o700)
	}

	ctx, cancel := context.WithCancel(context.Background())
	p := &Publisher{
		cfg: cfg, log: log, now: now, prefix: cfg.Prefix,
		cmds:    make(chan command.Envelope, commandBuffer),
		wake:    make(chan struct{}, 1),
		closing: make(chan struct{}),
		done:    make(chan struct{}),
		ctx:     ctx, cancel: cancel,
	}
	p.store = newStore(cfg.StoreDir, p.storeFault)
	o.SetCustomOpenConnectionFn(p.dial)
	o.SetClientID(cfg.ClientID).
		SetUsername(cfg.Username).
		SetPassword(cfg.Password).
		SetProtocolVersion(4).
		// The broker keeps our session and paho keeps our unacknowledged
		// messages: with a clean session paho would wipe its store on
		// connect.
		SetCleanSession(false).
		SetStore(p.store).
		SetOrderMatters(true).
		SetAutoReconnect(true).
		SetConnectRetry(true).
		SetConnectRetryInterval(cfg.MinReconnect).
		SetMaxReconnectInterval(cfg.MaxReconnect).
		SetConnectTimeout(cfg.ConnectTimeout).
		SetWriteTimeout(cfg.ConnectTimeout).
		SetKeepAlive(cfg.KeepAlive).
		SetBinaryWill(p.prefix+TopicStatus, []byte(Offline), 1, true).
		SetOnConnectHandler(p.onConnect).
		SetConnectionLostHandler(func(_ mqtt.Client, err error) {
			log.Warn("broadcast: connection lost; reconnecting", "error", err)
		})
	p.client = mqtt.NewClient(o)
	p.client.Connect() // with ConnectRetry it retries until Disconnect; nothing to wait for
	go p.run()
	return p, nil
}

// dial opens the connection as paho would, and keeps it: closing it is
// how a failed health check makes paho reconnect.
func (p *Publisher) dial(u *url.URL, o mqtt.ClientOptions) (net.Conn, error) {
	var (
		c   net.Conn
		err error
	)
	d := &net.Dialer{Timeout: o.ConnectTimeout}
	switch u.Scheme {
	case "ws", "wss":
		du := *u
		du.User = nil
		var tc *tls.Config
		if u.Scheme == "wss" {
			tc = o.TLSConfig
		}
		c, err = mqtt.NewWebsocket(du.String(), tc, o.ConnectTimeout, o.HTTPHeaders, o.WebsocketOptions)
	case "ssl", "tls", "mqtts":
		c, err = tls.DialWithDialer(d, "tcp", u.Host, o.TLSConfig)
	default:
		c, err = d.Dial("tcp", u.Host)
	}
	if err != nil {
		return nil, err
	}
	bc := &breakableConn{Conn: c}
	p.connMu.Lock()
	p.conn = bc
	p.connMu.Unlock()
	return bc, nil
}

// reconnect drops the connection; paho notices and reconnects.
func (p *Publisher) reconnect() {
	p.connMu.Lock()
	c := p.conn
	p.connMu.Unlock()
	if c != nil {
		c.broken.Store(true)
		c.Close()
	}
}

// errHealthCheck ends a connection whose command path failed its check.
var errHealthCheck = errors.New("broadcast: the health check failed; reconnecting")

// breakableConn is a connection the publisher can break on purpose. Paho
// takes an error about a closed connection for its own disconnection and
// does not reconnect, so a broken one reads as another error.
type breakableConn struct {
	net.Conn
	broken atomic.Bool
}

func (c *breakableConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if err != nil && c.broken.Load() {
		return n, errHealthCheck
	}
	return n, err
}

// maxHealthBackoff bounds the wait before reconnecting after health
// checks that keep failing.
const maxHealthBackoff = 5 * time.Minute

// CommandPath is nil once the latest health check passed, or says why the
// board cannot be sure it receives its commands.
func (p *Publisher) CommandPath() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.health != "" && p.pathErr == nil {
		return errors.New("broadcast: health check under way")
	}
	return p.pathErr
}

// startHealthCheck sends the board a command of its own, and arms the
// timer that reconnects if it does not come back. Sent at QoS 0 (so that it
// never waits in the store behind moves), it is repeated three times
// within HealthTimeout.
func (p *Publisher) startHealthCheck(c mqtt.Client) {
	b := make([]byte, 8)
	rand.Read(b)
	id := "health-" + hex.EncodeToString(b)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.healthGen++
	gen := p.healthGen
	p.health = id
	if p.pathTimer != nil {
		p.pathTimer.Stop()
	}
	p.pathTimer = time.AfterFunc(p.cfg.HealthTimeout, func() { p.healthFailed(gen) })
	p.mu.Unlock()
	payload, _ := json.Marshal(map[string]string{"id": id})
	topic := p.prefix + TopicCmd + healthCheck
	go func() {
		for i := 0; i < 3; i++ {
			c.Publish(topic, 0, false, payload)
			t := time.NewTimer(p.cfg.HealthTimeout / 3)
			select {
			case <-t.C:
			case <-p.ctx.Done():
				t.Stop()
				return
			}
			p.mu.Lock()
			waiting := p.health == id
			p.mu.Unlock()
			if !waiting {
				return
			}
		}
	}()
}

// statusLocked is the retained status the board is due to say while
// connected: Online, or OnlineCommandPathFailed while the last health
// check failed and none has passed since.
func (p *Publisher) statusLocked() *message {
	v := Online
	if p.pathErr != nil {
		v = OnlineCommandPathFailed
	}
	return &message{p.prefix + TopicStatus, 1, true, []byte(v)}
}

// healthPassed is called with the id of a health check that came back.
func (p *Publisher) healthPassed(id string) bool {
	p.mu.Lock()
	if id == "" || id != p.health {
		p.mu.Unlock()
		return false
	}
	p.health = ""
	if p.pathTimer != nil {
		p.pathTimer.Stop()
	}
	was := p.pathErr
	p.pathErr = nil
	p.failures = 0
	p.verified++
	if was != nil && !p.closed {
		p.status = p.statusLocked()
	}
	p.mu.Unlock()
	p.kick()
	if was != nil {
		p.log.Info("broadcast: commands reach the board again")
		_ = p.PublishEvent(referee.Event{T: p.now().UnixMilli(), Body: referee.Fault{Reason: "command path: restored"}})
		if p.cfg.OnCommandPath != nil {
			p.cfg.OnCommandPath(nil)
		}
	} else {
		p.log.Info("broadcast: command path verified")
	}
	return true
}

// healthFailed runs when a health check did not come back in time.
func (p *Publisher) healthFailed(gen int) {
	p.mu.Lock()
	if p.closed || gen != p.healthGen || p.health == "" {
		p.mu.Unlock()
		return
	}
	p.health = ""
	err := fmt.Errorf("the board's own health-check command did not come back within %v: commands are not reaching it", p.cfg.HealthTimeout)
	p.pathErr = err
	p.failures++
	// Said in the retained status too, before the reconnection, and
	// again after it until a check passes (statusLocked).
	p.status = p.statusLocked()
	// The first failure reconnects at once; if reconnecting does not
	// help (an ACL that never delivers the board's commands), each
	// further try waits twice as long, up to maxHealthBackoff, rather
	// than republishing everything every few seconds.
	delay := min(100*time.Millisecond<<min(2*(p.failures-1), 20), maxHealthBackoff)
	p.mu.Unlock()
	p.kick()
	p.log.Error("broadcast: command path broken; reconnecting", "error", err)
	_ = p.PublishEvent(referee.Event{T: p.now().UnixMilli(), Body: referee.Fault{Reason: "command path: " + err.Error()}})
	if p.cfg.OnCommandPath != nil {
		p.cfg.OnCommandPath(err)
	}
	// The fault event goes out first if the connection still carries it.
	go func() {
		t := time.NewTimer(delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-p.ctx.Done():
			return
		}
		p.reconnect()
	}()
}

// storeFault reports the store's disk trouble: in the log, on "events",
// and to Config.OnStoreFault.
func (p *Publisher) storeFault(err error) {
	reason := storeFaultReason(err)
	if err != nil {
		p.log.Error("broadcast: store disk error; keeping messages in memory", "dir", p.cfg.StoreDir, "error", err)
	} else {
		p.log.Info("broadcast: store back on disk", "dir", p.cfg.StoreDir)
	}
	_ = p.PublishEvent(referee.Event{T: p.now().UnixMilli(), Body: referee.Fault{Reason: reason}})
	if p.cfg.OnStoreFault != nil {
		p.cfg.OnStoreFault(err)
	}
}

func storeFaultReason(err error) string {
	if err == nil {
		return "mqtt store: back on disk"
	}
	return "mqtt store: disk error; queued messages kept in memory until it clears: " + err.Error()
}

// StoreFault returns the disk error that keeps the store in memory, or nil.
func (p *Publisher) StoreFault() error { return p.store.Degraded() }

func setDefault(d *time.Duration, v time.Duration) {
	if *d <= 0 {
		*d = v
	}
}

func checkLevel(id string) error {
	if err := boardid.Check(id); err != nil {
		return fmt.Errorf("broadcast: %w", err)
	}
	return nil
}

// Build loads the files and returns the crypto/tls configuration.
func (t TLSConfig) Build() (*tls.Config, error) {
	c := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: t.ServerName, InsecureSkipVerify: t.InsecureSkipVerify}
	if t.CAFile != "" {
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("broadcast: reading CA file: %w", err)
		}
		c.RootCAs = x509.NewCertPool()
		if !c.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("broadcast: no PEM certificate in CA file %q", t.CAFile)
		}
	}
	if (t.CertFile == "") != (t.KeyFile == "") {
		return nil, fmt.Errorf("broadcast: client certificate %q and key %q must be given together", t.CertFile, t.KeyFile)
	}
	if t.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("broadcast: loading client certificate %q: %w", t.CertFile, err)
		}
		c.Certificates = []tls.Certificate{cert}
	}
	return c, nil
}

// Prefix is the topic prefix in use, e.g. "zertz/b1/".
func (p *Publisher) Prefix() string { return p.prefix }

// Connected reports whether the connection to the broker is up now.
func (p *Publisher) Connected() bool { return p.client.IsConnectionOpen() }

// Commands delivers valid commands, decoded and checked by package
// command. The controller handles each and then calls Accept or Refuse.
// It is closed by Close. When the controller falls behind by more than a
// few commands, new ones are refused as busy.
func (p *Publisher) Commands() <-chan command.Envelope { return p.cmds }

// PublishState queues s for "state" (retained, QoS 1). Only the latest
// state waits: a newer one replaces an unsent older one.
//
// It stamps s.PublishedMS with the publisher's clock, unless set.
func (p *Publisher) PublishState(s wire.State) error {
	if s.PublishedMS == 0 {
		s.PublishedMS = p.now().UnixMilli()
	}
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("broadcast: encoding state seq %d: %w", s.Seq, err)
	}
	return p.enqueue(func() { p.state = &message{p.prefix + TopicState, 1, true, b} })
}

// PublishRecord queues the game record for "record" (retained, QoS 1).
// Like state, only the latest waits. rec is copied.
func (p *Publisher) PublishRecord(rec []byte) error {
	b := append([]byte(nil), rec...)
	return p.enqueue(func() { p.record = &message{p.prefix + TopicRecord, 1, true, b} })
}

// PublishMove queues m for "moves" (QoS 1, not retained). Every move is
// kept, in order, through broker outages; Close leaves unsent ones in the
// store for the next run.
//
// It stamps m.PublishedMS with the publisher's clock, unless set.
func (p *Publisher) PublishMove(m wire.MoveMessage) error {
	if m.PublishedMS == 0 {
		m.PublishedMS = p.now().UnixMilli()
	}
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("broadcast: encoding move seq %d: %w", m.Seq, err)
	}
	return p.enqueue(func() {
		if len(p.moves) >= maxQueuedMoves {
			p.log.Error("broadcast: move queue full; dropping the oldest move", "limit", maxQueuedMoves)
			p.moves = p.moves[1:]
		}
		p.moves = append(p.moves, message{p.prefix + TopicMoves, 1, false, b})
	})
}

// PublishEvent queues e for "events" (QoS 0, not retained). Events are
// dropped while the broker is away: they describe the moment, and state
// carries what lasts.
func (p *Publisher) PublishEvent(e referee.Event) error {
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("broadcast: encoding %s event: %w", e.Body.Kind(), err)
	}
	return p.enqueue(func() { p.queueEventLocked(b) })
}

// maxNotices bounds the events PublishNotice keeps.
const maxNotices = 8

// PublishNotice queues e for "events" now if connected, and again after
// every (re)connection, for what an operator must not miss because the
// board was not connected yet when it happened: journal damage found at
// start-up. At most maxNotices are kept (the oldest go).
func (p *Publisher) PublishNotice(e referee.Event) error {
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("broadcast: encoding %s event: %w", e.Body.Kind(), err)
	}
	open := p.client.IsConnectionOpen()
	return p.enqueue(func() {
		if len(p.notices) >= maxNotices {
			p.notices = p.notices[1:]
		}
		p.notices = append(p.notices, b)
		if open {
			p.queueEventLocked(b)
		}
	})
}

// Accept tells "events" the controller carried out e.
func (p *Publisher) Accept(e command.Envelope) error {
	return p.reply(commandReply{kind: "command-accepted", Command: command.Name(e.Command), ID: e.ID})
}

// Refuse tells "events" the controller could not carry out e, and why.
func (p *Publisher) Refuse(e command.Envelope, reason string) error {
	return p.refuse(command.Name(e.Command), e.ID, reason)
}

// refuse tells "events" the command name (as it came, clipped) with id
// was refused, and why.
func (p *Publisher) refuse(name, id, reason string) error {
	return p.reply(commandReply{kind: "command-refused", Command: clip(name), ID: id, Reason: reason})
}

func (p *Publisher) reply(r commandReply) error {
	return p.PublishEvent(referee.Event{T: p.now().UnixMilli(), Body: r})
}

func (p *Publisher) queueEventLocked(b []byte) {
	if len(p.events) >= maxQueuedEvents {
		p.events = p.events[1:]
		p.dropped++
	}
	p.events = append(p.events, message{p.prefix + TopicEvents, 0, false, b})
}

func (p *Publisher) enqueue(f func()) error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return ErrClosed
	}
	f()
	p.mu.Unlock()
	p.kick()
	return nil
}

func (p *Publisher) kick() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// onConnect runs on a paho goroutine after every (re)connection. The
// broker may have restarted without persistence, so the retained snapshots
// and the status are published again; the command subscription too.
func (p *Publisher) onConnect(c mqtt.Client) {
	p.log.Info("broadcast: connected", "client", p.cfg.ClientID)
	p.mu.Lock()
	if !p.closed {
		p.status = p.statusLocked()
		if p.state == nil {
			p.state = p.lastState
		}
		if p.record == nil {
			p.record = p.lastRecord
		}
		for _, b := range p.notices {
			p.queueEventLocked(b)
		}
	}
	p.mu.Unlock()
	if err := p.store.Degraded(); err != nil {
		// Events are dropped while disconnected: say it again.
		_ = p.PublishEvent(referee.Event{T: p.now().UnixMilli(), Body: referee.Fault{Reason: storeFaultReason(err)}})
	}
	p.kick()
	filters := map[string]byte{p.prefix + TopicCmd + "+": 1, p.prefix + TopicStatus: 1}
	tok := c.SubscribeMultiple(filters, p.onMessage)
	if !tok.WaitTimeout(p.cfg.ConnectTimeout) {
		p.log.Warn("broadcast: subscribing to commands timed out")
	} else if err := tok.Error(); err != nil {
		p.log.Warn("broadcast: subscribing to commands failed", "error", err)
	} else if st, ok := tok.(*mqtt.SubscribeToken); ok {
		for topic, q := range st.Result() {
			if q > 2 {
				p.log.Error("broadcast: broker refused a subscription", "topic", topic)
			}
		}
	}
	// Whatever the broker said, prove it: a command the board sends
	// itself must come back (a session taken over and wiped, an ACL
	// refusing the subscription silently, …).
	p.startHealthCheck(c)
}

func (p *Publisher) onMessage(c mqtt.Client, m mqtt.Message) {
	if m.Topic() == p.prefix+TopicStatus {
		p.onStatus(m)
		return
	}
	p.onCommand(c, m)
}

// onStatus corrects a stale Will. When the connection drops and paho
// reconnects before the broker has noticed, the broker publishes the old
// connection's Will ("offline", retained) after our new "online": the
// board would look offline while it is up. Seeing our own "offline" while
// connected, we say "online" again.
func (p *Publisher) onStatus(m mqtt.Message) {
	if string(m.Payload()) != Offline {
		return
	}
	p.mu.Lock()
	if !p.closed {
		p.log.Info("broadcast: status reads offline while connected; saying online again", "retained", m.Retained())
		p.status = p.statusLocked()
	}
	p.mu.Unlock()
	p.kick()
}

// onCommand runs on paho's router goroutine, so it must not block.
//
// Brokers set the retain flag only on messages replayed to a new
// subscription, so a retained command is refused when replayed, where
// running it would repeat it after every reconnect.
func (p *Publisher) onCommand(_ mqtt.Client, m mqtt.Message) {
	name := strings.TrimPrefix(m.Topic(), p.prefix+TopicCmd)
	var (
		cmd    command.Envelope
		reason string
	)
	if name == healthCheck && !m.Retained() {
		var hc struct {
			ID string `json:"id"`
		}
		if len(m.Payload()) <= MaxCommandSize && json.Unmarshal(m.Payload(), &hc) == nil && p.healthPassed(hc.ID) {
			return
		}
	}
	if len(m.Payload()) == 0 {
		// How MQTT clears a retained message; not meant as a command.
		p.log.Debug("broadcast: ignoring an empty command", "command", clip(name))
		return
	}
	if m.Retained() {
		// A retained command would run again on every reconnect.
		reason = "retained commands are ignored; publish without retain"
	} else {
		cmd, reason = command.Decode(name, m.Payload(), p.cfg.CommandToken)
	}
	if reason != "" {
		p.log.Warn("broadcast: command refused", "command", clip(name), "reason", reason)
		_ = p.refuse(name, cmd.ID, reason)
		return
	}
	if _, ok := cmd.Command.(command.HealthCheck); ok {
		// Another client checking the board's command path.
		_ = p.Accept(cmd)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	if cmd.ID != "" {
		for _, id := range p.recent {
			if id == cmd.ID {
				p.log.Info("broadcast: ignoring a redelivered command", "command", name, "id", cmd.ID)
				return
			}
		}
		if len(p.recent) == recentIDs {
			p.recent = p.recent[1:]
		}
		p.recent = append(p.recent, cmd.ID)
	}
	select {
	case p.cmds <- cmd:
		p.log.Info("broadcast: command received", "command", name, "id", cmd.ID, "retained", m.Retained(), "dup", m.Duplicate(), "msgid", m.MessageID())
	default:
		b, _ := json.Marshal(referee.Event{T: p.now().UnixMilli(), Body: commandReply{kind: "command-refused", Command: name, ID: cmd.ID, Reason: "busy: too many commands waiting"}})
		p.queueEventLocked(b)
		p.kick()
	}
}

// run hands queued messages to paho until Close. Events go whenever the
// connection is up; a QoS 1 message only when nothing is unacknowledged.
func (p *Publisher) run() {
	defer close(p.done)
	closing := p.closing
	var deadline <-chan time.Time
	for {
		pending, acked := p.store.Pending()
		open := p.client.IsConnectionOpen()
		p.mu.Lock()
		m := p.nextLocked(open, pending == 0)
		idle := p.idleLocked()
		if p.dropped > 0 && open {
			p.log.Warn("broadcast: events dropped", "count", p.dropped)
			p.dropped = 0
		}
		p.mu.Unlock()
		if m != nil {
			p.send(m)
			continue
		}
		if closing == nil && idle && pending == 0 {
			return
		}
		select {
		case <-p.wake:
		case <-acked:
		case <-closing:
			closing = nil
			t := time.NewTimer(p.cfg.CloseTimeout)
			defer t.Stop()
			deadline = t.C
		case <-deadline:
			p.handOver()
			return
		}
	}
}

// nextLocked picks the next message. The QoS 1 messages (status, moves,
// state, record) go first whenever the previous one is acknowledged;
// events go while an acknowledgement is awaited. So a flood of command
// replies on "events" never holds back "state" and "moves" by more than
// one round trip, and events of a change still follow its move and state.
func (p *Publisher) nextLocked(open, drained bool) *message {
	if !open {
		p.dropped += len(p.events)
		p.events = nil
		return nil
	}
	if drained {
		switch {
		case p.status != nil:
			m := p.status
			p.status = nil
			return m
		case len(p.moves) > 0:
			m := p.moves[0]
			p.moves = p.moves[1:]
			return &m
		case p.state != nil:
			m := p.state
			p.state, p.lastState = nil, m
			return m
		case p.record != nil:
			m := p.record
			p.record, p.lastRecord = nil, m
			return m
		}
	}
	if len(p.events) > 0 {
		m := p.events[0]
		p.events = p.events[1:]
		return &m
	}
	if drained && p.final != nil && p.closed {
		m := p.final
		p.final = nil
		return m
	}
	return nil
}

func (p *Publisher) idleLocked() bool {
	return p.status == nil && len(p.moves) == 0 && p.state == nil && p.record == nil && p.final == nil && len(p.events) == 0
}

func (p *Publisher) send(m *message) {
	tok := p.client.Publish(m.topic, m.qos, m.retain, m.payload)
	if m.qos == 0 {
		return
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		select {
		case <-tok.Done():
			if err := tok.Error(); err != nil {
				p.log.Warn("broadcast: publish failed; it stays in the store", "topic", m.topic, "error", err)
			}
		case <-p.ctx.Done():
		}
	}()
}

// handOver gives every queued QoS 1 message to paho at once, when Close
// cannot wait any longer for acknowledgements. With the connection down,
// paho only writes them to its store, in order, and the next run sends
// them on its first connection.
func (p *Publisher) handOver() {
	p.mu.Lock()
	var ms []*message
	if p.status != nil {
		ms = append(ms, p.status)
	}
	for i := range p.moves {
		ms = append(ms, &p.moves[i])
	}
	for _, m := range []*message{p.state, p.record, p.final} {
		if m != nil {
			ms = append(ms, m)
		}
	}
	p.status, p.moves, p.state, p.record, p.final, p.events = nil, nil, nil, nil, nil, nil
	p.mu.Unlock()
	if len(ms) > 0 {
		p.log.Warn("broadcast: closing with messages unacknowledged; they stay in the store", "queued", len(ms))
	}
	for _, m := range ms {
		p.send(m)
	}
}

// Close publishes "offline" (retained), waits up to Config.CloseTimeout
// for the queue to be acknowledged, leaves the rest in the store and
// disconnects. It closes the Commands channel.
func (p *Publisher) Close() error {
	p.closeOnce.Do(func() {
		p.mu.Lock()
		p.closed = true
		if p.pathTimer != nil {
			p.pathTimer.Stop()
		}
		p.final = &message{p.prefix + TopicStatus, 1, true, []byte(Offline)}
		p.mu.Unlock()
		close(p.closing)
		p.kick()
		<-p.done
		p.client.Disconnect(100)
		p.cancel()
		p.wg.Wait()
		p.mu.Lock()
		close(p.cmds)
		p.mu.Unlock()
	})
	return nil
}

package broker

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"strings"
	"sync"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/zertzboard/zertzboard/internal/logguard"
)

// Default listener addresses: loopback only, so that exposing the broker to
// the network is a decision written in a configuration file.
const (
	DefaultTCPAddr = "127.0.0.1:1883"
	DefaultWSAddr  = "127.0.0.1:8083"
	DefaultPrefix  = "zertz/"
	// Off as a listener address disables that listener.
	Off = "off"
)

// Config configures a Broker. The zero value is usable: loopback listeners
// on the default ports, no accounts, anonymous read-only viewers.
type Config struct {
	TCPAddr string // host:port; "" means DefaultTCPAddr, Off disables; port 0 picks a free port
	WSAddr  string // host:port for MQTT over WebSocket (browsers); same conventions

	// Prefix is the root of every board's topics; it must end in "/".
	Prefix string

	// Users are the accounts; names must be unique and non-empty.
	Users []User

	// AllowAnonymousViewers lets clients without a username connect as
	// viewers (subscribe only). nil means true: scoreboards and overlays
	// should not need a secret to watch a game.
	AllowAnonymousViewers *bool

	// ConnectTimeout bounds the wait for a new connection's CONNECT
	// packet (default 10s).
	ConnectTimeout time.Duration
	// CloseTimeout bounds Close's wait for client goroutines (default 5s).
	CloseTimeout time.Duration
	// DrainTimeout bounds Close's wait, before it disconnects anyone, for
	// the messages already accepted to reach the connected subscribers
	// (default DefaultDrainTimeout; negative: no wait).
	DrainTimeout time.Duration

	// Limits bound packets, client IDs, queues and connections.
	Limits Limits

	// TLSCertFile and TLSKeyFile, given together (PEM), make both
	// listeners speak TLS: mqtts on the TCP address and wss on the
	// WebSocket one. Without them a broker listening beyond loopback says
	// at start-up that passwords and commands cross the network in clear.
	TLSCertFile string
	TLSKeyFile  string

	// Logger gets the broker's lines, clipped and rate-limited per client
	// (internal/logguard) and never with a payload. nil discards.
	Logger *slog.Logger
}

// Broker is a running embedded broker.
type Broker struct {
	cfg  Config
	log  *slog.Logger
	srv  *mqtt.Server
	auth *authHook
	sent *sentHook
	tcp  *tcpListener
	ws   *wsListener

	mu      sync.Mutex
	started bool
	closed  bool
	subID   int
}

// New checks the configuration and builds a broker; Start opens the
// listeners.
func New(cfg Config) (*Broker, error) {
	cfg.setDefaults()
	if err := checkPrefix(cfg.Prefix); err != nil {
		return nil, err
	}
	lim := cfg.Limits.withDefaults()
	if err := lim.check(); err != nil {
		return nil, err
	}
	cfg.Limits = lim
	tc, err := loadTLS(cfg.TLSCertFile, cfg.TLSKeyFile)
	if err != nil {
		return nil, err
	}
	log := slog.New(slog.DiscardHandler)
	if cfg.Logger != nil {
		log = slog.New(packetLog{logguard.New(cfg.Logger.Handler(), nil)})
	}
	anon := cfg.AllowAnonymousViewers == nil || *cfg.AllowAnonymousViewers
	auth, err := newAuthHook(cfg.Users, cfg.Prefix, anon, lim, log)
	if err != nil {
		return nil, err
	}
	srv := mqtt.New(&mqtt.Options{
		Logger: log.With("component", "mochi"),
		// The inline client serves Subscribe: in-process readers such as
		// the scoreboard's web server need no network client.
		InlineClient: true,
		Capabilities: capabilities(lim),
	})
	auth.srv = srv
	if err := srv.AddHook(auth, nil); err != nil {
		return nil, fmt.Errorf("broker: adding the auth hook: %w", err)
	}
	sent := &sentHook{}
	if err := srv.AddHook(sent, nil); err != nil {
		return nil, fmt.Errorf("broker: adding the drain hook: %w", err)
	}
	b := &Broker{cfg: cfg, log: log, srv: srv, auth: auth, sent: sent}
	if cfg.TCPAddr != Off {
		b.tcp = newTCPListener("tcp", cfg.TCPAddr, cfg.ConnectTimeout, lim, tc)
	}
	if cfg.WSAddr != Off {
		b.ws = newWSListener("ws", cfg.WSAddr, cfg.ConnectTimeout, lim, tc)
	}
	if b.tcp == nil && b.ws == nil {
		return nil, errors.New("broker: both listeners are off")
	}
	return b, nil
}

// setDefaults fills in the fields of c left zero.
func (c *Config) setDefaults() {
	if c.TCPAddr == "" {
		c.TCPAddr = DefaultTCPAddr
	}
	if c.WSAddr == "" {
		c.WSAddr = DefaultWSAddr
	}
	if c.Prefix == "" {
		c.Prefix = DefaultPrefix
	}
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = 10 * time.Second
	}
	if c.CloseTimeout <= 0 {
		c.CloseTimeout = 5 * time.Second
	}
	if c.DrainTimeout == 0 {
		c.DrainTimeout = DefaultDrainTimeout
	}
}

// loadTLS reads the listeners' certificate and key, both or neither
// (nil: plain TCP and WebSocket).
func loadTLS(certFile, keyFile string) (*tls.Config, error) {
	if certFile == "" && keyFile == "" {
		return nil, nil
	}
	if certFile == "" || keyFile == "" {
		return nil, fmt.Errorf("broker: TLS certificate %q and key %q must be given together", certFile, keyFile)
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("broker: loading TLS certificate %q and key %q: %w", certFile, keyFile, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// capabilities are mochi's server capabilities under the limits lim.
func capabilities(lim Limits) *mqtt.Capabilities {
	caps := mqtt.NewDefaultServerCapabilities()
	caps.MaximumPacketSize = lim.MaxPacketSize // guardConn refuses first; this is a second line
	caps.ReceiveMaximum = lim.ReceiveMaximum
	caps.MaximumInflight = lim.MaxInflight
	caps.MaximumClientWritesPending = int32(lim.MaxQueued)
	caps.MaximumClients = int64(2 * lim.MaxConns) // both listeners; each bounds its own
	caps.MaximumSessionExpiryInterval = 60 * 60   // a board or an operator away longer starts afresh
	caps.MaximumMessageExpiryInterval = 24 * 60 * 60
	caps.TopicAliasMaximum = 16 // each alias keeps a topic name per client
	return caps
}

// Start binds the listeners and starts serving. It fails if an address is
// taken; the broker is then closed.
func (b *Broker) Start() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.started || b.closed {
		return errors.New("broker: Start called twice or after Close")
	}
	b.started = true
	if b.tcp != nil {
		if err := b.srv.AddListener(b.tcp); err != nil {
			b.closeLocked()
			return fmt.Errorf("broker: listening on %s: %w", b.cfg.TCPAddr, err)
		}
	}
	if b.ws != nil {
		if err := b.srv.AddListener(b.ws); err != nil {
			b.closeLocked()
			return fmt.Errorf("broker: listening (WebSocket) on %s: %w", b.cfg.WSAddr, err)
		}
	}
	if err := b.srv.Serve(); err != nil {
		b.closeLocked()
		return fmt.Errorf("broker: serving: %w", err)
	}
	b.log.Info("broker: listening", "tcp", b.TCPAddr(), "ws", b.WSAddr(), "prefix", b.cfg.Prefix, "tls", b.cfg.TLSCertFile != "")
	if open := beyondLoopback(b.TCPAddr(), b.WSAddr()); len(open) > 0 && b.cfg.TLSCertFile == "" {
		b.log.Warn("broker: listening beyond loopback without TLS: passwords and commands cross the network in clear (set a TLS certificate and key)", "addresses", strings.Join(open, " "))
	}
	return nil
}

// beyondLoopback lists the addresses other hosts can reach.
func beyondLoopback(addrs ...string) []string {
	var open []string
	for _, a := range addrs {
		if a == "" {
			continue
		}
		if ap, err := netip.ParseAddrPort(a); err != nil || !ap.Addr().IsLoopback() {
			open = append(open, a)
		}
	}
	return open
}

// TLS reports whether the listeners speak TLS.
func (b *Broker) TLS() bool { return b.cfg.TLSCertFile != "" }

// TCPAddr is the bound MQTT address (useful with port 0), or "" if that
// listener is off or not started.
func (b *Broker) TCPAddr() string {
	if b.tcp == nil {
		return ""
	}
	return b.tcp.Address()
}

// WSAddr is the bound WebSocket address; clients connect to ws://<WSAddr>/.
func (b *Broker) WSAddr() string {
	if b.ws == nil {
		return ""
	}
	return b.ws.Address()
}

// Subscribe delivers every message matching filter to fn, in process and
// without any ACL (the process is trusted). fn runs on the publishing
// client's goroutine, so it must return quickly. Retained messages matching
// filter are delivered at once.
func (b *Broker) Subscribe(filter string, fn func(topic string, payload []byte, retained bool)) error {
	b.mu.Lock()
	b.subID++
	id := b.subID
	b.mu.Unlock()
	err := b.srv.Subscribe(filter, id, func(_ *mqtt.Client, _ packets.Subscription, pk packets.Packet) {
		fn(pk.TopicName, pk.Payload, pk.FixedHeader.Retain)
	})
	if err != nil {
		return fmt.Errorf("broker: subscribing to %q: %w", filter, err)
	}
	return nil
}

// Close lets the messages already accepted reach the connected
// subscribers (up to Config.DrainTimeout), then disconnects every client,
// closes the listeners and waits, up to Config.CloseTimeout, for the client
// goroutines. It is safe to call more than once.
func (b *Broker) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closeLocked()
}

func (b *Broker) closeLocked() error {
	if b.closed {
		return nil
	}
	b.closed = true
	if b.started && b.cfg.DrainTimeout > 0 {
		b.drain(b.cfg.DrainTimeout)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Mochi 2.7.9's Close can deadlock: it disconnects clients
		// through Clients.GetByListener, which takes the clients' read
		// lock twice, so a client being deleted in between (a writer
		// waiting) blocks it for ever. Close the listeners first with a
		// closer that reads the clients once; CloseAll also waits for
		// every client goroutine to end, so by the time mochi's own Close
		// runs nobody can be waiting to write. (Mochi's Close closes only
		// the listeners it holds; one that failed to bind was never
		// added.)
		b.srv.Listeners.CloseAll(b.disconnectAll)
		_ = b.srv.Close()
	}()
	t := time.NewTimer(b.cfg.CloseTimeout)
	defer t.Stop()
	select {
	case <-done:
		b.log.Info("broker: closed")
		return nil
	case <-t.C:
		b.log.Error("broker: clients still open after Close", "timeout", b.cfg.CloseTimeout)
		return fmt.Errorf("broker: clients still open %v after Close", b.cfg.CloseTimeout)
	}
}

// disconnectAll disconnects the clients of one listener, reading the client
// list under a single lock.
func (b *Broker) disconnectAll(listener string) {
	for _, cl := range b.srv.Clients.GetAll() {
		if cl.Net.Listener == listener && !cl.Closed() {
			_ = b.srv.DisconnectClient(cl, packets.ErrServerShuttingDown)
		}
	}
}

func checkPrefix(p string) error {
	if !strings.HasSuffix(p, "/") || strings.ContainsAny(p, "+#") || strings.HasPrefix(p, "$") || p == "/" {
		return fmt.Errorf("broker: bad topic prefix %q (want levels without wildcards ending in \"/\", e.g. %q)", p, DefaultPrefix)
	}
	return nil
}

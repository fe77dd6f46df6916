package board

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/zertzboard/zertzboard/broadcast"
	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/internal/logguard"
	"github.com/zertzboard/zertzboard/scoreboard"
)

// Run runs one board with everything it talks to, until ctx is done,
// SIGINT or SIGTERM arrives, the board stops on an error, or
// cfg.Alongside returns. Whatever ends it, and whatever fails while it
// starts, everything opened is closed in the reverse order of opening:
// the players and the scan stop (the LEDs go dark), the analysis stops,
// the publisher closes (its queued messages delivered or left in the
// store), then the web server and the broker. It returns the first
// error.
func Run(ctx context.Context, cfg Config) (err error) {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	r := newProcess(cfg)
	defer func() { err = r.shutdown(err) }()
	if err := r.start(); err != nil {
		return err
	}
	return r.serve(ctx)
}

// process is Run's state: what it opened, in order.
type process struct {
	cfg Config
	log *slog.Logger
	// closers close what start opened, run in reverse order by shutdown.
	closers []closer
	sb      *scoreboard.Server // nil without the web page
	// url is the board's MQTT URL; tls its client TLS.
	url      string
	tls      broadcast.TLSConfig
	embedded bool
	// follow, if not nil, feeds the scoreboard from an external broker.
	follow  *scoreboard.MQTTConfig
	ln      net.Listener  // the web page's
	srv     *http.Server  // serving ln, once the board exists
	stopped chan struct{} // closed when srv has returned
	httpURL string
	pub     *broadcast.Publisher
	cmds    chan Command
	n       *Node
	served  bool // the board ran (serve): shutdown says "stopped"
}

func newProcess(cfg Config) *process {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	// No line may carry a client's payload or grow without bound.
	cfg.Logger = slog.New(logguard.New(cfg.Logger.Handler(), nil))
	if cfg.BrokerLog == nil {
		cfg.BrokerLog = slog.New(slog.DiscardHandler)
	}
	if cfg.Broker == "" {
		cfg.Broker = EmbeddedBroker
	}
	return &process{cfg: cfg, log: cfg.Logger, url: cfg.Broker, tls: cfg.TLS}
}

// closer closes one thing Run opened.
type closer struct {
	what  string // "board", "publisher", "web page", "broker", "scoreboard"
	close func() error
}

// onClose adds what shutdown closes, after everything opened later.
func (r *process) onClose(what string, f func() error) {
	r.closers = append(r.closers, closer{what, f})
}

// shutdown closes everything opened, the latest first, and returns the
// first error: first, or the first a close returns.
func (r *process) shutdown(first error) error {
	for i := len(r.closers) - 1; i >= 0; i-- {
		c := r.closers[i]
		if r.cfg.closing != nil {
			r.cfg.closing(c.what)
		}
		if err := c.close(); err != nil && first == nil {
			first = err
		}
	}
	r.closers = nil
	if r.served {
		r.log.Info("stopped")
	}
	return first
}

// web reports whether the web page is on.
func (r *process) web() bool { return r.cfg.HTTP != "" && r.cfg.HTTP != "off" }

// start opens, in this order, the scoreboard, the embedded broker, the
// web page's listener, the publisher and the board.
func (r *process) start() error {
	if r.web() {
		// With the embedded broker the scoreboard listens in process,
		// subscribed before the listeners open: mochi 2.7.9 reads
		// retained messages without a lock when a wildcard subscription
		// is made (mochi-mqtt/server#200), so it must not race a client
		// publishing retained state.
		r.sb = scoreboard.New(scoreboard.Options{Logger: r.log.With("part", "scoreboard")})
		r.onClose("scoreboard", func() error { r.sb.Close(); return nil })
		if r.cfg.Results != "" {
			if err := r.sb.OpenResults(r.cfg.Results, 0); err != nil {
				return err
			}
		}
	}
	if r.cfg.Broker == EmbeddedBroker {
		if err := r.startBroker(); err != nil {
			return err
		}
	}
	if r.web() {
		if err := r.listenWeb(); err != nil {
			return err
		}
	}
	return r.startBoard()
}

// startBroker starts the embedded broker, the board's own account first.
func (r *process) startBroker() error {
	if r.cfg.Username == "" {
		r.cfg.Username = DefaultUsername
	}
	if r.cfg.Password == "" {
		r.cfg.Password = randomSecret()
	}
	users := append([]broker.User{{Name: r.cfg.Username, Password: r.cfg.Password, Role: broker.RoleBoard}}, r.cfg.Users...)
	b, err := broker.New(broker.Config{TCPAddr: r.cfg.Listen, WSAddr: r.cfg.WebSocket, Users: users, Logger: r.cfg.BrokerLog,
		Limits: r.cfg.Limits, TLSCertFile: r.cfg.BrokerCert, TLSKeyFile: r.cfg.BrokerKey})
	if err != nil {
		return err
	}
	if r.sb != nil {
		if err := SubscribeScoreboard(r.sb, b); err != nil {
			return err
		}
	}
	if err := b.Start(); err != nil {
		return r.inUse(fmt.Errorf("starting the MQTT broker on %s: %w", r.cfg.Listen, err))
	}
	r.onClose("broker", func() error { b.Close(); return nil })
	r.embedded = true
	r.url = "tcp://" + b.TCPAddr()
	ws := "ws://"
	if b.TLS() {
		// The board's own client trusts its broker: it dials loopback,
		// where the certificate's name need not match.
		r.url, ws = "ssl://"+b.TCPAddr(), "wss://"
		r.tls = broadcast.TLSConfig{InsecureSkipVerify: true}
	}
	if a := b.WSAddr(); a != "" {
		r.log.Info("MQTT over WebSocket", "url", ws+a+"/")
	}
	if r.sb == nil {
		return nil
	}
	// Operators log in to the console against this broker's accounts,
	// over loopback.
	var tc *tls.Config
	if b.TLS() {
		tc = &tls.Config{InsecureSkipVerify: true}
	}
	return r.sb.EnableConsole(scoreboard.ConsoleConfig{Broker: r.url, TLS: tc})
}

// listenWeb opens the web page's listener; on an external broker, the
// scoreboard follows it and operators log in against it.
func (r *process) listenWeb() error {
	ln, err := net.Listen("tcp", r.cfg.HTTP)
	if err != nil {
		return r.inUse(fmt.Errorf("web page on %s: %w", r.cfg.HTTP, err))
	}
	r.ln = ln
	// Closed in its place in the order (after the publisher), served or
	// not.
	r.onClose("web page", func() error {
		if r.srv == nil {
			return ln.Close()
		}
		r.srv.Close()
		<-r.stopped
		return nil
	})
	r.httpURL = "http://" + ln.Addr().String() + "/"
	if !r.embedded {
		tc, err := r.tls.Build()
		if err != nil {
			return err
		}
		r.follow = &scoreboard.MQTTConfig{Broker: r.url, Username: r.cfg.ViewerUser, Password: r.cfg.ViewerPassword, TLS: tc}
		if err := r.sb.EnableConsole(scoreboard.ConsoleConfig{Broker: r.url, TLS: tc}); err != nil {
			return err
		}
	}
	scoreboard.WarnConsoleClear(r.log, ln.Addr())
	return nil
}

// startBoard makes the publisher and the board. A store directory that
// cannot be made is no reason to stop: the publisher keeps messages in
// memory and reports the fault on the board's screen.
func (r *process) startBoard() error {
	faults := &systemFaults{}
	pub, err := broadcast.New(broadcast.Config{Brokers: []string{r.url}, BoardID: r.cfg.BoardID, Username: r.cfg.Username, Password: r.cfg.Password,
		StoreDir: r.cfg.Store, CommandToken: r.cfg.Token, TLS: r.tls, Logger: r.log.With("part", "mqtt"), CloseTimeout: 10 * time.Second,
		OnStoreFault:  func(err error) { faults.set(0, storeFaultLine(err)) },
		OnCommandPath: func(err error) { faults.set(1, commandPathLine(err)) }})
	if err != nil {
		return err
	}
	r.pub = pub
	r.onClose("publisher", pub.Close)
	r.cmds = make(chan Command)
	opts := r.cfg.Options
	opts.Logger, opts.Publisher, opts.Commands = r.log, mqttOut{pub, r.log}, r.cmds
	n, err := New(opts)
	if err != nil {
		return err
	}
	r.n = n
	// Closed first: no analysis publishes once the broadcast is closed.
	r.onClose("board", n.Close)
	faults.attach(n)
	if err := pub.StoreFault(); err != nil { // before the board existed
		faults.set(0, storeFaultLine(err))
	}
	return nil
}

// serve runs the board, the commands from MQTT, the scoreboard's feed,
// the web page and the players (Alongside) until ctx is done or the
// board or the players stop, and returns the first error.
func (r *process) serve(ctx context.Context) error {
	r.served = true
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { r.forwardCommands(ctx); return nil })
	if r.follow != nil {
		g.Go(func() error {
			if err := r.sb.Follow(ctx, *r.follow); err != nil {
				r.log.Error("scoreboard", "err", err)
			}
			return nil
		})
	}
	r.serveWeb()
	if r.cfg.Ready != nil {
		url := ""
		if r.web() {
			url = r.httpURL
		}
		r.cfg.Ready(r.url, url)
	}
	if play := r.cfg.Alongside; play != nil {
		spawn := r.cfg.Spawn
		if spawn == nil {
			spawn = func(f func()) { go f() }
		}
		played := make(chan error, 1)
		spawn(func() { played <- play(ctx, r.n) })
		g.Go(func() error {
			err := <-played
			cancel()
			if errors.Is(err, context.Canceled) {
				err = nil
			}
			return err
		})
	}
	g.Go(func() error {
		err := r.n.Run(ctx)
		cancel()
		return err
	})
	return g.Wait()
}

// serveWeb serves the web page on its listener; shutdown closes the
// server (the closer listenWeb added) and waits for it.
func (r *process) serveWeb() {
	if r.ln == nil {
		return
	}
	log := r.log.With("part", "web")
	r.srv = scoreboard.NewHTTPServer(statusPage(r.n, r.sb), log)
	r.stopped = make(chan struct{})
	ln := scoreboard.LimitListener(r.ln, log)
	go func() { defer close(r.stopped); r.srv.Serve(ln) }()
}

// forwardCommands hands the commands from MQTT to the board, and answers
// each on its outcome, until ctx is done.
func (r *process) forwardCommands(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case c := <-r.pub.Commands():
			nc := Command{Envelope: c}
			nc.Done = func(err error) {
				if err != nil {
					r.pub.Refuse(c, err.Error())
				} else {
					r.pub.Accept(c)
				}
			}
			select {
			case r.cmds <- nc:
			case <-ctx.Done():
				return
			}
		}
	}
}

// inUse rewrites an "address already in use" error from listening on one
// of the board's addresses as one line naming the address and the setting
// that changes it. Other errors pass through.
func (r *process) inUse(err error) error {
	if !errors.Is(err, syscall.EADDRINUSE) {
		return err
	}
	s := r.cfg.Setting
	addr, setting, what := "", s.Listen, "the MQTT broker"
	var op *net.OpError
	if errors.As(err, &op) && op.Addr != nil {
		addr = op.Addr.String()
	}
	// Match by port: "localhost:8080" listens as 127.0.0.1:8080.
	port := func(a string) string { _, p, _ := net.SplitHostPort(a); return p }
	listen, ws, web := port(r.cfg.Listen), port(r.cfg.WebSocket), port(r.cfg.HTTP)
	switch {
	case addr == "":
		addr = r.cfg.Listen
	case port(addr) == ws && ws != listen:
		setting, what = s.WebSocket, "the MQTT WebSocket listener"
	case port(addr) == web && web != listen:
		setting, what = s.HTTP, "the scoreboard"
	}
	hint := ""
	if strings.HasSuffix(addr, ":1883") {
		hint = " (another MQTT broker? Debian's mosquitto listens there once installed)"
	}
	return fmt.Errorf("%s cannot listen on %s: the address is already in use%s; choose another with %s (port 0 picks a free one)", what, addr, hint, setting)
}

func randomSecret() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// statusPage serves the scoreboard (the board's live view, the
// tournament view and the overlay) and /state.json, the controller's
// current state.
func statusPage(n *Node, sb *scoreboard.Server) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/state.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(n.Controller().State())
	})
	mux.Handle("/", sb.Handler())
	return mux
}

// SubscribeScoreboard feeds the scoreboard from the embedded broker, in
// process. Call it before the broker starts (see Run).
func SubscribeScoreboard(sb *scoreboard.Server, b *broker.Broker) error {
	for _, f := range sb.Filters() {
		if err := b.Subscribe(f, func(topic string, payload []byte, _ bool) { sb.Handle(topic, payload) }); err != nil {
			return err
		}
	}
	return nil
}

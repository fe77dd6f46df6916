package main

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
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/zertzboard/zertzboard/board"
	"github.com/zertzboard/zertzboard/broadcast"
	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/internal/logguard"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/scoreboard"
	"github.com/zertzboard/zertzboard/wire"
)

// daemon is what "run" and "sim" share: a node, the MQTT broadcast (with
// the embedded broker unless an external one is named) and the web page.
type daemon struct {
	node   board.Options // without Publisher and Commands
	broker string        // "embedded" or a URL
	listen string        // embedded broker TCP address
	ws     string        // embedded broker WebSocket address ("off" for none)
	users  []broker.User
	limits broker.Limits // the embedded broker's; zero fields take defaults
	// brokerCert and brokerKey (PEM files) put the embedded broker's
	// listeners on TLS.
	brokerCert, brokerKey string
	username              string
	password              string
	store                 string // paho's persistent store directory
	token                 string
	tls                   broadcast.TLSConfig
	http                  string // "off" for none
	// results is the scoreboard's directory of finished games ("" keeps
	// them in memory only).
	results string
	// viewer is the scoreboard's account on an external broker; empty
	// user means anonymous.
	viewerUser, viewerPass string
	log                    *slog.Logger
	// brokerLog is for the embedded broker, which is chatty; nil discards.
	brokerLog *slog.Logger
	// play, if not nil, runs beside the node (the simulator's players);
	// when it returns, the daemon stops.
	play func(ctx context.Context, n *board.Node) error
	// spawn, if not nil, starts play's goroutine (go f() by default): the
	// simulator on virtual time makes it a participant of its lockstep
	// clock. play starts before the node runs.
	spawn func(f func())
	// ready, if not nil, is called once everything listens.
	ready func(mqttURL, httpURL string)
	// setting names how a user changes each listening address (a flag or
	// a configuration key), for the error when one is in use.
	setting struct{ listen, ws, http string }
}

// inUse rewrites an "address already in use" error from listening on one
// of the daemon's addresses as one line naming the address and the setting
// that changes it. Other errors pass through.
func (d *daemon) inUse(err error) error {
	if !errors.Is(err, syscall.EADDRINUSE) {
		return err
	}
	addr, setting, what := "", d.setting.listen, "the MQTT broker"
	var op *net.OpError
	if errors.As(err, &op) && op.Addr != nil {
		addr = op.Addr.String()
	}
	// Match by port: "localhost:8080" listens as 127.0.0.1:8080.
	port := func(a string) string { _, p, _ := net.SplitHostPort(a); return p }
	switch {
	case addr == "":
		addr = d.listen
	case port(addr) == port(d.ws) && port(d.ws) != port(d.listen):
		setting, what = d.setting.ws, "the MQTT WebSocket listener"
	case port(addr) == port(d.http) && port(d.http) != port(d.listen):
		setting, what = d.setting.http, "the scoreboard"
	}
	hint := ""
	if strings.HasSuffix(addr, ":1883") {
		hint = " (another MQTT broker? Debian's mosquitto listens there once installed)"
	}
	return fmt.Errorf("%s cannot listen on %s: the address is already in use%s; choose another with %s (port 0 picks a free one)", what, addr, hint, setting)
}

// mqttOut adapts the publisher to the controller: it never blocks, and
// logs what it cannot queue.
type mqttOut struct {
	p   *broadcast.Publisher
	log *slog.Logger
}

func (o mqttOut) State(s wire.State)      { o.check(o.p.PublishState(s)) }
func (o mqttOut) Move(m wire.MoveMessage) { o.check(o.p.PublishMove(m)) }
func (o mqttOut) Event(e referee.Event) {
	if e.Body.Kind() == "journal-damaged" {
		// Found at start-up, before the broker is reached: said after
		// every connection, not dropped as events are while offline.
		o.check(o.p.PublishNotice(e))
		return
	}
	o.check(o.p.PublishEvent(e))
}
func (o mqttOut) Record(b []byte) { o.check(o.p.PublishRecord(b)) }
func (o mqttOut) check(err error) {
	if err != nil {
		o.log.Error("mqtt publish", "err", err)
	}
}

// run starts everything, runs until ctx is done, SIGINT or SIGTERM, or play
// returns, then shuts down: LEDs dark, queued messages delivered (or left
// in the store), broker closed.
func (d *daemon) run(ctx context.Context) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	url := d.broker
	if d.brokerLog == nil {
		d.brokerLog = slog.New(slog.DiscardHandler)
	}
	// No line may carry a client's payload or grow without bound.
	d.log = slog.New(logguard.New(d.log.Handler(), nil))
	if d.node.Logger != nil {
		d.node.Logger = slog.New(logguard.New(d.node.Logger.Handler(), nil))
	}
	// The scoreboard, if the web page is on. With the embedded broker it
	// listens in process, subscribed before the listeners open: mochi
	// 2.7.9 reads retained messages without a lock when a wildcard
	// subscription is made (mochi-mqtt/server#200), so it must not race a
	// client publishing retained state.
	var sb *scoreboard.Server
	web := d.http != "" && d.http != "off"
	if web {
		sb = scoreboard.New(scoreboard.Options{Logger: d.log.With("part", "scoreboard")})
		defer sb.Close()
		if d.results != "" {
			if err := sb.OpenResults(d.results, 0); err != nil {
				return err
			}
		}
	}
	embedded := false
	if url == "embedded" {
		if d.password == "" {
			d.password = randomSecret()
		}
		users := append([]broker.User{{Name: d.username, Password: d.password, Role: broker.RoleBoard}}, d.users...)
		b, err := broker.New(broker.Config{TCPAddr: d.listen, WSAddr: d.ws, Users: users, Logger: d.brokerLog,
			Limits: d.limits, TLSCertFile: d.brokerCert, TLSKeyFile: d.brokerKey})
		if err != nil {
			return err
		}
		if sb != nil {
			if err := subscribeScoreboard(sb, b); err != nil {
				return err
			}
		}
		if err := b.Start(); err != nil {
			return d.inUse(fmt.Errorf("starting the MQTT broker on %s: %w", d.listen, err))
		}
		defer b.Close()
		embedded = true
		url = "tcp://" + b.TCPAddr()
		ws := "ws://"
		if b.TLS() {
			// The board's own client trusts its broker: it dials
			// loopback, where the certificate's name need not match.
			url, ws = "ssl://"+b.TCPAddr(), "wss://"
			d.tls = broadcast.TLSConfig{InsecureSkipVerify: true}
		}
		if a := b.WSAddr(); a != "" {
			d.log.Info("MQTT over WebSocket", "url", ws+a+"/")
		}
		if sb != nil {
			// Operators log in to the console against this broker's
			// accounts, over loopback.
			var tc *tls.Config
			if b.TLS() {
				tc = &tls.Config{InsecureSkipVerify: true}
			}
			if err := sb.EnableConsole(scoreboard.ConsoleConfig{Broker: url, TLS: tc}); err != nil {
				return err
			}
		}
	}
	// A store directory that cannot be made is no reason to stop: the
	// publisher keeps messages in memory and reports the fault.
	faults := &systemFaults{}
	pub, err := broadcast.New(broadcast.Config{Brokers: []string{url}, BoardID: d.node.BoardID, Username: d.username, Password: d.password,
		StoreDir: d.store, CommandToken: d.token, TLS: d.tls, Logger: d.log.With("part", "mqtt"), CloseTimeout: 10 * time.Second,
		OnStoreFault:  func(err error) { faults.set(0, storeFaultLine(err)) },
		OnCommandPath: func(err error) { faults.set(1, commandPathLine(err)) }})
	if err != nil {
		return err
	}
	cmds := make(chan board.Command)
	opts := d.node
	opts.Publisher, opts.Commands = mqttOut{pub, d.log}, cmds
	n, err := board.New(opts)
	if err != nil {
		pub.Close()
		return err
	}
	defer n.Close()
	faults.attach(n)
	if err := pub.StoreFault(); err != nil { // before the node existed
		faults.set(0, storeFaultLine(err))
	}

	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wg.Add(1)
	go func() { // commands from MQTT, answered on events
		defer wg.Done()
		for {
			select {
			case <-ctx.Done():
				return
			case c := <-pub.Commands():
				nc := board.Command{Envelope: c}
				nc.Done = func(err error) {
					if err != nil {
						pub.Refuse(c, err.Error())
					} else {
						pub.Accept(c)
					}
				}
				select {
				case cmds <- nc:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	httpURL := ""
	if web {
		ln, err := net.Listen("tcp", d.http)
		if err != nil {
			cancel()
			wg.Wait()
			pub.Close()
			return d.inUse(fmt.Errorf("web page on %s: %w", d.http, err))
		}
		if !embedded {
			tc, err := d.tls.Build()
			if err != nil {
				ln.Close()
				cancel()
				wg.Wait()
				pub.Close()
				return err
			}
			followScoreboard(ctx, &wg, sb, scoreboard.MQTTConfig{Broker: url, Username: d.viewerUser, Password: d.viewerPass, TLS: tc}, d.log.With("part", "scoreboard"))
			if err := sb.EnableConsole(scoreboard.ConsoleConfig{Broker: url, TLS: tc}); err != nil {
				ln.Close()
				cancel()
				wg.Wait()
				pub.Close()
				return err
			}
		}
		warnConsoleClear(d.log, ln.Addr())
		srv := scoreboard.NewHTTPServer(statusPage(n, sb), d.log.With("part", "web"))
		go srv.Serve(scoreboard.LimitListener(ln, d.log.With("part", "web")))
		defer srv.Close()
		httpURL = "http://" + ln.Addr().String() + "/"
	}
	if d.ready != nil {
		d.ready(url, httpURL)
	}
	errs := make(chan error, 2)
	if d.play != nil {
		spawn := d.spawn
		if spawn == nil {
			spawn = func(f func()) { go f() }
		}
		wg.Add(1)
		spawn(func() {
			defer wg.Done()
			err := d.play(ctx, n)
			if errors.Is(err, context.Canceled) {
				err = nil
			}
			errs <- err
			cancel()
		})
	}
	wg.Add(1)
	go func() { defer wg.Done(); errs <- n.Run(ctx) }()
	var first error
	select {
	case first = <-errs:
	case <-ctx.Done():
	}
	cancel()
	wg.Wait()
	close(errs)
	for err := range errs {
		if first == nil {
			first = err
		}
	}
	n.Controller().Close() // no analysis publishes once the broadcast is closed
	if err := pub.Close(); err != nil && first == nil {
		first = err
	}
	d.log.Info("stopped")
	return first
}

// storeFaultLine is the status screen's line for the MQTT store's state.
func storeFaultLine(err error) string {
	if err == nil {
		return ""
	}
	return "MQTT store: disk error"
}

// commandPathLine is the status screen's line for the board's command
// path (its health check after each MQTT connection).
func commandPathLine(err error) string {
	if err == nil {
		return ""
	}
	return "MQTT: commands not arriving"
}

// systemFaults joins the faults from outside the sensors for the screen's
// one line: the MQTT store's and the command path's.
type systemFaults struct {
	mu    sync.Mutex
	n     *board.Node
	lines [2]string
}

func (f *systemFaults) attach(n *board.Node) {
	f.mu.Lock()
	f.n = n
	f.mu.Unlock()
	f.show()
}

func (f *systemFaults) set(i int, line string) {
	f.mu.Lock()
	f.lines[i] = line
	f.mu.Unlock()
	f.show()
}

func (f *systemFaults) show() {
	f.mu.Lock()
	n := f.n
	var parts []string
	for _, l := range f.lines {
		if l != "" {
			parts = append(parts, l)
		}
	}
	f.mu.Unlock()
	if n != nil {
		n.SetFault(strings.Join(parts, "; "))
	}
}

func randomSecret() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// statusPage serves the scoreboard (the board's live view, the
// tournament view and the overlay) and /state.json, the controller's
// current state.
func statusPage(n *board.Node, sb *scoreboard.Server) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/state.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(n.Controller().State())
	})
	mux.Handle("/", sb.Handler())
	return mux
}

// storeBeside returns the MQTT store directory next to a journal file.
func storeBeside(journal string) string {
	if journal == board.JournalOff {
		return "" // in memory
	}
	// One store per journal: boards whose journals share a directory
	// must not share a store (each would send the other's messages and
	// lose its own). journal.jsonl, the packaged name, keeps the store
	// its older versions used.
	name := filepath.Base(journal)
	if name == "journal.jsonl" {
		return filepath.Join(filepath.Dir(journal), "mqtt-store")
	}
	return filepath.Join(filepath.Dir(journal), strings.TrimSuffix(name, filepath.Ext(name))+".mqtt-store")
}

package scoreboard

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/zertzboard/zertzboard/internal/boardid"
	"github.com/zertzboard/zertzboard/internal/logguard"
)

// StandaloneConfig is the scoreboard on its own (RunStandalone): for a
// hall of boards sharing a broker.
type StandaloneConfig struct {
	HTTP    string // the pages' address
	Prefix  string // the root of the boards' topics
	Results string // finished games' directory; "" keeps them in memory
	Console bool   // serve the arbiter console, logging in against MQTT.Broker
	// Halls are the bridged halls: each hall's name and its boards.
	Halls Halls
	// Proxies are reverse proxies in front, not limited per address.
	Proxies Proxies
	MQTT    MQTTConfig
	Logger  *slog.Logger // nil discards
}

// ConfigError is RunStandalone's error for a configuration it cannot use
// (a results directory, a broker URL): the user's to fix.
type ConfigError struct{ Err error }

func (e ConfigError) Error() string { return e.Err.Error() }
func (e ConfigError) Unwrap() error { return e.Err }

// RunStandalone follows the broker and serves the pages until ctx is
// done; ready, if not nil, gets the pages' URL once they listen. Its
// error is a ConfigError when the configuration is at fault.
func RunStandalone(ctx context.Context, cfg StandaloneConfig, ready func(httpURL string)) error {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	log := slog.New(logguard.New(cfg.Logger.Handler(), nil)) // clipped, rate-limited per viewer
	sb := New(Options{Prefix: cfg.Prefix, Logger: log, Halls: cfg.Halls})
	if cfg.Results != "" {
		if err := sb.OpenResults(cfg.Results, 0); err != nil {
			sb.Close()
			return ConfigError{err}
		}
	}
	if cfg.Console {
		if err := sb.EnableConsole(ConsoleConfig{Broker: cfg.MQTT.Broker, TLS: cfg.MQTT.TLS}); err != nil {
			sb.Close()
			return ConfigError{err}
		}
	}
	ln, err := net.Listen("tcp", cfg.HTTP)
	if err != nil {
		sb.Close()
		return fmt.Errorf("web pages on %s: %w", cfg.HTTP, err)
	}
	if cfg.Console {
		WarnConsoleClear(log, ln.Addr())
	}
	return serveStandalone(ctx, sb, ln, cfg, log, ready)
}

// serveStandalone serves sb on ln, fed from the broker, until ctx is done
// or either stops; then it closes sb.
func serveStandalone(ctx context.Context, sb *Server, ln net.Listener, cfg StandaloneConfig, log *slog.Logger, ready func(string)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	follow := make(chan error, 1)
	go func() { follow <- sb.Follow(ctx, cfg.MQTT) }()
	srv := NewHTTPServer(sb.Handler(), log)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(LimitListener(ln, log, cfg.Proxies...)) }()
	if ready != nil {
		ready("http://" + ln.Addr().String() + "/")
	}
	var first error
	select {
	case <-ctx.Done():
	case err := <-follow:
		first = ConfigError{err} // Follow returns early only for a bad URL
		follow <- nil
	case err := <-served:
		first = err
		served <- nil
	}
	cancel()
	sb.Close() // ends the event streams, which Shutdown would wait for
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	if err := srv.Shutdown(sctx); err != nil && first == nil {
		first = err
	}
	<-follow
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) && first == nil {
		first = err
	}
	return first
}

// WarnConsoleClear says at start-up when operators' passwords would reach
// the console over the network in clear: the pages are plain HTTP.
func WarnConsoleClear(log *slog.Logger, addr net.Addr) {
	if a, ok := addr.(*net.TCPAddr); ok && !a.IP.IsLoopback() {
		log.Warn("scoreboard: the arbiter console is served over plain HTTP beyond loopback: operators' passwords cross the network in clear (use it on a trusted network, or behind an HTTPS proxy)", "address", addr.String())
	}
}

// Halls are the bridged halls and their boards (StandaloneConfig.Halls):
// hall name → board IDs. As a flag.Value, each Set adds one hall,
// "NAME:ID,ID,…"; a board is in one hall at most.
type Halls map[string][]string

func (h Halls) String() string {
	var parts []string
	for name, ids := range h {
		parts = append(parts, name+":"+strings.Join(ids, ","))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

func (h Halls) Set(v string) error {
	name, list, ok := strings.Cut(v, ":")
	if !ok || list == "" {
		return fmt.Errorf("want NAME:ID,ID,…, not %q", v)
	}
	if err := boardid.Check(name); err != nil {
		return fmt.Errorf("hall %q: %w", name, err)
	}
	if _, dup := h[name]; dup {
		return fmt.Errorf("hall %q given twice", name)
	}
	for _, id := range strings.Split(list, ",") {
		if err := boardid.Check(id); err != nil {
			return fmt.Errorf("hall %s: board %q: %w", name, id, err)
		}
		for other, ids := range h {
			if slices.Contains(ids, id) {
				return fmt.Errorf("board %s is in halls %s and %s", id, other, name)
			}
		}
		h[name] = append(h[name], id)
	}
	return nil
}

// Proxies are the addresses of reverse proxies in front of the pages
// (StandaloneConfig.Proxies). As a flag.Value, each Set adds one IP.
type Proxies []netip.Addr

func (p *Proxies) String() string {
	var s []string
	for _, a := range *p {
		s = append(s, a.String())
	}
	return strings.Join(s, ",")
}

func (p *Proxies) Set(v string) error {
	a, err := netip.ParseAddr(v)
	if err != nil {
		return fmt.Errorf("want an IP address, not %q", v)
	}
	*p = append(*p, a.Unmap())
	return nil
}

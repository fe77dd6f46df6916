package broker

import (
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mochi-mqtt/server/v2/listeners"

	"github.com/zertzboard/zertzboard/internal/connlimit"
)

// tcpListener is mochi's TCP listener plus two fixes, which the WebSocket
// listener shares through conns:
//   - a deadline for the CONNECT packet: mochi reads it without one, so a
//     connection that never speaks would hold a goroutine forever and make
//     Close wait for it (once connected, mochi sets its own deadline from
//     the keepalive);
//   - Close waits for the connections it started: mochi counts clients in
//     a WaitGroup that each client's goroutine joins itself, racing with
//     Close's Wait (the race detector reports it).
type tcpListener struct {
	id, addr string
	connect  time.Duration
	limits   Limits
	tls      *tls.Config // nil for plain TCP
	mu       sync.Mutex
	ln       net.Listener
	log      *slog.Logger
	closed   atomic.Bool
	conns    conns
}

// conns tracks a listener's open connections.
type conns struct {
	mu     sync.Mutex
	open   map[net.Conn]bool
	closed bool
	wg     sync.WaitGroup
}

// add registers c; false means the listener is closing and c was closed.
func (cs *conns) add(c net.Conn) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.closed {
		c.Close()
		return false
	}
	if cs.open == nil {
		cs.open = map[net.Conn]bool{}
	}
	cs.open[c] = true
	cs.wg.Add(1)
	return true
}

func (cs *conns) done(c net.Conn) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.open, c)
	cs.wg.Done()
}

// closeAndWait closes every connection and waits for their goroutines.
func (cs *conns) closeAndWait() {
	cs.mu.Lock()
	cs.closed = true
	for c := range cs.open {
		c.Close()
	}
	cs.mu.Unlock()
	cs.wg.Wait()
}

var _ listeners.Listener = (*tcpListener)(nil)

func newTCPListener(id, addr string, connect time.Duration, limits Limits, tc *tls.Config) *tcpListener {
	return &tcpListener{id: id, addr: addr, connect: connect, limits: limits, tls: tc}
}

// limitListener bounds the connections ln accepts (Limits.MaxConns…), and
// wraps them in TLS when tc is set: the limits apply before a handshake
// costs anything.
func limitListener(ln net.Listener, l Limits, tc *tls.Config, log func() *slog.Logger) net.Listener {
	ln = connlimit.Listener(ln, connlimit.New(l.connLimits(), nil), func(remote net.Addr, reason string) {
		log().Warn("broker: connection refused", "remote", remote.String(), "reason", reason)
	})
	if tc != nil {
		ln = tls.NewListener(ln, tc)
	}
	return ln
}

func (l *tcpListener) ID() string       { return l.id }
func (l *tcpListener) Protocol() string { return "tcp" }

func (l *tcpListener) Address() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ln != nil {
		return l.ln.Addr().String()
	}
	return l.addr
}

func (l *tcpListener) Init(log *slog.Logger) error {
	ln, err := net.Listen("tcp", l.addr)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ln, l.log = limitListener(ln, l.limits, l.tls, func() *slog.Logger { return log }), log
	return nil
}

func (l *tcpListener) Serve(establish listeners.EstablishFn) {
	l.mu.Lock()
	ln := l.ln
	l.mu.Unlock()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if !l.closed.Load() && !errors.Is(err, net.ErrClosed) {
				l.log.Error("broker: accepting failed", "error", err)
			}
			return
		}
		if !l.conns.add(conn) {
			return
		}
		_ = conn.SetDeadline(time.Now().Add(l.connect))
		go func() {
			defer l.conns.done(conn)
			if err := establish(l.id, newGuardConn(conn, l.limits)); err != nil {
				l.log.Debug("broker: client ended", "error", err)
			}
		}()
	}
}

func (l *tcpListener) Close(closeClients listeners.CloseFn) {
	if l.closed.Swap(true) {
		return
	}
	l.mu.Lock()
	ln := l.ln
	l.mu.Unlock()
	if ln != nil {
		_ = ln.Close()
	}
	closeClients(l.id)
	l.conns.closeAndWait()
}

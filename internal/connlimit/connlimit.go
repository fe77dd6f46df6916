// Package connlimit limits the connections a listener accepts, per remote
// address and in total: how many may be open at once and how fast new ones
// may come. Connections over a limit are closed as soon as they are
// accepted, before any byte is read, so that a flood costs a file
// descriptor for a moment and nothing else.
//
// Layer: base. May import: base.
package connlimit

import (
	"net"
	"net/http"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Limits are the bounds; a zero field means no limit of that kind.
type Limits struct {
	Total   int     // open connections
	PerAddr int     // open connections from one address
	Rate    float64 // new connections per second from one address, after Burst
	Burst   int     // new connections at once from one address (default 1 with Rate)
	// Exempt are addresses with no per-address limit (PerAddr, Rate):
	// a reverse proxy in front, which carries many viewers' connections.
	// Total still counts them.
	Exempt []netip.Addr
}

// Limiter keeps the counts. It is safe for concurrent use.
type Limiter struct {
	lim Limits
	now func() time.Time

	mu    sync.Mutex
	open  int
	addrs map[netip.Addr]*addr

	refused atomic.Int64
	evicted atomic.Int64
}

// reasonFull is Admit's reason when the total is reached.
const reasonFull = "too many connections"

type addr struct {
	open   int
	tokens float64
	last   time.Time
}

// maxAddrs bounds the table of addresses; idle entries are dropped first.
const maxAddrs = 4096

// New returns a Limiter; now may be nil (time.Now).
func New(l Limits, now func() time.Time) *Limiter {
	if l.Rate > 0 && l.Burst < 1 {
		l.Burst = 1
	}
	if now == nil {
		now = time.Now
	}
	return &Limiter{lim: l, now: now, addrs: map[netip.Addr]*addr{}}
}

// Admit counts a new connection from remote. It returns a release
// function to call once when the connection closes, or a reason it is
// refused.
func (l *Limiter) Admit(remote net.Addr) (release func(), reason string) {
	ip := addrOf(remote)
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lim.Total > 0 && l.open >= l.lim.Total {
		l.refused.Add(1)
		return nil, reasonFull
	}
	if slices.Contains(l.lim.Exempt, ip) {
		l.open++
		var once sync.Once
		return func() {
			once.Do(func() {
				l.mu.Lock()
				defer l.mu.Unlock()
				l.open--
			})
		}, ""
	}
	a := l.addrs[ip]
	if a == nil {
		if len(l.addrs) >= maxAddrs {
			l.pruneLocked(now)
		}
		if len(l.addrs) >= maxAddrs {
			l.refused.Add(1)
			return nil, "too many addresses"
		}
		a = &addr{tokens: float64(l.lim.Burst), last: now}
		l.addrs[ip] = a
	}
	if l.lim.PerAddr > 0 && a.open >= l.lim.PerAddr {
		l.refused.Add(1)
		return nil, "too many connections from this address"
	}
	if l.lim.Rate > 0 {
		a.tokens = min(float64(l.lim.Burst), a.tokens+now.Sub(a.last).Seconds()*l.lim.Rate)
		a.last = now
		if a.tokens < 1 {
			l.refused.Add(1)
			return nil, "connecting too fast"
		}
		a.tokens--
	}
	a.open++
	l.open++
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			a.open--
			l.open--
		})
	}, ""
}

// pruneLocked forgets addresses with nothing open whose bucket is full.
func (l *Limiter) pruneLocked(now time.Time) {
	for ip, a := range l.addrs {
		full := l.lim.Rate <= 0 || a.tokens+now.Sub(a.last).Seconds()*l.lim.Rate >= float64(l.lim.Burst)
		if a.open == 0 && full {
			delete(l.addrs, ip)
		}
	}
}

// Open is the number of connections admitted and not yet released.
func (l *Limiter) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

// Refused is the number of connections refused so far.
func (l *Limiter) Refused() int64 { return l.refused.Load() }

func addrOf(a net.Addr) netip.Addr {
	if ta, ok := a.(*net.TCPAddr); ok {
		ip, _ := netip.AddrFromSlice(ta.IP)
		return ip.Unmap()
	}
	if ap, err := netip.ParseAddrPort(a.String()); err == nil {
		return ap.Addr().Unmap()
	}
	return netip.Addr{}
}

// Listener wraps ln: Accept returns only admitted connections, whose
// Close releases them. Refused connections are closed at once and
// reported to onRefuse (which may be nil).
//
// When the listener is full, the connection idle the longest loses its
// slot to the new one: every connection starts idle, and its server says
// when it is busy (SetIdle; an HTTP server's ConnState does, through
// TrackHTTP). So connections that say nothing (an MQTT client before its
// CONNECT, an HTTP keep-alive waiting for a request) can never keep out a
// client that has something to do.
func Listener(ln net.Listener, l *Limiter, onRefuse func(remote net.Addr, reason string)) net.Listener {
	return &listener{Listener: ln, l: l, onRefuse: onRefuse, open: map[*conn]struct{}{}}
}

type listener struct {
	net.Listener
	l        *Limiter
	onRefuse func(net.Addr, string)

	mu   sync.Mutex
	open map[*conn]struct{}
}

// evictIdle closes the connection idle the longest, if one is; it
// reports whether it did.
func (ln *listener) evictIdle() bool {
	ln.mu.Lock()
	var oldest *conn
	var since int64
	for c := range ln.open {
		if t := c.idleSince.Load(); t != 0 && (oldest == nil || t < since) {
			oldest, since = c, t
		}
	}
	ln.mu.Unlock()
	if oldest == nil {
		return false
	}
	ln.l.evicted.Add(1)
	oldest.Close()
	return true
}

func (ln *listener) Accept() (net.Conn, error) {
	for {
		c, err := ln.Listener.Accept()
		if err != nil {
			return nil, err
		}
		release, reason := ln.l.Admit(c.RemoteAddr())
		if reason == reasonFull && ln.evictIdle() {
			release, reason = ln.l.Admit(c.RemoteAddr())
		}
		if reason != "" {
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.SetLinger(0) // a reset: no TIME_WAIT kept for a refused peer
			}
			c.Close()
			if ln.onRefuse != nil {
				ln.onRefuse(c.RemoteAddr(), reason)
			}
			continue
		}
		cc := &conn{Conn: c}
		cc.idleSince.Store(time.Now().UnixNano())
		ln.mu.Lock()
		ln.open[cc] = struct{}{}
		ln.mu.Unlock()
		cc.release = func() {
			ln.mu.Lock()
			delete(ln.open, cc)
			ln.mu.Unlock()
			release()
		}
		return cc, nil
	}
}

type conn struct {
	net.Conn
	release   func()
	once      sync.Once
	idleSince atomic.Int64 // unix ns since it is idle; 0 while busy
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// SetIdle says whether c (a connection from a Listener, possibly wrapped
// by crypto/tls or another wrapper with a NetConn method) is idle: idle
// connections lose their slot first when the listener is full. Others
// are left alone.
func SetIdle(c net.Conn, idle bool) {
	for c != nil {
		if cc, ok := c.(*conn); ok {
			switch {
			case !idle:
				cc.idleSince.Store(0)
			case cc.idleSince.Load() == 0:
				cc.idleSince.Store(time.Now().UnixNano())
			}
			return
		}
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			return
		}
		c = u.NetConn()
	}
}

// TrackHTTP is an http.Server ConnState function for a server on a
// Listener: connections waiting for a request are idle.
func TrackHTTP(c net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew, http.StateIdle:
		SetIdle(c, true)
	case http.StateActive, http.StateHijacked:
		SetIdle(c, false)
	}
}

// Evicted is the number of idle connections closed to make room.
func (l *Limiter) Evicted() int64 { return l.evicted.Load() }

// NetConn returns the wrapped connection (as crypto/tls does).
func (c *conn) NetConn() net.Conn { return c.Conn }

package broker

import (
	"crypto/tls"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/mochi-mqtt/server/v2/listeners"
)

// wsListener serves MQTT over WebSocket. Mochi has one, but it binds inside
// http.ListenAndServe and so cannot report the port it got for ":0"; this
// one binds in Init, which tests and the sim's --mqtt-listen need.
type wsListener struct {
	id, addr  string
	connect   time.Duration // deadline for the CONNECT packet, as tcpListener
	limits    Limits
	tls       *tls.Config
	ln        net.Listener
	srv       *http.Server
	log       *slog.Logger
	establish listeners.EstablishFn
	upgrader  websocket.Upgrader
	closed    atomic.Bool
	mu        sync.Mutex
	conns     conns // see tcpListener
}

var _ listeners.Listener = (*wsListener)(nil)

func newWSListener(id, addr string, connect time.Duration, limits Limits, tc *tls.Config) *wsListener {
	return &wsListener{
		id: id, addr: addr, connect: connect, limits: limits, tls: tc,
		upgrader: websocket.Upgrader{
			Subprotocols: []string{"mqtt"},
			// Overlays are served from anywhere (OBS, a CDN). Access is
			// decided by MQTT credentials, never by cookies, so there is
			// no cross-site request to forge.
			CheckOrigin: func(*http.Request) bool { return true },
		},
	}
}

func (l *wsListener) ID() string       { return l.id }
func (l *wsListener) Protocol() string { return "ws" }

func (l *wsListener) Address() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ln != nil {
		return l.ln.Addr().String()
	}
	return l.addr
}

func (l *wsListener) Init(log *slog.Logger) error {
	ln, err := net.Listen("tcp", l.addr)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.log = log
	l.ln = limitListener(ln, l.limits, l.tls, func() *slog.Logger { return log })
	l.srv = &http.Server{Handler: http.HandlerFunc(l.handle), ReadHeaderTimeout: l.connect, MaxHeaderBytes: 16 << 10,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelDebug)}
	return nil
}

func (l *wsListener) Serve(establish listeners.EstablishFn) {
	l.mu.Lock()
	l.establish = establish
	srv, ln := l.srv, l.ln
	l.mu.Unlock()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) && !l.closed.Load() {
		l.log.Error("broker: WebSocket listener failed", "error", err)
	}
}

func (l *wsListener) handle(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff") // on Upgrade's error replies
	c, err := l.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has replied with the HTTP error
	}
	defer c.Close()
	if !l.conns.add(c.NetConn()) {
		return
	}
	defer l.conns.done(c.NetConn())
	_ = c.NetConn().SetDeadline(time.Now().Add(l.connect))
	l.mu.Lock()
	establish := l.establish
	l.mu.Unlock()
	if err := establish(l.id, newGuardConn(&wsConn{Conn: c.NetConn(), c: c}, l.limits)); err != nil {
		l.log.Debug("broker: WebSocket client ended", "error", err)
	}
}

// Close stops accepting, then has mochi disconnect this listener's clients
// (http.Server.Close does not touch hijacked connections).
func (l *wsListener) Close(closeClients listeners.CloseFn) {
	if l.closed.Swap(true) {
		return
	}
	l.mu.Lock()
	srv := l.srv
	l.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
	closeClients(l.id)
	l.conns.closeAndWait()
}

// wsConn carries the MQTT byte stream in binary WebSocket messages, as
// MQTT over WebSocket requires; a packet may span messages.
// NetConn returns the connection under the WebSocket (for connlimit).
func (w *wsConn) NetConn() net.Conn { return w.Conn }

type wsConn struct {
	net.Conn // deadlines and addresses come from the underlying connection
	c        *websocket.Conn
	r        io.Reader
	wmu      sync.Mutex
}

func (ws *wsConn) Read(p []byte) (int, error) {
	for {
		if ws.r == nil {
			op, r, err := ws.c.NextReader()
			if err != nil {
				return 0, err
			}
			if op != websocket.BinaryMessage {
				return 0, errors.New("broker: WebSocket message is not binary")
			}
			ws.r = r
		}
		n, err := ws.r.Read(p)
		if errors.Is(err, io.EOF) {
			ws.r = nil
			err = nil
			if n == 0 {
				continue
			}
		}
		return n, err
	}
}

func (ws *wsConn) Write(p []byte) (int, error) {
	ws.wmu.Lock()
	defer ws.wmu.Unlock()
	if err := ws.c.WriteMessage(websocket.BinaryMessage, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (ws *wsConn) Close() error { return ws.c.Close() }

package broker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/zertzboard/zertzboard/internal/connlimit"
)

// Limits bound what one client, or one address, can make the broker hold
// or do. A board on a shared LAN (a tournament hall, spectators' phones)
// must survive any client; a zero field takes its default.
type Limits struct {
	// MaxPacketSize bounds a whole MQTT packet in bytes (default 64 KiB).
	// A larger one closes the connection as soon as its header is read,
	// before its body is: the length a client claims is never allocated.
	// The board's own messages are a few kB; commands are at most 4 KiB.
	MaxPacketSize uint32
	// MaxClientIDLen bounds client identifiers in bytes (default 128;
	// MQTT requires at least 23).
	MaxClientIDLen int
	// ReceiveMaximum is how many QoS 1 and 2 publishes one client may
	// have unacknowledged towards the broker (default 16).
	ReceiveMaximum uint16
	// MaxInflight is how many QoS 1 and 2 messages the broker keeps
	// unacknowledged for one client (default 64); further ones are
	// dropped for that client.
	MaxInflight uint16
	// MaxQueued is how many packets may wait to be written to one client
	// (default 64). A client that falls further behind (it stopped
	// reading) is disconnected, as a scoreboard drops a stuck browser.
	MaxQueued int
	// MaxSubscriptions bounds one client's subscriptions (default 64; a
	// scoreboard needs five). Filters beyond it are refused in SUBACK.
	MaxSubscriptions int
	// MaxKeepalive is the longest keepalive granted, in seconds (default
	// 300). A client asking for none or for more gets this one (MQTT 5
	// clients are told so in CONNACK); a silent connection is closed after
	// one and a half times it.
	MaxKeepalive uint16
	// PacketRate and PacketBurst bound the packets one connection may
	// send: after PacketBurst at once, PacketRate per second (defaults
	// 200 and 1000). Beyond that the broker reads the connection more
	// slowly, so that TCP pushes back on the sender; nothing is dropped.
	PacketRate  float64
	PacketBurst int
	// MaxConns bounds the open connections of each listener (default
	// 256), MaxConnsPerAddr those from one IP address (default 32), and
	// ConnRate and ConnBurst how fast one address may open new ones
	// (defaults 8 per second after a burst of 32). Refused connections
	// are closed before a byte is read.
	//
	// When a listener is full, the connection idle the longest loses its
	// slot to the new one: a connection that has not sent its CONNECT,
	// or an anonymous viewer that has not subscribed.
	MaxConns        int
	MaxConnsPerAddr int
	ConnRate        float64
	ConnBurst       int
	// ReservedConns of each listener's MaxConns are kept for the board's
	// and operators' accounts: viewers (anonymous or not) may hold
	// MaxConns-ReservedConns (default 32 reserved), and a viewer beyond
	// that takes the slot of an anonymous viewer without subscriptions,
	// else is refused (CONNACK 0x03 / 0x88). MaxViewersPerAddr bounds the
	// viewers of one address (default 8), so that a few addresses cannot
	// take the viewers' share.
	ReservedConns     int
	MaxViewersPerAddr int
	// CommandRate and CommandBurst bound the commands (<prefix>+/cmd/…)
	// one connection may publish: after CommandBurst at once,
	// CommandRate per second (defaults 20 and 20). Beyond that the broker
	// reads that connection more slowly: the sender is slowed, and every
	// command it sent still reaches the board and gets its reply.
	CommandRate  float64
	CommandBurst int
	// CommandWait bounds how long a QoS 1 command waits, before it is
	// acknowledged, for a board that has half of MaxInflight messages
	// unacknowledged (default 5s). After it the command is refused rather
	// than acknowledged and dropped: MQTT 5 senders get PUBACK 0x97
	// (quota exceeded), MQTT 3.1.1 senders are disconnected and send it
	// again when they reconnect.
	CommandWait time.Duration
}

// DefaultLimits are the limits used for zero fields.
var DefaultLimits = Limits{
	MaxPacketSize:     64 << 10,
	MaxClientIDLen:    128,
	ReceiveMaximum:    16,
	MaxInflight:       64,
	MaxQueued:         64,
	MaxSubscriptions:  64,
	MaxKeepalive:      300,
	PacketRate:        200,
	PacketBurst:       1000,
	MaxConns:          256,
	MaxConnsPerAddr:   16,
	ReservedConns:     32,
	MaxViewersPerAddr: 8,
	ConnRate:          8,
	ConnBurst:         32,
	CommandRate:       20,
	CommandBurst:      20,
	CommandWait:       5 * time.Second,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	setIf(&l.MaxPacketSize, d.MaxPacketSize)
	setIf(&l.MaxClientIDLen, d.MaxClientIDLen)
	setIf(&l.ReceiveMaximum, d.ReceiveMaximum)
	setIf(&l.MaxInflight, d.MaxInflight)
	setIf(&l.MaxQueued, d.MaxQueued)
	setIf(&l.MaxKeepalive, d.MaxKeepalive)
	setIf(&l.MaxSubscriptions, d.MaxSubscriptions)
	setIf(&l.PacketRate, d.PacketRate)
	setIf(&l.PacketBurst, d.PacketBurst)
	setIf(&l.MaxConns, d.MaxConns)
	setIf(&l.MaxConnsPerAddr, d.MaxConnsPerAddr)
	setIf(&l.ConnRate, d.ConnRate)
	setIf(&l.ConnBurst, d.ConnBurst)
	setIf(&l.ReservedConns, d.ReservedConns)
	setIf(&l.MaxViewersPerAddr, d.MaxViewersPerAddr)
	setIf(&l.CommandRate, d.CommandRate)
	setIf(&l.CommandBurst, d.CommandBurst)
	setIf(&l.CommandWait, d.CommandWait)
	return l
}

func setIf[T int | uint16 | uint32 | float64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

func (l Limits) check() error {
	switch {
	case l.MaxPacketSize < 4096 || l.MaxPacketSize > 256<<20:
		return fmt.Errorf("broker: maximum packet size %d: want 4 KiB to 256 MiB (commands take up to 4 KiB)", l.MaxPacketSize)
	case l.MaxClientIDLen < 23:
		return fmt.Errorf("broker: maximum client ID length %d: MQTT requires at least 23", l.MaxClientIDLen)
	case l.ReservedConns >= l.MaxConns:
		return fmt.Errorf("broker: %d connections reserved for accounts of %d: leave some for viewers", l.ReservedConns, l.MaxConns)
	}
	return nil
}

func (l Limits) connLimits() connlimit.Limits {
	return connlimit.Limits{Total: l.MaxConns, PerAddr: l.MaxConnsPerAddr, Rate: l.ConnRate, Burst: l.ConnBurst}
}

// errPacketTooLarge ends a connection whose packet header claims more than
// MaxPacketSize.
var errPacketTooLarge = errors.New("broker: packet larger than the maximum packet size")

// guardConn stands between a connection and mochi. It follows the MQTT
// framing of what the client sends, so it can
//   - refuse a packet by its header, before mochi allocates its body;
//   - learn the protocol version from the CONNECT, so that closing it for
//     that reason sends MQTT 5 clients a DISCONNECT with reason code 0x95
//     and closes MQTT 3.1.1 clients without one, as each protocol wants;
//   - pace a client sending more packets than Limits.PacketRate.
//
// Writes are serialised so that the closing DISCONNECT never lands inside
// another packet. Following the framing costs next to nothing: it skips
// packet bodies by their length (BenchmarkGuardRead: about 11 GB/s on a
// 2-vCPU AMD EPYC VM).
type guardConn struct {
	net.Conn
	max   uint32
	rate  float64
	burst float64

	// the reader's state, used only by mochi's reading goroutine
	state   int    // 0: first header byte; 1: length bytes; 2: body
	length  uint32 // remaining length being decoded
	shift   uint
	body    int64  // body bytes still to skip
	packets int    // packets begun
	connect []byte // the first bytes of the CONNECT body
	tokens  float64
	last    time.Time
	readErr error
	cmds    *pacer // commands published, used by the auth hook on the reading goroutine

	mu      sync.Mutex // serialises writes and the closing DISCONNECT
	version byte       // protocol level from the CONNECT (4: 3.1.1, 5: 5)
	reason  byte       // the MQTT 5 reason code to send before closing
	closed  bool
}

func newGuardConn(c net.Conn, l Limits) *guardConn {
	return &guardConn{Conn: c, max: l.MaxPacketSize, rate: l.PacketRate, burst: float64(l.PacketBurst), tokens: float64(l.PacketBurst),
		cmds: newPacer(l.CommandRate, l.CommandBurst, nil)}
}

// NetConn returns the wrapped connection (for connlimit).
func (g *guardConn) NetConn() net.Conn { return g.Conn }

// trust lifts the packet pacing for the board's own account: it answers
// every command it receives (a PUBACK and a reply each), and pacing it
// would hold back its state and its acknowledgements behind a flooding
// operator. It runs on the reading goroutine, as Read does.
func (g *guardConn) trust() { g.rate = 0 }

// pacer is a token bucket that makes its caller wait.
type pacer struct {
	rate, burst, tokens float64
	last                time.Time
	now                 func() time.Time
}

func newPacer(rate float64, burst int, now func() time.Time) *pacer {
	if now == nil {
		now = time.Now
	}
	return &pacer{rate: rate, burst: float64(burst), tokens: float64(burst), now: now}
}

// take takes a token and returns how long to wait first (0: none).
func (p *pacer) take() time.Duration {
	now := p.now()
	if !p.last.IsZero() {
		p.tokens = min(p.burst, p.tokens+now.Sub(p.last).Seconds()*p.rate)
	}
	p.last = now
	p.tokens--
	if p.tokens >= 0 {
		return 0
	}
	return time.Duration(-p.tokens / p.rate * float64(time.Second))
}

func (g *guardConn) Read(p []byte) (int, error) {
	if g.readErr != nil {
		return 0, g.readErr
	}
	if err := g.pace(); err != nil {
		return 0, err
	}
	n, err := g.Conn.Read(p)
	for i := 0; i < n; {
		switch g.state {
		case 0:
			g.state, g.length, g.shift = 1, 0, 0
			g.packets++
			g.tokens--
			i++
		case 1:
			b := p[i]
			g.length |= uint32(b&0x7f) << g.shift
			g.shift += 7
			i++
			if b&0x80 != 0 {
				if g.shift >= 28 { // a fifth length byte: malformed
					return g.refuse(packets.ErrMalformedPacket.Code, errors.New("broker: malformed packet length"))
				}
				continue
			}
			// 1 header byte + the length's bytes + the body
			if size := uint64(g.length) + 1 + uint64(g.shift/7); size > uint64(g.max) {
				return g.refuse(packets.ErrPacketTooLarge.Code, errPacketTooLarge)
			}
			g.body, g.state = int64(g.length), 2
			if g.body == 0 {
				g.state = 0
			}
		case 2:
			k := int64(n - i)
			if k > g.body {
				k = g.body
			}
			if g.packets == 1 && len(g.connect) < 7 {
				g.noteConnect(p[i : i+int(k)])
			}
			i += int(k)
			g.body -= k
			if g.body == 0 {
				g.state = 0
			}
		}
	}
	return n, err
}

// refuse ends reading: the connection is to be closed with reason code.
// The complete packets read with the refused one's header are dropped too:
// the client is closed anyway.
func (g *guardConn) refuse(code byte, err error) (int, error) {
	g.mu.Lock()
	g.reason = code
	g.mu.Unlock()
	g.readErr = err
	return 0, err
}

// noteConnect reads the protocol level from the CONNECT's variable header:
// a two-byte length, the protocol name ("MQTT", or "MQIsdp" for 3.1) and
// the level byte.
func (g *guardConn) noteConnect(b []byte) {
	need := 7 - len(g.connect)
	if len(b) > need {
		b = b[:need]
	}
	g.connect = append(g.connect, b...)
	if len(g.connect) == 7 && string(g.connect[2:6]) == "MQTT" {
		g.mu.Lock()
		g.version = g.connect[6]
		g.mu.Unlock()
	}
}

// pace waits while the client is over its packet rate.
func (g *guardConn) pace() error {
	if g.rate <= 0 {
		return nil
	}
	now := time.Now()
	if !g.last.IsZero() {
		g.tokens = min(g.burst, g.tokens+now.Sub(g.last).Seconds()*g.rate)
	}
	g.last = now
	if g.tokens >= 0 {
		return nil
	}
	wait := time.Duration(-g.tokens / g.rate * float64(time.Second))
	t := time.NewTimer(wait)
	defer t.Stop()
	<-t.C
	return nil
}

func (g *guardConn) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.Conn.Write(p)
}

// Close sends an MQTT 5 client the DISCONNECT its refusal calls for.
func (g *guardConn) Close() error {
	g.mu.Lock()
	if !g.closed && g.reason != 0 && g.version == 5 {
		_ = g.Conn.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = g.Conn.Write([]byte{byte(packets.Disconnect) << 4, 2, g.reason, 0})
	}
	g.closed = true
	g.mu.Unlock()
	return g.Conn.Close()
}

// packetLog summarises mochi's packets in log records: a packet's payload
// and a CONNECT's password are never logged, only the packet's kind, topic
// and sizes.
type packetLog struct{ slog.Handler }

func (h packetLog) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(summarise(a))
		return true
	})
	return h.Handler.Handle(ctx, out)
}

func (h packetLog) WithAttrs(as []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = summarise(a)
	}
	return packetLog{h.Handler.WithAttrs(out)}
}

func (h packetLog) WithGroup(name string) slog.Handler { return packetLog{h.Handler.WithGroup(name)} }

func summarise(a slog.Attr) slog.Attr {
	if a.Value.Kind() != slog.KindAny {
		return a
	}
	switch pk := a.Value.Any().(type) {
	case packets.Packet:
		return slog.String(a.Key, packetSummary(&pk))
	case *packets.Packet:
		if pk != nil {
			return slog.String(a.Key, packetSummary(pk))
		}
	}
	return a
}

func packetSummary(pk *packets.Packet) string {
	name, ok := packets.PacketNames[pk.FixedHeader.Type]
	if !ok {
		name = "packet"
	}
	s := fmt.Sprintf("%s remaining=%d", name, pk.FixedHeader.Remaining)
	if pk.TopicName != "" {
		topic := pk.TopicName
		if len(topic) > 80 {
			topic = fmt.Sprintf("%s…(%d bytes)", topic[:80], len(topic))
		}
		s += fmt.Sprintf(" topic=%q qos=%d payload=%d bytes", topic, pk.FixedHeader.Qos, len(pk.Payload))
	}
	return s
}

package broker

import (
	"bytes"
	"net"
	"testing"
	"time"
)

// readConn is a net.Conn reading from a buffer.
type readConn struct {
	net.Conn
	r *bytes.Reader
}

func (c *readConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// BenchmarkGuardRead is what guardConn adds to reading: it follows the
// packet framing of every byte stream a client sends. 1 kB publishes, read
// 2 KiB at a time as mochi's bufio.Reader does.
func BenchmarkGuardRead(b *testing.B) {
	pk := publishPacket(4, 1, "zertz/b1/cmd/new-game", bytes.Repeat([]byte("x"), 1000))
	stream := bytes.Repeat(pk, 1000)
	lim := DefaultLimits
	lim.PacketRate, lim.PacketBurst = 1e12, 1<<30 // measure the parsing, not the pacing
	buf := make([]byte, 2048)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for range b.N {
		g := newGuardConn(&readConn{r: bytes.NewReader(stream)}, lim)
		g.last = time.Now()
		for {
			if _, err := g.Read(buf); err != nil {
				break
			}
		}
	}
}

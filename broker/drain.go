package broker

import (
	"bytes"
	"sync/atomic"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// DefaultDrainTimeout bounds how long Close waits for messages already
// accepted to reach the connected subscribers.
const DefaultDrainTimeout = 2 * time.Second

// drainQuiet is how long no packet may have been written to any client
// before the queues count as drained: mochi's per-client write loops are
// not observable, but they write as soon as they can, so a pause in
// writing with nothing in flight means nothing is left to write.
const drainQuiet = 50 * time.Millisecond

// sentHook notes when a packet was last written to a client.
type sentHook struct {
	mqtt.HookBase
	last atomic.Int64 // unix nanoseconds
}

func (h *sentHook) ID() string { return "zertzboard-sent" }

func (h *sentHook) Provides(b byte) bool { return bytes.Contains([]byte{mqtt.OnPacketSent}, []byte{b}) }

func (h *sentHook) OnPacketSent(_ *mqtt.Client, _ packets.Packet, _ []byte) {
	h.last.Store(time.Now().UnixNano())
}

// drain waits, up to timeout, until no client has a QoS 1 or 2 message in
// flight and nothing has been written for drainQuiet: the last state,
// record and events reach the subscribers before Close disconnects them.
func (b *Broker) drain(timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		busy := false
		for _, cl := range b.srv.Clients.GetAll() {
			if cl.Net.Inline || cl.Closed() {
				continue
			}
			if cl.State.Inflight.Len() > 0 {
				busy = true
				break
			}
		}
		if !busy && time.Since(time.Unix(0, b.sent.last.Load())) >= drainQuiet {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	b.log.Warn("broker: subscribers still had messages in flight when it closed", "waited", timeout)
}

package broker

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

func TestPacer(t *testing.T) {
	now := time.Unix(0, 0)
	p := newPacer(20, 20, func() time.Time { return now })
	for i := 0; i < 20; i++ {
		if d := p.take(); d != 0 {
			t.Fatalf("command %d of the burst waits %v", i+1, d)
		}
	}
	if d := p.take(); d != 50*time.Millisecond {
		t.Fatalf("the 21st command at once waits %v; want 50ms (20/s)", d)
	}
	now = now.Add(time.Second)
	if d := p.take(); d != 0 {
		t.Fatalf("after a second, a command waits %v", d)
	}
}

// A flood of QoS 1 commands for a board that stops acknowledging: every
// command the broker acknowledged reaches the board once it catches up;
// the rest are refused (the MQTT 3.1.1 sender is disconnected before
// their PUBACK), never acknowledged and dropped. Mochi alone acknowledges
// them all and drops those beyond the board's 64 in flight.
func TestCommandFloodNeverAcknowledgedAndLost(t *testing.T) {
	b := startBroker(t, Config{Limits: Limits{CommandRate: 1e6, CommandBurst: 1e6, CommandWait: 200 * time.Millisecond}})
	release := make(chan struct{})
	var mu sync.Mutex
	got := map[string]bool{}
	o := paho.NewClientOptions().AddBroker("tcp://" + b.TCPAddr()).SetClientID("zertzboard-b1").SetUsername("board1").SetPassword("board-secret").
		SetCleanSession(false).SetAutoReconnect(true).SetConnectTimeout(wait).SetOrderMatters(true).SetProtocolVersion(4)
	o.SetOnConnectHandler(func(c paho.Client) {
		go c.Subscribe("zertz/b1/cmd/+", 1, func(_ paho.Client, m paho.Message) {
			<-release // a board that has stopped reading its commands
			mu.Lock()
			got[string(m.Payload())] = true
			mu.Unlock()
			events.notify()
		})
	})
	board := paho.NewClient(o)
	if tok := board.Connect(); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("board: %v", tok.Error())
	}
	t.Cleanup(func() { board.Disconnect(50) })
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	t.Cleanup(unblock) // before the board disconnects
	waitUntil(t, func() bool {
		return b.srv.Topics.Subscribers("zertz/b1/cmd/x").Subscriptions["zertzboard-b1"].Filter != ""
	}, "the board's subscription")

	c, err := net.Dial("tcp", b.TCPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write(connectPacket(4, "flooder", "op", "op-secret"))
	r := bufio.NewReader(c)
	if ack := readPacket(t, r); ack[len(ack)-1] != 0 {
		t.Fatalf("operator CONNACK % x", ack)
	}
	acked := map[uint16]bool{}
	done := make(chan struct{})
	go func() { // PUBACKs until the broker closes the connection
		defer close(done)
		for {
			h, err := r.ReadByte()
			if err != nil {
				return
			}
			n, _ := r.ReadByte()
			body := make([]byte, n)
			if _, err := io.ReadFull(r, body); err != nil {
				return
			}
			if h>>4 == 4 {
				acked[uint16(body[0])<<8|uint16(body[1])] = true
			}
		}
	}()
	const n = 500
	go func() {
		for i := 1; i <= n; i++ {
			payload := []byte(fmt.Sprintf(`{"id":"c%d"}`, i))
			vh := append(str("zertz/b1/cmd/pause"), byte(i>>8), byte(i))
			pk := append(append([]byte{0x32}, varint(len(vh)+len(payload))...), vh...)
			if _, err := c.Write(append(pk, payload...)); err != nil {
				return
			}
		}
	}()
	<-done // refused: disconnected
	if len(acked) == 0 || len(acked) >= n {
		t.Fatalf("%d of %d commands acknowledged; want the flood stopped with the board behind", len(acked), n)
	}
	unblock()
	waitUntil(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		for id := range acked {
			if !got[fmt.Sprintf(`{"id":"c%d"}`, id)] {
				return false
			}
		}
		return true
	}, "every acknowledged command at the board")
	t.Logf("%d of %d commands acknowledged, all delivered", len(acked), n)
}

// Commands for a board that is away, its session kept: the broker keeps
// them for it up to half of MaxInflight, then refuses the rest unacknowledged;
// every acknowledged one reaches the board when it is back.
func TestCommandsForAnAbsentBoardNeverAcknowledgedAndLost(t *testing.T) {
	b := startBroker(t, Config{Limits: Limits{CommandRate: 1e6, CommandBurst: 1e6, CommandWait: 200 * time.Millisecond}})
	var mu sync.Mutex
	got := map[string]bool{}
	opts := func() *paho.ClientOptions {
		o := paho.NewClientOptions().AddBroker("tcp://" + b.TCPAddr()).SetClientID("zertzboard-b1").SetUsername("board1").SetPassword("board-secret").
			SetCleanSession(false).SetAutoReconnect(false).SetConnectTimeout(wait).SetProtocolVersion(4)
		o.SetDefaultPublishHandler(func(_ paho.Client, m paho.Message) {
			mu.Lock()
			got[string(m.Payload())] = true
			mu.Unlock()
			events.notify()
		})
		return o
	}
	board := paho.NewClient(opts())
	if tok := board.Connect(); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("board: %v", tok.Error())
	}
	if tok := board.Subscribe("zertz/b1/cmd/+", 1, nil); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("board subscribe: %v", tok.Error())
	}
	board.Disconnect(50) // away; the broker keeps its session
	waitUntil(t, func() bool { cl, ok := b.srv.Clients.Get("zertzboard-b1"); return ok && cl.Closed() }, "the board away")

	c, err := net.Dial("tcp", b.TCPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write(connectPacket(4, "flooder", "op", "op-secret"))
	r := bufio.NewReader(c)
	readPacket(t, r)
	acked := map[uint16]bool{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			h, err := r.ReadByte()
			if err != nil {
				return
			}
			n, _ := r.ReadByte()
			body := make([]byte, n)
			if _, err := io.ReadFull(r, body); err != nil {
				return
			}
			if h>>4 == 4 {
				acked[uint16(body[0])<<8|uint16(body[1])] = true
			}
		}
	}()
	const n = 100
	go func() {
		for i := 1; i <= n; i++ {
			payload := []byte(fmt.Sprintf(`{"id":"c%d"}`, i))
			vh := append(str("zertz/b1/cmd/pause"), byte(i>>8), byte(i))
			if _, err := c.Write(append(append(append([]byte{0x32}, varint(len(vh)+len(payload))...), vh...), payload...)); err != nil {
				return
			}
		}
	}()
	<-done
	if len(acked) == 0 || len(acked) >= n {
		t.Fatalf("%d of %d commands acknowledged for an absent board; want some, then a refusal", len(acked), n)
	}
	back := paho.NewClient(opts())
	if tok := back.Connect(); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("board back: %v", tok.Error())
	}
	defer back.Disconnect(50)
	waitUntil(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		for id := range acked {
			if !got[fmt.Sprintf(`{"id":"c%d"}`, id)] {
				return false
			}
		}
		return true
	}, "every acknowledged command at the board once it is back")
}

package broadcast

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"
)

// BenchmarkStateLatency measures PublishState to a paho subscriber on
// loopback through the embedded broker, one state at a time: the "state at
// a subscriber" leg of the end-to-end budget (docs/CONTRACTS.md, Performance
// budgets). It reports the median and p99, with paho's file store (the
// configuration for a board) and with the in-memory store, to show what
// the disk costs.
//
//	go test -run - -bench StateLatency -benchtime 1000x ./broadcast/
func BenchmarkStateLatency(b *testing.B) {
	b.Run("store=file", func(b *testing.B) { benchStateLatency(b, true) })
	b.Run("store=memory", func(b *testing.B) { benchStateLatency(b, false) })
}

func benchStateLatency(b *testing.B, file bool) {
	br := startBroker(b, "127.0.0.1:0", nil)
	url := "tcp://" + br.TCPAddr()
	got := make(chan uint64, 16)
	subscribe(b, url, "tv", "tv-pw", "zertz/b1/state", func(_ mqtt.Client, m mqtt.Message) {
		var v struct{ Seq uint64 }
		if json.Unmarshal(m.Payload(), &v) == nil && !m.Retained() {
			got <- v.Seq
		}
	})
	cfg := testConfig(b, url)
	if !file {
		cfg.StoreDir = ""
	}
	p := newPublisher(b, cfg)
	waitUntil(b, "connected", p.Connected)
	s := state(0)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		s.Seq = uint64(i + 1)
		start := time.Now()
		if err := p.PublishState(s); err != nil {
			b.Fatal(err)
		}
		for seq := uint64(0); seq != s.Seq; {
			select {
			case seq = <-got:
			case <-time.After(wait):
				b.Fatalf("state %d never arrived", s.Seq)
			}
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "µs-median")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "µs-p99")
}

// BenchmarkStorePutDel is the disk cost paho's file store adds to every
// QoS 1 message (written before sending, deleted on PUBACK): most of
// StateLatency on an ordinary disk.
func BenchmarkStorePutDel(b *testing.B) {
	s := newStore(b.TempDir(), nil)
	s.Open()
	defer s.Close()
	pk := packets.NewControlPacket(packets.Publish).(*packets.PublishPacket)
	pk.Qos, pk.MessageID, pk.TopicName, pk.Payload = 1, 1, "zertz/b1/state", make([]byte, 2000)
	for range b.N {
		s.Put("o.1", pk)
		s.Del("o.1")
	}
}

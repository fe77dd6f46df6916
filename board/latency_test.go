package board

import (
	"encoding/json"
	"log/slog"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/broadcast"
	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/controller"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/settle"
	"github.com/zertzboard/zertzboard/wire"
)

// BenchmarkSettleToState measures, on loopback, the time from the frame in
// which the board has held still long enough (the referee's verdict) to the
// "state" message at an MQTT subscriber: inference, the journal's fsync,
// the publisher, the embedded broker and the subscriber. Each iteration
// commits a placement and then a take-back, and waits for both states.
func BenchmarkSettleToState(b *testing.B) {
	br, err := broker.New(broker.Config{TCPAddr: "127.0.0.1:0", WSAddr: broker.Off,
		Users: []broker.User{{Name: "board", Password: "pw", Role: broker.RoleBoard}}})
	if err != nil {
		b.Fatal(err)
	}
	if err := br.Start(); err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	url := "tcp://" + br.TCPAddr()
	pub, err := broadcast.New(broadcast.Config{Brokers: []string{url}, BoardID: "lat", Username: "board", Password: "pw", StoreDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer pub.Close()

	got := make(chan uint64, 16)
	sub := mqtt.NewClient(mqtt.NewClientOptions().AddBroker(url).SetClientID("lat-viewer"))
	if tok := sub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		b.Fatalf("subscriber: %v", tok.Error())
	}
	defer sub.Disconnect(0)
	tok := sub.Subscribe("zertz/lat/state", 1, func(_ mqtt.Client, m mqtt.Message) {
		var s wire.State
		if json.Unmarshal(m.Payload(), &s) == nil {
			got <- s.Seq
		}
	})
	if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		b.Fatalf("subscribe: %v", tok.Error())
	}

	j, _, err := journal.Open(filepath.Join(b.TempDir(), "j.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	c, err := controller.New(controller.Config{BoardID: "lat", Variant: "37", Journal: j, Publisher: mqttOut{pub, slog.New(slog.DiscardHandler)}})
	if err != nil {
		b.Fatal(err)
	}
	// wait takes states until seq arrives.
	wait := func(seq uint64) {
		deadline := time.After(5 * time.Second)
		for {
			select {
			case s := <-got:
				if s >= seq {
					return
				}
			case <-deadline:
				b.Fatalf("state seq %d never arrived", seq)
			}
		}
	}
	start := engine.NewPosition(engine.MustStandardBoard("37"), engine.Standard, 0).Cells()
	placed := []byte(start)
	d4, _ := engine.MustStandardBoard("37").ParseCell("D4")
	a1, _ := engine.MustStandardBoard("37").ParseCell("A1")
	placed[d4], placed[a1] = 'w', '.'
	boards := [][]byte{placed, []byte(start)}
	var lat []time.Duration
	var mu sync.Mutex
	wait(c.State().Seq) // the start, once paho has it
	now := int64(0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, cells := range boards {
			// settle.MinScans-1 frames in quick succession, then one
			// after the settle time: that one settles the board.
			for k := 1; k < settle.MinScans; k++ {
				c.Frame(now, cells)
				now += 5
			}
			now += 200
			seq := c.State().Seq
			t0 := time.Now()
			c.Frame(now, cells)
			if c.State().Seq == seq {
				b.Fatalf("frame %d ms did not commit the board", now)
			}
			wait(c.State().Seq)
			mu.Lock()
			lat = append(lat, time.Since(t0))
			mu.Unlock()
			now += 5
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "ms-p99")
}

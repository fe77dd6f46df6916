package board

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/sensors/health"
)

// eventPub keeps the events a node publishes.
type eventPub struct {
	pub
	emu    sync.Mutex
	events []referee.Event
}

func (p *eventPub) Event(e referee.Event) {
	p.emu.Lock()
	p.events = append(p.events, e)
	p.emu.Unlock()
}

// TestFaultEventsSayTheirMessage: a sensor fault event keeps its English
// reason for the wire and carries it as a message, which a viewer in
// another language says in its own words after a trip through JSON.
func TestFaultEventsSayTheirMessage(t *testing.T) {
	_, rig, _, cal := simRig(t, wiring.Reference())
	p := &eventPub{}
	n, err := New(Options{BoardID: "f", Variant: "37", Rig: rig, Calibration: cal, Publisher: p})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	at := time.Unix(0, 0).Add(time.Second)
	n.reportFaults(at, []health.Fault{{Label: "E5", Kind: health.Drifting, Detail: "40 counts"}, {Label: "C3", Kind: health.Stuck, Detail: "no change"}})
	n.reportFaults(at, nil)

	p.emu.Lock()
	defer p.emu.Unlock()
	if len(p.events) != 2 {
		t.Fatalf("%d events; want 2", len(p.events))
	}
	want := []struct{ reason, key string }{
		{"sensor faults: E5: drifting: 40 counts; C3: stuck: no change", "fault.list"},
		{"sensors healthy", "fault.healthy"},
	}
	for i, e := range p.events {
		data, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var back struct {
			Event     string           `json:"event"`
			Reason    string           `json:"reason"`
			ReasonMsg *referee.Message `json:"reason_msg"`
		}
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if back.Event != "fault" || back.Reason != want[i].reason || back.ReasonMsg == nil || back.ReasonMsg.Key != want[i].key || back.ReasonMsg.Text != want[i].reason {
			t.Errorf("event %d: %s; want reason %q and message %s", i, data, want[i].reason, want[i].key)
		}
	}
	data, _ := json.Marshal(p.events[0])
	var back struct {
		ReasonMsg referee.Message `json:"reason_msg"`
	}
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	parts, ok := back.ReasonMsg.Args[0].([]referee.Message)
	if !ok || len(parts) != 2 || parts[0].Key != "fault.drifting" || parts[1].Key != "fault.stuck" || parts[1].Args[0] != "C3" {
		t.Fatalf("the message's parts after JSON: %#v", back.ReasonMsg.Args)
	}
	if !strings.HasPrefix(string(data), `{"t":`) {
		t.Errorf("event JSON %s", data)
	}
}

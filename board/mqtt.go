package board

import (
	"log/slog"
	"strings"
	"sync"

	"github.com/zertzboard/zertzboard/broadcast"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// mqttOut adapts the publisher to the controller: it never blocks, and
// logs what it cannot queue.
type mqttOut struct {
	p   *broadcast.Publisher
	log *slog.Logger
}

func (o mqttOut) State(s wire.State)      { o.check(o.p.PublishState(s)) }
func (o mqttOut) Move(m wire.MoveMessage) { o.check(o.p.PublishMove(m)) }
func (o mqttOut) Event(e referee.Event) {
	if _, ok := e.Body.(*journal.Damage); ok {
		// Found at start-up, before the broker is reached: said after
		// every connection, not dropped as events are while offline.
		o.check(o.p.PublishNotice(e))
		return
	}
	o.check(o.p.PublishEvent(e))
}
func (o mqttOut) Record(b []byte) { o.check(o.p.PublishRecord(b)) }
func (o mqttOut) check(err error) {
	if err != nil {
		o.log.Error("mqtt publish", "err", err)
	}
}

// storeFaultLine is the status screen's line for the MQTT store's state.
func storeFaultLine(err error) string {
	if err == nil {
		return ""
	}
	return "MQTT store: disk error"
}

// commandPathLine is the status screen's line for the board's command
// path (its health check after each MQTT connection).
func commandPathLine(err error) string {
	if err == nil {
		return ""
	}
	return "MQTT: commands not arriving"
}

// systemFaults joins the faults from outside the sensors for the screen's
// one line: the MQTT store's and the command path's.
type systemFaults struct {
	mu    sync.Mutex
	n     *Node
	lines [2]string
}

func (f *systemFaults) attach(n *Node) {
	f.mu.Lock()
	f.n = n
	f.mu.Unlock()
	f.show()
}

func (f *systemFaults) set(i int, line string) {
	f.mu.Lock()
	f.lines[i] = line
	f.mu.Unlock()
	f.show()
}

func (f *systemFaults) show() {
	f.mu.Lock()
	n := f.n
	var parts []string
	for _, l := range f.lines {
		if l != "" {
			parts = append(parts, l)
		}
	}
	f.mu.Unlock()
	if n != nil {
		n.SetFault(strings.Join(parts, "; "))
	}
}

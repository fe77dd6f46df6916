package scoreboard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/wire"
)

// planState is a state with the fields issue 14's plan adds (clock,
// result_note, takeback_request, game_id); once wire.State has them the
// outer fields shadow its own, with the same JSON.
type planState struct {
	wire.State
	Clock      wire.Clock            `json:"clock"`
	ResultNote string                `json:"result_note"`
	Takeback   *wire.TakebackRequest `json:"takeback_request"`
	GameID     string                `json:"game_id"`
}

// fakeBoard is a board's controller as docs/CONTRACTS.md 5.3 and the plan
// describe it, enough for the console: it takes commands on
// <prefix>ID/cmd/#, answers each with command-accepted or -refused on
// events, and publishes the state (and record) each accepted one changes.
type fakeBoard struct {
	t  testing.TB
	c  mqtt.Client
	id string

	mu     sync.Mutex
	st     planState
	rec    *record.Record
	end    map[string]any // the record's "end" (the plan's kinds)
	cmds   []string       // every command received: name and payload
	refuse map[string]string
}

func newFakeBoard(t testing.TB, brokerURL, user, pass, id string, st wire.State, rec *record.Record) *fakeBoard {
	t.Helper()
	fb := &fakeBoard{t: t, id: id, rec: rec, refuse: map[string]string{}}
	fb.st.State = st
	fb.st.BoardID = id
	fb.st.GameID = id + "-1"
	rem := [2]int64{600000, 600000}
	run := st.ToMove
	fb.st.Clock = wire.Clock{Control: "sudden:10m", Remaining: &rem, Running: &run}
	o := mqtt.NewClientOptions().AddBroker(brokerURL).SetClientID("fake-"+id).SetUsername(user).SetPassword(pass).
		SetCleanSession(true).SetAutoReconnect(false).SetConnectTimeout(wait).SetOrderMatters(true).
		SetWill("zertz/"+id+"/status", "offline", 1, true)
	fb.c = mqtt.NewClient(o)
	if tok := fb.c.Connect(); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("fake board %s: connect: %v", id, tok.Error())
	}
	t.Cleanup(func() { fb.c.Disconnect(50) })
	if tok := fb.c.Subscribe("zertz/"+id+"/cmd/#", 1, fb.command); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("fake board %s: subscribe: %v", id, tok.Error())
	}
	fb.publish("status", true, []byte("online"))
	fb.mu.Lock()
	fb.publishStateLocked()
	fb.mu.Unlock()
	return fb
}

func (fb *fakeBoard) publish(topic string, retain bool, payload []byte) {
	qos := byte(1)
	if topic == "events" {
		qos = 0
	}
	// Not waiting: this runs on paho's handler goroutine too.
	fb.c.Publish("zertz/"+fb.id+"/"+topic, qos, retain, payload)
}

func (fb *fakeBoard) publishStateLocked() {
	b, err := json.Marshal(fb.st)
	if err != nil {
		fb.t.Error(err)
		return
	}
	fb.publish("state", true, b)
	fb.publishRecordLocked()
}

// publishRecordLocked publishes the board's record, if it has one.
func (fb *fakeBoard) publishRecordLocked() {
	if fb.rec != nil {
		var buf bytes.Buffer
		if err := record.WriteJSON(&buf, fb.rec); err != nil {
			fb.t.Error(err)
			return
		}
		data := bytes.TrimSpace(buf.Bytes())
		if fb.end != nil {
			var m map[string]any
			json.Unmarshal(data, &m)
			m["end"] = fb.end
			data, _ = json.Marshal(m)
		}
		fb.publish("record", true, data)
	}
}

// received returns the commands received, "name payload" each.
func (fb *fakeBoard) received() []string {
	fb.mu.Lock()
	defer fb.mu.Unlock()
	return append([]string(nil), fb.cmds...)
}

func (fb *fakeBoard) state() planState {
	fb.mu.Lock()
	defer fb.mu.Unlock()
	return fb.st
}

func (fb *fakeBoard) command(_ mqtt.Client, m mqtt.Message) {
	name := m.Topic()[strings.LastIndexByte(m.Topic(), '/')+1:]
	var a struct {
		ID          string   `json:"id"`
		Accept      *bool    `json:"accept"`
		Player      int      `json:"player"`
		MS          int64    `json:"ms"`
		Result      string   `json:"result"`
		Winner      *int     `json:"winner"`
		Note        string   `json:"note"`
		Text        string   `json:"text"`
		Players     []string `json:"players"`
		TimeControl string   `json:"time_control"`
	}
	fb.mu.Lock()
	defer fb.mu.Unlock()
	fb.cmds = append(fb.cmds, name+" "+string(m.Payload()))
	reason := fb.refuse[name]
	if err := json.Unmarshal(m.Payload(), &a); err != nil {
		reason = "payload is not JSON"
	}
	st := &fb.st
	if reason == "" {
		switch name {
		case "pause":
			if st.Clock.Paused || st.Phase == "over" {
				reason = "already paused or over"
			} else {
				st.Clock.Paused, st.Clock.Running = true, nil
			}
		case "resume":
			if !st.Clock.Paused {
				reason = "not paused"
			} else {
				p := st.ToMove
				st.Clock.Paused, st.Clock.Running = false, &p
			}
		case "add-time":
			st.Clock.Remaining[a.Player] += a.MS
		case "set-players":
			st.Players = [2]string{a.Players[0], a.Players[1]}
		case "takeback-answer":
			if st.Takeback == nil {
				reason = "no take-back request"
			} else {
				st.Takeback = nil
			}
		case "declare-result":
			st.Phase, st.Result, st.Winner, st.ResultNote, st.Clock.Running = "over", engine.Reason(a.Result), a.Winner, a.Note, nil
			switch a.Result { // the plan's "end" of the record
			case "resignation":
				fb.end = map[string]any{"kind": "resign", "player": 1 - *a.Winner}
			case "time":
				fb.end = map[string]any{"kind": "win-on-time", "player": *a.Winner}
			case "adjudication":
				fb.end = map[string]any{"kind": "adjudication", "player": *a.Winner}
			case "draw":
				fb.end = map[string]any{"kind": "draw"}
			}
		case "new-game":
			st.Phase, st.Result, st.Winner, st.ResultNote, st.Turn = "place", "", nil, "", 0
			fb.end = nil
			if len(a.Players) == 2 {
				st.Players = [2]string{a.Players[0], a.Players[1]}
			}
			st.Clock.Control = a.TimeControl
		case "note":
			// The arbiter's note changes nothing of the game: no new
			// state; the record, with the note, is published again.
			if fb.rec != nil {
				fb.rec.Notes = append(fb.rec.Notes, record.Note{Turn: len(fb.rec.Turns), Text: a.Text})
			}
		default:
			reason = fmt.Sprintf("unknown command %q", name)
		}
	}
	reply := map[string]any{"t": 1, "command": name, "id": a.ID}
	if reason != "" {
		reply["event"], reply["reason"] = "command-refused", reason
		b, _ := json.Marshal(reply)
		fb.publish("events", false, b)
		return
	}
	if name != "note" {
		st.Seq++
		fb.publishStateLocked()
	} else if fb.rec != nil {
		fb.publishRecordLocked()
	}
	reply["event"] = "command-accepted"
	b, _ := json.Marshal(reply)
	fb.publish("events", false, b)
}

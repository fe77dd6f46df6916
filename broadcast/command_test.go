package broadcast

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/command"
)

// reply is a command-accepted or command-refused event.
type reply struct {
	T       int64  `json:"t"`
	Event   string `json:"event"`
	Command string `json:"command"`
	ID      string `json:"id"`
	Reason  string `json:"reason"`
}

// replies decodes the replies on events.
func replies(t *testing.T, c *collector) []reply {
	var out []reply
	for _, r := range c.get("events") {
		var v reply
		if err := json.Unmarshal(r.payload, &v); err != nil {
			t.Fatalf("event %q: %v", r.payload, err)
		}
		out = append(out, v)
	}
	return out
}

func TestCommands(t *testing.T) {
	b := startBroker(t, "127.0.0.1:0", nil)
	url := "tcp://" + b.TCPAddr()
	events := newCollector()
	subscribe(t, url, "tv", "tv-pw", "zertz/b1/events", events.handler)
	op := subscribe(t, url, "op", "op-pw", "", nil)
	send := func(name, payload string, retain bool) {
		t.Helper()
		if tok := op.Publish("zertz/b1/cmd/"+name, 1, retain, payload); !tok.WaitTimeout(wait) || tok.Error() != nil {
			t.Fatalf("publish %s: %v", name, tok.Error())
		}
	}
	// A retained command would run again at every subscription: it is
	// refused, and the refusal shows the publisher is subscribed.
	send("takeback", `{"token":"s3cret"}`, true)
	// Mochi acknowledges before it fans a message out: wait until it has
	// (it handles a client's packets in order), or the publisher could get
	// the command live as well as retained.
	op.Subscribe("zertz/b1/status", 0, nil).WaitTimeout(wait)

	cfg := testConfig(t, url)
	cfg.CommandToken = "s3cret"
	cfg.Now = func() time.Time { return time.UnixMilli(1234) }
	p := newPublisher(t, cfg)
	waitUntil(t, "the retained command's refusal", func() bool { return len(replies(t, events)) > 0 })
	if r := replies(t, events)[0]; r.Event != "command-refused" || r.Command != "takeback" || !strings.Contains(r.Reason, "retained") {
		t.Errorf("reply to a retained command = %+v", r)
	}
	send("takeback", "", false) // empty: ignored, as a retained clear would be

	bad := []struct{ name, payload, reason string }{
		{"new-game", `{"token":"s3cret","first":"x"` + strings.Repeat(" ", 5000) + `}`, "payload too large"},
		{"new-game", `not json`, "payload is not JSON"},
		{"explode", `{"token":"s3cret"}`, "unknown command"},
		{"new-game", `{"token":"s3cret","first":7}`, `"first" must be 0 or 1`},
		{"set-players", `{"token":"s3cret","players":[]}`, `"players" must list two names`},
		{"takeback", `{"token":"wrong"}`, "missing or wrong token"},
		{"takeback", `{}`, "missing or wrong token"},
	}
	for _, c := range bad {
		send(c.name, c.payload, false)
	}
	waitUntil(t, "every refusal", func() bool { return len(replies(t, events)) >= 1+len(bad) })
	got := replies(t, events)[1:]
	for i, c := range bad {
		r := got[i]
		if r.Event != "command-refused" || r.Command != c.name || !strings.Contains(r.Reason, c.reason) || r.T != 1234 {
			t.Errorf("reply to %s %.30q = %+v; want command-refused with %q at t=1234", c.name, c.payload, r, c.reason)
		}
	}
	select {
	case c := <-p.Commands():
		t.Fatalf("a refused command was delivered: %+v", c)
	default:
	}

	send("new-game", `{"token":"s3cret","first":1,"variant":"48","id":"g1"}`, false)
	send("new-game", `{"token":"s3cret","first":1,"variant":"48","id":"g1"}`, false) // redelivered: ignored
	send("set-players", `{"token":"s3cret","players":["Ann","Bo"],"id":"p1"}`, false)
	send("takeback", `{"token":"s3cret"}`, false)
	want := []command.Envelope{
		{ID: "g1", Command: command.NewGame{First: 1, Variant: "48"}},
		{ID: "p1", Command: command.SetPlayers{Players: [2]string{"Ann", "Bo"}}},
		{Command: command.Takeback{}},
	}
	for _, w := range want {
		select {
		case c := <-p.Commands():
			if !reflect.DeepEqual(c, w) {
				t.Errorf("command %+v; want %+v", c, w)
			}
			if err := p.Accept(c); err != nil {
				t.Fatal(err)
			}
		case <-time.After(wait):
			t.Fatalf("command %s never arrived", command.Name(w.Command))
		}
	}
	waitUntil(t, "the acceptances", func() bool {
		n := 0
		for _, r := range replies(t, events) {
			if r.Event == "command-accepted" {
				n++
			}
		}
		return n == len(want)
	})
	var accepted []string
	for _, r := range replies(t, events) {
		if r.Event == "command-accepted" {
			accepted = append(accepted, r.Command+"/"+r.ID)
		}
	}
	if got, want := strings.Join(accepted, " "), "new-game/g1 set-players/p1 takeback/"; got != want {
		t.Errorf("accepted %q; want %q", got, want)
	}
	p.Close()
	if _, ok := <-p.Commands(); ok {
		t.Error("Commands not closed by Close")
	}
}

// TestViewerCannotCommand: with the embedded broker, roles are the
// authorisation; a viewer's command never reaches the publisher.
func TestViewerCannotCommand(t *testing.T) {
	b := startBroker(t, "127.0.0.1:0", nil)
	url := "tcp://" + b.TCPAddr()
	p := newPublisher(t, testConfig(t, url))
	waitUntil(t, "connected", p.Connected)
	events := newCollector()
	subscribe(t, url, "tv", "tv-pw", "zertz/b1/events", events.handler)
	tv := subscribe(t, url, "tv", "tv-pw", "", nil)
	tv.Publish("zertz/b1/cmd/new-game", 0, false, `{}`)
	// Mochi handles a client's packets in order: once this SUBACK is back,
	// the publish above has been dropped.
	tv.Subscribe("zertz/b1/status", 0, nil).WaitTimeout(wait)
	op := subscribe(t, url, "op", "op-pw", "", nil)
	waitUntil(t, "an operator's command", func() bool {
		op.Publish("zertz/b1/cmd/takeback", 1, false, `{}`).WaitTimeout(wait)
		select {
		case c := <-p.Commands():
			if _, ok := c.Command.(command.Takeback); !ok {
				t.Fatalf("got %+v; the viewer's new-game must be dropped", c)
			}
			return true
		case <-time.After(5 * time.Millisecond):
			return false
		}
	})
}

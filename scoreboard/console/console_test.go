package console

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/command"
)

// TestBuildCommand: a form becomes the board's command, or an error that
// names the bad field and value.
func TestBuildCommand(t *testing.T) {
	for _, c := range []struct {
		form string
		name string
		body string // a key=value that must be in the body, "" for none
		err  string
	}{
		{form: "action=pause", name: "pause"},
		{form: "action=new-game&variant=48&player0=Ann&player1=Bob", name: "new-game", body: "variant=48"},
		{form: "action=answer&question=3&option=1", name: "answer", body: "question=3"},
		{form: "action=set-players&player0=Ann&player1=Bob&event=Club+Open&round=3", name: "set-players", body: "event=Club Open"},
		{form: "action=set-players&player0=Ann&player1=Bob&event=Club+Open&round=+3+", name: "set-players", body: "round=3"},
		{form: "action=set-players&player0=Ann&player1=Bob", name: "set-players", body: "players=[Ann Bob]"},
		{form: "action=new-game&event=Open&round=2", name: "new-game", body: "round=2"},
		{form: "action=set-players&player0=Ann&event=Open", err: "player1: name both players"},
		{form: "action=set-players&player0=Ann&player1=Bob&event=" + strings.Repeat("x", 101), err: "event is longer than 100 bytes"},
		{form: "action=set-players&player0=Ann&player1=Bob&round=" + strings.Repeat("x", 33), err: "round is longer than 32 bytes"},
		{form: "action=new-game&round=%07", err: "round holds a control character"},
		{form: "action=explode", err: `unknown action "explode"`},
		{form: "action=new-game&variant=99x", err: `variant "99x"`},
		{form: "action=new-game&player0=Ann", err: "player1"},
		{form: "action=answer&question=0&option=1", err: `question "0"`},
		{form: "action=answer&question=2&option=64", err: `option "64"`},
		{form: "action=new-game&time_control=sudden:99h", err: `time_control "sudden:99h"`},
		{form: "action=note&text=+clock+replaced+", name: "note", body: "text=clock replaced"},
		{form: "action=note&text=+", err: "text: write the note"},
		{form: "action=note&text=a%07", err: "text holds a control character"},
		{form: "action=note&text=" + strings.Repeat("x", 201), err: "text is longer than 200 bytes"},
		{form: "action=new-game&engine=1&level=3&time_control=fischer:20m%2B10s", name: "new-game", body: "time_control=fischer:20m+10s"},
	} {
		f, err := url.ParseQuery(c.form)
		if err != nil {
			t.Fatal(err)
		}
		cmd, err := BuildCommand(f)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v; want one saying %s", c.form, err, c.err)
			}
			continue
		}
		// The body is what the console publishes: the command's fields.
		name, payload := command.Payload(command.Envelope{Command: cmd})
		var body map[string]any
		if err := json.Unmarshal(payload, &body); err != nil {
			t.Fatal(err)
		}
		if err != nil || name != c.name {
			t.Errorf("%s: %q, %v; want %q", c.form, name, err, c.name)
			continue
		}
		if k, v, ok := strings.Cut(c.body, "="); ok {
			if got, ok := body[k]; !ok || fmt.Sprint(got) != v {
				t.Errorf("%s: body %v; want %s", c.form, body, c.body)
			}
		}
	}
}

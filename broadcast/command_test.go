package broadcast

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/clock"
)

func TestParseCommand(t *testing.T) {
	for _, tc := range []struct {
		name, payload, token string
		want                 Command
		reason               string // substring; "" means accepted
	}{
		{name: "new-game", payload: `{}`, want: Command{Name: "new-game"}},
		{name: "new-game", payload: ` {"first":1,"variant":"37b","id":"x1"}`, want: Command{Name: "new-game", First: 1, Variant: "37b", ID: "x1"}},
		{name: "set-players", payload: `{"players":["Ann","Bo"]}`, want: Command{Name: "set-players", Players: [2]string{"Ann", "Bo"}}},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"event":"Open d'Été 2026","round":"3"}`, want: Command{Name: "set-players", Players: [2]string{"Ann", "Bo"},
			Event: "Open d'Été 2026", HasEvent: true, Round: "3", HasRound: true}},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"event":"","round":""}`, want: Command{Name: "set-players", Players: [2]string{"Ann", "Bo"},
			HasEvent: true, HasRound: true}},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"event":"` + strings.Repeat("é", 50) + `","round":"` + strings.Repeat("r", 32) + `"}`,
			want: Command{Name: "set-players", Players: [2]string{"Ann", "Bo"}, Event: strings.Repeat("é", 50), HasEvent: true, Round: strings.Repeat("r", 32), HasRound: true}},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"event":"` + strings.Repeat("x", 101) + `"}`, reason: `field "event" is longer than 100 bytes`},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"round":"` + strings.Repeat("x", 33) + `"}`, reason: `field "round" is longer than 32 bytes`},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"round":"3\u0007"}`, reason: `field "round" holds a control character`},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"event":"Open\u200e"}`, reason: `field "event" holds an invisible formatting character`},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"round":"   "}`, reason: `field "round" holds only spaces`},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"round":3}`, reason: `field "round" has the wrong type`},
		{name: "set-players", payload: `{"event":"Open"}`, reason: `"players" must list two names`},
		{name: "new-game", payload: `{"event":"Open","round":"1"}`, want: Command{Name: "new-game", Event: "Open", HasEvent: true, Round: "1", HasRound: true}},
		{name: "new-game", payload: `{"round":"` + strings.Repeat("x", 33) + `"}`, reason: `field "round" is longer than 32 bytes`},
		{name: "pause", payload: `{"round":"1"}`, reason: `"round" does not apply to pause`},
		{name: "takeback", payload: `{}`, want: Command{Name: "takeback"}},
		{name: "takeback", payload: `{"token":"s3","id":"7"}`, token: "s3", want: Command{Name: "takeback", ID: "7"}},

		{name: "new-game", payload: strings.Repeat(" ", MaxCommandSize) + "{}", reason: "payload too large (4098 bytes; the limit is 4096)"},
		{name: "explode", payload: `{}`, reason: "unknown command"},
		{name: "new-game", payload: `{"first":1`, reason: "payload is not JSON"},
		{name: "new-game", payload: ``, reason: "payload is not JSON"},
		{name: "new-game", payload: `[1]`, reason: "not a JSON object"},
		{name: "new-game", payload: `{"first":2}`, reason: `"first" must be 0 or 1`},
		{name: "new-game", payload: `{"first":"0"}`, reason: `field "first" has the wrong type`},
		{name: "new-game", payload: `{"first":0.5}`, reason: `field "first" has the wrong type`},
		{name: "new-game", payload: `{"variant":"49"}`, reason: `"variant" must be a ring count`},
		{name: "new-game", payload: `{"players":["a","b"],"time_control":"fischer:20m+10s"}`, want: Command{Name: "new-game", Players: [2]string{"a", "b"}, HasPlayers: true,
			Control: clock.Control{Kind: clock.Fischer, Base: 20 * time.Minute, Inc: 10 * time.Second}, HasControl: true}},
		{name: "new-game", payload: `{"time_control":"none"}`, want: Command{Name: "new-game", HasControl: true}},
		{name: "new-game", payload: `{"engine":1,"level":3}`, want: Command{Name: "new-game", Engine: "1", Level: 3}},
		{name: "new-game", payload: `{"engine":"none"}`, want: Command{Name: "new-game", Engine: "none"}},
		{name: "new-game", payload: `{"engine":2}`, reason: `field "engine" must be 0 or 1`},
		{name: "new-game", payload: `{"engine":"0","level":11}`, reason: `field "level" must be 1 to 10`},
		{name: "new-game", payload: `{"time_control":"sudden:5s"}`, reason: `"time_control" must be none, sudden:DUR or fischer:DUR+INC`},
		{name: "new-game", payload: `{"time_control":5}`, reason: `field "time_control" has the wrong type`},
		{name: "new-game", payload: `{"players":["a"]}`, reason: `"players" must list two names`},
		{name: "new-game", payload: `{"ms":5}`, reason: `"ms" does not apply to new-game`},
		{name: "pause", payload: `{"id":"p"}`, want: Command{Name: "pause", ID: "p"}},
		{name: "pause", payload: `{"player":0}`, reason: `"player" does not apply to pause`},
		{name: "resume", payload: `{}`, want: Command{Name: "resume"}},
		{name: "resume", payload: `{"accept":true}`, reason: `"accept" does not apply to resume`},
		{name: "add-time", payload: `{"player":1,"ms":60000}`, want: Command{Name: "add-time", Player: 1, MS: 60000}},
		{name: "add-time", payload: `{"player":0,"ms":3600000}`, want: Command{Name: "add-time", Player: 0, MS: 3600000}},
		{name: "add-time", payload: `{"player":0,"ms":3600001}`, reason: `"ms" must be 1 to 3600000`},
		{name: "add-time", payload: `{"player":0,"ms":0}`, reason: `"ms" must be 1 to 3600000`},
		{name: "add-time", payload: `{"player":0}`, reason: `"ms" must be 1 to 3600000`},
		{name: "add-time", payload: `{"player":2,"ms":5}`, reason: `"player" must be 0 or 1`},
		{name: "add-time", payload: `{"ms":5}`, reason: `"player" must be 0 or 1`},
		{name: "add-time", payload: `{"player":0,"ms":1.5}`, reason: `field "ms" has the wrong type`},
		{name: "declare-result", payload: `{"result":"resignation","winner":1,"note":"P0 resigned"}`, want: Command{Name: "declare-result", Result: "resignation", Winner: 1, HasWinner: true, Note: "P0 resigned"}},
		{name: "declare-result", payload: `{"result":"draw"}`, want: Command{Name: "declare-result", Result: "draw"}},
		{name: "declare-result", payload: `{"result":"adjudication","winner":0,"note":"` + strings.Repeat("é", 100) + `"}`, want: Command{Name: "declare-result", Result: "adjudication", HasWinner: true, Note: strings.Repeat("é", 100)}},
		{name: "declare-result", payload: `{"result":"draw","winner":0}`, reason: `"winner" does not apply to a draw`},
		{name: "declare-result", payload: `{"result":"time"}`, reason: `"winner" must be 0 or 1`},
		{name: "declare-result", payload: `{"result":"time","winner":-1}`, reason: `"winner" must be 0 or 1`},
		{name: "declare-result", payload: `{"winner":1}`, reason: `"result" must be resignation, time, adjudication or draw`},
		{name: "declare-result", payload: `{"result":"forfeit","winner":1}`, reason: `"result" must be resignation, time, adjudication or draw`},
		{name: "declare-result", payload: `{"result":"draw","note":"` + strings.Repeat("x", 201) + `"}`, reason: `"note" is longer than 200 bytes`},
		{name: "declare-result", payload: `{"result":"draw","note":"a\u000ab"}`, reason: `"note" holds a control character`},
		{name: "takeback-answer", payload: `{"accept":false}`, want: Command{Name: "takeback-answer"}},
		{name: "takeback-answer", payload: `{"accept":true}`, want: Command{Name: "takeback-answer", Accept: true}},
		{name: "takeback-answer", payload: `{}`, reason: `"accept" must be true or false`},
		{name: "takeback-answer", payload: `{"accept":"yes"}`, reason: `field "accept" has the wrong type`},
		{name: "answer", payload: `{"question":3,"option":1}`, want: Command{Name: "answer", Question: 3, Option: 1}},
		{name: "answer", payload: `{"question":3,"option":"WD4-G4 GF2-A1"}`, want: Command{Name: "answer", Question: 3, OptionText: "WD4-G4 GF2-A1"}},
		{name: "answer", payload: `{"question":3,"option":"b","id":"q"}`, want: Command{Name: "answer", ID: "q", Question: 3, OptionText: "b"}},
		{name: "answer", payload: `{"option":1}`, reason: `"question" must be the open question's id`},
		{name: "answer", payload: `{"question":0,"option":1}`, reason: `"question" must be the open question's id`},
		{name: "answer", payload: `{"question":2}`, reason: `"option" must be the option's index`},
		{name: "answer", payload: `{"question":2,"option":-1}`, reason: `"option" must be the option's index`},
		{name: "answer", payload: `{"question":2,"option":64}`, reason: `"option" must be the option's index`},
		{name: "answer", payload: `{"question":2,"option":true}`, reason: `field "option" has the wrong type`},
		{name: "answer", payload: `{"question":2,"option":"` + strings.Repeat("x", 201) + `"}`, reason: `"option" is longer than 200 bytes`},
		{name: "answer", payload: `{"question":2,"option":"a\u0000"}`, reason: `"option" holds a control character`},
		{name: "answer", payload: `{"question":2,"option":0,"accept":true}`, reason: `"accept" does not apply to answer`},
		{name: "new-game", payload: `{"colour":"white"}`, reason: `unknown field "colour"`},
		{name: "set-players", payload: `{"players":["a"]}`, reason: `"players" must list two names`},
		{name: "set-players", payload: `{}`, reason: `"players" must list two names`},
		{name: "set-players", payload: `{"players":["a","b\u0007"]}`, reason: "control character"},
		{name: "set-players", payload: `{"players":["a","` + strings.Repeat("b", 65) + `"]}`, reason: "longer than 64 bytes"},
		{name: "takeback", payload: `{"first":0}`, reason: `"first" does not apply to takeback`},
		{name: "takeback", payload: `{}`, token: "s3", reason: "missing or wrong token"},
		{name: "takeback", payload: `{"token":"s4"}`, token: "s3", reason: "missing or wrong token"},
		{name: "takeback", payload: `{"token":3}`, token: "s3", reason: "wrong type"},
	} {
		got, reason := parseCommand(tc.name, []byte(tc.payload), tc.token)
		switch {
		case tc.reason == "" && reason != "":
			t.Errorf("parseCommand(%q, %.40q) refused: %s", tc.name, tc.payload, reason)
		case tc.reason == "" && got != tc.want:
			t.Errorf("parseCommand(%q, %.40q) = %+v; want %+v", tc.name, tc.payload, got, tc.want)
		case tc.reason != "" && !strings.Contains(reason, tc.reason):
			t.Errorf("parseCommand(%q, %.40q) reason %q; want %q", tc.name, tc.payload, reason, tc.reason)
		}
		if strings.Contains(reason, "s3") {
			t.Errorf("reason %q quotes the token", reason)
		}
	}
}

func FuzzParseCommand(f *testing.F) {
	f.Add("new-game", []byte(`{"first":1,"variant":"48"}`))
	f.Add("set-players", []byte(`{"players":["a","b"],"id":"z"}`))
	f.Add("set-players", []byte(`{"players":["a","b"],"event":"Open","round":"2"}`))
	f.Add("declare-result", []byte(`{"result":"time","winner":1,"note":"x"}`))
	f.Add("add-time", []byte(`{"player":1,"ms":5000}`))
	f.Add("new-game", []byte(`{"time_control":"fischer:1m+1s","players":["a","b"]}`))
	f.Add("answer", []byte(`{"question":1,"option":"GF2-A1 WD4-G4"}`))
	f.Fuzz(func(t *testing.T, name string, payload []byte) {
		cmd, reason := parseCommand(name, payload, "")
		if reason != "" {
			return
		}
		if cmd.First != 0 && cmd.First != 1 || len(cmd.ID) > maxName || len(cmd.Note) > MaxNote || len(cmd.Event) > MaxEvent || len(cmd.Round) > MaxRound ||
			cmd.Name == CmdAddTime && (cmd.MS < 1 || cmd.MS > clock.MaxAddMS) || cmd.HasWinner && cmd.Result == "draw" ||
			cmd.Name == CmdAnswer && (cmd.Question < 1 || cmd.Option < 0 || len(cmd.OptionText) > MaxOption) {
			t.Errorf("accepted a bad command: %+v", cmd)
		}
		if !json.Valid(cmd.Fields()) || strings.Contains(string(cmd.Fields()), "token") {
			t.Errorf("fields %s", cmd.Fields())
		}
	})
}

// TestNamingJournalled: set-players' and new-game's event and round are
// in the fields the board journals when given, "" (cleared) included, and
// not when absent.
func TestNamingJournalled(t *testing.T) {
	for payload, want := range map[string]string{
		`{"players":["a","b"],"event":"Open","round":"2"}`: `{"event":"Open","players":["a","b"],"round":"2"}`,
		`{"players":["a","b"],"round":""}`:                 `{"players":["a","b"],"round":""}`,
		`{"players":["a","b"]}`:                            `{"players":["a","b"]}`,
	} {
		cmd, reason := parseCommand(CmdSetPlayers, []byte(payload), "")
		if reason != "" || string(cmd.Fields()) != want {
			t.Errorf("%s: fields %s (%s); want %s", payload, cmd.Fields(), reason, want)
		}
	}
	cmd, _ := parseCommand(CmdNewGame, []byte(`{"event":"Open"}`), "")
	if got := string(cmd.Fields()); got != `{"event":"Open","first":0}` {
		t.Errorf("new-game fields %s", got)
	}
}

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
	want := []Command{
		{Name: CmdNewGame, ID: "g1", First: 1, Variant: "48"},
		{Name: CmdSetPlayers, ID: "p1", Players: [2]string{"Ann", "Bo"}},
		{Name: CmdTakeback},
	}
	for _, w := range want {
		select {
		case c := <-p.Commands():
			if c != w {
				t.Errorf("command %+v; want %+v", c, w)
			}
			if err := p.Accept(c); err != nil {
				t.Fatal(err)
			}
		case <-time.After(wait):
			t.Fatalf("command %s never arrived", w.Name)
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
			if c.Name != CmdTakeback {
				t.Fatalf("got %+v; the viewer's new-game must be dropped", c)
			}
			return true
		case <-time.After(5 * time.Millisecond):
			return false
		}
	})
}

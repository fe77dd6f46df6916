package command

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/clock"
)

func str(s string) *string { return &s }
func num(n int) *int       { return &n }

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		name, payload, token string
		want                 Envelope
		reason               string // substring; "" means accepted
	}{
		{name: "new-game", payload: `{}`, want: Envelope{Command: NewGame{}}},
		{name: "new-game", payload: ` {"first":1,"variant":"37b","id":"x1"}`, want: Envelope{ID: "x1", Command: NewGame{First: 1, Variant: "37b"}}},
		{name: "set-players", payload: `{"players":["Ann","Bo"]}`, want: Envelope{Command: SetPlayers{Players: [2]string{"Ann", "Bo"}}}},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"event":"Open d'Été 2026","round":"3"}`, want: Envelope{Command: SetPlayers{Players: [2]string{"Ann", "Bo"},
			Event: str("Open d'Été 2026"), Round: str("3")}}},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"event":"","round":""}`, want: Envelope{Command: SetPlayers{Players: [2]string{"Ann", "Bo"},
			Event: str(""), Round: str("")}}},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"event":"` + strings.Repeat("é", 50) + `","round":"` + strings.Repeat("r", 32) + `"}`,
			want: Envelope{Command: SetPlayers{Players: [2]string{"Ann", "Bo"}, Event: str(strings.Repeat("é", 50)), Round: str(strings.Repeat("r", 32))}}},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"event":"` + strings.Repeat("x", 101) + `"}`, reason: `field "event" is longer than 100 bytes`},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"round":"` + strings.Repeat("x", 33) + `"}`, reason: `field "round" is longer than 32 bytes`},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"round":"3\u0007"}`, reason: `field "round" holds a control character`},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"event":"Open\u200e"}`, reason: `field "event" holds an invisible formatting character`},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"round":"   "}`, reason: `field "round" holds only spaces`},
		{name: "set-players", payload: `{"players":["Ann","Bo"],"round":3}`, reason: `field "round" has the wrong type`},
		{name: "set-players", payload: `{"event":"Open"}`, reason: `"players" must list two names`},
		{name: "new-game", payload: `{"event":"Open","round":"1"}`, want: Envelope{Command: NewGame{Event: str("Open"), Round: str("1")}}},
		{name: "new-game", payload: `{"round":"` + strings.Repeat("x", 33) + `"}`, reason: `field "round" is longer than 32 bytes`},
		{name: "pause", payload: `{"round":"1"}`, reason: `"round" does not apply to pause`},
		{name: "takeback", payload: `{}`, want: Envelope{Command: Takeback{}}},
		{name: "takeback", payload: `{"token":"s3","id":"7"}`, token: "s3", want: Envelope{ID: "7", Command: Takeback{}}},

		{name: "new-game", payload: strings.Repeat(" ", MaxCommandSize) + "{}", reason: "payload too large (4098 bytes; the limit is 4096)"},
		{name: "explode", payload: `{}`, reason: "unknown command"},
		{name: "new-game", payload: `{"first":1`, reason: "payload is not JSON"},
		{name: "new-game", payload: ``, reason: "payload is not JSON"},
		{name: "new-game", payload: `[1]`, reason: "not a JSON object"},
		{name: "new-game", payload: `{"first":2}`, reason: `"first" must be 0 or 1`},
		{name: "new-game", payload: `{"first":"0"}`, reason: `field "first" has the wrong type`},
		{name: "new-game", payload: `{"first":0.5}`, reason: `field "first" has the wrong type`},
		{name: "new-game", payload: `{"variant":"49"}`, reason: `"variant" must be a ring count`},
		{name: "new-game", payload: `{"players":["a","b"],"time_control":"fischer:20m+10s"}`, want: Envelope{Command: NewGame{Players: &[2]string{"a", "b"},
			Control: &clock.Control{Kind: clock.Fischer, Base: 20 * time.Minute, Inc: 10 * time.Second}}}},
		{name: "new-game", payload: `{"time_control":"none"}`, want: Envelope{Command: NewGame{Control: &clock.Control{}}}},
		{name: "new-game", payload: `{"engine":1,"level":3}`, want: Envelope{Command: NewGame{Engine: num(1), Level: 3}}},
		{name: "new-game", payload: `{"engine":"none"}`, want: Envelope{Command: NewGame{Engine: num(NoEngine)}}},
		{name: "new-game", payload: `{"engine":2}`, reason: `field "engine" must be 0 or 1`},
		{name: "new-game", payload: `{"engine":"0","level":11}`, reason: `field "level" must be 1 to 10`},
		{name: "new-game", payload: `{"time_control":"sudden:5s"}`, reason: `"time_control" must be none, sudden:DUR or fischer:DUR+INC`},
		{name: "new-game", payload: `{"time_control":5}`, reason: `field "time_control" has the wrong type`},
		{name: "new-game", payload: `{"players":["a"]}`, reason: `"players" must list two names`},
		{name: "new-game", payload: `{"ms":5}`, reason: `"ms" does not apply to new-game`},
		{name: "pause", payload: `{"id":"p"}`, want: Envelope{ID: "p", Command: Pause{}}},
		{name: "pause", payload: `{"player":0}`, reason: `"player" does not apply to pause`},
		{name: "resume", payload: `{}`, want: Envelope{Command: Resume{}}},
		{name: "resume", payload: `{"accept":true}`, reason: `"accept" does not apply to resume`},
		{name: "add-time", payload: `{"player":1,"ms":60000}`, want: Envelope{Command: AddTime{Player: 1, MS: 60000}}},
		{name: "add-time", payload: `{"player":0,"ms":3600000}`, want: Envelope{Command: AddTime{Player: 0, MS: 3600000}}},
		{name: "add-time", payload: `{"player":0,"ms":3600001}`, reason: `"ms" must be 1 to 3600000`},
		{name: "add-time", payload: `{"player":0,"ms":0}`, reason: `"ms" must be 1 to 3600000`},
		{name: "add-time", payload: `{"player":0}`, reason: `"ms" must be 1 to 3600000`},
		{name: "add-time", payload: `{"player":2,"ms":5}`, reason: `"player" must be 0 or 1`},
		{name: "add-time", payload: `{"ms":5}`, reason: `"player" must be 0 or 1`},
		{name: "add-time", payload: `{"player":0,"ms":1.5}`, reason: `field "ms" has the wrong type`},
		{name: "declare-result", payload: `{"result":"resignation","winner":1,"note":"P0 resigned"}`, want: Envelope{Command: DeclareResult{Result: "resignation", Winner: num(1), Note: "P0 resigned"}}},
		{name: "declare-result", payload: `{"result":"draw"}`, want: Envelope{Command: DeclareResult{Result: "draw"}}},
		{name: "declare-result", payload: `{"result":"adjudication","winner":0,"note":"` + strings.Repeat("é", 100) + `"}`, want: Envelope{Command: DeclareResult{Result: "adjudication", Winner: num(0), Note: strings.Repeat("é", 100)}}},
		{name: "declare-result", payload: `{"result":"draw","winner":0}`, reason: `"winner" does not apply to a draw`},
		{name: "declare-result", payload: `{"result":"time"}`, reason: `"winner" must be 0 or 1`},
		{name: "declare-result", payload: `{"result":"time","winner":-1}`, reason: `"winner" must be 0 or 1`},
		{name: "declare-result", payload: `{"winner":1}`, reason: `"result" must be resignation, time, adjudication or draw`},
		{name: "declare-result", payload: `{"result":"forfeit","winner":1}`, reason: `"result" must be resignation, time, adjudication or draw`},
		{name: "declare-result", payload: `{"result":"draw","note":"` + strings.Repeat("x", 201) + `"}`, reason: `"note" is longer than 200 bytes`},
		{name: "declare-result", payload: `{"result":"draw","note":"a\u000ab"}`, reason: `"note" holds a control character`},
		{name: "takeback-answer", payload: `{"accept":false}`, want: Envelope{Command: TakebackAnswer{}}},
		{name: "takeback-answer", payload: `{"accept":true}`, want: Envelope{Command: TakebackAnswer{Accept: true}}},
		{name: "takeback-answer", payload: `{}`, reason: `"accept" must be true or false`},
		{name: "takeback-answer", payload: `{"accept":"yes"}`, reason: `field "accept" has the wrong type`},
		{name: "answer", payload: `{"question":3,"option":1}`, want: Envelope{Command: Answer{Question: 3, Option: 1}}},
		{name: "answer", payload: `{"question":3,"option":"WD4-G4 GF2-A1"}`, want: Envelope{Command: Answer{Question: 3, OptionText: "WD4-G4 GF2-A1"}}},
		{name: "answer", payload: `{"question":3,"option":"b","id":"q"}`, want: Envelope{ID: "q", Command: Answer{Question: 3, OptionText: "b"}}},
		{name: "answer", payload: `{"option":1}`, reason: `"question" must be the open question's id`},
		{name: "answer", payload: `{"question":0,"option":1}`, reason: `"question" must be the open question's id`},
		{name: "answer", payload: `{"question":2}`, reason: `"option" must be the option's index`},
		{name: "answer", payload: `{"question":2,"option":-1}`, reason: `"option" must be the option's index`},
		{name: "answer", payload: `{"question":2,"option":64}`, reason: `"option" must be the option's index`},
		{name: "answer", payload: `{"question":2,"option":true}`, reason: `field "option" has the wrong type`},
		{name: "answer", payload: `{"question":2,"option":"` + strings.Repeat("x", 201) + `"}`, reason: `"option" is longer than 200 bytes`},
		{name: "answer", payload: `{"question":2,"option":"a\u0000"}`, reason: `"option" holds a control character`},
		{name: "answer", payload: `{"question":2,"option":0,"accept":true}`, reason: `"accept" does not apply to answer`},
		{name: "note", payload: `{"text":"clock replaced","id":"n1"}`, want: Envelope{ID: "n1", Command: Note{Text: "clock replaced"}}},
		{name: "note", payload: `{}`, reason: `field "text" must be the note, 1 to 200 bytes`},
		{name: "note", payload: `{"text":"  "}`, reason: `field "text" must be the note`},
		{name: "note", payload: `{"text":"` + strings.Repeat("x", 201) + `"}`, reason: `"text" is longer than 200 bytes`},
		{name: "note", payload: `{"text":"a\u0007"}`, reason: `"text" holds a control character`},
		{name: "note", payload: `{"text":"a","player":0}`, reason: `"player" does not apply to note`},
		{name: "pause", payload: `{"text":"a"}`, reason: `"text" does not apply to pause`},
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
		got, reason := Decode(tc.name, []byte(tc.payload), tc.token)
		switch {
		case tc.reason == "" && reason != "":
			t.Errorf("Decode(%q, %.40q) refused: %s", tc.name, tc.payload, reason)
		case tc.reason == "" && !reflect.DeepEqual(got, tc.want):
			t.Errorf("Decode(%q, %.40q) = %#v; want %#v", tc.name, tc.payload, got, tc.want)
		case tc.reason != "" && !strings.Contains(reason, tc.reason):
			t.Errorf("Decode(%q, %.40q) reason %q; want %q", tc.name, tc.payload, reason, tc.reason)
		case tc.reason != "" && got.Command != nil:
			t.Errorf("Decode(%q, %.40q) refused with a command: %#v", tc.name, tc.payload, got)
		}
		if strings.Contains(reason, "s3") {
			t.Errorf("reason %q quotes the token", reason)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add("new-game", []byte(`{"first":1,"variant":"48"}`))
	f.Add("set-players", []byte(`{"players":["a","b"],"id":"z"}`))
	f.Add("set-players", []byte(`{"players":["a","b"],"event":"Open","round":"2"}`))
	f.Add("declare-result", []byte(`{"result":"time","winner":1,"note":"x"}`))
	f.Add("add-time", []byte(`{"player":1,"ms":5000}`))
	f.Add("new-game", []byte(`{"time_control":"fischer:1m+1s","players":["a","b"]}`))
	f.Add("answer", []byte(`{"question":1,"option":"GF2-A1 WD4-G4"}`))
	f.Fuzz(func(t *testing.T, name string, payload []byte) {
		env, reason := Decode(name, payload, "")
		if reason != "" {
			return
		}
		if len(env.ID) > MaxName || !goodCommand(env.Command) {
			t.Errorf("accepted a bad command: %#v", env)
		}
		f := Fields(env.Command)
		if !json.Valid(f) || strings.Contains(string(f), "token") {
			t.Errorf("fields %s", f)
		}
		// What the board journals decodes to the same command.
		back, reason := Decode(name, f, "")
		if reason != "" || !reflect.DeepEqual(back.Command, env.Command) {
			t.Errorf("fields %s decode to %#v (%s); want %#v", f, back.Command, reason, env.Command)
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
		env, reason := Decode("set-players", []byte(payload), "")
		if reason != "" || string(Fields(env.Command)) != want {
			t.Errorf("%s: fields %s (%s); want %s", payload, Fields(env.Command), reason, want)
		}
	}
	env, _ := Decode("new-game", []byte(`{"event":"Open"}`), "")
	if got := string(Fields(env.Command)); got != `{"event":"Open","first":0}` {
		t.Errorf("new-game fields %s", got)
	}
}

// goodCommand checks the bounds Decode promises on what it accepts.
func goodCommand(c Command) bool {
	switch c := c.(type) {
	case NewGame:
		return (c.First == 0 || c.First == 1) && (c.Event == nil || len(*c.Event) <= MaxEvent) && (c.Round == nil || len(*c.Round) <= MaxRound) &&
			(c.Engine == nil || *c.Engine == 0 || *c.Engine == 1 || *c.Engine == NoEngine) && c.Level >= 0 && c.Level <= MaxEngineLevel
	case SetPlayers:
		return (c.Event == nil || len(*c.Event) <= MaxEvent) && (c.Round == nil || len(*c.Round) <= MaxRound) &&
			len(c.Players[0]) <= MaxName && len(c.Players[1]) <= MaxName
	case AddTime:
		return c.MS >= 1 && c.MS <= clock.MaxAddMS && (c.Player == 0 || c.Player == 1)
	case DeclareResult:
		return len(c.Note) <= MaxNote && (c.Result == "draw") == (c.Winner == nil)
	case Answer:
		return c.Question >= 1 && c.Option >= 0 && len(c.OptionText) <= MaxOption
	}
	return Name(c) != ""
}

// examples holds, for every command, values its codec must carry through
// Fields and Decode unchanged. A command added without its examples
// fails TestEveryCommandRoundTrips.
var examples = map[string][]Command{
	"new-game": {NewGame{}, NewGame{First: 1, Variant: "37b", Players: &[2]string{"Ann", "Bo"}, Event: str("Open"), Round: str(""),
		Control: &clock.Control{Kind: clock.Fischer, Base: 20 * time.Minute, Inc: 10 * time.Second}, Engine: num(1), Level: 3},
		NewGame{Engine: num(NoEngine), Control: &clock.Control{}}},
	"set-players":      {SetPlayers{Players: [2]string{"Zoë", "Łukasz"}}, SetPlayers{Players: [2]string{"a", "b"}, Event: str("Club"), Round: str("3")}},
	"takeback":         {Takeback{}},
	"pause":            {Pause{}},
	"resume":           {Resume{}},
	"add-time":         {AddTime{Player: 1, MS: 60000}},
	"declare-result":   {DeclareResult{Result: "draw"}, DeclareResult{Result: "time", Winner: num(0), Note: "flag fell"}},
	"takeback-answer":  {TakebackAnswer{}, TakebackAnswer{Accept: true}},
	"answer":           {Answer{Question: 3, Option: 2}, Answer{Question: 1, OptionText: "WD4-G4 GF2-A1"}},
	"note":             {Note{Text: "clock replaced after turn 12"}, Note{Text: "Zoë warned: touch-move"}},
	"health-check":     {HealthCheck{}},
	"takeback-request": {TakebackRequest{}},
	"hint":             {Hint{}},
	"show-last":        {ShowLast{}},
}

// TestEveryCommandRoundTrips: every registered command has examples, and
// each example survives Fields then decode: what the board journals and
// what the console sends is what the board carries out.
func TestEveryCommandRoundTrips(t *testing.T) {
	for _, e := range codecs {
		if len(examples[e.name]) == 0 {
			t.Errorf("command %s has no examples: add some to examples", e.name)
		}
	}
	for name, cs := range examples {
		for _, c := range cs {
			if got := Name(c); got != name {
				t.Errorf("Name(%#v) = %q; want %q", c, got, name)
			}
			env, reason := decode(name, Fields(c), "", true)
			if reason != "" || !reflect.DeepEqual(env.Command, c) {
				t.Errorf("%s: fields %s decode to %#v (%s); want %#v", name, Fields(c), env.Command, reason, c)
			}
			n, p := Payload(Envelope{Command: c, ID: "r1"})
			env, reason = decode(n, p, "", true)
			if reason != "" || env.ID != "r1" || !reflect.DeepEqual(env.Command, c) {
				t.Errorf("%s: payload %s decodes to %#v (%s)", name, p, env, reason)
			}
		}
	}
}

// TestEveryCommandTypeHasItsCodec: each type of this package that is a
// Command (has the isCommand method) has a codec entry, and Name knows it.
func TestEveryCommandTypeHasItsCodec(t *testing.T) {
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, f := range pkgs["command"].Files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "isCommand" && fn.Recv != nil {
				types = append(types, fmt.Sprint(fn.Recv.List[0].Type))
			}
		}
	}
	if len(types) < 10 {
		t.Fatalf("found %d command types (%v); has isCommand moved?", len(types), types)
	}
	registered := map[string]bool{}
	for _, e := range codecs {
		registered[reflect.TypeOf(e.zero).Name()] = true
	}
	for _, ty := range types {
		if !registered[ty] {
			t.Errorf("command type %s has no entry in codecs", ty)
		}
	}
}

// TestInternalCommandsNotOnTheWire: the board's own commands are refused
// on the cmd/ topics as unknown, and the reason lists the wire's.
func TestInternalCommandsNotOnTheWire(t *testing.T) {
	for _, c := range []Command{Hint{}, ShowLast{}, TakebackRequest{}} {
		_, reason := Decode(Name(c), []byte(`{}`), "")
		if !strings.HasPrefix(reason, "unknown command (want new-game, set-players, ") || strings.Contains(reason, Name(c)) {
			t.Errorf("%s: reason %q", Name(c), reason)
		}
	}
	if _, reason := Decode("nope", []byte(`{}`), ""); reason != "unknown command (want "+strings.Join(WireNames()[:len(WireNames())-1], ", ")+" or "+WireNames()[len(WireNames())-1]+")" {
		t.Errorf("reason %q", reason)
	}
}

package board

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// TestConsoleEndToEnd: the arbiter console of a board's own scoreboard
// (run/sim: in process, operators logging in against the embedded
// broker) acts on the real controller: a pause shows in the board's
// state and journal, a result declared from the console ends the game on
// the board, in its journal and record, and reaches the results (kept on
// disk) with its clocks.
func TestConsoleEndToEnd(t *testing.T) {
	_, rig, cal := wallRig(t)
	control, err := clock.Parse("fischer:5m+5s")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	journal := filepath.Join(dir, "journal.jsonl")
	results := filepath.Join(dir, "results")
	ready := make(chan [2]string, 1)
	cfg := Config{
		Options: Options{BoardID: "e2e", Variant: "37", Mode: referee.Tournament, Players: [2]string{"Ann", "Bob"},
			SettleMS: referee.DefaultSettleMS, Rig: rig, Calibration: cal, JournalPath: journal, Control: control, Logger: testLog(t)},
		Broker: EmbeddedBroker, Listen: "127.0.0.1:0", WebSocket: "off", Username: "board",
		Users: []broker.User{{Name: "arbiter", Password: "arbiter-pw", Role: broker.RoleOperator}, {Name: "watcher", Password: "watcher-pw", Role: broker.RoleViewer}},
		Store: filepath.Join(dir, "store"), HTTP: "127.0.0.1:0", Results: results,
		Ready: func(mqttURL, httpURL string) { ready <- [2]string{mqttURL, httpURL} },
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, cfg) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	var base, mqttURL string
	select {
	case u := <-ready:
		mqttURL, base = u[0], u[1]
	case err := <-done:
		t.Fatalf("Run: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("the board did not start")
	}
	base = strings.TrimSuffix(base, "/")
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, Timeout: 20 * time.Second}
	post := func(path string, form url.Values, csrf string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", base)
		if csrf != "" {
			req.Header.Set("X-CSRF-Token", csrf)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	getBody := func(path string) []byte {
		t.Helper()
		resp, err := hc.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return b
	}

	// A viewer cannot log in; the operator can.
	if _, body := post("/console/login", url.Values{"user": {"watcher"}, "password": {"watcher-pw"}}, ""); !strings.Contains(body, "not an operator") {
		t.Fatalf("the viewer's log-in: %s", body)
	}
	if _, body := post("/console/login", url.Values{"user": {"arbiter"}, "password": {"arbiter-pw"}}, ""); !strings.Contains(body, `data-csrf="`) {
		t.Fatalf("the operator's log-in: %s", body)
	}
	csrf := regexp.MustCompile(`data-csrf="([0-9a-f]+)"`).FindStringSubmatch(string(getBody("/console")))[1]
	var took []time.Duration // each action: the POST until the board's reply is back
	defer func() {
		if len(took) > 0 {
			slices.Sort(took)
			t.Logf("console action → board's reply → HTTP answer, %d actions: min %v, median %v, max %v", len(took), took[0], took[len(took)/2], took[len(took)-1])
		}
	}()
	act := func(fields url.Values) map[string]string {
		t.Helper()
		start := time.Now()
		resp, body := post("/console/act", fields, csrf)
		took = append(took, time.Since(start))
		var r map[string]string
		if err := json.Unmarshal([]byte(body), &r); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%v: %s %s", fields, resp.Status, body)
		}
		return r
	}
	state := func() wire.State {
		var s wire.State
		json.Unmarshal(getBody("/state.json"), &s)
		return s
	}

	pause := act(url.Values{"board": {"e2e"}, "action": {"pause"}})
	if pause["outcome"] != "accepted" {
		t.Fatalf("pause: %v", pause)
	}
	if s := state(); !s.Clock.Paused || s.Clock.Running != nil {
		t.Errorf("the board's clock after the console's pause: %+v", s.Clock)
	}
	if r := act(url.Values{"board": {"e2e"}, "action": {"pause"}}); r["outcome"] != "refused" || r["reason"] == "" {
		t.Errorf("a second pause: %v; want refused with the board's reason", r)
	}
	if r := act(url.Values{"board": {"e2e"}, "action": {"add-time"}, "player": {"1"}, "seconds": {"60"}}); r["outcome"] != "accepted" {
		t.Errorf("add-time: %v", r)
	}
	if s := state(); s.Clock.Remaining == nil || s.Clock.Remaining[1] != 360000 {
		t.Errorf("the board's clock after adding 60 s to player 1: %+v", s.Clock)
	}
	if r := act(url.Values{"board": {"e2e"}, "action": {"resume"}}); r["outcome"] != "accepted" {
		t.Errorf("resume: %v", r)
	}
	ended := awaitMessage(t, mqttURL, "watcher", "watcher-pw", "zertz/e2e/record", "board knocked over")
	decl := act(url.Values{"board": {"e2e"}, "action": {"declare-result"}, "result": {"adjudication"}, "winner": {"1"}, "note": {"board knocked over"}})
	if decl["outcome"] != "accepted" {
		t.Fatalf("declare-result: %v", decl)
	}
	s := state()
	if s.Phase != "over" || s.Result != "adjudication" || s.Winner == nil || *s.Winner != 1 || s.ResultNote != "board knocked over" {
		t.Errorf("the board's state after the declared result: phase %s result %s winner %v note %q", s.Phase, s.Result, s.Winner, s.ResultNote)
	}

	// The results: page, JSON and SGF of the game, from the board's record.
	game := s.GameID
	// The scoreboard, subscribed in process, handles the record before
	// the broker sends it to any client.
	select {
	case <-ended:
	case <-time.After(20 * time.Second):
		t.Fatal("the board did not publish the record of the declared result")
	}
	if !bytes.Contains(getBody("/results"), []byte(`data-game="`+game+`"`)) {
		t.Fatalf("the result is not on /results once the record was published")
	}
	rec, err := record.Read(bytes.NewReader(getBody("/results/" + game + ".json")))
	if err != nil || rec.Stop.Kind != record.Adjudication || rec.Stop.Player != 1 || rec.Stop.Note != "board knocked over" || rec.Players != [2]string{"Ann", "Bob"} {
		t.Errorf("the result's JSON record: %v %+v", err, rec)
	}
	var withClock struct {
		Clock *struct {
			Control string `json:"control"`
		} `json:"clock"`
	}
	if err := json.Unmarshal(getBody("/results/"+game+".json"), &withClock); err != nil || withClock.Clock == nil || withClock.Clock.Control != "fischer:5m+5s" {
		t.Errorf("the result's JSON record has no clock: %v %+v", err, withClock.Clock)
	}
	if _, err := record.Read(bytes.NewReader(getBody("/results/" + game + ".sgf"))); err != nil {
		t.Errorf("the result's SGF: %v", err)
	}
	if csv := string(getBody("/results.csv")); !strings.Contains(csv, game+",e2e,") || !strings.Contains(csv, ",1,Bob,adjudication,board knocked over,0,fischer:5m+5s,") {
		t.Errorf("results.csv:\n%s", csv)
	}
	if _, err := os.Stat(filepath.Join(results, game+".json")); err != nil {
		t.Errorf("the result is not on disk: %v", err)
	}
	// The kept file is a plain record: it replays, with its result (the
	// arbiter's adjudication), and the envelope is beside it.
	if kept, err := record.ReadFile(filepath.Join(results, game+".json")); err != nil {
		t.Errorf("the kept record: %v", err)
	} else if _, err := kept.Replay(); err != nil || kept.Stop.Kind != record.Adjudication || kept.Stop.Player != 1 {
		t.Errorf("the kept record replays with %v, its end %+v; want the adjudication to player 1", err, kept.Stop)
	}
	if _, err := os.Stat(filepath.Join(results, game+".result")); err != nil {
		t.Errorf("no envelope beside the kept record: %v", err)
	}
	// A note after the end goes into the game's record, which the result
	// keeps (JSON, SGF, on disk): the same game, not a second one.
	rows := bytes.Count(getBody("/results"), []byte(`data-game="`+game))
	const flag = `P1 resigned after the flag dispute: "]" \ é`
	noted := awaitMessage(t, mqttURL, "watcher", "watcher-pw", "zertz/e2e/record", "flag dispute")
	if r := act(url.Values{"board": {"e2e"}, "action": {"note"}, "text": {flag}}); r["outcome"] != "accepted" {
		t.Fatalf("note: %v", r)
	}
	select {
	case <-noted:
	case <-time.After(20 * time.Second):
		t.Fatal("the board did not publish the record with the note")
	}
	if n := bytes.Count(getBody("/results"), []byte(`data-game="`+game)); n != rows {
		t.Errorf("/results shows the game %d times after the note; %d before", n, rows)
	}
	wantNotes := []record.Note{{Turn: len(rec.Turns), Text: flag}}
	for _, path := range []string{"/results/" + game + ".json", "/results/" + game + ".sgf"} {
		if got, err := record.Read(bytes.NewReader(getBody(path))); err != nil || !slices.Equal(got.Notes, wantNotes) {
			t.Errorf("%s: notes %q, %v; want %q", path, got.Notes, err, wantNotes)
		}
	}
	if kept, err := record.ReadFile(filepath.Join(results, game+".json")); err != nil || !slices.Equal(kept.Notes, wantNotes) {
		t.Errorf("the kept record's notes: %v, %v", kept, err)
	}
	// The results page lists it under the game's row, and the console
	// shows it on the board's row: the arbiter sees it arrived.
	where := "before the first turn"
	if n := len(rec.Turns); n > 0 {
		where = "after turn " + strconv.Itoa(n)
	}
	shown := where + ": P1 resigned after the flag dispute: &#34;]&#34; \\ é"
	for _, path := range []string{"/results", "/console"} {
		if page := getBody(path); !bytes.Contains(page, []byte(shown)) {
			t.Errorf("%s does not show the note %q:\n%s", path, shown, page)
		}
	}
	// A new game set up from the console: board, players, first player,
	// time control.
	ng := act(url.Values{"board": {"e2e"}, "action": {"new-game"}, "variant": {"48"}, "player0": {"Łucja"}, "player1": {"Юрий"},
		"first": {"1"}, "time_control": {"sudden:25m"}})
	if ng["outcome"] != "accepted" {
		t.Fatalf("new-game: %v", ng)
	}
	if s := state(); s.Variant != "48" || s.Players != [2]string{"Łucja", "Юрий"} || s.ToMove != 1 || s.Clock.Control != "sudden:25m" ||
		s.Phase == "over" || s.GameID == game || s.Clock.Remaining == nil || s.Clock.Remaining[0] != 25*60*1000 {
		t.Errorf("the board after the console's new game: variant %s players %q to move %d clock %+v phase %s game %s",
			s.Variant, s.Players, s.ToMove, s.Clock, s.Phase, s.GameID)
	}
	// The console reads the time control into the typed command, so a bad
	// one is invalid before it is sent; a variant it cannot check is the
	// board's to refuse.
	if resp, body := post("/console/act", url.Values{"board": {"e2e"}, "action": {"new-game"}, "time_control": {"sudden:99h"}}, csrf); resp.StatusCode != http.StatusBadRequest ||
		!strings.Contains(body, `"outcome":"invalid"`) || !strings.Contains(body, "time_control") {
		t.Errorf("a new game with a bad time control: %s %s; want it invalid", resp.Status, body)
	}
	if r := act(url.Values{"board": {"e2e"}, "action": {"new-game"}, "variant": {"99"}}); r["outcome"] != "refused" || !strings.Contains(r["reason"], "variant") {
		t.Errorf("a new game with a bad variant: %v; want the board's refusal", r)
	}

	// The board journalled each accepted command with the console's id.
	jb, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{pause["id"], decl["id"], ng["id"]} {
		if !bytes.Contains(jb, []byte(`"id":"`+id+`"`)) {
			t.Errorf("the journal lacks the console's command %s:\n%s", id, jb)
		}
	}
}

// awaits numbers awaitMessage's clients, so that two never share an ID.
var awaits atomic.Int32

// awaitMessage subscribes to topic on the broker at mqttURL and returns a
// channel closed at the first message on it that contains want. The
// client disconnects when the test ends.
func awaitMessage(t *testing.T, mqttURL, user, password, topic, want string) <-chan struct{} {
	t.Helper()
	got := make(chan struct{})
	var once bool
	c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker(mqttURL).SetClientID("test-" + strings.ReplaceAll(topic, "/", "-") + "-" + strconv.Itoa(int(awaits.Add(1)))).
		SetUsername(user).SetPassword(password).SetCleanSession(true).SetAutoReconnect(false).SetOrderMatters(true).
		SetConnectTimeout(20 * time.Second))
	if tok := c.Connect(); !tok.WaitTimeout(20*time.Second) || tok.Error() != nil {
		t.Fatalf("connecting to the board's broker: %v", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	tok := c.Subscribe(topic, 1, func(_ mqtt.Client, m mqtt.Message) {
		if !once && bytes.Contains(m.Payload(), []byte(want)) {
			once = true // the handlers run in order, one at a time
			close(got)
		}
	})
	if !tok.WaitTimeout(20*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribing to %s: %v", topic, tok.Error())
	}
	return got
}

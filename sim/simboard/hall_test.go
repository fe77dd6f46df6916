package simboard_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hall"
	"github.com/zertzboard/zertzboard/internal/mosquittotest"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/scoreboard"
	"github.com/zertzboard/zertzboard/wire"
)

// hallWait bounds each wait of the hall test; a hall of boards on a busy
// two-core machine under -race finishes far sooner.
const hallWait = 3 * time.Minute

// hallSpeed is the simulated players' pace. Twelve boards scanning under
// the race detector share two busy cores, so they scan at 100 Hz and hold
// each board for a settle time of 150 ms: a scan goroutine kept from the
// CPU for a tenth of a second (common at a load of 8 on two cores) still
// sees every board the players hold. At 40 times human speed, 200 Hz and
// 40 ms, the referee missed boards and inferred other turns.
const hallSpeed = "20"

// hallControl is the boards' time control.
const hallControl = "fischer:5m+3s"

// startHallBroker runs mosquitto on a free loopback port with a password
// file and the ACL and configuration of package hall for the accounts; it
// returns the broker's address.
func startHallBroker(t *testing.T, acc hall.Accounts, passwords map[string]string) string {
	t.Helper()
	acl, err := hall.ACL(acc)
	if err != nil {
		t.Fatal(err)
	}
	return mosquittotest.Start(t, mosquittotest.Options{Passwords: passwords, ACL: acl, Config: func(port int, pw, acl string) string {
		return hall.Config("127.0.0.1", port, pw, acl)
	}})
}

// hallWatch is an MQTT client that keeps what every board publishes.
type hallWatch struct {
	mu      sync.Mutex
	c       paho.Client
	moves   map[string][]moveMsg
	state   map[string]wire.State
	record  map[string][]byte
	events  map[string][]string
	changed chan struct{}
	// dedup drops a move whose seq was seen before with the same turn
	// and notation: QoS 1 delivers at least once, and a bridge or a
	// persistent session resends what was not acknowledged. dups counts
	// them. A move out of order is kept, for checkPlayed to report.
	dedup bool
	dups  int
}

func connectHall(t *testing.T, addr, user, password, id string) paho.Client {
	t.Helper()
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(id).SetUsername(user).SetPassword(password).
		SetAutoReconnect(false).SetConnectTimeout(10 * time.Second).SetOrderMatters(true).SetCleanSession(true)
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatalf("connecting %s as %q: %v", id, user, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(20) })
	return c
}

func watchHall(t *testing.T, addr, user, password, id string) *hallWatch {
	t.Helper()
	w := &hallWatch{moves: map[string][]moveMsg{}, state: map[string]wire.State{}, record: map[string][]byte{},
		events: map[string][]string{}, changed: make(chan struct{}, 1)}
	w.c = connectHall(t, addr, user, password, id)
	filters := map[string]byte{}
	for _, k := range []string{"state", "moves", "record", "events"} {
		filters["zertz/+/"+k] = 1
	}
	tok := w.c.SubscribeMultiple(filters, w.take)
	if !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribing: %v", tok.Error())
	}
	return w
}

// take keeps one message.
func (w *hallWatch) take(_ paho.Client, m paho.Message) {
	parts := strings.Split(m.Topic(), "/")
	if len(parts) != 3 {
		return
	}
	id, kind := parts[1], parts[2]
	w.mu.Lock()
	switch kind {
	case "moves":
		var mv moveMsg
		if json.Unmarshal(m.Payload(), &mv) == nil {
			if w.dedup && slices.Contains(w.moves[id], mv) {
				w.dups++
				break
			}
			w.moves[id] = append(w.moves[id], mv)
		}
	case "state":
		var s wire.State
		if json.Unmarshal(m.Payload(), &s) == nil && s.Seq >= w.state[id].Seq {
			w.state[id] = s
		}
	case "record":
		w.record[id] = append([]byte(nil), m.Payload()...)
	case "events":
		var e struct {
			Event string `json:"event"`
		}
		if json.Unmarshal(m.Payload(), &e) == nil {
			w.events[id] = append(w.events[id], string(m.Payload()))
		}
	}
	w.mu.Unlock()
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

// until waits for cond (checked under the lock) after each message.
func (w *hallWatch) until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(hallWait)
	for {
		w.mu.Lock()
		ok := cond()
		w.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-w.changed:
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// hallGames are the built-in games the hall plays, one per board: the
// shortest ones (so that the test stays quick), of every board size.
func hallGames(t *testing.T, n int) ([]*record.Record, []string) {
	t.Helper()
	type game struct {
		rec  *record.Record
		name string
	}
	var games []game
	for _, name := range samples.BuiltinNames() {
		rec, err := record.ReadFile(samples.Path(name))
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, game{rec, name})
	}
	slices.SortStableFunc(games, func(a, b game) int { return len(a.rec.Turns) - len(b.rec.Turns) })
	var out []*record.Record
	var names []string
	for _, g := range games[:n] {
		out = append(out, g.rec)
		names = append(names, g.name)
	}
	return out, names
}

// checkPlayed compares what a board published (its moves, take-backs
// included, and its retained record seen by a late subscriber) with the
// game played.
func checkPlayed(t *testing.T, id string, rec *record.Record, moves []moveMsg, retained []byte) {
	t.Helper()
	rep, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := rec.Board()
	// The players take a turn back now and then: a move for a turn played
	// before replaces it and what followed.
	var played []string
	for i, m := range moves {
		if i > 0 && m.Seq <= moves[i-1].Seq {
			t.Errorf("%s: move %d has seq %d after %d", id, i+1, m.Seq, moves[i-1].Seq)
		}
		if m.Turn < 1 || m.Turn > len(played)+1 {
			t.Errorf("%s: move message %d is for turn %d after %d turns", id, i+1, m.Turn, len(played))
			return
		}
		played = append(played[:m.Turn-1], m.Notation)
	}
	if len(played) != rep.Game.Len() {
		t.Errorf("%s: %d turns published; the game has %d", id, len(played), rep.Game.Len())
	}
	g := engine.NewGame(rep.Game.Start())
	for i, n := range played {
		turn, err := engine.ParseTurn(b, n)
		if err == nil {
			err = g.Play(turn)
		}
		if err != nil || i >= rep.Game.Len() || !g.Position().Equal(rep.Game.PositionAfter(i+1)) {
			t.Errorf("%s: turn %d %s (%v) does not lead to the game's position after turn %d", id, i+1, n, err, i+1)
			return
		}
	}
	seen, err := record.ReadJSON(bytes.NewReader(retained))
	if err != nil {
		t.Errorf("%s: the retained record: %v", id, err)
		return
	}
	srep, err := seen.Replay()
	if err != nil || seen.Variant != rec.Variant || seen.Players != rec.Players || srep.Game.Len() != rep.Game.Len() {
		t.Errorf("%s: the retained record (%v): variant %s players %q, %d turns; want %s %q, %d turns", id, err, seen.Variant, seen.Players, len(seen.Turns), rec.Variant, rec.Players, rep.Game.Len())
		return
	}
	for k := 1; k <= rep.Game.Len(); k++ {
		if !srep.Game.PositionAfter(k).Equal(rep.Game.PositionAfter(k)) {
			t.Errorf("%s: the retained record's position after turn %d is not the game's", id, k)
			return
		}
	}
}

// TestHall runs a tournament hall: twelve simulated boards, each playing
// a built-in game in tournament mode with Fischer clocks, against Debian's
// mosquitto with the hall's password file and ACL; the scoreboard follows
// it with a viewer account, serves the tournament view and the arbiter's
// console, and an operator watches. Every board's game must arrive
// complete: each move in order, the final state, and the retained record a
// late subscriber reads. The arbiter logs in to the console (a viewer's
// and a board's accounts cannot) and declares a resignation on one board,
// which must reach that board's state, its retained record, its journal
// and the results page, which lists every finished game. The ACL must keep a board to its own topics and a viewer from
// commands.
func TestHall(t *testing.T) {
	if testing.Short() {
		t.Skip("plays twelve games")
	}
	const boards = 12
	games, gameNames := hallGames(t, boards)
	acc := hall.Accounts{Operators: []string{"arbiter"}, Viewers: []string{"scoreboard"}}
	passwords := map[string]string{"arbiter": "arbiter-pw", "scoreboard": "scoreboard-pw"}
	ids := make([]string, boards)
	for i := range ids {
		ids[i] = fmt.Sprintf("hall-%02d", i+1)
		acc.Boards = append(acc.Boards, ids[i])
		passwords[ids[i]] = "pw-" + ids[i]
	}
	addr := startHallBroker(t, acc, passwords)

	// The operator watches from before the first message.
	op := watchHall(t, addr, "arbiter", "arbiter-pw", "arbiter-watch")

	// The scoreboard, with the viewer account, and a browser's stream of
	// the tournament view (rebuilt from its patches).
	sb := scoreboard.New(scoreboard.Options{})
	// The arbiter's console logs operators in against the hall's broker.
	if err := sb.EnableConsole(scoreboard.ConsoleConfig{Broker: "tcp://" + addr, ProbeTimeout: 5 * time.Second}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(sb.Close)
	ctx, cancel := context.WithCancel(context.Background())
	followed := make(chan error, 1)
	connected := make(chan struct{}, 1)
	go func() {
		followed <- sb.Follow(ctx, scoreboard.MQTTConfig{Broker: "tcp://" + addr, Username: "scoreboard", Password: "scoreboard-pw",
			Connected: func() {
				select {
				case connected <- struct{}{}:
				default:
				}
			}})
	}()
	t.Cleanup(func() { cancel(); <-followed })
	select {
	case <-connected:
	case <-time.After(hallWait):
		t.Fatal("the scoreboard did not subscribe")
	}

	// The ACL: a viewer never gets a command; a board cannot publish as
	// another board. mosquitto handles messages in order on one thread, so
	// once the viewer has the event published after them, it would have
	// had anything it was sent before.
	anon := watchHall(t, addr, "", "", "anon-viewer")
	if tok := anon.c.Subscribe("zertz/+/cmd/#", 1, func(paho.Client, paho.Message) {
		anon.mu.Lock()
		anon.events["cmd"] = append(anon.events["cmd"], "a command")
		anon.mu.Unlock()
	}); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	if tok := op.c.Publish("zertz/hall-01/cmd/set-players", 1, false, `{"players":["a","b"]}`); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
		t.Fatalf("publish: %v", tok.Error())
	}
	rogue := connectHall(t, addr, "hall-02", "pw-hall-02", "rogue")
	for _, topic := range []string{"zertz/hall-01/events", "zertz/hall-02/events"} {
		if tok := rogue.Publish(topic, 1, false, `{"event":"rogue","from":"`+topic+`"}`); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
			t.Fatalf("publish: %v", tok.Error())
		}
	}
	for _, w := range []*hallWatch{op, anon} {
		w.until(t, "hall-02's own event", func() bool { return len(w.events["hall-02"]) > 0 })
		w.mu.Lock()
		if len(w.events["hall-01"]) > 0 {
			t.Errorf("board hall-02 published as hall-01: %q", w.events["hall-01"])
		}
		delete(w.events, "hall-02")
		w.mu.Unlock()
	}
	anon.mu.Lock()
	if len(anon.events["cmd"]) > 0 {
		t.Error("an anonymous viewer received a command")
	}
	anon.mu.Unlock()
	rogue.Disconnect(20)

	// Only the operator's account gets a console session: the scoreboard's
	// viewer account and a board's are refused by the broker's ACL.
	for _, who := range [][2]string{{"scoreboard", "scoreboard-pw"}, {"hall-03", "pw-hall-03"}, {"arbiter", "wrong"}} {
		if c := newConsoleClient(t, srv.URL); c.login(who[0], who[1]) {
			t.Errorf("%s logged in to the console", who[0])
		}
	}
	arbiter := newConsoleClient(t, srv.URL)
	if !arbiter.login("arbiter", "arbiter-pw") {
		t.Fatal("the arbiter cannot log in to the console")
	}

	// The boards.
	start := time.Now()
	dir := t.TempDir()
	var wg sync.WaitGroup
	logs := make([]*logBuffer, boards)
	codes := make([]int, boards)
	for i, id := range ids {
		if err := os.Mkdir(filepath.Join(dir, id), 0o700); err != nil {
			t.Fatal(err)
		}
		game := samples.Path(gameNames[i])
		logs[i] = &logBuffer{}
		args := []string{"--game", game, "--speed", hallSpeed, "--settle", "150", "--scan-hz", "100", "--time-control", hallControl, "--exit-at-end", "--board-id", id, "--mode", "tournament",
			"--broker", "tcp://" + addr, "--username", id, "--password", passwords[id], "--http", "off",
			"--journal", filepath.Join(dir, id, "journal.jsonl"), "--seed", fmt.Sprint(i + 1)}
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = runSimContext(ctx, args, logs[i], logs[i])
		}()
	}
	// The arbiter declares a result on the last board (its game is the
	// longest) a few turns in: a resignation, with a note.
	declared := ids[boards-1]
	op.until(t, declared+" at turn 4", func() bool { return op.state[declared].Turn >= 4 })
	op.mu.Lock()
	winner := 1 - op.state[declared].ToMove // the player to move resigns
	op.mu.Unlock()
	res := arbiter.act(declared, url.Values{"action": {"declare-result"}, "result": {"resignation"}, "winner": {fmt.Sprint(winner)}, "note": {"left the hall"}})
	if res.Outcome != "accepted" || res.ID == "" {
		t.Errorf("the console's declare-result: %+v", res)
	}
	wg.Wait()
	t.Logf("%d boards played their games in %v", boards, time.Since(start).Round(time.Millisecond))
	for i, id := range ids {
		if codes[i] != exitOK {
			t.Errorf("board %s exited %d:\n%s", id, codes[i], logs[i].String())
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// Every game complete at the operator, on the broker (retained, for a
	// subscriber that comes afterwards) and on the scoreboard.
	late := watchHall(t, addr, "", "", "late-viewer")
	late.until(t, "every board's retained record", func() bool {
		for i, id := range ids {
			var r struct{ Turns []json.RawMessage }
			if id == declared {
				if late.state[id].Phase != "over" || json.Unmarshal(late.record[id], &r) != nil || len(r.Turns) != late.state[id].Turn {
					return false
				}
				continue
			}
			if json.Unmarshal(late.record[id], &r) != nil || len(r.Turns) != len(games[i].Turns) || late.state[id].Turn != len(games[i].Turns) {
				return false
			}
		}
		return true
	})
	op.mu.Lock()
	late.mu.Lock()
	for i, id := range ids {
		if id == declared {
			continue
		}
		checkPlayed(t, id, games[i], op.moves[id], late.record[id])
		st := late.state[id]
		if st.Turn != len(games[i].Turns) || st.Mode != "tournament" || st.Players != games[i].Players || st.Clock.Control != hallControl {
			t.Errorf("%s: the retained state: turn %d, mode %s, players %q, clock %+v", id, st.Turn, st.Mode, st.Players, st.Clock)
		}
	}
	// The declared result reached the board (its state), the broker (the
	// retained record) and the journal.
	st := late.state[declared]
	k := st.Turn
	if st.Phase != "over" || st.Result != "resignation" || st.Winner == nil || *st.Winner != winner || st.ResultNote != "left the hall" || k < 4 {
		t.Errorf("%s after the declared resignation: phase %s result %q winner %v note %q turn %d", declared, st.Phase, st.Result, st.Winner, st.ResultNote, k)
	}
	short := *games[boards-1]
	short.Turns = short.Turns[:min(k, len(short.Turns))]
	checkPlayed(t, declared, &short, op.moves[declared], late.record[declared])
	if rec, err := record.ReadJSON(bytes.NewReader(late.record[declared])); err != nil || rec.Stop.Kind != record.Resign || rec.Stop.Player != 1-winner || rec.Stop.Note != "left the hall" {
		t.Errorf("%s: the retained record's end: %+v (%v); want player %d resigned, with the note", declared, rec.Stop, err, 1-winner)
	}
	finals := map[string]wire.State{}
	for _, id := range ids {
		finals[id] = late.state[id]
	}
	late.mu.Unlock()
	op.mu.Unlock()
	checkResults(t, sb, srv.URL, finals)
	checkJournalEnd(t, filepath.Join(dir, declared, "journal.jsonl"), res.ID, winner)
	index, _ := sb.Current("")
	if n := strings.Count(index, `class="clock`); n != 2*boards {
		t.Errorf("the tournament view shows %d clocks; want two per board", n)
	}
	if !strings.Contains(index, fmt.Sprintf(`data-boards="%d"`, boards)) {
		t.Errorf("the tournament view does not list %d boards", boards)
	}
	for i, id := range ids {
		var st wire.State
		want := len(games[i].Turns)
		if id == declared {
			want = k
		}
		if err := json.Unmarshal(sb.State(id), &st); err != nil || st.Turn != want || st.Phase != "over" && id == declared {
			t.Errorf("the scoreboard's state of %s: turn %d, %s (%v); want %d", id, st.Turn, st.Phase, err, want)
		}
		if !strings.Contains(index, `data-board="`+id+`"`) {
			t.Errorf("the tournament view lacks %s", id)
		}
	}
}

// checkJournalEnd reads a board's journal after it stopped: the arbiter's
// command is journalled (before it was carried out), and the game ends in
// the declared resignation.
func checkJournalEnd(t *testing.T, path, id string, winner int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	arbiter := false
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e journal.Line
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		arbiter = arbiter || e.Op == "arbiter" && e.Command == "declare-result" && e.ID == id
	}
	if !arbiter {
		t.Errorf("%s has no arbiter entry for declare-result %s", path, id)
	}
	j, g, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	if g.End == nil || g.End.Reason != "resignation" || g.End.Winner == nil || *g.End.Winner != winner || g.End.Note != "left the hall" {
		t.Errorf("%s: the journal's end %+v; want a resignation, player %d winning, with the note", path, g.End, winner)
	}
}

// consoleClient is a browser on the arbiter console: cookies, the page's
// origin, the session's CSRF token.
type consoleClient struct {
	t    *testing.T
	hc   *http.Client
	base string
	csrf string
}

func newConsoleClient(t *testing.T, base string) *consoleClient {
	jar, _ := cookiejar.New(nil)
	return &consoleClient{t: t, base: base, hc: &http.Client{Jar: jar, Timeout: hallWait,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (c *consoleClient) post(path string, form url.Values, header map[string]string) (int, string) {
	c.t.Helper()
	req, _ := http.NewRequest("POST", c.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", c.base)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(body)
}

var csrfAttr = regexp.MustCompile(`data-csrf="([0-9a-f]+)"`)

// login reports whether the console let the account in (and keeps the
// session's CSRF token).
func (c *consoleClient) login(user, password string) bool {
	c.t.Helper()
	code, _ := c.post("/console/login", url.Values{"user": {user}, "password": {password}}, nil)
	if code != http.StatusSeeOther {
		return false
	}
	resp, err := c.hc.Get(c.base + "/console")
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	m := csrfAttr.FindSubmatch(page)
	if m == nil {
		return false
	}
	c.csrf = string(m[1])
	return true
}

type consoleResult struct {
	ID      string `json:"id"`
	Outcome string `json:"outcome"`
	Reason  string `json:"reason"`
}

// act sends one console action and returns the board's answer.
func (c *consoleClient) act(board string, fields url.Values) consoleResult {
	c.t.Helper()
	fields.Set("board", board)
	code, body := c.post("/console/act", fields, map[string]string{"X-CSRF-Token": c.csrf})
	var r consoleResult
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		c.t.Fatalf("console action: %d %q", code, body)
	}
	return r
}

// checkResults reads the scoreboard's results (CSV): every game the boards
// finished is there, with its board, turns, result and clocks.
func checkResults(t *testing.T, sb *scoreboard.Server, base string, finals map[string]wire.State) {
	t.Helper()
	n := 0
	for _, st := range finals {
		if st.Phase == "over" {
			n++
		}
	}
	var rows [][]string
	// The scoreboard files a game once its state and record are both in.
	waitFor(t, fmt.Sprintf("%d games on the results page", n), sb.Changes, func() bool {
		resp, err := http.Get(base + "/results.csv")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if rows, err = csv.NewReader(io.LimitReader(resp.Body, 1<<20)).ReadAll(); err != nil {
			t.Fatalf("results.csv: %v", err)
		}
		return len(rows) == n+1
	})
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	seen := map[string]bool{}
	for _, row := range rows[1:] {
		id := row[col["board"]]
		st, ok := finals[id]
		seen[id] = true
		winner := ""
		if st.Winner != nil {
			winner = fmt.Sprint(*st.Winner)
		}
		if !ok || st.Phase != "over" || row[col["turns"]] != fmt.Sprint(st.Turn) || row[col["reason"]] != string(st.Result) ||
			row[col["winner"]] != winner || row[col["control"]] != hallControl || row[col["game_id"]] != st.GameID || row[col["note"]] != st.ResultNote {
			t.Errorf("results.csv row %q; the board's final state: %s, turn %d, %s, winner %s, game %s", row, st.Phase, st.Turn, st.Result, winner, st.GameID)
		}
	}
	for id, st := range finals {
		if st.Phase == "over" && !seen[id] {
			t.Errorf("results.csv lacks %s's game (%s after %d turns)", id, st.Result, st.Turn)
		}
	}
	t.Logf("results.csv lists %d finished games", len(rows)-1)
}

package scoreboard

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/scoreboard/view"
)

// TestNewerBoardsWords: a state whose phase, mode and result are words
// this build does not know (a newer board's) is accepted as before the
// words were typed: decoded, shown as it came on the board page and the
// console, and not taken for a finished game.
func TestNewerBoardsWords(t *testing.T) {
	rec, rep := sampleGame(t, 10)
	states := gameStates(t, rec, rep, "t1")
	var m map[string]any
	if err := json.Unmarshal(stateJSON(t, states[5]), &m); err != nil {
		t.Fatal(err)
	}
	m["phase"], m["mode"], m["result"] = "pondering", "arena", "stalemate"
	payload, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := decodeMessage("state", payload)
	if err != nil {
		t.Fatalf("a newer board's state refused: %v", err)
	}
	if msg.state.Phase != "pondering" || msg.state.Mode != "arena" || msg.state.Result != "stalemate" ||
		msg.op.Phase != "pondering" || msg.op.Mode != "arena" || msg.op.Result != "stalemate" {
		t.Errorf("decoded phase %q/%q, mode %q/%q, result %q/%q; want them as they came",
			msg.state.Phase, msg.op.Phase, msg.state.Mode, msg.op.Mode, msg.state.Result, msg.op.Result)
	}
	page := view.RenderBoard(view.Board{ID: "t1", State: msg.state, Lang: i18n.EN})
	for _, want := range []string{`data-phase="pondering"`, `arena`} {
		if !strings.Contains(page, want) {
			t.Errorf("board view lacks %s", want)
		}
	}
	ob := &opBoard{id: "t1", status: "online", state: msg.op}
	if ob.finished() {
		t.Error("an unknown phase taken for a finished game")
	}
	var row strings.Builder
	renderConsoleRow(&row, ob, time.Now(), i18n.EN, false)
	for _, want := range []string{`data-phase="pondering"`, `arena`} {
		if !strings.Contains(row.String(), want) {
			t.Errorf("console row lacks %s:\n%s", want, row.String())
		}
	}

	// The server takes it, and serves the board's page with it.
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	s.Handle("zertz/t1/state", payload)
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL + "/board/t1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `data-phase="pondering"`) {
		t.Errorf("/board/t1: %d, without the state's phase:\n%.400s", resp.StatusCode, body)
	}
}

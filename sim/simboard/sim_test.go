package simboard_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/wire"
)

// watcher collects what a board publishes.
type watcher struct {
	mu     sync.Mutex
	moves  []moveMsg
	state  wire.State
	states int
	record []byte
}

type moveMsg struct {
	Seq      uint64 `json:"seq"`
	Turn     int    `json:"turn"`
	Notation string `json:"notation"`
	Event    string `json:"event"`
}

func (w *watcher) take(topic string, payload []byte, _ bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case strings.HasSuffix(topic, "/moves"):
		var m moveMsg
		if json.Unmarshal(payload, &m) == nil {
			w.moves = append(w.moves, m)
		}
	case strings.HasSuffix(topic, "/state"):
		var s wire.State
		if json.Unmarshal(payload, &s) == nil && s.Seq >= w.state.Seq {
			w.state = s
			w.states++
		}
	case strings.HasSuffix(topic, "/record"):
		w.record = append([]byte(nil), payload...)
	}
}

// TestSimGameOverMQTT runs the whole simulated controller against a broker
// that a subscriber watches from before the first message: every move of
// the recorded game must arrive, in order, with seq increasing by one, and
// the final state and the retained record must match the record.
func TestSimGameOverMQTT(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game in real time")
	}
	w := &watcher{}
	b, err := broker.New(broker.Config{TCPAddr: "127.0.0.1:0", WSAddr: broker.Off,
		Users: []broker.User{{Name: "board", Password: "pw", Role: broker.RoleBoard}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Subscribe("zertz/#", w.take); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	game := filepath.Join(sampleDir, "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf")
	rec, err := record.ReadFile(game)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"sim", "--game", game, "--speed", "40", "--settle", "40", "--exit-at-end", "--board-id", "e2e",
		"--broker", "tcp://" + b.TCPAddr(), "--username", "board", "--password", "pw",
		"--http", "off", "--journal", filepath.Join(t.TempDir(), "j.jsonl"), "--language", "pl", "--show"}, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("sim exit %d:\n%s", code, stderr.String())
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	// Every published move, replayed, gives the record's position after the
	// same turn (a loop of jumps swept in one go may be reported either way
	// round, so positions, not notation, are compared).
	bd, _, _ := rec.Board()
	g := engine.NewGame(rep.Game.Start())
	for i, m := range w.moves {
		if i > 0 && m.Seq != w.moves[i-1].Seq+1 {
			t.Errorf("move %d has seq %d after %d", i+1, m.Seq, w.moves[i-1].Seq)
		}
		if m.Turn != i+1 || m.Event != "move" {
			t.Errorf("move message %d: %+v", i+1, m)
		}
		turn, err := engine.ParseTurn(bd, m.Notation)
		if err == nil {
			err = g.Play(turn)
		}
		if err != nil || i >= rep.Game.Len() || !g.Position().Equal(rep.Game.PositionAfter(i+1)) {
			t.Fatalf("move %d %s (%v) does not lead to the record's position after turn %d\n%s", i+1, m.Notation, err, i+1, stderr.String())
		}
	}
	if len(w.moves) != rep.Game.Len() {
		t.Fatalf("%d moves published; the record has %d turns", len(w.moves), rep.Game.Len())
	}
	want := rec.Turns
	s := w.state
	end := rep.Game.Position()
	if s.Turn != len(want) || s.Phase != "over" || s.Winner == nil || *s.Winner != end.Result().Winner || s.Cells != end.Cells() || s.Seq != w.moves[len(w.moves)-1].Seq {
		t.Errorf("final state: turn %d phase %s winner %v cells %s seq %d; want turn %d, winner %d, cells %s, seq %d",
			s.Turn, s.Phase, s.Winner, s.Cells, s.Seq, len(want), end.Result().Winner, end.Cells(), w.moves[len(w.moves)-1].Seq)
	}
	// --language pl: the terminal view speaks Polish; the wire stays English.
	if out := stdout.String(); !strings.Contains(out, "Ruch gracza") || !strings.Contains(out, "Koniec gry") {
		t.Errorf("--language pl --show: no Polish guidance in the terminal view:\n%.600s", out)
	}
	if !strings.HasPrefix(s.Status, "Game over") {
		t.Errorf("state status %q: the wire must stay English", s.Status)
	}
	seen, err := record.ReadJSON(bytes.NewReader(w.record))
	if err != nil || len(seen.Turns) != len(rec.Turns) || seen.Players != rec.Players {
		t.Errorf("retained record: %v, %+v", err, seen)
	}
}

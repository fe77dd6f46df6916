package wire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/referee"
)

func TestSnapshot(t *testing.T) {
	p, err := engine.ParsePosition("37 oooo/ooooo/oooooo/wgobooo/oowooo/ooogo/oooo 4,6,9 0,0,0 0,0,0 0")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := referee.New(referee.Config{Board: p.Board(), Rules: p.Rules(), Game: engine.NewGame(p)})
	if err != nil {
		t.Fatal(err)
	}
	s := Snapshot(ref, "b1", [2]string{"ann", "bob"}, 7, 1234)
	if s.Phase != "capture" || s.Forced == nil || len(s.Forced.Chains) != 4 || s.LastMove != nil || s.Winner != nil {
		t.Errorf("snapshot %+v", s)
	}
	if len(s.Layout) != 37 || s.Layout[0] != (Cell{"A1", 0, 3}) || s.Layout[36] != (Cell{"G4", 6, 9}) || len(s.Cells) != 37 {
		t.Errorf("layout %v, cells %q", s.Layout, s.Cells)
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"schema":1`, `"seq":7`, `"board_id":"b1"`, `"pool":{"white":4,"grey":6,"black":9}`, `"win":{"white":4,"grey":5,"black":6,"each":3}`, `"last_move":null`, `"winner":null`, `"moves":[]`, `"missed_captures":[]`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("state JSON lacks %s:\n%s", want, data)
		}
	}
	// A move message is the referee event plus seq.
	var frames int64
	obs := []byte(p.Cells())
	obs[cell(t, p, "E3")], obs[cell(t, p, "D4")], obs[cell(t, p, "C4")] = 'o', 'o', 'w'
	var moveEv referee.Event
	for ; frames < 40; frames++ {
		for _, e := range ref.ObserveBytes(frames*5, obs) {
			if e.Body.Kind() == "move" {
				moveEv = e
			}
		}
	}
	m, err := json.Marshal(MoveMessage{Event: moveEv, Seq: 8})
	if err != nil || !strings.HasPrefix(string(m), `{"t":`) || !strings.HasSuffix(string(m), `"notation":"E3xC4","seq":8}`) {
		t.Errorf("move message %s, %v", m, err)
	}
	if m, err = json.Marshal(MoveMessage{Event: moveEv, Seq: 8, PublishedMS: 1764100000123}); err != nil || !strings.HasSuffix(string(m), `"seq":8,"published_ms":1764100000123}`) {
		t.Errorf("move message with its publish time %s, %v", m, err)
	}
	s = Snapshot(ref, "b1", [2]string{}, 8, 1300)
	if s.LastMove == nil || s.LastMove.Notation != "E3xC4" || s.LastMove.Player != 0 || s.Turn != 1 || s.Moves[0] != "E3xC4" {
		t.Errorf("after the capture: %+v", s.LastMove)
	}
}

func cell(t *testing.T, p engine.Position, l string) engine.Cell {
	c, err := p.Board().ParseCell(l)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

package journal

import (
	"encoding/json"
	"reflect"

	"github.com/zertzboard/zertzboard/engine"
)

// snapshot is the shortest journal that replays to g: its game entry,
// its turns, and entries setting the end, the players, the clocks and the
// take-back request as they are now, and the arbiter's notes, each after
// the turn it follows. Other arbiter entries and turns taken back are
// left out. It returns nil if the snapshot would not replay to g.
func snapshot(g *Game) []Line {
	if g == nil {
		return nil
	}
	out := snapshotEntries(g)
	var h *Game
	for _, e := range out {
		var err error
		if h, err = apply(h, e); err != nil {
			return nil
		}
	}
	if !sameGame(h, g) {
		return nil
	}
	return out
}

// sameGame reports whether a and b hold the same game: every field, the
// engine's games compared turn by turn (a game taken back to its start
// holds empty slices where a new one holds none).
func sameGame(a, b *Game) bool {
	x, y := *a, *b
	x.Game, y.Game = nil, nil
	if len(x.Missed) == 0 {
		x.Missed = nil
	}
	if len(y.Missed) == 0 {
		y.Missed = nil
	}
	if len(x.Answered) == 0 {
		x.Answered = nil
	}
	if len(y.Answered) == 0 {
		y.Answered = nil
	}
	if !reflect.DeepEqual(x, y) || a.Game.Len() != b.Game.Len() || !reflect.DeepEqual(a.Game.Start(), b.Game.Start()) {
		return false
	}
	for i := 0; i < a.Game.Len(); i++ {
		ta, ca := a.Game.Turn(i)
		tb, cb := b.Game.Turn(i)
		if !reflect.DeepEqual(ta, tb) || len(ca) != len(cb) || len(ca) > 0 && !reflect.DeepEqual(ca, cb) ||
			!reflect.DeepEqual(a.Game.PositionAfter(i+1), b.Game.PositionAfter(i+1)) {
			return false
		}
	}
	return true
}

// snapshotEntries are snapshot's entries, unchecked.
func snapshotEntries(g *Game) []Line {
	first := g.Game.Start().ToMove()
	players := g.Players
	out := []Line{{Op: "game", Seq: g.GameSeq, T: g.GameT, Variant: g.Variant, First: first, Mode: g.Mode, Players: &players, Control: g.Control, Engine: g.Engine}}
	missed := map[int]bool{}
	for _, m := range g.Missed {
		missed[m] = true
	}
	notes := g.Notes
	// notesAt adds the notes given after turn n.
	notesAt := func(n int) {
		for len(notes) > 0 && notes[0].Turn <= n {
			fields, _ := json.Marshal(map[string]string{"text": notes[0].Text})
			out = append(out, Line{Op: "arbiter", Seq: g.GameSeq, T: g.GameT, Command: "note", Fields: fields})
			notes = notes[1:]
		}
	}
	notesAt(0)
	for i := 0; i < g.Game.Len(); i++ {
		t, _ := g.Game.Turn(i)
		e := Line{Op: "turn", Seq: g.GameSeq, T: g.GameT, Turn: engine.FormatTurn(g.Game.PositionAfter(i).Board(), t), Missed: missed[i+1]}
		if g.Clocks != nil {
			e.Clock = &Clock{Remaining: g.Clocks[i].Remaining, Running: -1, Flag: -1, TurnMS: g.Clocks[i].Used}
		}
		out = append(out, e)
		notesAt(i + 1)
	}
	if len(g.Answered) > 0 {
		// The questions themselves are history; which turns were
		// answered is part of the game.
		out = append(out, Line{Op: "answer", Seq: g.Seq, T: g.T, QA: &QA{ID: 1, Turns: append([]int(nil), g.Answered...)}})
	}
	if g.End != nil {
		end := *g.End
		out = append(out, Line{Op: "end", Seq: g.Seq, T: g.T, End: &end})
	}
	out = append(out, Line{Op: "players", Seq: g.Seq, T: g.T, Players: &players, Event: g.Naming.Event, Round: g.Naming.Round})
	if g.Clock != nil {
		c := *g.Clock
		out = append(out, Line{Op: "clock", Seq: g.Seq, T: g.T, Clock: &c})
	}
	if g.Request != nil {
		r := *g.Request
		out = append(out, Line{Op: "request", Seq: g.Seq, T: g.T, Request: &r})
	}
	return out
}

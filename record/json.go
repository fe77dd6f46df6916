package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/zertzboard/zertzboard/engine"
)

// JSONFormat and JSONVersion identify the project's own record format.
const (
	JSONFormat  = "zertzboard-record"
	JSONVersion = 1
)

// jsonRecord is the on-disk shape; see the package doc.
type jsonRecord struct {
	Format     string     `json:"format"`
	Version    int        `json:"version"`
	Variant    string     `json:"variant"`
	First      int        `json:"first"`
	Players    [2]string  `json:"players"`
	Date       string     `json:"date,omitempty"`
	Name       string     `json:"name,omitempty"`
	ResultText string     `json:"result_text,omitempty"`
	Event      string     `json:"event,omitempty"`
	Round      string     `json:"round,omitempty"`
	Turns      []string   `json:"turns"`
	Missed     []int      `json:"missed_captures,omitempty"`
	Answered   []int      `json:"answered_turns,omitempty"`
	End        *jsonEnd   `json:"end,omitempty"`
	Clock      *jsonClock `json:"clock,omitempty"`
	GameID     string     `json:"game_id,omitempty"`
	Notes      []jsonNote `json:"notes,omitempty"`
}

type jsonNote struct {
	Turn int    `json:"turn"`
	Text string `json:"text"`
}

type jsonEnd struct {
	Kind   StopKind `json:"kind"`
	Player *int     `json:"player,omitempty"`
	Note   string   `json:"note,omitempty"`
}

type jsonClock struct {
	Control string         `json:"control"`
	Turns   []jsonTurnTime `json:"turns"`
}

type jsonTurnTime struct {
	UsedMS    int64     `json:"used_ms"`
	Remaining *[2]int64 `json:"remaining_ms"`
}

// WriteJSON writes rec in the project's JSON record format, one object
// followed by a newline.
func WriteJSON(w io.Writer, rec *Record) error {
	b, _, err := rec.Board()
	if err != nil {
		return err
	}
	jr := jsonRecord{
		Format: JSONFormat, Version: JSONVersion, Variant: rec.Variant, First: rec.First,
		Players: rec.Players, Date: rec.Date, Name: rec.Name, ResultText: rec.ResultText,
		Event: rec.Event, Round: rec.Round,
		Turns: make([]string, len(rec.Turns)), Missed: rec.MissedCaptures, Answered: rec.Answered, GameID: rec.GameID,
	}
	for i, t := range rec.Turns {
		jr.Turns[i] = engine.FormatTurn(b, t)
	}
	if err := checkNotes(rec.Notes, len(rec.Turns)); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	for _, n := range rec.Notes {
		jr.Notes = append(jr.Notes, jsonNote(n))
	}
	if rec.Stop.Kind != NotStopped {
		jr.End = &jsonEnd{Kind: rec.Stop.Kind, Note: rec.Stop.Note}
		if rec.Stop.Kind.HasPlayer() {
			p := rec.Stop.Player
			jr.End.Player = &p
		}
	}
	if c := rec.Clock; c != nil {
		jr.Clock = &jsonClock{Control: c.Control, Turns: make([]jsonTurnTime, len(c.Turns))}
		for i, t := range c.Turns {
			jr.Clock.Turns[i] = jsonTurnTime(t)
		}
	}
	data, err := json.MarshalIndent(jr, "", "  ")
	if err != nil {
		return fmt.Errorf("record: writing JSON: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// ReadJSON reads a record in the project's JSON format. It checks the form
// and the notation of every turn, not the rules: Replay does that.
func ReadJSON(r io.Reader) (*Record, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("record: reading JSON: %w", err)
	}
	var jr jsonRecord
	if err := json.Unmarshal(data, &jr); err != nil {
		return nil, jsonError(data, err)
	}
	fail := func(input, format string, args ...any) (*Record, error) {
		return nil, &SyntaxError{Format: "JSON", Node: -1, Input: input, Msg: fmt.Sprintf(format, args...)}
	}
	if jr.Format != JSONFormat {
		return fail(jr.Format, "format is not %q", JSONFormat)
	}
	if jr.Version != JSONVersion {
		return fail(fmt.Sprint(jr.Version), "version %d is not supported (want %d)", jr.Version, JSONVersion)
	}
	rec := &Record{Variant: jr.Variant, First: jr.First, Players: jr.Players, Date: jr.Date, Name: jr.Name, ResultText: jr.ResultText,
		Event: jr.Event, Round: jr.Round, GameID: jr.GameID}
	b, _, err := rec.Board()
	if err != nil {
		return nil, &SyntaxError{Format: "JSON", Node: -1, Input: jr.Variant, Msg: "bad variant", Err: err}
	}
	if jr.First != 0 && jr.First != 1 {
		return fail(fmt.Sprint(jr.First), "first must be 0 or 1")
	}
	for i, s := range jr.Turns {
		t, err := engine.ParseTurn(b, s)
		if err != nil {
			return nil, &SyntaxError{Format: "JSON", Node: -1, Input: s, Msg: fmt.Sprintf("turn %d", i+1), Err: err}
		}
		rec.Turns = append(rec.Turns, t)
	}
	for _, n := range jr.Missed {
		if n < 1 || n > len(rec.Turns) {
			return fail(fmt.Sprint(n), "missed_captures names turn %d; the record has %d turns", n, len(rec.Turns))
		}
	}
	rec.MissedCaptures = jr.Missed
	for _, n := range jr.Answered {
		if n < 1 || n > len(rec.Turns) {
			return fail(fmt.Sprint(n), "answered_turns names turn %d; the record has %d turns", n, len(rec.Turns))
		}
	}
	rec.Answered = jr.Answered
	if e := jr.End; e != nil {
		if rec.Stop, err = readEnd(e); err != nil {
			return nil, err
		}
	}
	if c := jr.Clock; c != nil {
		if len(c.Turns) != 0 && len(c.Turns) != len(rec.Turns) {
			return fail(c.Control, "clock has %d turn times for %d turns", len(c.Turns), len(rec.Turns))
		}
		rec.Clock = &Clock{Control: c.Control, Turns: make([]TurnTime, len(c.Turns))}
		for i, t := range c.Turns {
			if t.UsedMS < 0 {
				return fail(fmt.Sprint(t.UsedMS), "clock turn %d used a negative time", i+1)
			}
			rec.Clock.Turns[i] = TurnTime(t)
		}
	}
	if len(jr.Notes) > 0 {
		rec.Notes = make([]Note, len(jr.Notes))
		for i, n := range jr.Notes {
			rec.Notes[i] = Note(n)
		}
		if err := checkNotes(rec.Notes, len(rec.Turns)); err != nil {
			return fail("", "notes: %v", err)
		}
	}
	return rec, nil
}

// readEnd reads the record's end.
func readEnd(e *jsonEnd) (Stop, error) {
	fail := func(input, format string, args ...any) (Stop, error) {
		return Stop{}, &SyntaxError{Format: "JSON", Node: -1, Input: input, Msg: fmt.Sprintf(format, args...)}
	}
	var s Stop
	switch e.Kind {
	case Resign, WinOnTime, Adjudication:
		if e.Player == nil || *e.Player != 0 && *e.Player != 1 {
			return fail(string(e.Kind), "end player must be 0 or 1")
		}
		s = Stop{Kind: e.Kind, Player: *e.Player}
	case DrawDeclared, DrawOnTime:
		if e.Player != nil {
			return fail(fmt.Sprint(*e.Player), "a %s names no player", e.Kind)
		}
		s = Stop{Kind: e.Kind}
	default:
		return fail(string(e.Kind), "end kind must be %q, %q, %q, %q or %q", Resign, WinOnTime, Adjudication, DrawDeclared, DrawOnTime)
	}
	if len(e.Note) > MaxNote {
		return fail(e.Note[:20], "end note is longer than %d bytes", MaxNote)
	}
	s.Note = e.Note
	return s, nil
}

// jsonError turns a decoding error into a SyntaxError with a line number.
func jsonError(data []byte, err error) error {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	e := &SyntaxError{Format: "JSON", Node: -1, Msg: "not a record", Err: err}
	if off >= 0 && off <= int64(len(data)) {
		e.Line = bytes.Count(data[:off], []byte("\n")) + 1
		start := bytes.LastIndexByte(data[:off], '\n') + 1
		e.Input = snippet(string(data[start:]))
	}
	return e
}

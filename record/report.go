package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
)

// FileReport is what replaying one record file found: "zertzboard
// replay"'s report for the file, in words (Summary) or as the contract's
// JSON object (MarshalJSON; docs/CONTRACTS.md).
type FileReport struct {
	File string
	// Record is the record read; nil when the file could not be read.
	Record *Record
	// Replay is the record played through the engine, up to an illegal
	// turn; nil when the file could not be read or replayed.
	Replay *Replay
	// Err is a read error or a *TurnError.
	Err error
}

// CheckFile reads the record at path and replays it with opt.
func CheckFile(path string, opt ReplayOptions) *FileReport {
	f := &FileReport{File: path}
	f.Record, f.Err = ReadFile(path)
	if f.Err != nil {
		return f
	}
	f.Replay, f.Err = f.Record.ReplayWith(opt)
	return f
}

// Warnings are what the replay tolerated.
func (f *FileReport) Warnings() []string {
	if f.Replay == nil {
		return nil
	}
	return f.Replay.Warnings
}

// ErrText is the error without the package prefix when the record itself
// is at fault: the contract's "turn N (player P) MOVE: illegal: …".
func (f *FileReport) ErrText() string {
	var te *TurnError
	if errors.As(f.Err, &te) {
		return te.Message()
	}
	return f.Err.Error()
}

// fileJSON is the contract's object; the field order is the contract's.
type fileJSON struct {
	File     string         `json:"file"`
	Variant  *string        `json:"variant"`
	Turns    int            `json:"turns"`
	Winner   *int           `json:"winner"`
	Result   *Outcome       `json:"result"`
	Captures [2]capturesObj `json:"captures"`
	Error    *string        `json:"error"`
	Warnings []string       `json:"warnings"`
	// The record's headers, as written (SGF RE, DT, GN, EV, RO), when
	// it has them.
	ResultText string `json:"result_text,omitempty"`
	Date       string `json:"date,omitempty"`
	Name       string `json:"name,omitempty"`
	Event      string `json:"event,omitempty"`
	Round      string `json:"round,omitempty"`
}

type capturesObj struct {
	White int `json:"white"`
	Grey  int `json:"grey"`
	Black int `json:"black"`
}

// MarshalJSON is the contract's object for the file, on one line. An
// unreadable file has no variant and no result: null, not "unfinished".
func (f *FileReport) MarshalJSON() ([]byte, error) {
	j := fileJSON{File: f.File, Warnings: append([]string{}, f.Warnings()...)}
	if rec := f.Record; rec != nil {
		v := rec.Variant
		j.Variant = &v
		j.ResultText, j.Date, j.Name, j.Event, j.Round = rec.ResultText, rec.Date, rec.Name, rec.Event, rec.Round
	}
	if f.Replay != nil {
		p := f.Replay.Game.Position()
		j.Turns = f.Replay.Game.Len()
		res := f.Replay.Result.Outcome
		j.Result = &res
		if w := f.Replay.Result.Winner; w >= 0 {
			j.Winner = &w
		}
		for i := range j.Captures {
			c := p.Captures(i)
			j.Captures[i] = capturesObj{White: c[engine.White], Grey: c[engine.Grey], Black: c[engine.Black]}
		}
	}
	if f.Err != nil {
		s := f.ErrText()
		j.Error = &s
	}
	return json.Marshal(j)
}

// Summary is the one-line report in words: the variant, the turns, how
// the game ended and the winner (or "illegal"), both players' captures,
// and the record's own headers.
func (f *FileReport) Summary() string {
	if f.Replay == nil {
		return fmt.Sprintf("%s: unreadable", f.File)
	}
	rec := f.Record
	p := f.Replay.Game.Position()
	res := f.Replay.Result
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %s rings, %s, ", f.File, rec.Variant, plural(f.Replay.Game.Len(), "turn"))
	if f.Err != nil {
		sb.WriteString("illegal")
	} else {
		sb.WriteString(string(res.Outcome))
		if res.Reason != "" {
			fmt.Fprintf(&sb, " (%s)", res.Reason)
		}
		if res.Winner >= 0 {
			fmt.Fprintf(&sb, ", winner %s", rec.PlayerName(res.Winner))
		}
	}
	fmt.Fprintf(&sb, "; captures %s %s, %s %s", rec.PlayerName(0), CapturesText(p.Captures(0)), rec.PlayerName(1), CapturesText(p.Captures(1)))
	if h := rec.Headers(); h != "" {
		sb.WriteString("; " + h)
	}
	return sb.String()
}

// Headers are the record's own headers in words: the result it states,
// the event and round, the game's name and date; "" when it has none.
func (r *Record) Headers() string {
	var parts []string
	for _, h := range []struct{ label, v string }{
		{"recorded result", r.ResultText}, {"event", r.Event}, {"round", r.Round}, {"game", r.Name}, {"date", r.Date},
	} {
		if v := strings.TrimSpace(h.v); v != "" {
			parts = append(parts, fmt.Sprintf("%s %q", h.label, v))
		}
	}
	return strings.Join(parts, ", ")
}

// PlayerName is "P0 name", or just "P0" when the record has no name.
func (r *Record) PlayerName(i int) string {
	if r.Players[i] == "" {
		return fmt.Sprintf("P%d", i)
	}
	return fmt.Sprintf("P%d %s", i, r.Players[i])
}

// CapturesText is a marble count in words: "1w 0g 2b".
func CapturesText(c [3]int) string {
	return fmt.Sprintf("%dw %dg %db", c[engine.White], c[engine.Grey], c[engine.Black])
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

package record

import (
	"errors"
	"fmt"

	"github.com/zertzboard/zertzboard/engine"
)

// TurnError reports a turn that breaks the rules: which turn, who played
// it, and the rule. errors.Is(err, engine.ErrIllegal) holds for it.
type TurnError struct {
	Turn   int    // 1-based index in the record
	Player int    // the player whose turn it was, 0 or 1
	Move   string // the turn in the engine's notation, e.g. "WD4-A1"
	Rule   engine.Rule
	Reason string // in a player's words
	Err    error  // the engine's *engine.IllegalTurnError
}

func newTurnError(n int, p engine.Position, t engine.Turn, err error) *TurnError {
	e := &TurnError{Turn: n, Player: p.ToMove(), Move: engine.FormatTurn(p.Board(), t), Reason: err.Error(), Err: err}
	var it *engine.IllegalTurnError
	if errors.As(err, &it) {
		e.Rule, e.Reason = it.Rule, it.Reason
	}
	return e
}

// Message describes the illegal turn without the package prefix, e.g.
// "turn 12 (player 1) WD4-A1: illegal: ring A1 is not free: … [ring-not-free]",
// for callers that put a file name in front.
func (e *TurnError) Message() string {
	return fmt.Sprintf("turn %d (player %d) %s: illegal: %s [%s]", e.Turn, e.Player, e.Move, e.Reason, e.Rule)
}

func (e *TurnError) Error() string { return "record: " + e.Message() }

// Unwrap returns the engine's error.
func (e *TurnError) Unwrap() error { return e.Err }

// SyntaxError reports a record that cannot be read: not the rules but the
// text. It quotes the offending input and says where it is.
type SyntaxError struct {
	Format string // "SGF" or "JSON"
	Line   int    // 1-based line, or 0 when unknown
	Node   int    // SGF: 0-based node index (the root is 0), or -1
	Input  string // the offending text, e.g. "RtoB 2 7 D 4"
	Msg    string // what is wrong
	Err    error  // an underlying error, or nil
}

func (e *SyntaxError) Error() string {
	where := ""
	if e.Line > 0 {
		where = fmt.Sprintf(" line %d", e.Line)
	}
	if e.Node >= 0 && e.Format == "SGF" {
		where += fmt.Sprintf(" (node %d)", e.Node)
	}
	s := fmt.Sprintf("record: %s%s", e.Format, where)
	if e.Input != "" {
		s += fmt.Sprintf(": %q", e.Input)
	}
	s += ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error, if any.
func (e *SyntaxError) Unwrap() error { return e.Err }

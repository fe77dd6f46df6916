package engine

import (
	"errors"
	"fmt"
	"strings"
)

// LineError is a turn of a line (PlayLine) that could not be read or
// played.
type LineError struct {
	// N is the turn's place in the line, counted from 1.
	N int
	// Move is the turn as written.
	Move string
	// Err is why: an *IllegalTurnError, or a notation error.
	Err error
}

// Message is the error without the package prefix: "move N, M: why", and
// for an illegal turn the rule in brackets, "move 2, GC3-G1: ring G1 is
// not free: … (ring-not-free)".
func (e *LineError) Message() string {
	var ill *IllegalTurnError
	if errors.As(e.Err, &ill) {
		return fmt.Sprintf("move %d, %s: %s (%s)", e.N, e.Move, ill.Reason, ill.Rule)
	}
	return fmt.Sprintf("move %d, %s: %s", e.N, e.Move, strings.TrimPrefix(e.Err.Error(), "engine: "))
}

func (e *LineError) Error() string { return "engine: " + e.Message() }

// Unwrap returns Err.
func (e *LineError) Unwrap() error { return e.Err }

// PlayLine plays turns in notation, separated by spaces, from p. At the
// first turn that cannot be read or played it returns the position before
// it and a *LineError naming that turn.
func PlayLine(p Position, line string) (Position, error) {
	for i, m := range strings.Fields(line) {
		t, err := ParseTurn(p.Board(), m)
		if err == nil {
			var q Position
			if q, err = p.Play(t); err == nil {
				p = q
				continue
			}
		}
		return p, &LineError{N: i + 1, Move: m, Err: err}
	}
	return p, nil
}

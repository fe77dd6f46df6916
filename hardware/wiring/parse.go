package wiring

import (
	"errors"
	"fmt"
	"io"

	"github.com/zertzboard/zertzboard/internal/ini"
)

// Error is a problem in a wiring file. Line is 0 when the problem is about
// something missing from the whole file.
type Error struct {
	File  string
	Line  int
	Field string // section.key, e.g. "sockets.E5"
	Msg   string
}

func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Field == "" {
		return fmt.Sprintf("wiring: %s: %s", loc, e.Msg)
	}
	return fmt.Sprintf("wiring: %s: %s: %s", loc, e.Field, e.Msg)
}

// parseINI reads the sections; syntax errors become wiring errors.
func parseINI(file string, r io.Reader) ([]*ini.Section, error) {
	secs, err := ini.Parse(file, r)
	var ie *ini.Error
	if errors.As(err, &ie) {
		return nil, &Error{File: ie.File, Line: ie.Line, Field: ie.Field, Msg: ie.Msg}
	}
	if err != nil {
		return nil, fmt.Errorf("wiring: %w", err)
	}
	return secs, nil
}

package wiring

import (
	"errors"
	"fmt"
	"io"

	"github.com/zertzboard/zertzboard/internal/ini"
)

// Error is a problem in a wiring file: the file, the line and the field.
type Error = ini.Error

// parseINI reads the sections; syntax errors become wiring errors.
func parseINI(file string, r io.Reader) ([]*ini.Section, error) {
	secs, err := ini.Parse(file, r)
	var ie *ini.Error
	if errors.As(err, &ie) {
		ie.Pkg = "wiring"
		return nil, ie
	}
	if err != nil {
		return nil, fmt.Errorf("wiring: %w", err)
	}
	return secs, nil
}

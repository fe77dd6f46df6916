package wiring

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// FuzzParse checks that no input panics, and that every rejection is a
// *Error naming the file.
func FuzzParse(f *testing.F) {
	f.Add(string(ReferenceText()))
	f.Add("[base]\nboard = 37\n")
	f.Add("[adc a]\nbus=SPI0.0\nchip=mcp3008\n[sockets]\nA1 = a 0 -\n")
	f.Add("[mux]\nselect = A B C D\n")
	f.Fuzz(func(t *testing.T, src string) {
		w, err := Parse("fuzz.wiring", strings.NewReader(src))
		if err != nil {
			var we *Error
			if !errors.As(err, &we) && !strings.Contains(err.Error(), "fuzz.wiring") {
				t.Fatalf("error %q neither a *Error nor naming the file", err)
			}
			return
		}
		if len(w.Sockets) != w.Base.Len() {
			t.Fatalf("accepted wiring has %d sockets for a %d-socket base", len(w.Sockets), w.Base.Len())
		}
	})
}

func TestParseLongLine(t *testing.T) {
	// bufio.Scanner's limit: a line over 64 KiB is an error, not a panic.
	src := "[base]\nboard = " + string(bytes.Repeat([]byte("6"), 70000)) + "\n"
	if _, err := Parse("long.wiring", strings.NewReader(src)); err == nil || !strings.Contains(err.Error(), "long.wiring") {
		t.Errorf("Parse of a 70 KB line = %v; want an error naming the file", err)
	}
}

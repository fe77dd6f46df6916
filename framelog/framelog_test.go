package framelog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	frames := []Frame{{0, "oo.w"}, {5, "oo?w"}, {5, "o..b"}}
	for _, f := range frames {
		if err := w.Write(f.T, []byte(f.Cells)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "{\"t\":0,\"cells\":\"oo.w\"}\n{\"t\":5,\"cells\":\"oo?w\"}\n{\"t\":5,\"cells\":\"o..b\"}\n"; got != want {
		t.Fatalf("wrote %q; want %q", got, want)
	}
	r := NewReader(&buf, "x")
	for _, want := range frames {
		got, err := r.Next()
		if err != nil || got != want {
			t.Fatalf("Next() = %v, %v; want %v", got, err, want)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("at the end: %v; want EOF", err)
	}
}

func TestReaderErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"t":1,"cells":"ox"}`, `x.jsonl:1: cells "ox"`},
		{"{\"t\":5,\"cells\":\"o\"}\n\n{\"t\":4,\"cells\":\"o\"}", "x.jsonl:3: time 4 goes back"},
		{`{"t":"1","cells":"o"}`, "x.jsonl:1:"},
		{`not json`, "x.jsonl:1:"},
	}
	for _, tt := range tests {
		r := NewReader(strings.NewReader(tt.in), "x.jsonl")
		var err error
		for err == nil {
			_, err = r.Next()
		}
		if err == io.EOF || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("reading %q: %v; want an error containing %q", tt.in, err, tt.want)
		}
	}
}

func TestWriterRejects(t *testing.T) {
	w := NewWriter(&bytes.Buffer{})
	if err := w.Write(10, []byte("..o")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		t     int64
		cells string
		want  string
	}{
		{9, "..o", "before the previous frame"},
		{11, "..x", "want only"},
		{11, "..", "earlier frames had 3"},
		{11, `".o`, "want only"},
	} {
		if err := w.Write(tt.t, []byte(tt.cells)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Write(%d, %q) = %v; want %q", tt.t, tt.cells, err, tt.want)
		}
	}
}

// A last line cut short is a TornError naming it, after the good frames;
// blank lines after it do not hide it, and a bad line with frames after
// it is a plain error.
func TestTornLastLine(t *testing.T) {
	for _, tc := range []struct {
		in   string
		torn bool
		line int
	}{
		{"{\"t\":1,\"cells\":\"oo\"}\n{\"t\":2,\"cells\":\"ow\"}\n{\"t\":3,\"ce", true, 3},
		{"{\"t\":1,\"cells\":\"oo\"}\n{\"t\":2,\"ce\n\n\n", true, 2},
		{"{\"t\":1,\"cells\":\"oo\"}\n{\"t\":2,\"ce\n\n{\"t\":3,\"cells\":\"oo\"}\n", false, 2},
	} {
		r := NewReader(strings.NewReader(tc.in), "f")
		good := 0
		var err error
		for {
			if _, err = r.Next(); err != nil {
				break
			}
			good++
		}
		var te *TornError
		if errors.As(err, &te) != tc.torn {
			t.Errorf("%q: %v; torn %v", tc.in, err, tc.torn)
			continue
		}
		if want := fmt.Sprintf("f:%d:", tc.line); !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v; want it to name %s", tc.in, err, want)
		}
		if tc.torn && (te.Line != tc.line || te.Frames != good) {
			t.Errorf("%q: %+v; want line %d after %d frames", tc.in, te, tc.line, good)
		}
	}
}

// A game record given as a frame log is named as one.
func TestRecordIsNotAFrameLog(t *testing.T) {
	for _, in := range []string{"(;GM[22]VV[2]\nSU[Zertz]\n", "{\n  \"format\": \"zertzboard-record\",\n", `{"format":"zertzboard-record","version":1}` + "\n"} {
		_, err := NewReader(strings.NewReader(in), "g").Next()
		if err == nil || !strings.Contains(err.Error(), "g:1: this looks like a game record") {
			t.Errorf("%q: %v", in, err)
		}
	}
}

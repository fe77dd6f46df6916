// Package framelog reads and writes frame logs: what the sensors saw, one
// JSON object per line, {"t": <milliseconds>, "cells": "<string>"}, with
// one character per cell in board order ('.' no ring, 'o' vacant ring, 'w',
// 'g', 'b' a marble, '?' unreadable). Times never decrease. The format is a
// contract (docs/CONTRACTS.md, section 2).
//
// It imports only the standard library.
// Layer: game. May import: base, game.
package framelog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Frame is one scan of the board, classified.
type Frame struct {
	T     int64  `json:"t"`     // milliseconds, non-decreasing
	Cells string `json:"cells"` // one frame-log character per cell, board order
}

// Valid reports whether every character of cells is in the frame-log
// alphabet.
func Valid(cells string) bool {
	for i := 0; i < len(cells); i++ {
		switch cells[i] {
		case '.', 'o', 'w', 'g', 'b', '?':
		default:
			return false
		}
	}
	return true
}

// Reader reads a frame log line by line.
type Reader struct {
	sc   *bufio.Scanner
	name string
	line int
	last int64
	// frames counts the frames read; pending says Scan holds a line not
	// yet read (looked ahead to tell a torn last line).
	frames  int
	pending bool
}

// TornError is a frame log whose last line is cut short, as a write the
// power or a crash interrupted leaves it: the frames before it are good.
type TornError struct {
	Name   string
	Line   int // the torn line, 1-based
	Frames int // the good frames before it
	Err    error
}

func (e *TornError) Error() string {
	frames := fmt.Sprintf("the %d frames before it were read", e.Frames)
	if e.Frames == 1 {
		frames = "the frame before it was read"
	}
	return fmt.Sprintf("framelog: %s:%d: the last line is cut short (%v); %s", e.Name, e.Line, e.Err, frames)
}

func (e *TornError) Unwrap() error { return e.Err }

// errRecord is a game record given where a frame log was wanted.
var errRecord = errors.New("this looks like a game record (Boardspace SGF or a zertzboard JSON record), not a frame log: " +
	"a frame log is what the sensors saw, one JSON object per line, {\"t\": <ms>, \"cells\": \"<one character per cell>\"}; " +
	"\"zertzboard replay\" checks a game record")

// isRecord reports whether a frame log's first line is a game record's:
// an SGF's "(" or the JSON record's format field.
func isRecord(line []byte) bool {
	line = bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\ufeff")))
	if len(line) > 0 && line[0] == '(' || string(line) == "{" {
		return true // SGF, or a JSON document over several lines
	}
	var probe struct {
		Format string `json:"format"`
	}
	return bytes.Contains(line, []byte(`"zertzboard-record"`)) || json.Unmarshal(line, &probe) == nil && probe.Format == "zertzboard-record"
}

// NewReader reads frames from r; name is used in error messages.
func NewReader(r io.Reader, name string) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	return &Reader{sc: sc, name: name, last: -1 << 62}
}

// Next returns the next frame, or io.EOF at the end. Errors name the file
// and line and say what is wrong.
func (r *Reader) Next() (Frame, error) {
	for r.pending || r.sc.Scan() {
		r.pending = false
		r.line++
		b := r.sc.Bytes()
		if len(b) == 0 {
			continue
		}
		var f Frame
		if err := json.Unmarshal(b, &f); err != nil {
			if r.frames == 0 && isRecord(b) {
				return Frame{}, fmt.Errorf("framelog: %s:%d: %w", r.name, r.line, errRecord)
			}
			line := r.line
			if r.lastLine() {
				// The last line, cut short: a write the end of power or
				// a crash interrupted.
				return Frame{}, &TornError{Name: r.name, Line: line, Frames: r.frames, Err: err}
			}
			return Frame{}, fmt.Errorf("framelog: %s:%d: %v", r.name, line, err)
		}
		if f.Cells == "" {
			if r.frames == 0 && isRecord(b) {
				return Frame{}, fmt.Errorf("framelog: %s:%d: %w", r.name, r.line, errRecord)
			}
			return Frame{}, fmt.Errorf("framelog: %s:%d: no cells: want {\"t\": <ms>, \"cells\": \"<one character per cell>\"}", r.name, r.line)
		}
		if !Valid(f.Cells) {
			return Frame{}, fmt.Errorf("framelog: %s:%d: cells %q: want only . o w g b ?", r.name, r.line, f.Cells)
		}
		if f.T < r.last {
			return Frame{}, fmt.Errorf("framelog: %s:%d: time %d goes back (previous %d)", r.name, r.line, f.T, r.last)
		}
		r.last = f.T
		r.frames++
		return f, nil
	}
	if err := r.sc.Err(); err != nil {
		return Frame{}, fmt.Errorf("framelog: %s:%d: %w", r.name, r.line+1, err)
	}
	return Frame{}, io.EOF
}

// lastLine reports whether the line just read is the last with
// anything on it. It reads ahead; a line it reads is left for Next.
func (r *Reader) lastLine() bool {
	blank := 0
	for r.sc.Scan() {
		if len(bytes.TrimSpace(r.sc.Bytes())) > 0 {
			r.line += blank // Next counts the line it leaves
			r.pending = true
			return false
		}
		blank++
	}
	r.line += blank
	return r.sc.Err() == nil
}

// Line returns the line number of the last frame read.
func (r *Reader) Line() int { return r.line }

// Writer writes frames, one JSON line each. It refuses frames that would
// break the format: times going back, a change of length, characters
// outside the alphabet.
type Writer struct {
	w      *bufio.Writer
	buf    []byte
	last   int64
	n      int
	ncells int
}

// NewWriter writes frames to w. Call Flush at the end.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriter(w), buf: make([]byte, 0, 128), last: -1 << 62}
}

// Write writes one frame.
func (w *Writer) Write(t int64, cells []byte) error {
	if t < w.last {
		return fmt.Errorf("framelog: frame %d at t=%d ms is before the previous frame at %d ms", w.n, t, w.last)
	}
	if w.n > 0 && len(cells) != w.ncells {
		return fmt.Errorf("framelog: frame %d has %d cells; earlier frames had %d", w.n, len(cells), w.ncells)
	}
	if !Valid(string(cells)) {
		return fmt.Errorf("framelog: frame %d cells %q: want only . o w g b ?", w.n, cells)
	}
	b := append(w.buf[:0], `{"t":`...)
	b = strconv.AppendInt(b, t, 10)
	b = append(b, `,"cells":"`...)
	b = append(b, cells...)
	b = append(b, "\"}\n"...)
	w.buf, w.last, w.ncells = b, t, len(cells)
	w.n++
	_, err := w.w.Write(b)
	return err
}

// Flush writes any buffered frames.
func (w *Writer) Flush() error { return w.w.Flush() }

// Package capture writes what the sensors saw: classified frames in the
// frame-log format (docs/CONTRACTS.md, section 2), which the referee
// can replay, and raw frames ("*.raw.jsonl") for re-calibrating or
// debugging offline.
//
// Frame log, one JSON object per line, cells in the game board's order:
//
//	{"t": 1200, "cells": "..oowb?..."}
//
// Raw log, one JSON object per line, counts in base socket order:
//
//	{"t": 1200, "raw": [2048, 1801, ...]}
//
// t is integer milliseconds, non-decreasing. The writers format by hand so
// that a steady stream of frames does not allocate.
//
// Layer: sensors. May import: base, game, drivers, sensors.
package capture

import (
	"bufio"
	"fmt"
	"github.com/zertzboard/zertzboard/framelog"
	"io"
	"strconv"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/wiring"
)

// RawWriter writes a raw log.
type RawWriter struct {
	w    *bufio.Writer
	buf  []byte
	last int64
}

// NewRawWriter writes raw-log lines to w. Call Flush when done.
func NewRawWriter(w io.Writer) *RawWriter {
	return &RawWriter{w: bufio.NewWriter(w), buf: make([]byte, 0, 512), last: -1}
}

// Write writes one raw frame.
func (r *RawWriter) Write(t int64, raw []uint16) error {
	if t < r.last {
		return fmt.Errorf("record: raw frame at t=%d ms is before the previous one at %d ms", t, r.last)
	}
	b := append(r.buf[:0], `{"t":`...)
	b = strconv.AppendInt(b, t, 10)
	b = append(b, `,"raw":[`...)
	for i, v := range raw {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, uint64(v), 10)
	}
	b = append(b, "]}\n"...)
	r.buf = b
	r.last = t
	_, err := r.w.Write(b)
	return err
}

// Flush writes buffered lines out.
func (r *RawWriter) Flush() error { return r.w.Flush() }

// Recorder turns base-order classes into the game board's frame log, and
// optionally keeps the raw counts too. Times are relative to the first
// frame.
type Recorder struct {
	mount  *wiring.Mount
	frames *framelog.Writer
	raw    *RawWriter // nil: no raw log
	t0     time.Time
	cells  []byte
	start  bool
}

// NewRecorder records frames of the mounted game board to frames, and raw
// counts to raw when it is not nil.
func NewRecorder(m *wiring.Mount, frames, raw io.Writer) *Recorder {
	r := &Recorder{mount: m, frames: framelog.NewWriter(frames), cells: make([]byte, 0, m.Game.Len())}
	if raw != nil {
		r.raw = NewRawWriter(raw)
	}
	return r
}

// Record writes one frame seen at t.
func (r *Recorder) Record(t time.Time, raw []uint16, cls []engine.Content) error {
	if !r.start {
		r.t0, r.start = t, true
	}
	ms := t.Sub(r.t0).Milliseconds()
	r.cells = r.mount.Project(r.cells, cls)
	if err := r.frames.Write(ms, r.cells); err != nil {
		return err
	}
	if r.raw != nil {
		return r.raw.Write(ms, raw)
	}
	return nil
}

// Flush flushes both logs.
func (r *Recorder) Flush() error {
	if err := r.frames.Flush(); err != nil {
		return err
	}
	if r.raw != nil {
		return r.raw.Flush()
	}
	return nil
}

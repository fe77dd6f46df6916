package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/framelog"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/sim/players"
)

// writeFrames plays a sample game physically into a frame log.
func writeFrames(t *testing.T, game string, seed uint64) (path string, rec *record.Record) {
	t.Helper()
	rec, err := record.ReadFile(filepath.Join(sampleDir, game))
	if err != nil {
		t.Fatal(err)
	}
	start, err := rec.Start()
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "game.frames.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := framelog.NewWriter(f)
	opt := players.DefaultOptions
	opt.Seed = seed
	if _, err := players.Play(start, rec.Turns, opt, func(ms int64, cells []byte) error {
		return w.Write(ms, cells)
	}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return path, rec
}

func TestRefereeCommandRecordsWhatItSaw(t *testing.T) {
	const game = "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf" // 48 rings
	frames, rec := writeFrames(t, game, 7)
	out := filepath.Join(t.TempDir(), "seen.json")
	var stdout, stderr bytes.Buffer
	code := run([]string{"referee", "--board", "48", "--first", "0", "--frames", frames, "--record", out}, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	moves, over := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var e struct {
			T     *int64 `json:"t"`
			Event string `json:"event"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil || e.T == nil || e.Event == "" {
			t.Fatalf("event line %q: %v", line, err)
		}
		switch e.Event {
		case "move":
			moves++
		case "game-over":
			over++
		}
	}
	if moves != len(rec.Turns) || over != 1 {
		t.Errorf("%d move events and %d game-over; want %d and 1", moves, over, len(rec.Turns))
	}
	// The record it wrote replays to the same game as the original.
	lines, _, code := runReplayJSON(t, out, filepath.Join(sampleDir, game))
	if code != exitOK {
		t.Fatalf("replay exit %d", code)
	}
	a, b := lines[0], lines[1]
	if a.Turns != b.Turns || *a.Winner != *b.Winner || deref(a.Result) != deref(b.Result) {
		t.Errorf("seen %+v; recorded %+v", a, b)
	}
}

func TestRefereeCommandErrors(t *testing.T) {
	frames, _ := writeFrames(t, "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf", 1)
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(empty, []byte("\n"), 0o644)
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte("{\"t\":0,\"cells\":\"ooo\"}\n{\"t\":1,\"cells\":\"oxo\"}\n"), 0o644)
	tests := []struct {
		args []string
		err  string
	}{
		{[]string{"--board", "37", "--frames", frames}, "frame has 48 cells; the 37 board has 37"},
		{[]string{"--board", "37", "--frames", bad}, "bad.jsonl:1: frame has 3 cells"},
		{[]string{"--board", "37", "--frames", filepath.Join(t.TempDir(), "none")}, "no such file"},
		{[]string{"--frames", frames}, "--board and --frames are required"},
		{[]string{"--board", "48", "--mode", "strict", "--frames", frames}, `zertzboard referee: --mode "strict": want casual or tournament`},
		{[]string{"--board", "99", "--frames", frames}, `zertzboard referee: --board: unknown board "99"`},
		// A game record is not a frame log: referee says what it wants.
		{[]string{"--board", "37", "--frames", filepath.Join(sampleDir, "001_Z-shoto-Dumbot-2005-01-17-2004.sgf")}, "001_Z-shoto-Dumbot-2005-01-17-2004.sgf:1: this looks like a game record"},
		{[]string{"--board", "37", "--frames", openingRec}, `opening.json:1: this looks like a game record (Boardspace SGF or a zertzboard JSON record), not a frame log: a frame log is what the sensors saw, one JSON object per line, {"t": <ms>, "cells": "<one character per cell>"}; "zertzboard replay" checks a game record`},
		{[]string{"--board", "48", "--first", "2", "--frames", frames}, "--first 2"},
		{[]string{"--board", "37", "--frames", empty}, "empty.jsonl: the frame log has no frames"},
		{[]string{"--board", "37", "--settle", "20", "--frames", frames}, "--settle 20: want 30 to 2000 ms"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"referee"}, tt.args...), &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), tt.err) {
			t.Errorf("referee %v: exit %d, stderr %q; want exit %d mentioning %q", tt.args, code, stderr.String(), exitUsage, tt.err)
		}
		// One prefix: the command's, never a package's after it.
		for _, twice := range []string{"referee: referee:", "referee: engine:", "referee: framelog:", "invalid character"} {
			if strings.Contains(stderr.String(), twice) {
				t.Errorf("referee %v: %q has %q", tt.args, stderr.String(), twice)
			}
		}
	}
}

// A frame log whose last line is cut short: the frames before it are
// refereed (their events printed, the record written), then the error
// names the torn line.
func TestRefereeTornLastLine(t *testing.T) {
	const game = "032_Z11-ddyer-pmolz-2023-11-27-2100.sgf"
	frames, rec := writeFrames(t, game, 7)
	data, err := os.ReadFile(frames)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	last := lines[len(lines)-1]
	torn := strings.Join(lines[:len(lines)-1], "\n") + "\n" + last[:len(last)/2] // no newline: cut mid-write
	path := filepath.Join(t.TempDir(), "torn.jsonl")
	if err := os.WriteFile(path, []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "seen.json")
	var stdout, stderr bytes.Buffer
	code := run([]string{"referee", "--board", "48", "--frames", path, "--record", out}, &stdout, &stderr)
	if code != exitUsage {
		t.Errorf("exit %d; want %d", code, exitUsage)
	}
	want := fmt.Sprintf("torn.jsonl:%d: the last line is cut short", len(lines))
	if msg := stderr.String(); !strings.Contains(msg, want) || !strings.Contains(msg, fmt.Sprintf("the %d frames before it were refereed", len(lines)-1)) || strings.Count(msg, "\n") != 1 {
		t.Errorf("stderr %q; want one line naming %q and the frames refereed", msg, want)
	}
	moves := strings.Count(stdout.String(), `"event":"move"`)
	if moves < len(rec.Turns)-1 {
		t.Errorf("%d move events printed before the torn line; want at least %d:\n%.300s", moves, len(rec.Turns)-1, stdout.String())
	}
	seen, err := record.ReadFile(out)
	if err != nil || len(seen.Turns) != moves {
		t.Errorf("the record of the game seen: %v, %d turns; want %d", err, len(seen.Turns), moves)
	}
	// A bad line that is not the last is refused as before, naming it.
	mid := strings.Join(lines[:3], "\n") + "\n{\"t\":\n" + strings.Join(lines[3:], "\n") + "\n"
	if err := os.WriteFile(path, []byte(mid), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"referee", "--board", "48", "--frames", path}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "torn.jsonl:4: unexpected end of JSON input") || strings.Contains(stderr.String(), "cut short") {
		t.Errorf("a bad line 4 of %d: exit %d, %q", len(lines)+1, code, stderr.String())
	}
}

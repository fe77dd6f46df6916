package wiring

import (
	"bufio"
	"fmt"
	"io"
	"strings"
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

// entry is one "key = value" line.
type entry struct {
	key, value string
	line       int
}

// section is one "[name arg]" block.
type section struct {
	name, arg string
	line      int
	entries   []entry
}

func (s *section) field(key string) string {
	if s.arg != "" {
		return s.name + "." + s.arg + "." + key
	}
	return s.name + "." + key
}

// get returns the entry for key, or nil.
func (s *section) get(key string) *entry {
	for i := range s.entries {
		if s.entries[i].key == key {
			return &s.entries[i]
		}
	}
	return nil
}

// parseINI reads the sections. It only checks the syntax.
func parseINI(file string, r io.Reader) ([]*section, error) {
	var secs []*section
	var cur *section
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			if !strings.HasSuffix(line, "]") {
				return nil, &Error{File: file, Line: n, Msg: fmt.Sprintf("section header %q has no closing ]", line)}
			}
			f := strings.Fields(line[1 : len(line)-1])
			if len(f) == 0 || len(f) > 2 {
				return nil, &Error{File: file, Line: n, Msg: fmt.Sprintf("section header %q: want [name] or [name id]", line)}
			}
			cur = &section{name: f[0], line: n}
			if len(f) == 2 {
				cur.arg = f[1]
			}
			for _, s := range secs {
				if s.name == cur.name && s.arg == cur.arg {
					return nil, &Error{File: file, Line: n, Msg: fmt.Sprintf("section %s repeats the one on line %d", line, s.line)}
				}
			}
			secs = append(secs, cur)
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, &Error{File: file, Line: n, Msg: fmt.Sprintf("%q: want key = value", line)}
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if cur == nil {
			return nil, &Error{File: file, Line: n, Field: k, Msg: "key before the first [section]"}
		}
		if k == "" {
			return nil, &Error{File: file, Line: n, Msg: "empty key"}
		}
		if prev := cur.get(k); prev != nil {
			return nil, &Error{File: file, Line: n, Field: cur.field(k), Msg: fmt.Sprintf("repeats line %d", prev.line)}
		}
		cur.entries = append(cur.entries, entry{key: k, value: v, line: n})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("wiring: %s: %w", file, err)
	}
	return secs, nil
}

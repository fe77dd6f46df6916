// Package ini reads the small INI dialect of zertzboard's configuration
// files (the wiring file, the daemon configuration):
//
//	# a comment, to the end of the line
//	[section]
//	key = value
//	[section id]
//	key = value
//
// It checks only the syntax; each file's package gives the keys meaning
// and reports errors with the file, the line and the field.
//
// Layer: base. May import: base.
package ini

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Error is a problem at a line of a file. Line is 0 when the problem is
// about something missing from the whole file.
type Error struct {
	Pkg   string // the package reporting it, e.g. "wiring"; "" for none
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
	if e.Pkg != "" {
		loc = e.Pkg + ": " + loc
	}
	if e.Field == "" {
		return fmt.Sprintf("%s: %s", loc, e.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", loc, e.Field, e.Msg)
}

// Entry is one "key = value" line.
type Entry struct {
	Key, Value string
	Line       int
}

// Section is one "[name id]" block.
type Section struct {
	Name, Arg string
	Line      int
	Entries   []Entry
}

// Field names a key of the section for messages: "name.key", or
// "name.id.key".
func (s *Section) Field(key string) string {
	if s.Arg != "" {
		return s.Name + "." + s.Arg + "." + key
	}
	return s.Name + "." + key
}

// Get returns the entry for key, or nil.
func (s *Section) Get(key string) *Entry {
	for i := range s.Entries {
		if s.Entries[i].Key == key {
			return &s.Entries[i]
		}
	}
	return nil
}

// Parse reads the sections. Errors are *Error, or a read error.
func Parse(file string, r io.Reader) ([]*Section, error) {
	var secs []*Section
	var cur *Section
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
			cur = &Section{Name: f[0], Line: n}
			if len(f) == 2 {
				cur.Arg = f[1]
			}
			for _, s := range secs {
				if s.Name == cur.Name && s.Arg == cur.Arg {
					return nil, &Error{File: file, Line: n, Msg: fmt.Sprintf("section %s repeats the one on line %d", line, s.Line)}
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
		if prev := cur.Get(k); prev != nil {
			return nil, &Error{File: file, Line: n, Field: cur.Field(k), Msg: fmt.Sprintf("repeats line %d", prev.Line)}
		}
		cur.Entries = append(cur.Entries, Entry{Key: k, Value: v, Line: n})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return secs, nil
}

package deb

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ArMember is one member of an ar archive as read back.
type ArMember struct {
	Name     string
	ModTime  int64
	UID, GID int
	Mode     int64 // as written in octal in the header
	Data     []byte
}

// Entry is one tar entry of a package's control or data member.
type Entry struct {
	Name         string // as stored, e.g. "./usr/bin/zertzboard"
	Type         byte   // tar.TypeReg, tar.TypeDir, ...
	Mode         int64
	UID, GID     int
	Uname, Gname string
	Data         []byte
}

// Archive is a .deb taken apart.
type Archive struct {
	Members []ArMember // in archive order
	Control []Entry    // control.tar.* in order
	Data    []Entry    // data.tar.* in order
	// Fields is the control file, field by field, in order.
	Fields []Field
}

// Field is one field of a control file. Continuation lines are kept,
// joined by "\n", without their leading space.
type Field struct{ Name, Value string }

// Field returns the value of the named control field and whether it is there.
func (a *Archive) Field(name string) (string, bool) {
	for _, f := range a.Fields {
		if strings.EqualFold(f.Name, name) {
			return f.Value, true
		}
	}
	return "", false
}

// ControlFile returns the data of a file in control.tar, e.g. "md5sums".
func (a *Archive) ControlFile(name string) ([]byte, bool) {
	for _, e := range a.Control {
		if strings.TrimPrefix(e.Name, "./") == name {
			return e.Data, true
		}
	}
	return nil, false
}

// Read takes a .deb apart. It reads at most MaxPackageSize bytes, and
// accepts only gzip-compressed or uncompressed tar members; errors name
// the member and entry.
func Read(r io.Reader) (*Archive, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxPackageSize+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > MaxPackageSize {
		return nil, fmt.Errorf("deb: over %d bytes", MaxPackageSize)
	}
	members, err := ReadAr(raw)
	if err != nil {
		return nil, err
	}
	a := &Archive{Members: members}
	for _, m := range members {
		var dst *[]Entry
		switch {
		case strings.HasPrefix(m.Name, "control.tar"):
			dst = &a.Control
		case strings.HasPrefix(m.Name, "data.tar"):
			dst = &a.Data
		default:
			continue
		}
		entries, err := readTar(m.Name, m.Data)
		if err != nil {
			return nil, err
		}
		*dst = entries
	}
	ctl, ok := a.ControlFile("control")
	if !ok {
		return nil, errors.New("deb: control.tar has no control file")
	}
	if a.Fields, err = ParseControl(ctl); err != nil {
		return nil, err
	}
	return a, nil
}

// ReadAr splits a common ar archive into its members.
func ReadAr(raw []byte) ([]ArMember, error) {
	if !bytes.HasPrefix(raw, []byte(arMagic)) {
		return nil, errors.New("deb: not an ar archive (no \"!<arch>\" magic)")
	}
	var out []ArMember
	off := len(arMagic)
	for off < len(raw) {
		if len(out) >= 16 {
			return nil, errors.New("deb: more than 16 ar members")
		}
		if len(raw)-off < 60 {
			return nil, fmt.Errorf("deb: ar header at offset %d truncated", off)
		}
		h := raw[off : off+60]
		if string(h[58:60]) != "`\n" {
			return nil, fmt.Errorf("deb: ar header at offset %d: bad terminator", off)
		}
		num := func(field string, b []byte, base int) (int64, error) {
			s := strings.TrimSpace(string(b))
			if s == "" {
				return 0, nil
			}
			n, err := strconv.ParseInt(s, base, 64)
			if err != nil || n < 0 {
				return 0, fmt.Errorf("deb: ar header at offset %d: %s %q", off, field, s)
			}
			return n, nil
		}
		m := ArMember{Name: strings.TrimRight(strings.TrimSpace(string(h[0:16])), "/")}
		var uid, gid, size int64
		var err error
		if m.ModTime, err = num("mtime", h[16:28], 10); err != nil {
			return nil, err
		}
		if uid, err = num("uid", h[28:34], 10); err != nil {
			return nil, err
		}
		if gid, err = num("gid", h[34:40], 10); err != nil {
			return nil, err
		}
		if m.Mode, err = num("mode", h[40:48], 8); err != nil {
			return nil, err
		}
		if size, err = num("size", h[48:58], 10); err != nil {
			return nil, err
		}
		m.UID, m.GID = int(uid), int(gid)
		off += 60
		if size > int64(len(raw)-off) {
			return nil, fmt.Errorf("deb: ar member %s: %d bytes, past the end of the archive", m.Name, size)
		}
		m.Data = raw[off : off+int(size)]
		off += int(size)
		if size%2 == 1 {
			if off >= len(raw) || raw[off] != '\n' {
				return nil, fmt.Errorf("deb: ar member %s: no padding newline after an odd size", m.Name)
			}
			off++
		}
		out = append(out, m)
	}
	return out, nil
}

func readTar(member string, data []byte) ([]Entry, error) {
	var r io.Reader = bytes.NewReader(data)
	switch {
	case strings.HasSuffix(member, ".gz"):
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("deb: %s: %w", member, err)
		}
		defer zr.Close()
		r = io.LimitReader(zr, MaxPackageSize+1)
	case strings.HasSuffix(member, ".tar"):
	default:
		return nil, fmt.Errorf("deb: %s: only gzip or no compression can be read", member)
	}
	tr := tar.NewReader(r)
	var out []Entry
	var total int64
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("deb: %s: %w", member, err)
		}
		if len(out) >= MaxEntries {
			return nil, fmt.Errorf("deb: %s: more than %d entries", member, MaxEntries)
		}
		if h.Size > MaxFileSize || total+h.Size > MaxPackageSize {
			return nil, fmt.Errorf("deb: %s: %s: %d bytes, over the limit", member, h.Name, h.Size)
		}
		total += h.Size
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("deb: %s: %s: %w", member, h.Name, err)
		}
		out = append(out, Entry{Name: h.Name, Type: h.Typeflag, Mode: h.Mode, UID: h.Uid, GID: h.Gid, Uname: h.Uname, Gname: h.Gname, Data: b})
	}
}

// ParseControl parses one control paragraph (deb-control(5)).
func ParseControl(b []byte) ([]Field, error) {
	var out []Field
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if line == "" {
			return nil, fmt.Errorf("deb: control line %d: blank line inside the paragraph", i+1)
		}
		if line[0] == ' ' || line[0] == '\t' {
			if len(out) == 0 {
				return nil, fmt.Errorf("deb: control line %d: continuation before any field", i+1)
			}
			f := &out[len(out)-1]
			f.Value += "\n" + line[1:]
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("deb: control line %d: %q is not \"Field: value\"", i+1, line)
		}
		out = append(out, Field{Name: name, Value: strings.TrimSpace(value)})
	}
	return out, nil
}

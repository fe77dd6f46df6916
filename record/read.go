package record

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// Format is a record's file format.
type Format string

// The record formats Read understands.
const (
	SGF  Format = "SGF"
	JSON Format = "JSON"
)

// bom is the UTF-8 byte order mark some editors put first.
const bom = "\xef\xbb\xbf"

// Detect names the format of a record from its first bytes, ignoring white
// space and a UTF-8 byte order mark: SGF starts with "(", JSON with "{".
// File names are not trusted because records travel under any name.
func Detect(prefix []byte) (Format, error) {
	s := bytes.TrimLeft(bytes.TrimPrefix(prefix, []byte(bom)), " \t\r\n")
	switch {
	case len(s) == 0:
		return "", fmt.Errorf("record: empty input: want an SGF or JSON record")
	case s[0] == '(':
		return SGF, nil
	case s[0] == '{':
		return JSON, nil
	}
	return "", fmt.Errorf("record: %q does not start an SGF (\"(;\") or JSON (\"{\") record", snippet(string(s)))
}

// Read reads a record in any supported format, telling them apart by
// content (see Detect).
func Read(r io.Reader) (*Record, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	f, err := Detect(data)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte(bom))
	if f == JSON {
		return ReadJSON(bytes.NewReader(data))
	}
	return ReadSGF(bytes.NewReader(data))
}

// ReadFile reads the record in the named file.
func ReadFile(path string) (*Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	defer f.Close()
	return Read(f)
}

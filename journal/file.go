package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// crcSuffix is what a checksummed line ends with: ,"crc":"xxxxxxxx"}
const crcSuffixLen = len(`,"crc":"00000000"}`)

// seal appends the checksum to a marshalled entry.
func seal(dst, entry []byte) []byte {
	sum := crc32.Checksum(entry, castagnoli)
	dst = append(dst, entry[:len(entry)-1]...)
	dst = append(dst, `,"crc":"`...)
	dst = fmt.Appendf(dst, "%08x", sum)
	return append(dst, `"}`...)
}

// appendLine appends e's line, sealed, with its newline.
func appendLine(dst []byte, e Line) []byte {
	b, _ := json.Marshal(e) // nothing in a Line fails to marshal
	return append(seal(dst, b), '\n')
}

// unseal checks a line's checksum. It returns the entry's text without
// it, whether the line had one, and whether it matched.
func unseal(line []byte) (entry []byte, sealed, ok bool) {
	n := len(line)
	if n < crcSuffixLen+2 || !bytes.HasPrefix(line[n-crcSuffixLen:], []byte(`,"crc":"`)) || !bytes.HasSuffix(line, []byte(`"}`)) {
		return line, false, false
	}
	want, err := strconv.ParseUint(string(line[n-10:n-2]), 16, 32)
	if err != nil {
		return line, true, false
	}
	entry = append(append([]byte(nil), line[:n-crcSuffixLen]...), '}')
	return entry, true, crc32.Checksum(entry, castagnoli) == uint32(want)
}

// rewrite replaces the file with entries, atomically: a temporary file,
// fsync, rename, fsync of the directory.
func rewrite(path string, entries []Line) error {
	var data []byte
	for _, e := range entries {
		data = appendLine(data, e)
	}
	return rewriteBytes(path, data)
}

// rewriteBytes replaces the file with data, atomically.
func rewriteBytes(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".journal-*")
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	w.Write(data)
	if err := w.Flush(); err != nil {
		tmp.Close()
		return fmt.Errorf("journal: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("journal: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("journal: syncing %s: %w", dir, err)
	}
	return nil
}

// saveDamaged appends the lines from bad on to PATH.damaged, with a
// header saying where they came from, and syncs it.
func saveDamaged(path string, data []byte, bad int) (string, error) {
	rest := data
	for l := 1; l < bad && len(rest) > 0; l++ {
		_, rest, _ = cutLine(rest)
	}
	out := path + ".damaged"
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(f, "# from %s, line %d on\n", path, bad)
	f.Write(rest)
	if len(rest) > 0 && rest[len(rest)-1] != '\n' {
		f.Write([]byte{'\n'})
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return "", err
	}
	return out, f.Close()
}

// wholeLines is the length of data's longest prefix of whole, good lines
// (each ending in a newline, its checksum matching if it has one): where
// a torn or garbled tail begins.
func wholeLines(data []byte) int64 {
	var n int64
	for len(data) > 0 {
		line, rest, torn := cutLine(data)
		if torn {
			break
		}
		if _, sealed, ok := unseal(line); sealed && !ok {
			break
		}
		n += int64(len(line) + 1)
		data = rest
	}
	return n
}

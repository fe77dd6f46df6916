package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pcf builds a minimal PCF file: compressed metrics, bitmaps padded to
// 4 bytes with the most significant bit first, and one encoding row
// holding 'A' (an inverted L) and 'B' (one pixel below the baseline).
func pcf() []byte {
	le := binary.LittleEndian
	var metrics, bitmaps, enc []byte
	metrics = le.AppendUint32(metrics, 0x100) // compressed
	metrics = le.AppendUint16(metrics, 2)
	for _, m := range [][5]int{{0, 3, 7, 11, 0}, {1, 2, 7, 0, 1}} {
		for _, v := range m {
			metrics = append(metrics, byte(v+0x80))
		}
	}
	bitmaps = le.AppendUint32(bitmaps, 0x2|0x8) // pad 4, MSB bit first, LSB byte order
	bitmaps = le.AppendUint32(bitmaps, 2)
	bitmaps = le.AppendUint32(bitmaps, 0)
	bitmaps = le.AppendUint32(bitmaps, 44) // 11 rows x 4 bytes
	data := make([]byte, 48)
	data[0] = 0xE0 // row 0: three pixels
	for y := 1; y < 11; y++ {
		data[4*y] = 0x80
	}
	data[44] = 0x80
	for i := 0; i < 4; i++ {
		bitmaps = le.AppendUint32(bitmaps, uint32(len(data)))
	}
	bitmaps = append(bitmaps, data...)
	enc = le.AppendUint32(enc, 0)
	for _, v := range []uint16{'A', 'C', 0, 0, 0, 0, 1, 0xFFFF} {
		enc = le.AppendUint16(enc, v)
	}
	tables := []struct {
		typ  uint32
		data []byte
	}{{pcfMetrics, metrics}, {pcfBitmaps, bitmaps}, {pcfBDFEncodings, enc}}
	out := []byte("\x01fcp")
	out = le.AppendUint32(out, uint32(len(tables)))
	off := 8 + 16*len(tables)
	for _, tb := range tables {
		out = le.AppendUint32(out, tb.typ)
		out = le.AppendUint32(out, 0)
		out = le.AppendUint32(out, uint32(len(tb.data)))
		out = le.AppendUint32(out, uint32(off))
		off += len(tb.data)
	}
	for _, tb := range tables {
		out = append(out, tb.data...)
	}
	return out
}

func TestParsePCF(t *testing.T) {
	f, err := ParsePCF(pcf())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Glyphs) != 2 {
		t.Fatalf("%d glyphs; want A and B", len(f.Glyphs))
	}
	a := f.Glyphs['A']
	if a.Rows[0] != 0xE0 || a.Rows[10] != 0x80 || a.Rows[11] != 0 {
		t.Errorf("A = %x", a.Rows)
	}
	b := f.Glyphs['B']
	if b.Rows[11] != 0x40 || b.Rows[10] != 0 {
		t.Errorf("B = %x: want the pixel in column 1 just below the baseline", b.Rows)
	}
	src, err := Generate(f, [][2]rune{{'A', 'B'}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "{0x41, 0x42}") || !strings.Contains(string(src), "// U+0042 B") {
		t.Errorf("generated source lacks the range or glyph:\n%s", src)
	}
	if _, err := Generate(f, [][2]rune{{'A', 'C'}}); err == nil || !strings.Contains(err.Error(), "U+0043") {
		t.Errorf("Generate with a missing glyph: %v; want an error naming U+0043", err)
	}
}

func TestParsePCFRejects(t *testing.T) {
	good := pcf()
	for name, b := range map[string][]byte{
		"empty":     nil,
		"not pcf":   []byte("STARTFONT 2.1\n"),
		"truncated": good[:len(good)-20],
	} {
		if _, err := ParsePCF(b); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestCommittedTableIsGenerated regenerates display/face's table from the
// Debian font, where it is installed (xfonts-base) or named by
// $ZERTZBOARD_FONT_PCF, and compares it with the committed file.
func TestCommittedTableIsGenerated(t *testing.T) {
	pcf := os.Getenv("ZERTZBOARD_FONT_PCF")
	if pcf == "" {
		pcf = "/usr/share/fonts/X11/misc/7x13.pcf.gz"
	}
	if _, err := os.Stat(pcf); err != nil {
		t.Skipf("no %s (apt-get install xfonts-base, or set ZERTZBOARD_FONT_PCF)", pcf)
	}
	out := filepath.Join(t.TempDir(), "gen.go")
	if err := run(pcf, out); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	want, err := os.ReadFile("../../display/face/fixed7x13_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("display/face/fixed7x13_gen.go differs from what tools/fontgen makes of " + pcf + "; regenerate it")
	}
}

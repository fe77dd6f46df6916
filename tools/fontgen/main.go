// Command fontgen writes display/face's glyph table from the X11
// misc-fixed 7x13 font (public domain), as shipped in Debian's
// xfonts-base package:
//
//	apt-get download xfonts-base && dpkg-deb -x xfonts-base_*.deb x
//	go run ./tools/fontgen -pcf x/usr/share/fonts/X11/misc/7x13.pcf.gz -out display/face/fixed7x13_gen.go
//
// It reads the PCF file itself (the X.org PCF format as read by libXfont's
// pcfread.c), keeps only the glyphs of the runes zertzboard's five
// languages need (ASCII, Latin-1, Latin Extended-A, Cyrillic U+0400-U+045F
// and a few punctuation marks), and places each in the font's 7x13 cell.
// The build never needs the Debian package: the output is committed.
//
// Layer: cmd. May import: base, game, drivers, sensors, services,
// presentation, config, simulator, rig, board, players, cmd.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io"
	"os"
	"strings"
)

// Wanted are the rune ranges kept, inclusive.
var Wanted = [][2]rune{
	{0x20, 0x7E},     // ASCII
	{0xA0, 0xFF},     // Latin-1: German, French
	{0x100, 0x17F},   // Latin Extended-A: Polish ą ć ę ł ń ś ź ż, French œ
	{0x400, 0x45F},   // Cyrillic: Russian
	{0x2013, 0x2014}, // en and em dash
	{0x2018, 0x201E}, // quotes: ‘ ’ ‚ “ ” „
	{0x2022, 0x2022}, // bullet
	{0x2026, 0x2026}, // ellipsis
	{0x2190, 0x2193}, // arrows
	{0x2212, 0x2212}, // minus
	{0xFFFD, 0xFFFD}, // replacement character
}

// Cell is the 7x13 character cell: width, ascent and descent in pixels.
const (
	CellWidth = 7
	Ascent    = 11
	Descent   = 2
	Height    = Ascent + Descent
)

func main() {
	pcf := flag.String("pcf", "", "the misc-fixed 7x13 PCF file (.pcf or .pcf.gz), from Debian's xfonts-base: /usr/share/fonts/X11/misc/7x13.pcf.gz")
	out := flag.String("out", "display/face/fixed7x13_gen.go", "the Go file to write")
	flag.Parse()
	if *pcf == "" {
		fmt.Fprintln(os.Stderr, "fontgen: -pcf is required")
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*pcf, *out); err != nil {
		fmt.Fprintln(os.Stderr, "fontgen:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	b, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	if bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		if b, err = io.ReadAll(io.LimitReader(zr, 64<<20)); err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
	}
	f, err := ParsePCF(b)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	src, err := Generate(f, Wanted)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	return os.WriteFile(out, src, 0o644)
}

// Glyph is one glyph's ink: Rows[y] has bit 7-x set for pixel x of the
// cell, y counted from the cell's top (Ascent rows above the baseline).
type Glyph struct{ Rows [Height]uint8 }

// Font is the parsed PCF: glyphs by rune.
type Font struct{ Glyphs map[rune]Glyph }

// PCF table types and format bits (libXfont pcf.h).
const (
	pcfMetrics      = 1 << 2
	pcfBitmaps      = 1 << 3
	pcfBDFEncodings = 1 << 5

	pcfGlyphPadMask   = 3
	pcfByteMSB        = 1 << 2
	pcfBitMSB         = 1 << 3
	pcfScanUnitMask   = 3 << 4
	pcfCompressedMtrx = 0x100
)

type metric struct{ lsb, rsb, width, ascent, descent int }

// reader reads a PCF table's fields in the table's byte order.
type reader struct {
	b   []byte
	off int
	bo  binary.ByteOrder
	err error
}

func (r *reader) n(k int) []byte {
	if r.err != nil || r.off+k > len(r.b) || k < 0 {
		if r.err == nil {
			r.err = fmt.Errorf("table truncated at byte %d", r.off)
		}
		return make([]byte, max(k, 0))
	}
	p := r.b[r.off : r.off+k]
	r.off += k
	return p
}
func (r *reader) u8() int  { return int(r.n(1)[0]) }
func (r *reader) i16() int { return int(int16(r.bo.Uint16(r.n(2)))) }
func (r *reader) u16() int { return int(r.bo.Uint16(r.n(2))) }
func (r *reader) i32() int { return int(int32(r.bo.Uint32(r.n(4)))) }

// table returns a reader positioned after the table's format word.
func table(b []byte, toc map[int][2]int, typ int) (*reader, int, error) {
	e, ok := toc[typ]
	if !ok {
		return nil, 0, fmt.Errorf("no table of type %#x", typ)
	}
	off, size := e[0], e[1]
	if off < 0 || size < 4 || off+size > len(b) {
		return nil, 0, fmt.Errorf("table %#x at %d+%d outside the %d-byte file", typ, off, size, len(b))
	}
	t := b[off : off+size]
	format := int(binary.LittleEndian.Uint32(t))
	var bo binary.ByteOrder = binary.LittleEndian
	if format&pcfByteMSB != 0 {
		bo = binary.BigEndian
	}
	return &reader{b: t, off: 4, bo: bo}, format, nil
}

// ParsePCF reads the metrics, bitmaps and encodings of a PCF font.
func ParsePCF(b []byte) (*Font, error) {
	if len(b) < 8 || string(b[:4]) != "\x01fcp" {
		return nil, errors.New("not a PCF file")
	}
	n := int(binary.LittleEndian.Uint32(b[4:]))
	if n <= 0 || n > 64 || 8+16*n > len(b) {
		return nil, fmt.Errorf("PCF table count %d", n)
	}
	toc := map[int][2]int{}
	for i := 0; i < n; i++ {
		e := b[8+16*i:]
		toc[int(binary.LittleEndian.Uint32(e))] = [2]int{int(binary.LittleEndian.Uint32(e[12:])), int(binary.LittleEndian.Uint32(e[8:]))}
	}
	ms, err := readMetrics(b, toc)
	if err != nil {
		return nil, err
	}
	bm, err := readBitmaps(b, toc, len(ms))
	if err != nil {
		return nil, err
	}
	return readEncodings(b, toc, ms, bm)
}

// readMetrics reads the metrics table: one metric per glyph.
func readMetrics(b []byte, toc map[int][2]int) ([]metric, error) {
	r, format, err := table(b, toc, pcfMetrics)
	if err != nil {
		return nil, err
	}
	var ms []metric
	if format&pcfCompressedMtrx != 0 {
		cnt := r.u16()
		for i := 0; i < cnt && r.err == nil; i++ {
			ms = append(ms, metric{r.u8() - 0x80, r.u8() - 0x80, r.u8() - 0x80, r.u8() - 0x80, r.u8() - 0x80})
		}
	} else {
		cnt := r.i32()
		for i := 0; i < cnt && r.err == nil; i++ {
			m := metric{r.i16(), r.i16(), r.i16(), r.i16(), r.i16()}
			r.u16() // attributes
			ms = append(ms, m)
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("metrics: %w", r.err)
	}
	return ms, nil
}

// bitmaps is the bitmap table: every glyph's rows, where each starts, and
// how they are laid out.
type bitmaps struct {
	data  []byte
	offs  []int
	pad   int
	msbit bool
}

// readBitmaps reads the bitmap table of a font with glyphs glyphs.
func readBitmaps(b []byte, toc map[int][2]int, glyphs int) (bitmaps, error) {
	r, format, err := table(b, toc, pcfBitmaps)
	if err != nil {
		return bitmaps{}, err
	}
	if cnt := r.i32(); cnt != glyphs {
		return bitmaps{}, fmt.Errorf("%d bitmaps for %d metrics", cnt, glyphs)
	}
	offs := make([]int, glyphs)
	for i := range offs {
		offs[i] = r.i32()
	}
	var sizes [4]int
	for i := range sizes {
		sizes[i] = r.i32()
	}
	data := r.n(sizes[format&pcfGlyphPadMask])
	if r.err != nil {
		return bitmaps{}, fmt.Errorf("bitmaps: %w", r.err)
	}
	unit := 1 << ((format & pcfScanUnitMask) >> 4)
	if unit > 1 && (format&pcfByteMSB != 0) != (format&pcfBitMSB != 0) {
		return bitmaps{}, fmt.Errorf("bitmap scan unit %d with mixed byte and bit order is not supported", unit)
	}
	return bitmaps{data: data, offs: offs, pad: 1 << (format & pcfGlyphPadMask), msbit: format&pcfBitMSB != 0}, nil
}

// readEncodings reads the encoding table and places each encoded glyph.
func readEncodings(b []byte, toc map[int][2]int, ms []metric, bm bitmaps) (*Font, error) {
	r, _, err := table(b, toc, pcfBDFEncodings)
	if err != nil {
		return nil, err
	}
	min2, max2, min1, max1 := r.i16(), r.i16(), r.i16(), r.i16()
	r.i16() // default char
	if min2 < 0 || max2 > 255 || min1 < 0 || max1 > 255 || min2 > max2 || min1 > max1 {
		return nil, fmt.Errorf("encoding range %d..%d x %d..%d", min1, max1, min2, max2)
	}
	f := &Font{Glyphs: map[rune]Glyph{}}
	for b1 := min1; b1 <= max1; b1++ {
		for b2 := min2; b2 <= max2; b2++ {
			gi := r.u16()
			if r.err != nil {
				return nil, fmt.Errorf("encodings: %w", r.err)
			}
			if gi == 0xFFFF {
				continue
			}
			if gi >= len(ms) {
				return nil, fmt.Errorf("rune %#x: glyph %d of %d", b1<<8|b2, gi, len(ms))
			}
			g, err := place(ms[gi], bm.data, bm.offs[gi], bm.pad, bm.msbit)
			if err != nil {
				return nil, fmt.Errorf("rune %U: %w", rune(b1<<8|b2), err)
			}
			f.Glyphs[rune(b1<<8|b2)] = g
		}
	}
	return f, nil
}

// place puts a glyph's bitmap into the 7x13 cell.
func place(m metric, data []byte, off, pad int, msbit bool) (Glyph, error) {
	var g Glyph
	w, h := m.rsb-m.lsb, m.ascent+m.descent
	stride := ((w+7)/8 + pad - 1) / pad * pad
	if off < 0 || off+stride*h > len(data) {
		return g, fmt.Errorf("bitmap at %d+%d outside the data", off, stride*h)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			byt := data[off+y*stride+x/8]
			bit := x % 8
			if msbit {
				bit = 7 - bit
			}
			if byt>>bit&1 == 0 {
				continue
			}
			cx, cy := m.lsb+x, Ascent-m.ascent+y
			if cx < 0 || cx >= CellWidth || cy < 0 || cy >= Height {
				return g, fmt.Errorf("ink at (%d,%d) outside the %dx%d cell", cx, cy, CellWidth, Height)
			}
			g.Rows[cy] |= 0x80 >> cx
		}
	}
	return g, nil
}

// Generate writes the Go source of the glyph table for the wanted runes.
func Generate(f *Font, wanted [][2]rune) ([]byte, error) {
	var b strings.Builder
	b.WriteString(`// Code generated by tools/fontgen from the X11 misc-fixed 7x13 font; DO NOT EDIT.
// See PROVENANCE.md.

package face

// ranges are the runes of the table, inclusive, in the order of glyphs.
var ranges = [][2]rune{
`)
	var glyphs []Glyph
	var names []rune
	for _, w := range wanted {
		fmt.Fprintf(&b, "\t{%#x, %#x},\n", w[0], w[1])
		for r := w[0]; r <= w[1]; r++ {
			g, ok := f.Glyphs[r]
			if !ok {
				return nil, fmt.Errorf("the font has no glyph for %U", r)
			}
			glyphs = append(glyphs, g)
			names = append(names, r)
		}
	}
	b.WriteString("}\n\n// glyphs hold 13 rows per glyph, bit 7 the leftmost of 7 pixels.\nvar glyphs = [...][13]uint8{\n")
	for i, g := range glyphs {
		fmt.Fprintf(&b, "\t{")
		for y, row := range g.Rows {
			if y > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%#02x", row)
		}
		name := string(names[i])
		if names[i] < 0x21 || (names[i] >= 0x7F && names[i] <= 0xA0) {
			name = ""
		}
		fmt.Fprintf(&b, "}, // %U %s\n", names[i], name)
	}
	b.WriteString("}\n")
	return format.Source([]byte(b.String()))
}

package face

import (
	"image"
	"testing"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// draw renders a rune alone and returns its lit pixels as rows of bits.
func draw(f font.Face, r rune) [Height]uint8 {
	img := image.NewAlpha(image.Rect(0, 0, Width, Height))
	d := font.Drawer{Dst: img, Src: image.Opaque, Face: f, Dot: fixed.P(0, Ascent)}
	d.DrawString(string(r))
	var rows [Height]uint8
	for y := 0; y < Height; y++ {
		for x := 0; x < Width; x++ {
			if img.AlphaAt(x, y).A != 0 {
				rows[y] |= 0x80 >> x
			}
		}
	}
	return rows
}

// TestASCIIMatchesBasicfont: the glyphs of ASCII are those of
// basicfont.Face7x13, which comes from the same misc-fixed font, so the
// screen looks as before for English.
func TestASCIIMatchesBasicfont(t *testing.T) {
	for r := rune(0x20); r < 0x7F; r++ {
		if got, want := draw(Fixed7x13, r), draw(basicfont.Face7x13, r); got != want {
			t.Errorf("%q: glyph %x; basicfont has %x", r, got, want)
		}
	}
}

// TestCoversTheFiveLanguages: every letter of the five alphabets has a
// glyph of its own, with ink (no blank, no fallback box).
func TestCoversTheFiveLanguages(t *testing.T) {
	alphabets := map[string]string{
		"en": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
		"de": "ÄÖÜäöüßẞ",
		"fr": "ÀÂÆÇÉÈÊËÎÏÔŒÙÛÜŸàâæçéèêëîïôœùûüÿ«»",
		"pl": "ĄĆĘŁŃÓŚŹŻąćęłńóśźż„”",
		"ru": "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя",
	}
	box := draw(Fixed7x13, '\uFFFD')
	for lang, letters := range alphabets {
		for _, r := range letters {
			if r == 'ẞ' { // capital sharp s (U+1E9E) is rare; German writes SS
				if Covers(r) {
					t.Errorf("%s: %q unexpectedly covered", lang, r)
				}
				continue
			}
			if !Covers(r) {
				t.Errorf("%s: no glyph for %q (%U)", lang, r, r)
				continue
			}
			g := draw(Fixed7x13, r)
			if g == box || g == ([Height]uint8{}) && !unicode.IsSpace(r) {
				t.Errorf("%s: %q draws as a box or nothing", lang, r)
			}
		}
	}
	if !Covers(' ') || Covers('\u4e2d') || Covers(0x1F600) {
		t.Error("Covers is wrong for space, CJK or emoji")
	}
}

func TestMap(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Zoë – Łódź", "Zoë – Łódź"},
		{"Ходит Юлия", "Ходит Юлия"},
		{"a\tb 中 😀", "a?b ? ?"},
	} {
		if got := Map(tc.in); got != tc.want {
			t.Errorf("Map(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
	if m := Missing("ok 中中 😀"); len(m) != 2 || m[0] != '中' || m[1] != 0x1F600 {
		t.Errorf("Missing = %q", m)
	}
}

// TestGlyphsDistinct: a table shifted by one would draw every letter as
// its neighbour; distinct letters must differ.
func TestGlyphsDistinct(t *testing.T) {
	seen := map[[Height]uint8]rune{}
	for _, r := range "ABCabcÄäŁłЖжЯяЁё" {
		g := draw(Fixed7x13, r)
		if o, dup := seen[g]; dup {
			t.Errorf("%q and %q draw the same", o, r)
		}
		seen[g] = r
	}
}

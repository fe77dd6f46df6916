package screen

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/display"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/referee"
)

var update = flag.Bool("update", false, "rewrite the golden screen PNGs in testdata/")

// toGray is the screen as a black and white image, for a PNG.
func toGray(lines []string) *image.Gray {
	img := Render(lines)
	g := image.NewGray(image.Rect(0, 0, Width, Height))
	for y := 0; y < Height; y++ {
		for x := 0; x < Width; x++ {
			if img.BitAt(x, y) {
				g.SetGray(x, y, color.Gray{Y: 255})
			}
		}
	}
	return g
}

// TestGoldenScreens draws the status screen mid-game in each language,
// and with faults, and compares it pixel by pixel with testdata/*.png
// (go test -update writes them; look at them before committing).
func TestGoldenScreens(t *testing.T) {
	m := referee.Msg
	screens := map[string]display.Status{}
	for _, l := range i18n.All {
		screens["midgame-"+string(l)] = display.Status{Lang: l, ToMove: 1, Players: [2]string{"Łukasz", "Юлия"},
			Captures: [2][3]int{{2, 1, 0}, {0, 3, 4}},
			Parts:    []referee.Message{m("guide.to-move", m("guide.player", 1), m("guide.place-and-remove"))}}
		screens["illegal-"+string(l)] = display.Status{Lang: l, ToMove: 0, Players: [2]string{"Zoë", "François"},
			Parts:  []referee.Message{m("guide.illegal", referee.Message{Key: "rule.ring-not-free", Text: "ring D4 is not free"}, []referee.Message{m("guide.fix", "D4", m("content.vacant"))})},
			Faults: []string{l.T("fault.drifting", "E5"), l.T("fault.stuck", "A3")}}
	}
	for name, st := range screens {
		t.Run(name, func(t *testing.T) {
			lines := display.StatusLines(st, Columns)
			got := toGray(lines)
			path := filepath.Join("testdata", name+".png")
			if *update {
				var b bytes.Buffer
				if err := png.Encode(&b, got); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			f, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			want, err := png.Decode(bytes.NewReader(f))
			if err != nil {
				t.Fatal(err)
			}
			var diff []string
			for y := 0; y < Height; y++ {
				for x := 0; x < Width; x++ {
					r, _, _, _ := want.At(x, y).RGBA()
					if (r > 0x7fff) != (got.GrayAt(x, y).Y > 0) {
						diff = append(diff, fmt.Sprintf("(%d,%d)", x, y))
					}
				}
			}
			if len(diff) > 0 {
				t.Errorf("%s differs from %s in %d pixels, e.g. %s; lines %q", name, path, len(diff), strings.Join(diff[:min(5, len(diff))], " "), lines)
			}
		})
	}
}

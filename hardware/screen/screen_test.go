package screen

import (
	"reflect"
	"testing"

	"github.com/zertzboard/zertzboard/sim"
)

func TestFit(t *testing.T) {
	got := Fit([]string{"Zoë moves 中", "a line far longer than eighteen", "3", "4", "5", "6"})
	want := []string{"Zoë moves ?", "a line far longer ", "3", "4", "5"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Fit = %q; want %q", got, want)
	}
}

func TestShowOnVirtualScreen(t *testing.T) {
	for _, addr := range []uint16{0x3C, 0x3D} {
		vs := sim.NewScreen("I2C1", addr)
		d, err := New(vs, &Opts{Address: addr})
		if err != nil {
			t.Fatal(err)
		}
		s := []string{"Alice to move", ">Alice    w0 g0 b0", " Bob      w0 g0 b0", "place a marble"}
		if err := d.Show(s); err != nil {
			t.Fatal(err)
		}
		want := Render(s)
		got := vs.Image()
		lit := 0
		for y := 0; y < Height; y++ {
			for x := 0; x < Width; x++ {
				on := bool(want.BitAt(x, y))
				if on {
					lit++
				}
				if (got.GrayAt(x, y).Y != 0) != on {
					t.Fatalf("address %#x: pixel (%d,%d) differs from Render", addr, x, y)
				}
			}
		}
		if lit < 100 {
			t.Errorf("only %d pixels lit for four lines of text", lit)
		}
		if err := d.Halt(); err != nil {
			t.Fatal(err)
		}
		if vs.On() {
			t.Error("screen on after Halt")
		}
	}
	if _, err := New(sim.NewScreen("I2C1", 0x3C), &Opts{Address: 0x50}); err == nil {
		t.Error("New at 0x50: want an error")
	}
}

// TestLinesDoNotTouch: each line's ink stays in its own 13-row band, so
// descenders (у, g, ą) never meet the accents of the line below (Й, É),
// and the fifth line's descenders are on the screen.
func TestLinesDoNotTouch(t *testing.T) {
	tall := "ЙÉŁÅgyąуфщ|"
	for i := 0; i < Rows; i++ {
		lines := make([]string, Rows)
		lines[i] = tall
		img := Render(lines)
		lo, hi := Height, -1
		for y := 0; y < Height; y++ {
			for x := 0; x < Width; x++ {
				if img.BitAt(x, y) {
					lo, hi = min(lo, y), max(hi, y)
				}
			}
		}
		band0, band1 := top+i*pitch, top+(i+1)*pitch-1
		if lo < max(band0, 0) || hi > band1 || hi < 0 {
			t.Errorf("line %d: ink on rows %d..%d; its band is %d..%d", i, lo, hi, band0, band1)
		}
		if i == Rows-1 && hi != Height-1 {
			t.Errorf("last line's descenders end on row %d; want %d", hi, Height-1)
		}
	}
}

package screen

import (
	"reflect"
	"testing"

	"github.com/zertzboard/zertzboard/sim"
)

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Status
		want []string
	}{
		{"no game", Status{ToMove: -1}, []string{
			"no game",
			" P0       w0 g0 b0",
			" P1       w0 g0 b0",
			"",
			"",
		}},
		{"mid game", Status{ToMove: 1, Players: [2]string{"Alice", "Bob"}, Captures: [2][3]int{{1, 2, 0}, {0, 0, 3}}, Line: "remove a free ring"}, []string{
			"Bob to move",
			" Alice    w1 g2 b0",
			">Bob      w0 g0 b3",
			"remove a free ring",
			"",
		}},
		{"faults and long names", Status{ToMove: 0, Players: [2]string{"Maximilian-Alexander", "Zoë"}, Faults: []string{"E5: drifting", "A3: saturated"}}, []string{
			"Maximilian-Alexand",
			">Maximili w0 g0 b0",
			" Zo?      w0 g0 b0",
			"",
			"!2: E5: drifting",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Lines(tc.s); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Lines(%+v) =\n%q\nwant\n%q", tc.s, got, tc.want)
			}
		})
	}
}

func TestShowOnVirtualScreen(t *testing.T) {
	for _, addr := range []uint16{0x3C, 0x3D} {
		vs := sim.NewScreen("I2C1", addr)
		d, err := New(vs, &Opts{Address: addr})
		if err != nil {
			t.Fatal(err)
		}
		s := Status{ToMove: 0, Players: [2]string{"Alice", "Bob"}, Line: "place a marble"}
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

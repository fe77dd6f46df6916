package engine

import (
	"strings"
	"testing"
)

func TestStandardBoards(t *testing.T) {
	// Column sizes from docs/RULES.md (section 1.3), by board.
	tests := []struct {
		name    string
		cells   int
		columns string // labels of each column's top cell
	}{
		{"37", 37, "A4 B5 C6 D7 E6 F5 G4"},
		{"40", 40, "A4 B5 C6 D7 E7 F6 G5"},
		{"43", 43, "A5 B6 C7 D7 E7 F6 G5"},
		{"44", 44, "A4 B5 C6 D7 E7 F6 G5 H4"},
		{"48", 48, "A5 B6 C7 D8 E7 F6 G5 H4"},
		{"61", 61, "A5 B6 C7 D8 E9 F8 G7 H6 I5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := MustStandardBoard(tt.name)
			if b.Len() != tt.cells {
				t.Fatalf("Len() = %d; want %d", b.Len(), tt.cells)
			}
			var tops []string
			for c := 0; c < b.Len(); c++ {
				if c == b.Len()-1 || b.Coord(Cell(c+1)).X != b.Coord(Cell(c)).X {
					tops = append(tops, b.Label(Cell(c)))
				}
			}
			if got := strings.Join(tops, " "); got != tt.columns {
				t.Errorf("column tops = %s; want %s", got, tt.columns)
			}
			// Board order: by column, then row; labels parse back.
			for c := 0; c < b.Len(); c++ {
				got, err := b.ParseCell(strings.ToLower(b.Label(Cell(c))))
				if err != nil || got != Cell(c) {
					t.Errorf("ParseCell(%q) = %v, %v; want %d", b.Label(Cell(c)), got, err, c)
				}
			}
		})
	}
}

func TestNeighbours(t *testing.T) {
	b := MustStandardBoard("37")
	tests := []struct{ cell, want string }{
		{"D4", "D5 E4 E3 D3 C3 C4"}, // centre: all six, in cyclic order
		{"A1", "A2 B2 B1"},          // corner
		{"D1", "D2 E1 C1"},
		{"G4", "G3 F4 F5"},
	}
	for _, tt := range tests {
		c, _ := b.ParseCell(tt.cell)
		var got []string
		for _, n := range b.Neighbours(c) {
			got = append(got, b.Label(n))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("Neighbours(%s) = %v; want %s", tt.cell, got, tt.want)
		}
	}
}

func TestExtendedBoardsUse48Labels(t *testing.T) {
	b48 := MustStandardBoard("48")
	for _, name := range []string{"37", "40", "43", "44"} {
		b := MustStandardBoard(name)
		for c := 0; c < b.Len(); c++ {
			c48 := b48.CellAt(b.Coord(Cell(c)))
			if c48 == NoCell || b48.Label(c48) != b.Label(Cell(c)) {
				t.Errorf("board %s: cell %s at %v is not the 48-ring board's %s", name, b.Label(Cell(c)), b.Coord(Cell(c)), b48.Label(c48))
			}
		}
	}
}

func TestNewBoardRejects(t *testing.T) {
	tests := []struct {
		name string
		l    Layout
		want string
	}{
		{"empty", Layout{Name: "x"}, "has 0 cells"},
		{"unnamed", Layout{Cells: []Coord{{0, 0}}}, "one word"},
		{"duplicate", Layout{Name: "x", Cells: []Coord{{0, 0}, {0, 0}}}, "listed twice"},
		{"parity", Layout{Name: "x", Cells: []Coord{{0, 0}, {0, 1}}}, "same hex grid"},
		{"disconnected", Layout{Name: "x", Cells: []Coord{{0, 0}, {0, 4}}}, "not connected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewBoard(tt.l)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewBoard(%v) error = %v; want it to mention %q", tt.l, err, tt.want)
			}
		})
	}
}

func TestCustomLayout(t *testing.T) {
	// A seven-ring flower: centre and its six neighbours.
	centre := Coord{1, 2}
	cells := []Coord{centre}
	for d := 0; d < 6; d++ {
		cells = append(cells, centre.Neighbour(d))
	}
	b, err := NewBoard(Layout{Name: "flower", Cells: cells})
	if err != nil {
		t.Fatal(err)
	}
	p := NewPosition(b, Standard, 0)
	if got := len(p.FreeRings()); got != 6 {
		t.Errorf("flower: %d free rings; want the 6 petals", got)
	}
	if got := Perft(p, 1); got != 3*(1*6+6*5) {
		t.Errorf("flower perft(1) = %d; want %d", got, 3*(6+30))
	}
	if _, err := b.ParseCell("B2"); err != nil {
		t.Errorf("flower has no centre B2: %v", err)
	}
}

package engine

import (
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"
)

// Cell is the index of a cell in its board's order: all cells sorted by
// column, then by row (A1, A2, …, B1, …). A Cell means nothing without its
// Board.
type Cell int8

// NoCell is the Cell that stands for "none", e.g. no ring removed.
const NoCell Cell = -1

// MaxCells is the largest board the engine models. It is also the size of a
// bit set of cells (uint64). A 61-socket base fits with room to spare.
const MaxCells = 64

// Coord is a cell in doubled coordinates: X is the column index (A = 0) and
// cells of one column sit two apart in Y. The six neighbours of (x, y), in
// cyclic order, are (x, y+2), (x+1, y+1), (x+1, y−1), (x, y−2), (x−1, y−1)
// and (x−1, y+1).
type Coord struct{ X, Y int }

// directions in cyclic order; see Coord.
var directions = [6]Coord{{0, 2}, {1, 1}, {1, -1}, {0, -2}, {-1, -1}, {-1, 1}}

// Neighbour returns the coordinate one step away in direction d (0–5, cyclic).
func (c Coord) Neighbour(d int) Coord {
	v := directions[d%6]
	return Coord{c.X + v.X, c.Y + v.Y}
}

// Layout is board data: the set of cells that hold a ring at the start, and
// how they are labelled. Boards are data, not code, so a configuration can
// give its own (a "custom layout").
type Layout struct {
	// Name is the board's name, e.g. "37" or "48". It starts a position's
	// text form and must not contain spaces.
	Name string `json:"name"`
	// Cells lists every cell in doubled coordinates. Order does not matter.
	Cells []Coord `json:"cells"`
	// LabelOffsets gives, per column, the Y of row 1. Labels are the column
	// letter and (y − LabelOffsets[x])/2 + 1. When nil, row 1 is the lowest
	// cell of each column.
	LabelOffsets []int `json:"label_offsets,omitempty"`
}

// Board is an immutable board: its cells, labels and neighbourhoods. It is
// safe for concurrent use. Create one with NewBoard or StandardBoard.
type Board struct {
	name   string
	n      int
	all    uint64
	coords []Coord
	labels []string
	index  map[Coord]Cell
	byName map[string]Cell

	nbr     [MaxCells][6]Cell   // NoCell when off the board
	nbrMask [MaxCells]uint64    // all neighbours
	pair    [MaxCells][6]uint64 // neighbours d and d+1 (for the free-ring rule)
	jumpMid [MaxCells][6]Cell   // the cell jumped over in direction d
	jumpTo  [MaxCells][6]Cell   // the landing cell in direction d
	// The same as one-cell sets, empty off the board: the hot loops test
	// them without a branch per direction.
	midMask [MaxCells][6]uint64
	toMask  [MaxCells][6]uint64
}

// columnLayout builds a layout from per-column sizes and offsets (the
// tables in docs/RULES.md, section 1.3).
func columnLayout(name string, sizes, offs []int) Layout {
	l := Layout{Name: name, LabelOffsets: offs}
	for x, n := range sizes {
		for r := 0; r < n; r++ {
			l.Cells = append(l.Cells, Coord{x, offs[x] + 2*r})
		}
	}
	return l
}

var (
	layout37 = columnLayout("37", []int{4, 5, 6, 7, 6, 5, 4}, []int{3, 2, 1, 0, 1, 2, 3})
	layout48 = columnLayout("48", []int{5, 6, 7, 8, 7, 6, 5, 4}, []int{3, 2, 1, 0, 1, 2, 3, 4})
	layout61 = columnLayout("61", []int{5, 6, 7, 8, 9, 8, 7, 6, 5}, []int{4, 3, 2, 1, 0, 1, 2, 3, 4})

	// The 48-ring board's extra rings, in groups (docs/RULES.md, section
	// 1.4; rulebook H, diagram 6). Another rotation would fit the counts
	// too, which is why a layout is data: NewBoard takes any other.
	extraGroup1 = []Coord{{4, 13}, {5, 12}, {6, 11}}
	extraGroup2 = []Coord{{0, 11}, {1, 12}, {2, 13}}
	extraGroup3 = []Coord{{7, 4}, {7, 6}, {7, 8}, {7, 10}}
)

// labels48 is the 48-ring board's labelling, shared by 37 to 48 rings.
var labels48 = []int{3, 2, 1, 0, 1, 2, 3, 4}

func extended(name string, groups ...[]Coord) Layout {
	l := Layout{Name: name, LabelOffsets: labels48}
	l.Cells = append(l.Cells, layout37.Cells...)
	for _, g := range groups {
		l.Cells = append(l.Cells, g...)
	}
	return l
}

// StandardLayouts are the boards of the rulebook, by ring count.
var StandardLayouts = map[string]Layout{
	"37": {Name: "37", Cells: layout37.Cells, LabelOffsets: labels48},
	"40": extended("40", extraGroup1),
	"43": extended("43", extraGroup1, extraGroup2),
	"44": extended("44", extraGroup1, extraGroup3),
	"48": layout48,
	"61": layout61,
}

// StandardBoardNames lists the standard boards in ring-count order.
var StandardBoardNames = []string{"37", "40", "43", "44", "48", "61"}

var standardBoards = func() map[string]*Board {
	m := make(map[string]*Board)
	for name, l := range StandardLayouts {
		b, err := NewBoard(l)
		if err != nil {
			panic(err) // the tables above are wrong
		}
		m[name] = b
	}
	return m
}()

// StandardBoard returns one of the rulebook's boards by its ring count:
// "37", "40", "43", "44", "48" or "61".
func StandardBoard(name string) (*Board, error) {
	if b, ok := standardBoards[name]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("engine: unknown board %q (want one of %s)", name, strings.Join(StandardBoardNames, ", "))
}

// MustStandardBoard is StandardBoard for names known to be right; it panics
// otherwise.
func MustStandardBoard(name string) *Board {
	b, err := StandardBoard(name)
	if err != nil {
		panic(err)
	}
	return b
}

// NewBoard checks a layout and builds its board. The cells must be distinct,
// at most MaxCells, of one coordinate parity, connected, and labelled
// uniquely.
func NewBoard(l Layout) (*Board, error) {
	if l.Name == "" || strings.ContainsAny(l.Name, " \t\n") {
		return nil, fmt.Errorf("engine: layout name %q must be one word", l.Name)
	}
	if len(l.Cells) == 0 || len(l.Cells) > MaxCells {
		return nil, fmt.Errorf("engine: layout %s has %d cells; want 1 to %d", l.Name, len(l.Cells), MaxCells)
	}
	cs := append([]Coord(nil), l.Cells...)
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].X != cs[j].X {
			return cs[i].X < cs[j].X
		}
		return cs[i].Y < cs[j].Y
	})
	b := &Board{name: l.Name, n: len(cs), coords: cs, index: make(map[Coord]Cell, len(cs)), byName: make(map[string]Cell, len(cs))}
	parity := (cs[0].X + cs[0].Y) & 1
	lowest := map[int]int{}
	for i, c := range cs {
		if c.X < 0 || c.X >= 26 {
			return nil, fmt.Errorf("engine: layout %s: column %d of cell (%d,%d) is outside A–Z", l.Name, c.X, c.X, c.Y)
		}
		if (c.X+c.Y)&1 != parity {
			return nil, fmt.Errorf("engine: layout %s: cell (%d,%d) is not on the same hex grid as (%d,%d)", l.Name, c.X, c.Y, cs[0].X, cs[0].Y)
		}
		if _, dup := b.index[c]; dup {
			return nil, fmt.Errorf("engine: layout %s: cell (%d,%d) is listed twice", l.Name, c.X, c.Y)
		}
		b.index[c] = Cell(i)
		if y, ok := lowest[c.X]; !ok || c.Y < y {
			lowest[c.X] = c.Y
		}
	}
	b.labels = make([]string, len(cs))
	for i, c := range cs {
		off := lowest[c.X]
		if c.X < len(l.LabelOffsets) {
			off = l.LabelOffsets[c.X]
		}
		if (c.Y-off)&1 != 0 || c.Y < off {
			return nil, fmt.Errorf("engine: layout %s: cell (%d,%d) lies below or between the rows of column %c (row 1 at y=%d)", l.Name, c.X, c.Y, 'A'+c.X, off)
		}
		lab := string(rune('A'+c.X)) + strconv.Itoa((c.Y-off)/2+1)
		if _, dup := b.byName[lab]; dup {
			return nil, fmt.Errorf("engine: layout %s: label %s is used twice", l.Name, lab)
		}
		b.labels[i] = lab
		b.byName[lab] = Cell(i)
		b.all |= 1 << uint(i)
	}
	for i, c := range cs {
		for d := 0; d < 6; d++ {
			b.nbr[i][d] = b.lookup(c.Neighbour(d))
			b.jumpMid[i][d] = b.nbr[i][d]
			b.jumpTo[i][d] = b.lookup(c.Neighbour(d).Neighbour(d))
			if b.jumpTo[i][d] != NoCell {
				b.midMask[i][d] = bit(b.jumpMid[i][d])
				b.toMask[i][d] = bit(b.jumpTo[i][d])
			}
			if b.nbr[i][d] != NoCell {
				b.nbrMask[i] |= 1 << uint(b.nbr[i][d])
			}
		}
		for d := 0; d < 6; d++ {
			b.pair[i][d] = bit(b.nbr[i][d]) | bit(b.nbr[i][(d+1)%6])
		}
	}
	if reach := b.component(0, b.all); reach != b.all {
		missing := Cell(bits.TrailingZeros64(b.all &^ reach))
		return nil, fmt.Errorf("engine: layout %s is not connected: %s cannot be reached from %s", l.Name, b.labels[missing], b.labels[0])
	}
	return b, nil
}

func (b *Board) lookup(c Coord) Cell {
	if i, ok := b.index[c]; ok {
		return i
	}
	return NoCell
}

// bit is the one-cell set of c; the empty set for NoCell.
func bit(c Cell) uint64 {
	if c < 0 {
		return 0
	}
	return 1 << uint(c)
}

// component returns the connected part of set that contains start.
func (b *Board) component(start Cell, set uint64) uint64 {
	return b.closure(bit(start)&set, set)
}

// closure grows seed to everything connected to it inside set.
func (b *Board) closure(seed, set uint64) uint64 {
	reach := seed
	todo := seed
	for todo != 0 {
		c := bits.TrailingZeros64(todo)
		todo &= todo - 1
		add := b.nbrMask[c] & set &^ reach
		reach |= add
		todo |= add
	}
	return reach
}

// Name is the layout's name, e.g. "37".
func (b *Board) Name() string { return b.name }

// Len is the number of cells.
func (b *Board) Len() int { return b.n }

// Label returns the Boardspace label of c, e.g. "D4", or "-" for NoCell.
func (b *Board) Label(c Cell) string {
	if c < 0 || int(c) >= b.n {
		return "-"
	}
	return b.labels[c]
}

// Coord returns the doubled coordinates of c.
func (b *Board) Coord(c Cell) Coord { return b.coords[c] }

// CellAt returns the cell at a coordinate, or NoCell.
func (b *Board) CellAt(c Coord) Cell { return b.lookup(c) }

// ParseCell reads a label such as "D4" or "d4".
func (b *Board) ParseCell(s string) (Cell, error) {
	if c, ok := b.byName[strings.ToUpper(strings.TrimSpace(s))]; ok {
		return c, nil
	}
	return NoCell, fmt.Errorf("engine: %q is not a cell of the %s board", s, b.name)
}

// Neighbours returns the up to six cells next to c, in cyclic order.
func (b *Board) Neighbours(c Cell) []Cell {
	var out []Cell
	for _, n := range b.nbr[c] {
		if n != NoCell {
			out = append(out, n)
		}
	}
	return out
}

// Columns returns the number of columns (the highest column index + 1).
func (b *Board) Columns() int { return b.coords[b.n-1].X + 1 }

// Layout returns the board's layout data.
func (b *Board) Layout() Layout {
	l := Layout{Name: b.name, Cells: append([]Coord(nil), b.coords...)}
	for x := 0; x < b.Columns(); x++ {
		l.LabelOffsets = append(l.LabelOffsets, b.labelOff(x))
	}
	return l
}

func (b *Board) labelOff(x int) int {
	for i, c := range b.coords {
		if c.X == x {
			r, _ := strconv.Atoi(b.labels[i][1:])
			return c.Y - 2*(r-1)
		}
	}
	return 0
}

// String returns the board's name.
func (b *Board) String() string { return b.name }

// cellsOf lists the cells of a set in board order.
func cellsOf(set uint64) []Cell {
	out := make([]Cell, 0, bits.OnesCount64(set))
	for set != 0 {
		out = append(out, Cell(bits.TrailingZeros64(set)))
		set &= set - 1
	}
	return out
}

// labelsOf formats a set of cells as labels in board order.
func (b *Board) labelsOf(set uint64) []string {
	out := make([]string, 0, bits.OnesCount64(set))
	for _, c := range cellsOf(set) {
		out = append(out, b.labels[c])
	}
	return out
}

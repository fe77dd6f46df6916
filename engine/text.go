package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// String returns the position's text form (see the package doc), e.g.
//
//	37 oooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 6,8,10 0,0,0 0,0,0 0
func (p Position) String() string {
	if p.b == nil {
		return "<no position>"
	}
	var sb strings.Builder
	sb.WriteString(p.Variant())
	sb.WriteByte(' ')
	sb.WriteString(p.cellsText(p.rings, p.marbles))
	fmt.Fprintf(&sb, " %s %s %s %d", counts(p.pool), counts(p.caps[0]), counts(p.caps[1]), p.toMove)
	// Earlier positions that still count for repetition, oldest first.
	var hs []*histNode
	for h := p.hist; h != nil; h = h.prev {
		hs = append(hs, h)
	}
	for i := len(hs) - 1; i >= 0; i-- {
		k := hs[i].key
		fmt.Fprintf(&sb, " ~%s,%s,%s,%d", p.cellsText(k.rings, k.marbles), counts(k.caps[0]), counts(k.caps[1]), k.toMove)
	}
	return sb.String()
}

func (p Position) cellsText(rings uint64, marbles [3]uint64) string {
	q := Position{b: p.b, rings: rings, marbles: marbles}
	buf := make([]byte, 0, p.b.n+p.b.Columns())
	for c := 0; c < p.b.n; c++ {
		if c > 0 && p.b.coords[c].X != p.b.coords[c-1].X {
			buf = append(buf, '/')
		}
		buf = append(buf, byte(q.At(Cell(c))))
	}
	return string(buf)
}

func counts(a [3]int8) string {
	return fmt.Sprintf("%d,%d,%d", a[0], a[1], a[2])
}

// ParsePosition reads a position's text form on one of the standard boards.
func ParsePosition(s string) (Position, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return Position{}, fmt.Errorf("engine: empty position text")
	}
	b, r, err := ParseVariant(f[0])
	if err != nil {
		return Position{}, err
	}
	return ParsePositionOn(b, r, s)
}

// ParsePositionOn reads a position's text form on board b with rules r. The
// text's variant must name them. It checks that the position could occur:
// every marble is accounted for (pool + board + captures = the marble set).
func ParsePositionOn(b *Board, r *Rules, s string) (Position, error) {
	fail := func(format string, args ...any) (Position, error) {
		return Position{}, fmt.Errorf("engine: bad position %q: %s", s, fmt.Sprintf(format, args...))
	}
	f := strings.Fields(s)
	if len(f) < 6 {
		return fail("want variant, cells, pool, two captures and the player to move")
	}
	if f[0] != Variant(b, r) {
		return fail("variant %s is not %s", f[0], Variant(b, r))
	}
	p := Position{b: b, r: r}
	var err error
	if p.rings, p.marbles, err = parseCells(b, f[1]); err != nil {
		return fail("cells: %v", err)
	}
	if p.pool, err = parseCounts(f[2]); err != nil {
		return fail("pool: %v", err)
	}
	for i := 0; i < 2; i++ {
		if p.caps[i], err = parseCounts(f[3+i]); err != nil {
			return fail("captures of player %d: %v", i, err)
		}
	}
	switch f[5] {
	case "0", "1":
		p.toMove = int8(f[5][0] - '0')
	default:
		return fail("player to move is %q; want 0 or 1", f[5])
	}
	if err := p.conserved(); err != nil {
		return fail("%v", err)
	}
	for _, h := range f[6:] {
		parts := strings.Split(strings.TrimPrefix(h, "~"), ",")
		if !strings.HasPrefix(h, "~") || len(parts) != 8 {
			return fail("history entry %q: want ~cells,w,g,b,w,g,b,player", h)
		}
		var q Position = p
		if q.rings, q.marbles, err = parseCells(b, parts[0]); err != nil {
			return fail("history entry %q: %v", h, err)
		}
		for i := 0; i < 2; i++ {
			if q.caps[i], err = parseCounts(strings.Join(parts[1+3*i:4+3*i], ",")); err != nil {
				return fail("history entry %q: %v", h, err)
			}
		}
		if parts[7] != "0" && parts[7] != "1" {
			return fail("history entry %q: player is %q", h, parts[7])
		}
		q.toMove = int8(parts[7][0] - '0')
		if q.rings != p.rings || !p.poolEmpty() {
			return fail("history entry %q cannot recur: only positions with the same rings and an empty pool can", h)
		}
		if err := q.conserved(); err != nil {
			return fail("history entry %q: %v", h, err)
		}
		p.hist = &histNode{key: q.key(), prev: p.hist}
	}
	p.hash = p.zobrist()
	p.edge = b.edges(p.rings)
	p.unsettled = p.rings&^b.closure(p.vacant(), p.rings) != 0
	p.result = p.evaluate()
	return p, nil
}

// conserved checks that every marble of the set is in the pool, on the
// board or captured.
func (p *Position) conserved() error {
	for _, c := range Colors {
		n := int(p.pool[c]) + int(p.caps[0][c]) + int(p.caps[1][c]) + popcount(p.marbles[c])
		if n != p.r.Pool[c] {
			return fmt.Errorf("%d %s marbles in all; the %s set has %d", n, c, p.r.Name, p.r.Pool[c])
		}
	}
	return nil
}

func parseCells(b *Board, s string) (rings uint64, marbles [3]uint64, err error) {
	c := 0
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '/' {
			if c == 0 || c >= b.n || b.coords[c].X == b.coords[c-1].X {
				return 0, marbles, fmt.Errorf("'/' at character %d is not between columns", i+1)
			}
			continue
		}
		if c >= b.n {
			return 0, marbles, fmt.Errorf("more than the board's %d cells", b.n)
		}
		if c > 0 && b.coords[c].X != b.coords[c-1].X && (i == 0 || s[i-1] != '/') && strings.Contains(s, "/") {
			return 0, marbles, fmt.Errorf("column %c starts at character %d without a '/'", 'A'+b.coords[c].X, i+1)
		}
		switch Content(ch) {
		case NoRing:
		case Vacant:
			rings |= bit(Cell(c))
		case WhiteMarble, GreyMarble, BlackMarble:
			col, _ := Content(ch).Marble()
			rings |= bit(Cell(c))
			marbles[col] |= bit(Cell(c))
		default:
			return 0, marbles, fmt.Errorf("%q at character %d is not one of . o w g b", ch, i+1)
		}
		c++
	}
	if c != b.n {
		return 0, marbles, fmt.Errorf("%d cells; the %s board has %d", c, b.name, b.n)
	}
	return rings, marbles, nil
}

func parseCounts(s string) ([3]int8, error) {
	var out [3]int8
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return out, fmt.Errorf("%q: want three counts white,grey,black", s)
	}
	for i, part := range parts {
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 || n > 99 {
			return out, fmt.Errorf("%q: %q is not a count", s, part)
		}
		out[i] = int8(n)
	}
	return out, nil
}

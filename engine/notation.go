package engine

import (
	"encoding/json"
	"fmt"
	"strings"
)

// FormatTurn writes t in the project's notation (see the package doc):
//
//	WD4-A1    white marble from the pool on D4, ring A1 removed
//	GC2       grey marble on C2, no ring free to remove
//	*BE5-G1   black marble from the mover's captures (pool empty)
//	C3xE4xE6  capture chain: C3 jumps to E4, then to E6
//	pass      no move possible
func FormatTurn(b *Board, t Turn) string {
	var sb strings.Builder
	switch t.Kind {
	case Place:
		if t.From == FromCaptures {
			sb.WriteByte('*')
		}
		sb.WriteString(strings.ToUpper(t.Color.Letter()))
		sb.WriteString(b.Label(t.At))
		if t.Remove != NoCell {
			sb.WriteByte('-')
			sb.WriteString(b.Label(t.Remove))
		}
	case Capture:
		for i := 0; i < int(t.n); i++ {
			if i > 0 {
				sb.WriteByte('x')
			}
			sb.WriteString(b.Label(t.path[i]))
		}
	case Pass:
		sb.WriteString("pass")
	default:
		sb.WriteString("?")
	}
	return sb.String()
}

// ParseTurn reads a turn written by FormatTurn, in any case. It checks the
// notation and the cells, not the rules: use Position.Play for that.
func ParseTurn(b *Board, s string) (Turn, error) {
	orig := s
	s = strings.TrimSpace(s)
	fail := func(why string) (Turn, error) {
		return Turn{}, fmt.Errorf("engine: cannot read turn %q: %s", orig, why)
	}
	if strings.EqualFold(s, "pass") {
		return PassTurn(), nil
	}
	// label reads a cell label (letter, digits) at the front of s.
	label := func(s string) (Cell, string, error) {
		i := 1
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 1 || !isLetter(s[0]) {
			return NoCell, s, fmt.Errorf("want a cell like D4 at %q", s)
		}
		c, err := b.ParseCell(s[:i])
		if err != nil {
			return NoCell, s, fmt.Errorf("%s is not a cell of the %s board", strings.ToUpper(s[:i]), b.Name())
		}
		return c, s[i:], nil
	}
	if len(s) < 2 {
		return fail("too short")
	}
	from := FromPool
	if s[0] == '*' {
		from, s = FromCaptures, s[1:]
	}
	if len(s) >= 2 && isLetter(s[0]) && isLetter(s[1]) || from == FromCaptures {
		col, err := ParseColor(s[:1])
		if err != nil {
			return fail("a placement starts with W, G or B")
		}
		at, rest, err := label(s[1:])
		if err != nil {
			return fail(err.Error())
		}
		rem := NoCell
		if rest != "" {
			if rest[0] != '-' {
				return fail("the removed ring follows a '-'")
			}
			if rem, rest, err = label(rest[1:]); err != nil {
				return fail(err.Error())
			}
			if rest != "" {
				return fail("unexpected " + rest)
			}
		}
		return PlaceTurn(col, from, at, rem), nil
	}
	var path []Cell
	for {
		c, rest, err := label(s)
		if err != nil {
			return fail(err.Error())
		}
		path = append(path, c)
		if rest == "" {
			break
		}
		if rest[0] != 'x' && rest[0] != 'X' {
			return fail("jumps are separated by 'x'")
		}
		if len(path) == MaxPath {
			return fail("chain too long")
		}
		s = rest[1:]
	}
	if len(path) < 2 {
		return fail("a capture needs at least one jump")
	}
	return CaptureTurn(path...), nil
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

// MoveObject is the referee contract's JSON move object:
//
//	{"kind":"place","color":"w","at":"D4","remove":"A1"|null,"claimed":["B2"],"from":"pool|captures"}
//	{"kind":"capture","path":["C3","E4","E6"]}
//	{"kind":"pass"}
type MoveObject struct {
	Kind    string   // "place", "capture" or "pass"
	Color   string   // place: "w", "g" or "b"
	At      string   // place: the ring the marble went on
	Remove  string   // place: the ring removed; "" when none was free
	Claimed []string // place: the rings claimed by isolation
	From    string   // place: "pool" or "captures"
	Path    []string // capture: the jumping marble's cells
}

// NewMoveObject describes turn t on b, which claimed the given rings.
func NewMoveObject(b *Board, t Turn, claimed []Cell) MoveObject {
	m := MoveObject{Kind: t.Kind.String()}
	switch t.Kind {
	case Place:
		m.Color, m.At, m.From = t.Color.Letter(), b.Label(t.At), t.From.String()
		if t.Remove != NoCell {
			m.Remove = b.Label(t.Remove)
		}
		m.Claimed = make([]string, 0, len(claimed))
		for _, c := range claimed {
			m.Claimed = append(m.Claimed, b.Label(c))
		}
	case Capture:
		for i := 0; i < int(t.n); i++ {
			m.Path = append(m.Path, b.Label(t.path[i]))
		}
	}
	return m
}

type placeJSON struct {
	Kind    string   `json:"kind"`
	Color   string   `json:"color"`
	At      string   `json:"at"`
	Remove  *string  `json:"remove"`
	Claimed []string `json:"claimed"`
	From    string   `json:"from"`
}

type captureJSON struct {
	Kind string   `json:"kind"`
	Path []string `json:"path"`
}

// MarshalJSON writes the contract's shape for each kind.
func (m MoveObject) MarshalJSON() ([]byte, error) {
	switch m.Kind {
	case "place":
		p := placeJSON{Kind: m.Kind, Color: m.Color, At: m.At, Claimed: m.Claimed, From: m.From}
		if p.Claimed == nil {
			p.Claimed = []string{}
		}
		if m.Remove != "" {
			r := m.Remove
			p.Remove = &r
		}
		return json.Marshal(p)
	case "capture":
		return json.Marshal(captureJSON{Kind: m.Kind, Path: m.Path})
	}
	return json.Marshal(struct {
		Kind string `json:"kind"`
	}{m.Kind})
}

// UnmarshalJSON reads any of the contract's shapes.
func (m *MoveObject) UnmarshalJSON(data []byte) error {
	var v struct {
		Kind    string   `json:"kind"`
		Color   string   `json:"color"`
		At      string   `json:"at"`
		Remove  *string  `json:"remove"`
		Claimed []string `json:"claimed"`
		From    string   `json:"from"`
		Path    []string `json:"path"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*m = MoveObject{Kind: v.Kind, Color: v.Color, At: v.At, Claimed: v.Claimed, From: v.From, Path: v.Path}
	if v.Remove != nil {
		m.Remove = *v.Remove
	}
	return nil
}

// Turn converts the object back to a turn on b.
func (m MoveObject) Turn(b *Board) (Turn, error) {
	fail := func(format string, args ...any) (Turn, error) {
		return Turn{}, fmt.Errorf("engine: bad move object: "+format, args...)
	}
	switch m.Kind {
	case "pass":
		return PassTurn(), nil
	case "capture":
		if len(m.Path) < 2 || len(m.Path) > MaxPath {
			return fail("a capture path has 2 to %d cells, not %d", MaxPath, len(m.Path))
		}
		path := make([]Cell, len(m.Path))
		for i, l := range m.Path {
			c, err := b.ParseCell(l)
			if err != nil {
				return fail("path: %v", err)
			}
			path[i] = c
		}
		return CaptureTurn(path...), nil
	case "place":
		col, err := ParseColor(m.Color)
		if err != nil {
			return fail("color: %v", err)
		}
		at, err := b.ParseCell(m.At)
		if err != nil {
			return fail("at: %v", err)
		}
		rem := NoCell
		if m.Remove != "" {
			if rem, err = b.ParseCell(m.Remove); err != nil {
				return fail("remove: %v", err)
			}
		}
		from := FromPool
		switch m.From {
		case "", "pool":
		case "captures":
			from = FromCaptures
		default:
			return fail("from is %q; want pool or captures", m.From)
		}
		return PlaceTurn(col, from, at, rem), nil
	}
	return fail("kind is %q; want place, capture or pass", m.Kind)
}

package stream

import (
	"html"
	"slices"
	"strings"
)

// Views are sent to browsers as changes, not whole. A rendered view is a
// root element in which some elements carry a data-k key (each cell of the
// board, the header, the banners, each player and its clock, the pool, the
// move list, each card of the tournament view): a tree of keyed elements.
// An element's skeleton is its tag, its attributes' names and its content
// with its keyed descendants cut out. From one view to the next, for each
// keyed element (the root included) that changed:
//
//   - same skeleton: its changed attributes are set, and its keyed
//     descendants are compared in turn;
//   - same start tag and the old content a prefix of the new (a move list
//     that grew): the new content is appended;
//   - otherwise the element is replaced.
//
// If the root itself cannot be patched (another board layout, a board
// added to the tournament), or for a new or reconnecting stream or one
// that skipped a view, viewers get the whole view.
//
// The scoreboard renders its own HTML, so reading it is a scan of tags:
// every string from MQTT is escaped (no '<' in text or attribute values),
// attribute values are double-quoted and escaped with html.EscapeString,
// and the views use no void HTML elements (every element is closed, or
// self-closed in SVG).

// Node is one keyed element (or the root) of a rendered view.
type Node struct {
	key   string
	html  string   // the whole element
	tag   string   // its name
	attrs []string // name, value (unescaped), …
	inner string   // its content ("" when self-closed)
	skel  string   // tag, attribute names, content with the keyed elements as \x00key\x00
	kids  []*Node
}

const partAttr = ` data-k="`

// Parse reads a rendered view; nil if it is not one element.
func Parse(h string) *Node {
	n, end := parseNode(h, 0)
	if n == nil || end != len(h) {
		return nil
	}
	return n
}

// parseNode reads the element starting at h[start] ('<'): the Node and the
// index just past it, or nil if its tags do not balance.
func parseNode(h string, start int) (*Node, int) {
	if start >= len(h) || h[start] != '<' {
		return nil, -1
	}
	gt := strings.IndexByte(h[start:], '>')
	if gt < 0 {
		return nil, -1
	}
	gt += start
	n := &Node{}
	n.tag, n.attrs = parseTag(h[start+1 : gt])
	for i := 0; i+1 < len(n.attrs); i += 2 {
		if n.attrs[i] == "data-k" {
			n.key = n.attrs[i+1]
		}
	}
	var skel strings.Builder
	skel.WriteString(n.tag)
	for i := 0; i+1 < len(n.attrs); i += 2 {
		skel.WriteString(" " + n.attrs[i])
	}
	skel.WriteByte('>')
	if h[gt-1] == '/' {
		n.html, n.skel = h[start:gt+1], skel.String()
		return n, gt + 1
	}
	depth := 0
	at := gt + 1 // skeleton text written up to here
	for i := gt + 1; i < len(h); {
		lt := strings.IndexByte(h[i:], '<')
		if lt < 0 {
			return nil, -1
		}
		lt += i
		if strings.HasPrefix(h[lt:], "<!--") {
			e := strings.Index(h[lt:], "-->")
			if e < 0 {
				return nil, -1
			}
			i = lt + e + 3
			continue
		}
		tgt := strings.IndexByte(h[lt:], '>')
		if tgt < 0 {
			return nil, -1
		}
		tgt += lt
		switch {
		case h[lt+1] == '/':
			if depth == 0 {
				skel.WriteString(h[at:lt])
				n.html, n.inner, n.skel = h[start:tgt+1], h[gt+1:lt], skel.String()
				return n, tgt + 1
			}
			depth--
			i = tgt + 1
		case strings.Contains(h[lt:tgt], partAttr):
			kid, end := parseNode(h, lt)
			if kid == nil {
				return nil, -1
			}
			skel.WriteString(h[at:lt])
			skel.WriteString("\x00" + kid.key + "\x00")
			n.kids = append(n.kids, kid)
			i, at = end, end
		default:
			if h[tgt-1] != '/' {
				depth++
			}
			i = tgt + 1
		}
	}
	return nil, -1
}

// parseTag reads "name a="x" b="y"" (the inside of a start tag as the
// scoreboard writes it) into the name and attribute pairs.
func parseTag(t string) (name string, attrs []string) {
	t = strings.TrimSuffix(t, "/")
	name, rest, _ := strings.Cut(t, " ")
	for {
		rest = strings.TrimLeft(rest, " ")
		if rest == "" {
			return name, attrs
		}
		eq := strings.Index(rest, `="`)
		if eq < 0 {
			return name, append(attrs, rest, "")
		}
		end := strings.IndexByte(rest[eq+2:], '"')
		if end < 0 {
			return name, attrs
		}
		attrs = append(attrs, rest[:eq], html.UnescapeString(rest[eq+2:eq+2+end]))
		rest = rest[eq+2+end+1:]
	}
}

// patch is the change from one view to the next, as the "patch" event
// carries it: per keyed element ("" is the root), attributes to set,
// content to append, or the element's new HTML.
type Patch struct {
	Attrs   [][2]any    `json:"attrs"`   // [key, [name, value, …]]
	Appends [][2]string `json:"appends"` // [key, html]
	Parts   [][2]string `json:"parts"`   // [key, html]
}

// Diff returns the patch from a to b, or ok false if b must be sent
// whole.
func Diff(a, b *Node) (p Patch, ok bool) {
	if a == nil || b == nil || a.skel != b.skel {
		return p, false
	}
	p.diff(a, b)
	return p, true
}

func (p *Patch) diff(a, b *Node) {
	switch {
	case a.html == b.html:
	case a.skel == b.skel && len(a.kids) == len(b.kids):
		if !slices.Equal(a.attrs, b.attrs) {
			p.Attrs = append(p.Attrs, [2]any{b.key, b.attrs})
		}
		for i := range b.kids {
			p.diff(a.kids[i], b.kids[i])
		}
	case a.inner != "" && strings.HasPrefix(b.inner, a.inner) &&
		a.html[:len(a.html)-len(a.inner)-len(a.tag)-3] == b.html[:len(b.html)-len(b.inner)-len(b.tag)-3]:
		p.Appends = append(p.Appends, [2]string{b.key, b.inner[len(a.inner):]})
	default:
		p.Parts = append(p.Parts, [2]string{b.key, b.html})
	}
}

// Key is the element's data-k key ("" for the root).
func (n *Node) Key() string { return n.key }

// HTML is the whole element.
func (n *Node) HTML() string { return n.html }

// Kids are the keyed elements directly under this one, in order.
func (n *Node) Kids() []*Node { return n.kids }

package scoreboard

import (
	"html"
	"strings"
)

// Views are sent to browsers as changes, not whole. A rendered view is a
// root element whose parts carry a data-k key (each cell of the board, the
// header, the banners, each player, the pool, the moves, each card of the
// tournament view); the rest of it, with the parts cut out, is its
// skeleton. When a view changes and its skeleton does not (the same board,
// the same set of parts), viewers get a patch: the root element's
// attributes and the parts whose HTML changed. Otherwise, and for a new or
// reconnecting stream or one that skipped a view, they get the whole view.
//
// The scoreboard renders its own HTML, so finding a part's end is a scan
// of tags: every string from MQTT is escaped (no '<' in text or
// attributes), and the views use no void HTML elements (every element is
// closed, or self-closed in SVG).

// split is a rendered view cut into its root tag, skeleton and parts.
type split struct {
	root  []string // the root element's attributes, name then (unescaped) value
	skel  string   // the root's tag name, attribute names, and the HTML between parts, with the parts' keys
	keys  []string
	parts []string // each part's HTML (substrings of the view)
}

const partAttr = ` data-k="`

// splitView cuts a rendered view (one root element) into parts. A view it
// cannot read (which the scoreboard never renders) has no parts and a
// skeleton of the whole HTML, so that it is only ever sent whole.
func splitView(h string) split {
	rootEnd := strings.IndexByte(h, '>')
	if !strings.HasPrefix(h, "<") || rootEnd < 0 {
		return split{skel: h}
	}
	var sp split
	var skel strings.Builder
	name, attrs := parseTag(h[1:rootEnd])
	skel.WriteString(name)
	for i := 0; i+1 < len(attrs); i += 2 {
		skel.WriteString(" " + attrs[i])
	}
	skel.WriteByte('>')
	sp.root = attrs
	at := rootEnd + 1
	for {
		i := strings.Index(h[at:], partAttr)
		if i < 0 {
			break
		}
		i += at
		start := strings.LastIndexByte(h[:i], '<')
		kEnd := strings.IndexByte(h[i+len(partAttr):], '"')
		if start < at || kEnd < 0 {
			return split{skel: h}
		}
		key := h[i+len(partAttr) : i+len(partAttr)+kEnd]
		end := elemEnd(h, start)
		if end < 0 {
			return split{skel: h}
		}
		skel.WriteString(h[at:start])
		skel.WriteString("\x00" + key + "\x00")
		sp.keys = append(sp.keys, key)
		sp.parts = append(sp.parts, h[start:end])
		at = end
	}
	skel.WriteString(h[at:])
	sp.skel = skel.String()
	return sp
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

// elemEnd returns the index just past the element that starts at h[start]
// ('<'), or -1 if its tags do not balance.
func elemEnd(h string, start int) int {
	depth := 0
	for i := start; i < len(h); {
		lt := strings.IndexByte(h[i:], '<')
		if lt < 0 {
			return -1
		}
		lt += i
		if strings.HasPrefix(h[lt:], "<!--") {
			e := strings.Index(h[lt:], "-->")
			if e < 0 {
				return -1
			}
			i = lt + e + 3
			continue
		}
		gt := strings.IndexByte(h[lt:], '>')
		if gt < 0 {
			return -1
		}
		gt += lt
		switch {
		case h[lt+1] == '/':
			depth--
		case h[gt-1] != '/':
			depth++
		}
		i = gt + 1
		if depth == 0 {
			return i
		}
		if depth < 0 {
			return -1
		}
	}
	return -1
}

// patchOf returns the change from a to b, or ok false if b must be sent
// whole (its skeleton differs).
func patchOf(a, b split) (changed []int, ok bool) {
	if a.skel != b.skel || len(a.parts) != len(b.parts) || len(b.parts) == 0 {
		return nil, false
	}
	for i := range b.parts {
		if a.parts[i] != b.parts[i] {
			changed = append(changed, i)
		}
	}
	return changed, true
}

// applyPatch rebuilds the HTML of b from a's parts and the patch, as a
// browser does; for tests.
func applyPatch(a split, root []string, keys, parts []string) string {
	var sb strings.Builder
	name, _, _ := strings.Cut(a.skel, " ")
	name, _, _ = strings.Cut(name, ">")
	sb.WriteString("<" + name)
	for i := 0; i+1 < len(root); i += 2 {
		sb.WriteString(" " + root[i] + `="` + html.EscapeString(root[i+1]) + `"`)
	}
	sb.WriteString(">")
	byKey := map[string]string{}
	for i, k := range a.keys {
		byKey[k] = a.parts[i]
	}
	for i, k := range keys {
		byKey[k] = parts[i]
	}
	_, rest, _ := strings.Cut(a.skel, ">")
	for {
		i := strings.IndexByte(rest, 0)
		if i < 0 {
			sb.WriteString(rest)
			return sb.String()
		}
		sb.WriteString(rest[:i])
		j := strings.IndexByte(rest[i+1:], 0)
		sb.WriteString(byKey[rest[i+1:i+1+j]])
		rest = rest[i+1+j+1:]
	}
}

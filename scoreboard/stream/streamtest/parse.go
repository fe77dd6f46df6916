// Package streamtest is the browser's side of package stream, for tests:
// it reads a view's HTML as the page's script sees it (Parse) and applies
// a patch to it as the script does (Apply). The scoreboard itself never
// reads its HTML back; only tests import this package
// (scoreboard.TestNoHTMLReadOnThePatchPath).
//
// Layer: base. May import: base.
package streamtest

import (
	"html"
	"strings"

	"github.com/zertzboard/zertzboard/scoreboard/stream"
)

// Parse reads a view: its keyed tree, as a browser would find it by the
// data-k attributes; nil if it is not one element whose tags balance, or
// not written as the scoreboard writes views (attribute values
// double-quoted and escaped with html.EscapeString, no void elements,
// every element closed or self-closed in SVG, no comments).
func Parse(h string) *stream.Node {
	var b stream.Builder
	end := parseNode(&b, h, 0, true)
	if end != len(h) {
		return nil
	}
	n, _ := b.Finish()
	if n == nil || n.HTML() != h {
		return nil
	}
	return n
}

// parseNode reads the keyed element (or the root) starting at h[start]
// into b and returns the index just past it, or -1 if its tags do not
// balance.
func parseNode(b *stream.Builder, h string, start int, root bool) int {
	if start >= len(h) || h[start] != '<' {
		return -1
	}
	gt := strings.IndexByte(h[start:], '>')
	if gt < 0 || h[start+gt-1] == '/' {
		return -1 // a keyed element or a root is never self-closed
	}
	gt += start
	tag, attrs := parseTag(h[start+1 : gt])
	if root {
		b.Root(tag, attrs...)
	} else {
		b.Open(tag, attrs...)
	}
	depth := 0
	at := gt + 1 // content copied up to here
	for i := gt + 1; i < len(h); {
		lt := strings.IndexByte(h[i:], '<')
		if lt < 0 {
			return -1
		}
		lt += i
		tgt := strings.IndexByte(h[lt:], '>')
		if tgt < 0 {
			return -1
		}
		tgt += lt
		switch {
		case h[lt+1] == '/':
			if depth == 0 {
				b.WriteString(h[at:lt])
				if h[lt+2:tgt] != tag {
					return -1
				}
				b.Close()
				return tgt + 1
			}
			depth--
			i = tgt + 1
		case strings.Contains(h[lt:tgt], ` data-k="`):
			b.WriteString(h[at:lt])
			end := parseNode(b, h, lt, false)
			if end < 0 {
				return -1
			}
			i, at = end, end
		default:
			if h[tgt-1] != '/' {
				depth++
			}
			i = tgt + 1
		}
	}
	return -1
}

// parseTag reads `name a="x" b="y"` (the inside of a start tag as the
// scoreboard writes it) into the name and attribute pairs.
func parseTag(t string) (name string, attrs []string) {
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

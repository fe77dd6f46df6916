package record

import (
	"strings"
)

// sgfProp is one SGF property: its identifier and values, e.g. P0[1 RtoB …].
type sgfProp struct {
	ID     string
	Values []string
	Line   int // the line of the first value
}

// sgfNode is one node of the main line; Index 0 is the root.
type sgfNode struct {
	Index int
	Line  int
	Props []sgfProp
}

// parseSGF splits SGF text into the nodes of its single game tree.
// Boardspace writes one game with no variations, so a variation is an error
// rather than something to choose from.
func parseSGF(text string) ([]sgfNode, error) {
	p := &sgfParser{s: text, line: 1}
	return p.tree()
}

type sgfParser struct {
	s    string
	i    int
	line int
}

func (p *sgfParser) fail(input, msg string) error {
	return &SyntaxError{Format: "SGF", Line: p.line, Node: -1, Input: input, Msg: msg}
}

// skipSpace skips white space, counting lines.
func (p *sgfParser) skipSpace() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '\n':
			p.line++
		case ' ', '\t', '\r', '\v', '\f':
		default:
			return
		}
		p.i++
	}
}

func (p *sgfParser) tree() ([]sgfNode, error) {
	p.skipSpace()
	if !strings.HasPrefix(p.s[p.i:], "(") {
		return nil, p.fail(snippet(p.s[p.i:]), "an SGF game starts with \"(;\"")
	}
	p.i++
	var nodes []sgfNode
	for {
		p.skipSpace()
		if p.i >= len(p.s) {
			return nil, p.fail("", "the game tree is not closed with ')'")
		}
		switch c := p.s[p.i]; c {
		case ';':
			p.i++
			n, err := p.node(len(nodes))
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, n)
		case ')':
			p.i++
			if len(nodes) == 0 {
				return nil, p.fail("()", "the game tree has no nodes")
			}
			return nodes, nil
		case '(':
			return nil, p.fail(snippet(p.s[p.i:]), "SGF variations are not supported in game records")
		default:
			return nil, p.fail(snippet(p.s[p.i:]), "want ';' to start a node")
		}
	}
}

// node reads the properties of one node, up to the next ';', '(' or ')'.
func (p *sgfParser) node(index int) (sgfNode, error) {
	n := sgfNode{Index: index, Line: p.line}
	for {
		p.skipSpace()
		if p.i >= len(p.s) {
			return n, nil
		}
		c := p.s[p.i]
		if c == ';' || c == '(' || c == ')' {
			return n, nil
		}
		start := p.i
		for p.i < len(p.s) && isIdentByte(p.s[p.i]) {
			p.i++
		}
		if p.i == start {
			return n, p.fail(snippet(p.s[p.i:]), "want a property such as P0[...]")
		}
		prop := sgfProp{ID: p.s[start:p.i]}
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != '[' {
			return n, p.fail(prop.ID, "property has no [value]")
		}
		prop.Line = p.line
		for p.i < len(p.s) && p.s[p.i] == '[' {
			v, err := p.value()
			if err != nil {
				return n, err
			}
			prop.Values = append(prop.Values, v)
			p.skipSpace()
		}
		n.Props = append(n.Props, prop)
	}
}

// value reads one bracketed value; '\' escapes the next character.
func (p *sgfParser) value() (string, error) {
	startLine := p.line
	p.i++ // '['
	var sb strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == ']':
			p.i++
			return sb.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			p.i++
			c = p.s[p.i]
		}
		if c == '\n' {
			p.line++
		}
		sb.WriteByte(c)
		p.i++
	}
	p.line = startLine
	return "", p.fail(snippet(sb.String()), "value is not closed with ']'")
}

// isIdentByte accepts SGF identifiers plus Boardspace's "P-1".
func isIdentByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-'
}

// snippet shortens input for an error message.
func snippet(s string) string {
	const max = 40
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}

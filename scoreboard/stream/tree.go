package stream

import "html"

// Node is one keyed element (or the root) of a view: its tag, its
// attributes, its HTML, and the keyed elements inside it. A view's nodes
// are made by a Builder as the view is written, never by reading HTML
// back.
type Node struct {
	key   string
	tag   string
	attrs []string // name, value (unescaped), …
	html  string   // the whole element
	open  int      // the length of its start tag in html
	// between is the content around the keyed descendants: the text
	// before the first, between each two, after the last (len(kids)+1
	// pieces, all of it when there are none).
	between []string
	kids    []*Node

	// While the view is written: offsets in the Builder's buffer.
	start, content, end int
	marks               []int // start and end of each kid, in order
}

// Key is the element's data-k key ("" for the root).
func (n *Node) Key() string { return n.key }

// Tag is the element's name.
func (n *Node) Tag() string { return n.tag }

// Attrs are the element's attributes in order: name, value (unescaped),
// name, value, …
func (n *Node) Attrs() []string { return n.attrs }

// HTML is the whole element.
func (n *Node) HTML() string { return n.html }

// StartTag is the element's start tag.
func (n *Node) StartTag() string { return n.html[:n.open] }

// Inner is the element's content, its keyed descendants included.
func (n *Node) Inner() string { return n.html[n.open : len(n.html)-len(n.tag)-3] }

// Kids are the keyed elements directly under this one, in order.
func (n *Node) Kids() []*Node { return n.kids }

// Between is the content around the keyed elements directly under this
// one: len(Kids())+1 pieces, the text before the first kid, between each
// two, and after the last.
func (n *Node) Between() []string { return n.between }

// A Builder writes a view's HTML and makes its keyed tree as it goes.
// The root and every keyed element are opened with Open (or Root) and
// closed with Close; everything else is written as it is with
// WriteString, Write, WriteByte or fmt.Fprintf, and must be balanced HTML
// with no keyed element in it (no data-k attribute). So the tree is what
// the view says it is, and the patches (Diff) never read HTML.
//
// A Builder is used once: Finish returns the root.
type Builder struct {
	buf   []byte
	stack []*Node
	root  *Node
	bad   string // the first misuse, reported by Finish
	// Nodes and attributes are carved from chunks, so that a view of a
	// hundred keyed elements costs a few allocations, not hundreds.
	nodes []Node
	attrs []string
}

// keyAttr is the attribute that keys an element.
const keyAttr = "data-k"

// Grow makes room for n more bytes.
func (b *Builder) Grow(n int) {
	if cap(b.buf)-len(b.buf) < n {
		nb := make([]byte, len(b.buf), 2*cap(b.buf)+n)
		copy(nb, b.buf)
		b.buf = nb
	}
}

// Write appends p as it is (HTML, not text: escape what is text).
func (b *Builder) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// WriteString appends s as it is (HTML, not text).
func (b *Builder) WriteString(s string) (int, error) {
	b.buf = append(b.buf, s...)
	return len(s), nil
}

// WriteByte appends c.
func (b *Builder) WriteByte(c byte) error {
	b.buf = append(b.buf, c)
	return nil
}

// Len is the number of bytes written so far.
func (b *Builder) Len() int { return len(b.buf) }

// Root opens the view's root element: the first thing written. Its key is
// "" unless attrs give it one.
func (b *Builder) Root(tag string, attrs ...string) {
	if b.root != nil || len(b.buf) > 0 {
		b.fail("the root opened after something was written")
		return
	}
	b.root = b.open(tag, attrs)
}

// Open opens a keyed element inside the one open: attrs are its
// attributes' names and values (not escaped: Open escapes them), in the
// order they are written, data-k among them.
func (b *Builder) Open(tag string, attrs ...string) {
	if len(b.stack) == 0 {
		b.fail("<" + tag + "> opened outside the root")
		return
	}
	n := b.open(tag, attrs)
	if n.key == "" {
		b.fail("<" + tag + "> opened without a " + keyAttr)
	}
}

func (b *Builder) open(tag string, attrs []string) *Node {
	if len(attrs)%2 != 0 {
		b.fail("<" + tag + "> with an attribute and no value")
		attrs = attrs[:len(attrs)-1]
	}
	if len(b.nodes) == cap(b.nodes) {
		b.nodes = make([]Node, 0, 64)
	}
	b.nodes = append(b.nodes, Node{tag: tag})
	n := &b.nodes[len(b.nodes)-1]
	if len(b.attrs)+len(attrs) > cap(b.attrs) {
		b.attrs = make([]string, 0, max(256, len(attrs)))
	}
	at := len(b.attrs)
	b.attrs = append(b.attrs, attrs...)
	n.attrs = b.attrs[at:len(b.attrs):len(b.attrs)]
	n.start = len(b.buf)
	b.buf = append(b.buf, '<')
	b.buf = append(b.buf, tag...)
	for i := 0; i+1 < len(attrs); i += 2 {
		if attrs[i] == keyAttr {
			n.key = attrs[i+1]
		}
		b.buf = append(b.buf, ' ')
		b.buf = append(b.buf, attrs[i]...)
		b.buf = append(b.buf, `="`...)
		b.buf = append(b.buf, html.EscapeString(attrs[i+1])...)
		b.buf = append(b.buf, '"')
	}
	b.buf = append(b.buf, '>')
	n.content = len(b.buf)
	if len(b.stack) > 0 {
		parent := b.stack[len(b.stack)-1]
		parent.kids = append(parent.kids, n)
	}
	b.stack = append(b.stack, n)
	return n
}

// Close closes the element Open (or Root) opened last.
func (b *Builder) Close() {
	if len(b.stack) == 0 {
		b.fail("a close with nothing open")
		return
	}
	n := b.stack[len(b.stack)-1]
	b.stack = b.stack[:len(b.stack)-1]
	n.end = len(b.buf)
	b.buf = append(b.buf, "</"...)
	b.buf = append(b.buf, n.tag...)
	b.buf = append(b.buf, '>')
	if len(b.stack) > 0 {
		parent := b.stack[len(b.stack)-1]
		parent.marks = append(parent.marks, n.start, len(b.buf))
	}
}

func (b *Builder) fail(why string) {
	if b.bad == "" {
		b.bad = why
	}
}

// Finish returns the view's root, with the HTML of every node, or nil and
// what was wrong if the view was not one element with every keyed element
// closed.
func (b *Builder) Finish() (*Node, string) {
	switch {
	case b.bad != "":
		return nil, b.bad
	case b.root == nil:
		return nil, "no root"
	case len(b.stack) > 0:
		return nil, "<" + b.stack[len(b.stack)-1].tag + "> not closed"
	case b.root.end+len(b.root.tag)+3 != len(b.buf):
		return nil, "something written after the root"
	}
	doc := string(b.buf)
	b.buf = nil
	finish(b.root, doc)
	return b.root, ""
}

// finish sets n's strings from the view's text, and its kids'.
func finish(n *Node, doc string) {
	end := n.end + len(n.tag) + 3
	n.html = doc[n.start:end]
	n.open = n.content - n.start
	n.between = make([]string, 0, len(n.kids)+1)
	at := n.content
	for i := 0; i+1 < len(n.marks); i += 2 {
		n.between = append(n.between, doc[at:n.marks[i]])
		at = n.marks[i+1]
	}
	n.between = append(n.between, doc[at:n.end])
	n.marks = nil
	for _, k := range n.kids {
		finish(k, doc)
	}
}

// MustFinish is Finish for views the program itself writes: a misuse is
// a bug, and panics with what it was.
func (b *Builder) MustFinish() *Node {
	n, bad := b.Finish()
	if n == nil {
		panic("stream: a view built wrong: " + bad)
	}
	return n
}

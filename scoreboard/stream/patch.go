package stream

import "slices"

// Views are sent to browsers as changes, not whole. A view is a root
// element in which some elements carry a data-k key (each cell of the
// board, the header, the banners, each player and its clock, the pool, the
// move list, each card of the tournament view): a tree of keyed elements,
// which the view makes as it writes its HTML (Builder). An element's
// skeleton is its tag, its attributes' names, its keyed descendants' keys
// and its content around them. From one view to the next, for each keyed
// element (the root included) that changed:
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

// Patch is the change from one view to the next, as the "patch" event
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
	if a == nil || b == nil || !sameSkeleton(a, b) {
		return p, false
	}
	p.diff(a, b)
	return p, true
}

func (p *Patch) diff(a, b *Node) {
	switch {
	case a.html == b.html:
	case sameSkeleton(a, b):
		if !slices.Equal(a.attrs, b.attrs) {
			p.Attrs = append(p.Attrs, [2]any{b.key, b.attrs})
		}
		for i := range b.kids {
			p.diff(a.kids[i], b.kids[i])
		}
	case len(a.html) > a.open+len(a.tag)+3 && a.StartTag() == b.StartTag() && len(b.Inner()) >= len(a.Inner()) && b.Inner()[:len(a.Inner())] == a.Inner():
		p.Appends = append(p.Appends, [2]string{b.key, b.Inner()[len(a.Inner()):]})
	default:
		p.Parts = append(p.Parts, [2]string{b.key, b.html})
	}
}

// sameSkeleton reports whether a and b differ at most in their attributes'
// values and inside their keyed descendants.
func sameSkeleton(a, b *Node) bool {
	if a.tag != b.tag || len(a.attrs) != len(b.attrs) || len(a.kids) != len(b.kids) || len(a.between) != len(b.between) {
		return false
	}
	for i := 0; i < len(a.attrs); i += 2 {
		if a.attrs[i] != b.attrs[i] {
			return false
		}
	}
	for i := range a.kids {
		if a.kids[i].key != b.kids[i].key {
			return false
		}
	}
	for i := range a.between {
		if a.between[i] != b.between[i] {
			return false
		}
	}
	return true
}

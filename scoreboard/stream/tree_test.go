package stream_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/scoreboard/stream"
	"github.com/zertzboard/zertzboard/scoreboard/stream/streamtest"
)

// TestBuilderMakesTheTree: a view written with the Builder is the HTML
// the calls say, attribute values escaped, and its tree is the one a
// browser reads from that HTML: the keys, tags, attributes and the
// content around each keyed element.
func TestBuilderMakesTheTree(t *testing.T) {
	var b stream.Builder
	b.Root("div", "class", "sb", "data-seq", "7")
	b.WriteString(`<div class="stage">`)
	b.Open("header", "class", "head", "data-k", "head")
	fmt.Fprintf(&b, `<span>%s</span>`, "a &amp; b")
	b.Close()
	b.WriteString(`<svg><g class="cells">`)
	for _, c := range []string{"A1", "B2"} {
		b.Open("g", "class", "cell", "data-cell", c, "data-k", "c-"+c)
		b.WriteString(`<circle r="2"/>`)
		b.Close()
	}
	b.WriteString(`</g></svg></div>`)
	b.Open("p", "title", `say "<hi>"`, "data-k", "q")
	b.Open("small", "data-k", "inner")
	b.WriteByte('x')
	b.Close()
	b.Close()
	b.Close()
	n, bad := b.Finish()
	if n == nil {
		t.Fatal(bad)
	}
	want := `<div class="sb" data-seq="7"><div class="stage"><header class="head" data-k="head"><span>a &amp; b</span></header>` +
		`<svg><g class="cells"><g class="cell" data-cell="A1" data-k="c-A1"><circle r="2"/></g><g class="cell" data-cell="B2" data-k="c-B2"><circle r="2"/></g></g></svg></div>` +
		`<p title="say &#34;&lt;hi&gt;&#34;" data-k="q"><small data-k="inner">x</small></p></div>`
	if n.HTML() != want {
		t.Fatalf("HTML\n%s\nwant\n%s", n.HTML(), want)
	}
	var keys []string
	var walk func(*stream.Node, *stream.Node)
	walk = func(built, read *stream.Node) {
		keys = append(keys, built.Key())
		if built.Key() != read.Key() || built.Tag() != read.Tag() || built.HTML() != read.HTML() ||
			!slices.Equal(built.Attrs(), read.Attrs()) || !slices.Equal(built.Between(), read.Between()) || len(built.Kids()) != len(read.Kids()) {
			t.Fatalf("built %q %q %q %q; read %q %q %q %q", built.Key(), built.Tag(), built.Attrs(), built.Between(), read.Key(), read.Tag(), read.Attrs(), read.Between())
		}
		for i := range built.Kids() {
			walk(built.Kids()[i], read.Kids()[i])
		}
	}
	walk(n, streamtest.Parse(want))
	if got := strings.Join(keys, ","); got != ",head,c-A1,c-B2,q,inner" {
		t.Errorf("keys %s", got)
	}
	if got := n.Kids()[3].Attrs(); !slices.Equal(got, []string{"title", `say "<hi>"`, "data-k", "q"}) {
		t.Errorf("attributes %q: not as given", got)
	}
	if got := n.Between()[0]; got != `<div class="stage">` {
		t.Errorf("before the first key: %q", got)
	}
}

// TestBuilderRefusesMisuse: a view that is not one element with every
// keyed element keyed and closed is reported, not half-made.
func TestBuilderRefusesMisuse(t *testing.T) {
	for name, write := range map[string]func(b *stream.Builder){
		"no root":         func(b *stream.Builder) { b.WriteString("<p></p>") },
		"not closed":      func(b *stream.Builder) { b.Root("div"); b.Open("p", "data-k", "x") },
		"root not closed": func(b *stream.Builder) { b.Root("div") },
		"no key":          func(b *stream.Builder) { b.Root("div"); b.Open("p", "class", "x"); b.Close(); b.Close() },
		"odd attributes":  func(b *stream.Builder) { b.Root("div", "class"); b.Close() },
		"closed twice":    func(b *stream.Builder) { b.Root("div"); b.Close(); b.Close() },
		"after the root":  func(b *stream.Builder) { b.Root("div"); b.Close(); b.WriteString("<p></p>") },
		"two roots":       func(b *stream.Builder) { b.Root("div"); b.Close(); b.Root("div"); b.Close() },
		"text first":      func(b *stream.Builder) { b.WriteString("x"); b.Root("div"); b.Close() },
	} {
		var b stream.Builder
		write(&b)
		if n, bad := b.Finish(); n != nil || bad == "" {
			t.Errorf("%s: finished as %v (%q)", name, n, bad)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("MustFinish of a broken view did not panic")
		}
	}()
	var b stream.Builder
	b.Root("div")
	b.MustFinish()
}

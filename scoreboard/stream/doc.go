// Package stream is how the scoreboard's views go to browsers: the keyed
// tree a view is written as (Builder, tree.go), the patches from one
// view's tree to the next (patch.go), and the hub that sends each view to
// every stream that shows it as server-sent events (hub.go, sse.go),
// writing to the viewers' sockets itself where it can (direct.go).
// Package view writes every view through a Builder, so the tree comes
// with the HTML and nothing reads the HTML back; streamtest is the
// browser's side (reading a view, applying a patch), for tests only.
//
// It knows nothing of ZÈRTZ: it sees views as HTML with data-k keys. It
// imports only the standard library; the views and the scoreboard server
// (packages view and scoreboard) use it, never the other way round.
//
// Layer: base. May import: base.
package stream

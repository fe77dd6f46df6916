// Package stream is how the scoreboard's views change on the wire: the
// keyed tree a view is written as (Builder, tree.go) and the patches from
// one view's tree to the next (patch.go). Package view writes every view
// through a Builder, so the tree comes with the HTML and nothing reads
// the HTML back; streamtest is the browser's side (reading a view,
// applying a patch), for tests only. The hub that sends the patches and
// the streams written directly on the socket are still the server's
// (scoreboard/hub.go, direct.go).
//
// It knows nothing of ZÈRTZ: it sees views as HTML with data-k keys. It
// imports only the standard library; the views and the scoreboard server
// (packages view and scoreboard) use it, never the other way round.
package stream

// Package stream is how the scoreboard's views change on the wire: the
// keyed-tree patches from one rendered view to the next (patch.go) and
// the reference that applies them as the page's script does (apply.go).
// The hub that sends them and the streams written directly on the socket
// are still the server's (scoreboard/hub.go, direct.go).
//
// It knows nothing of ZÈRTZ: it sees views as HTML with data-k keys. It
// imports only the standard library; the scoreboard server (package
// scoreboard) uses it, never the other way round.
package stream

// Package stream is how the scoreboard's views travel to browsers: the
// keyed-tree patches between one rendered view and the next (patch.go),
// the reference that applies them as the page does (apply.go), and the
// server-sent-event connections written directly on the socket
// (direct.go).
//
// It knows nothing of ZÈRTZ: it sees views as HTML with data-k keys and
// streams as bytes. It imports only the standard library; the scoreboard
// server (package scoreboard) uses it, never the other way round.
package stream

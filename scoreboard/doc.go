// Package scoreboard shows live ZÈRTZ games in a browser: a tournament
// view of every board on the broker, each board's game drawn live, and a
// transparent overlay for stream software (OBS browser sources).
//
// This package is the server: HTTP routes, the MQTT side, each board's
// latest data, turned into views on each message (boards.go, lang.go)
// and handed to the hub that sends them to every stream (package stream),
// and the pages that wire its parts together. The
// parts are packages of their own, each importing only the standard
// library, the game's packages and the parts below it, never this one
// (imports_test.go):
//
//   - view: rendering, every view a pure function of a board's state,
//     written as HTML and its keyed tree at once;
//   - stream: the keyed tree, the patches from one view to the next, and
//     the hub that sends them as server-sent events, written to the
//     viewers' sockets directly where it can (hub.go, direct.go, sse.go);
//   - results: finished games, their store, SGF and CSV;
//   - console: operators' sessions, the log-in limiter and actions.
//
// It reads the MQTT topics of docs/CONTRACTS.md (section 5):
// <prefix>+/state (the retained wire.State), +/status (online/offline),
// +/events (pending, illegal, …) and +/moves. Feed it with Follow (a paho
// client, for "zertzboard scoreboard") or by calling Handle from an
// in-process subscription (the daemon's embedded broker).
//
// The server renders everything: the board is an SVG drawn in Go from
// state.layout (so any board, standard or custom), which keeps the
// geometry testable and the page's script tiny. Each change is rendered
// once; a browser that connects gets the whole view at once (and the page
// itself is served with it, so a late joiner sees the board before its
// event stream opens), and after that only patches: the elements of the
// view that changed, found by their data-k keys (each cell, the header,
// the banners, each player and clock, the pool, the move list, each card
// of the tournament view; see stream/patch.go). The views are written as
// keyed trees and diffed as such: the server never reads its HTML back
// (TestNoHTMLReadOnThePatchPath). A stream that skipped a view
// (coalesced, below) gets the whole view again. Assets are embedded: the
// pages work without Internet access.
//
// What the page shows is a pure function of the board's latest state,
// its status and the latest notice (pending, illegal, touch-move, …).
// Events carry no seq, so a notice belongs to the state current when it
// arrived and is dropped by the next state, by a move, or by "restored".
//
// The clocks (state.clock) are rendered with each player's time when the
// state was published; the page counts the running one down. Every view
// sent carries its age (how long ago it was rendered, which is when its
// state arrived), so a viewer who connects a minute after the last commit
// counts from the commit, not from its own arrival (and the page itself is
// served with the running clock as it is now). A clock stops when the
// game is paused, over, or the board goes offline.
//
// Besides the live views: a game viewer that steps through a finished
// game (or, from a board page, back through the game under way) with the
// forced-win search of a position on demand (viewer.go); the overlay's
// layouts and sizes, which only set classes on the page (view/overlay.go); and
// a spectator card with the scoreboard's address as a QR code
// (spectator.go). The pages follow the screen's width and the system's
// light or dark scheme (web/static/style.css). Each MQTT message is
// decoded once, for the views and for the console and the results
// (observe.go decodeMessage).
//
// Viewers never hold up the broker or each other: each stream has a
// bounded queue that coalesces to the latest view; a stream whose queue
// fills (its socket is stuck) is dropped, and its EventSource reconnects
// to the current view. Writes have deadlines, idle streams get heartbeats,
// and Close ends every stream so that http.Server.Shutdown can finish.
//
// Measured on a 2-vCPU AMD EPYC VM shared with other work (load about 2),
// with BenchmarkFanout (loopback; the board's paho client, the broker, the
// scoreboard and N Go SSE readers share the two CPUs): the latency from
// publishing a state of a 37-ring game to its arrival at every viewer,
// p50 (p99), medians of three runs of 100 states, before patches (whole
// views, 10-12 kB each) and with them (2.8 kB per change on average; the
// console's and the results' bookkeeping of each state is in these too):
//
//	viewers   whole views       patches
//	      1   0.53 ms (2.4)     0.86 ms (3.6)
//	     10   0.89 ms (6.4)     1.0 ms (3.5)
//	     20   1.2 ms (4.0)      1.2 ms (4.3)
//	     50   2.0 ms (6.4)      1.5 ms (4.5)
//	    100   3.6 ms (8.1)      2.1 ms (6.7)
//	    200   -                 3.2 ms (10)
//	    500   13 ms (25)        8.5 ms (19)
//	   1000   27 ms (43)        16 ms (33)
//
// So the latency doubles at about 17 viewers with whole views and at about
// 70 with patches, from a single viewer's latency that is 0.3 ms higher
// (rendering the patch and the console's bookkeeping); from 50 viewers on,
// patches are faster, 1.7 times at 1000. What remains is the cost of a
// write and a wake-up per stream, at both ends. At a load of 4 to 9 the
// same runs gave 30 ms against 19 ms at 500 viewers. A hall is kinder than one board: the tournament
// view of 12 boards is about 30 kB whole and 3 kB as a patch.
// BenchmarkHall (12 boards, a fifth of the viewers on the tournament view)
// at 500 viewers: p50 2.7 ms, p99 9 ms, 5 ms of CPU per state and 25 MiB
// of heap, against p50 4.8 ms, p99 13 ms and 10 ms of CPU with whole
// views; at 1000 viewers, p50 5.1 ms, p99 17 ms, 10 ms of CPU per state
// (docs/HALL.md). Rendering a state and its patch costs 0.42–0.47 ms
// (BenchmarkHandle; 0.29–0.35 ms before patches, on the same loaded VM).
// Since the views are written as keyed trees rather than read back from
// their HTML, a state handled costs 551 allocations and 157 kB, against
// 1,096 and 178 kB before, for the same bytes on the wire.
// In headless Chromium (TestBrowser), from publishing a state to the page
// having applied it, the median is 2.5–5 ms.
//
// Layer: presentation. May import: base, game, services, presentation.
package scoreboard

// Package scoreboard shows live ZÈRTZ games in a browser: a tournament
// view of every board on the broker, each board's game drawn live, and a
// transparent overlay for stream software (OBS browser sources).
//
// It reads the MQTT topics of docs/CONTRACTS.md (section 5):
// <prefix>+/state (the retained live.State), +/status (online/offline),
// +/events (pending, illegal, …) and +/moves. Feed it with Follow (a paho
// client, for "zertzboard scoreboard") or by calling Handle from an
// in-process subscription (the daemon's embedded broker).
//
// The server renders everything: the board is an SVG drawn in Go from
// state.layout (so any board, standard or custom), which keeps the
// geometry testable and the page's script tiny. Each change is rendered
// once and pushed, as an HTML fragment in a server-sent event, to every
// browser watching that view; a browser that connects gets the current
// view at once, and the page itself is served with it, so a late joiner
// sees the board before its event stream opens. Assets are embedded: the
// pages work without Internet access.
//
// What the page shows is a pure function of the board's latest state,
// its status and the latest notice (pending, illegal, touch-move, …).
// Events carry no seq, so a notice belongs to the state current when it
// arrived and is dropped by the next state, by a move, or by "restored".
//
// Viewers never hold up the broker or each other: each stream has a
// bounded queue that coalesces to the latest view; a stream whose queue
// fills (its socket is stuck) is dropped, and its EventSource reconnects
// to the current view. Writes have deadlines, idle streams get heartbeats,
// and Close ends every stream so that http.Server.Shutdown can finish.
//
// Measured on a 2-vCPU AMD EPYC VM (BenchmarkFanout, loopback; the board's
// paho client, the broker, the scoreboard and N Go SSE readers share the
// two CPUs), the latency from publishing a state to its arrival at every
// viewer, p50 (p99), over two runs of 100 states:
//
//	viewers    1: 0.34–0.46 ms (2.0)    100: 2.5–2.7 ms (5.2–5.4)
//	viewers   10: 0.45–0.57 ms (1.5–2)  500: 10–19 ms (17–29)
//	viewers   20: 0.68–0.78 ms (2.2–2.6) 1000: 22–38 ms (34–69)
//	viewers   50: 1.3 ms (3.0)
//
// So the latency doubles at about 20 viewers; it grows with the bytes
// written (a mid-game 37-ring view is about 10 kB) and stays well under
// the 200 ms of e-boards at 1000. Rendering a state costs 0.23–0.31 ms
// (BenchmarkHandle). In headless Chromium (TestBrowser), from publishing a
// state to the page having applied it, the median is 2.5–5 ms.
package scoreboard

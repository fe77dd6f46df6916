// Package view renders what the scoreboard shows, as HTML: a
// board's view (header, banners, the board as SVG drawn from its layout,
// players, clocks, pool and move list; render.go, clockview.go), the
// engine's analysis drawn over it (analysis.go), the tournament view
// with a card of every board (card.go) and the overlay's options (overlay.go).
//
// Everything here is a pure function of its arguments (a Board: a live
// state, its status, a notice and a language): no network, no locks, no
// clock but the one given. Every element that can change on its own
// carries a data-k key, and is written with package stream's Builder
// (Open, Close), so that each view comes as its HTML and its keyed tree
// together (BoardTree, TournamentTree), which is what package stream
// patches by. It may import the game's packages (wire, engine, referee,
// display, i18n), scoreboard/stream and the standard library, never the
// scoreboard server or its other parts.
//
// Layer: presentation. May import: base, game, services, presentation.
package view

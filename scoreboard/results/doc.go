// Package results keeps the finished games a scoreboard has seen: the
// bounded store (Store: filed by game ID, redeliveries recognised, saved
// one file per game under --results and read back at start), a game's
// SGF for Boardspace and the CSV of all games (results.go).
//
// It serves no pages: the scoreboard server (package scoreboard) feeds it
// each finished game (Store.Add) and renders /results from it. It imports
// the game's record package, engine (a result's Reason) and the standard
// library, never the server or its other parts.
//
// Layer: presentation. May import: base, game, services, presentation.
package results

// Package console is the arbiter console's engine: operators' sessions
// (each an MQTT connection under the operator's own broker account, so
// the broker checks every action), the log-in limiter, and the actions an
// operator may send a board, built from a form and checked (console.go).
//
// It serves no pages: the scoreboard server (package scoreboard) routes
// /console, renders it and asks this package to log in, look up, act and
// log out. It imports the MQTT client, the game's i18n and text checks,
// package command (an action is a typed command, encoded by its codec)
// with clock (new-game's time control) and engine (the words of a
// declared result), and package view (for clipping text from the
// broker), never the server or its other parts.
//
// Layer: presentation. May import: base, game, services, presentation.
package console

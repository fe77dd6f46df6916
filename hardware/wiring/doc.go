// Package wiring loads and checks a wiring file: which socket of the base
// sits on which ADC, channel and multiplexer address, the LED chain order,
// the screen, the buttons, and where a smaller game board sits on the base.
//
// Wiring is data, not code: a board builder who routes
// the sockets differently edits a file, not the program. The format is
// described in firmware-config/README.md and the reference wiring is
// firmware-config/reference-61.wiring.
//
// The format is a small INI dialect that the package parses itself, so that
// every error names the file, the line and the field, e.g.
//
//	wiring: base.wiring:42: sockets.E5: channel "9" out of range 0-7
//
// and so that it needs no dependency.
//
// Layer: drivers. May import: base, game, drivers.
package wiring

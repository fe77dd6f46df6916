package main

import (
	"context"
	"io"

	"github.com/zertzboard/zertzboard/scoreboard"
)

func init() {
	register(command{Name: "scoreboard", Summary: "the live scoreboard and stream overlay in a browser, from an MQTT broker", Run: runScoreboard})
}

// runScoreboard is the scoreboard on its own: its flags and its runtime
// are package scoreboard's.
func runScoreboard(args []string, stdout, stderr io.Writer) int {
	return scoreboard.Main(context.Background(), prog, args, stdout, stderr)
}

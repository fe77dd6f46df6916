package main

import (
	"context"
	"io"

	"github.com/zertzboard/zertzboard/sim/simboard"
)

func init() {
	register(command{Name: "sim", Summary: "the whole controller on a simulated board, with MQTT and the scoreboard", Run: runSim})
}

// runSim is sim: its flags, the simulated table and the board's runtime
// are package simboard's.
func runSim(args []string, stdout, stderr io.Writer) int {
	return simboard.Main(context.Background(), prog, args, stdout, stderr)
}

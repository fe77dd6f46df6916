package simboard_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"testing"
	"testing/fstest"

	"github.com/zertzboard/zertzboard/internal/cli"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/scoreboard"
	"github.com/zertzboard/zertzboard/sim/simboard"
)

// prog is a zertzboard with the two commands these tests run: "sim"
// (package simboard) and "scoreboard" (package scoreboard), as
// cmd/zertzboard registers them.
var prog = &cli.Program{
	Name:        "zertzboard",
	About:       "zertzboard's sim and scoreboard commands, for the tests",
	Version:     func() string { return "test" },
	Help:        fstest.MapFS{"sim.txt": {Data: []byte("the simulated board\n")}, "scoreboard.txt": {Data: []byte("the scoreboard\n")}},
	ErrPrefixes: []string{"clock: ", "settle: ", "boardid: ", "i18n: ", "record: ", "scoreboard: "},
}

func init() {
	prog.Register(cli.Command{Name: "sim", Run: func(args []string, stdout, stderr io.Writer) int {
		return simboard.Main(context.Background(), prog, args, stdout, stderr)
	}})
	prog.Register(cli.Command{Name: "scoreboard", Run: func(args []string, stdout, stderr io.Writer) int {
		return scoreboard.Main(context.Background(), prog, args, stdout, stderr)
	}})
}

// The exit codes, by the names cmd/zertzboard gives them.
const (
	exitOK    = cli.ExitOK
	exitUsage = cli.ExitUsage
	exitFault = cli.ExitFault
)

// sampleDir is the built-in Boardspace games' directory.
var sampleDir = samples.BuiltinDir()

// run runs prog, as cmd/zertzboard's main does.
func run(args []string, stdout, stderr io.Writer) int { return prog.Run(args, stdout, stderr) }

// runSimContext is "sim" with args until ctx is done (for tests that run
// many boards in one process).
func runSimContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return simboard.Main(ctx, prog, args, stdout, stderr)
}

// TestMain lets the tests run the test binary as zertzboard itself
// (ZERTZBOARD_RUN_MAIN=1 and a command's arguments), to kill and restart
// it like a real process.
func TestMain(m *testing.M) {
	if os.Getenv("ZERTZBOARD_RUN_MAIN") == "1" {
		// ZERTZBOARD_CPUPROFILE=DIR profiles each process the tests
		// start (DIR/cpu-PID.pprof), e.g. the fan-out's scoreboards.
		if dir := os.Getenv("ZERTZBOARD_CPUPROFILE"); dir != "" {
			if f, err := os.Create(filepath.Join(dir, fmt.Sprintf("cpu-%d.pprof", os.Getpid()))); err == nil && pprof.StartCPUProfile(f) == nil {
				code := run(os.Args[1:], os.Stdout, os.Stderr)
				pprof.StopCPUProfile()
				f.Close()
				os.Exit(code)
			}
		}
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

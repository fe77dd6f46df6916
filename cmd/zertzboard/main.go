// Command zertzboard referees a physical ZÈRTZ board and broadcasts it.
//
// Run "zertzboard help" for the commands, and "zertzboard COMMAND --help"
// for one command's flags.
//
// Layer: cmd. May import: base, game, drivers, sensors, services,
// presentation, config, simulator, rig, board, players, cmd.
package main

import (
	"embed"
	"io"
	"io/fs"
	"os"

	"github.com/zertzboard/zertzboard/internal/buildinfo"
	"github.com/zertzboard/zertzboard/internal/cli"
)

// version is stamped at build time:
//
//	go build -ldflags "-X main.version=1.2.3" ./cmd/zertzboard
//
// "make deb" stamps the package's Debian version. Unstamped builds report
// what the Go toolchain recorded (see internal/buildinfo).
var version string

// helpFiles are the commands' help texts, help/NAME.txt each: what the
// command does, its exit status and examples, plain text that reads (and
// reviews) as the documentation it is; --help prints it above the flags.
//
//go:embed help/*.txt
var helpFiles embed.FS

// prog is zertzboard's commands; each command's file registers its own.
var prog = &cli.Program{
	Name:    "zertzboard",
	About:   "zertzboard referees a physical ZÈRTZ board and broadcasts the live game.",
	Version: func() string { return buildinfo.Line(version) },
	Help:    must(fs.Sub(helpFiles, "help")),
	// The prefixes the project's packages put on their errors.
	ErrPrefixes: []string{"engine: ", "referee: ", "framelog: ", "i18n: ", "record: ", "clock: ", "settle: ", "boardid: ", "pi: ", "scoreboard: "},
	Commands:    map[string]cli.Command{},
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func must(f fs.FS, err error) fs.FS {
	if err != nil {
		panic(err)
	}
	return f
}

// The short names the commands' files use.
type command = cli.Command

const (
	exitOK      = cli.ExitOK
	exitIllegal = cli.ExitIllegal
	exitUsage   = cli.ExitUsage
	exitFault   = cli.ExitFault
)

var (
	commands   = prog.Commands
	register   = prog.Register
	helpText   = prog.HelpText
	newFlagSet = prog.FlagSet
	parseFlags = cli.ParseFlags
	errText    = prog.ErrText
)

func run(args []string, stdout, stderr io.Writer) int { return prog.Run(args, stdout, stderr) }

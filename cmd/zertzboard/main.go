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
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/zertzboard/zertzboard/internal/buildinfo"
)

// version is stamped at build time:
//
//	go build -ldflags "-X main.version=1.2.3" ./cmd/zertzboard
//
// "make deb" stamps the package's Debian version. Unstamped builds report
// what the Go toolchain recorded (see internal/buildinfo).
var version string

// command is one subcommand. run returns the process exit code.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands is filled by each command's file in init.
var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

// Exit codes shared by every command.
const (
	exitOK      = 0
	exitIllegal = 1 // a record broke the rules or could not be read
	exitUsage   = 2 // bad flags or arguments
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		// No command is a mistake, not a request for help: the usage goes
		// to standard error and the exit status says so.
		fmt.Fprintln(stderr, "zertzboard: no command given")
		usage(stderr)
		return exitUsage
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return c.run([]string{"--help"}, stdout, stderr)
			}
		}
		usage(stdout)
		return exitOK
	}
	if args[0] == "--version" || args[0] == "-version" {
		fmt.Fprintln(stdout, buildinfo.Line(version))
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "zertzboard: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, `zertzboard referees a physical ZÈRTZ board and broadcasts the live game.

Usage:
  zertzboard COMMAND [flags] [arguments]

Commands:`)
	names := make([]string, 0, len(commands))
	width := 0
	for n := range commands {
		names = append(names, n)
		width = max(width, len(n))
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, commands[n].summary)
	}
	fmt.Fprintln(w, `
Run "zertzboard COMMAND --help" for a command's flags and examples.
"zertzboard --version" prints the version.`)
}

// helpFiles are the commands' help texts, one file each: what the command
// does, its exit status and examples. They are plain text so that they
// read (and review) as the documentation they are; --help prints them
// above the flags.
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpText is command name's help text (help/NAME.txt). A command without
// one is a programming error, which TestEveryCommandHasHelp catches.
func helpText(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("zertzboard: no help text for " + name + ": " + err.Error())
	}
	return string(b)
}

// newFlagSet makes a flag set that prints a teaching usage text: the
// synopsis, what the command does, its flags and examples.
func newFlagSet(name, synopsis, about string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: zertzboard %s %s\n\n%s\n", name, synopsis, strings.TrimSpace(about))
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(stderr, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses args and maps --help to exit 0 and bad flags to exit 2.
// It returns ok=false with the exit code when the command should stop.
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	return 0, true
}

// pkgPrefixes are the prefixes the project's packages put on their
// errors; errText drops them where the command's own prefix is enough.
var pkgPrefixes = []string{"engine: ", "referee: ", "framelog: ", "i18n: ", "record: ", "clock: ", "settle: ", "boardid: ", "pi: ", "scoreboard: "}

// errText is err's message without a leading package prefix, so that a
// command's "zertzboard CMD: " is the only prefix its message has.
func errText(err error) string {
	s := err.Error()
	for _, p := range pkgPrefixes {
		if t, ok := strings.CutPrefix(s, p); ok {
			return t
		}
	}
	return s
}

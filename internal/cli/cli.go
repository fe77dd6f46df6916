// Package cli runs a program made of subcommands: the command registry
// and dispatch ("help", "--help", "--version", an unknown command), the
// usage listing, a flag set whose usage teaches (synopsis, help text,
// flags), the mapping of flag errors to exit codes, and error texts
// without a package's prefix. It knows nothing of the commands
// themselves; cmd/zertzboard registers them.
//
// Layer: base. May import: base.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"sort"
	"strings"
)

// Exit codes shared by every command.
const (
	ExitOK      = 0
	ExitIllegal = 1 // a record broke the rules or could not be read
	ExitFault   = 1 // the hardware or the runtime failed
	ExitUsage   = 2 // bad flags or arguments
)

// Command is one subcommand. Run returns the process exit code.
type Command struct {
	Name    string
	Summary string
	Run     func(args []string, stdout, stderr io.Writer) int
}

// Program is a command-line program made of subcommands.
type Program struct {
	Name  string // the program's name, as the user types it
	About string // the usage's first line: what the program does
	// Version is the line "--version" prints.
	Version func() string
	// Help holds the commands' help texts, NAME.txt each (see HelpText).
	Help fs.FS
	// ErrPrefixes are the package prefixes ErrText drops.
	ErrPrefixes []string
	// Commands are the registered commands, by name.
	Commands map[string]Command
}

// Register adds c to p's commands.
func (p *Program) Register(c Command) {
	if p.Commands == nil {
		p.Commands = map[string]Command{}
	}
	p.Commands[c.Name] = c
}

// Run runs the command args names and returns the exit code. No command
// at all is a mistake (usage on stderr, exit 2), while "help" prints the
// usage on stdout; "help CMD" is "CMD --help".
func (p *Program) Run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "%s: no command given\n", p.Name)
		p.Usage(stderr)
		return ExitUsage
	}
	switch args[0] {
	case "help", "-h", "--help", "-help":
		if len(args) > 1 {
			if c, ok := p.Commands[args[1]]; ok {
				return c.Run([]string{"--help"}, stdout, stderr)
			}
		}
		p.Usage(stdout)
		return ExitOK
	case "--version", "-version":
		fmt.Fprintln(stdout, p.Version())
		return ExitOK
	}
	c, ok := p.Commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "%s: unknown command %q\n\n", p.Name, args[0])
		p.Usage(stderr)
		return ExitUsage
	}
	return c.Run(args[1:], stdout, stderr)
}

// Usage writes the program's usage: what it does and its commands, one
// column of summaries.
func (p *Program) Usage(w io.Writer) {
	fmt.Fprintf(w, "%s\n\nUsage:\n  %s COMMAND [flags] [arguments]\n\nCommands:\n", p.About, p.Name)
	names := make([]string, 0, len(p.Commands))
	width := 0
	for n := range p.Commands {
		names = append(names, n)
		width = max(width, len(n))
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, p.Commands[n].Summary)
	}
	fmt.Fprintf(w, "\nRun \"%s COMMAND --help\" for a command's flags and examples.\n\"%s --version\" prints the version.\n", p.Name, p.Name)
}

// HelpText is command name's help text (NAME.txt in p.Help). A command
// without one is a programming error, so it panics.
func (p *Program) HelpText(name string) string {
	b, err := fs.ReadFile(p.Help, name+".txt")
	if err != nil {
		panic(p.Name + ": no help text for " + name + ": " + err.Error())
	}
	return string(b)
}

// FlagSet makes a flag set for command name whose usage teaches: the
// synopsis, what the command does (about), its flags if any.
func (p *Program) FlagSet(name, synopsis, about string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: %s %s %s\n\n%s\n", p.Name, name, synopsis, strings.TrimSpace(about))
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(stderr, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// Failer returns command name's answer to a bad flag or argument: it
// prints "PROGRAM NAME: " and the message on stderr and returns ExitUsage.
func (p *Program) Failer(name string, stderr io.Writer) func(format string, a ...any) int {
	return func(format string, a ...any) int {
		fmt.Fprintf(stderr, p.Name+" "+name+": "+format+"\n", a...)
		return ExitUsage
	}
}

// ParseFlags parses args and maps --help to exit 0 and bad flags to exit
// 2. It returns ok=false with the exit code when the command should stop.
func ParseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK, false
		}
		return ExitUsage, false
	}
	return ExitOK, true
}

// ErrText is err's message without a leading prefix of p.ErrPrefixes, so
// that a command's "PROGRAM CMD: " is the only prefix its message has.
func (p *Program) ErrText(err error) string {
	s := err.Error()
	for _, pre := range p.ErrPrefixes {
		if t, ok := strings.CutPrefix(s, pre); ok {
			return t
		}
	}
	return s
}

// Logger logs text lines to w from level up, or from debug up when
// verbose (a command's -v); asJSON logs JSON lines instead.
func Logger(w io.Writer, level slog.Level, verbose, asJSON bool) *slog.Logger {
	if verbose {
		level = slog.LevelDebug
	}
	o := &slog.HandlerOptions{Level: level}
	if asJSON {
		return slog.New(slog.NewJSONHandler(w, o))
	}
	return slog.New(slog.NewTextHandler(w, o))
}

package main

import (
	"fmt"
	"io"

	"github.com/zertzboard/zertzboard/internal/buildinfo"
)

func init() {
	register(command{Name: "version", Summary: "print the version and how the binary was built", Run: runVersion})
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", "[--short]", helpText("version"), stderr)
	short := fs.Bool("short", false, "print the version alone")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "zertzboard version: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if *short {
		fmt.Fprintln(stdout, buildinfo.Version(version))
		return exitOK
	}
	fmt.Fprintln(stdout, buildinfo.Line(version))
	return exitOK
}

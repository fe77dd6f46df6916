package main

import (
	"fmt"
	"io"

	"github.com/zertzboard/zertzboard/internal/buildinfo"
)

func init() {
	register(command{name: "version", summary: "print the version and how the binary was built", run: runVersion})
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", "[--short]", `
Prints "zertzboard VERSION (GOVERSION GOOS/GOARCH)" on one line and exits 0.
"zertzboard --version" does the same; --short prints VERSION alone.

VERSION is the one stamped at build time ("make deb" stamps the package's
Debian version, e.g. 0.0~git20261122.223014.0e75f5d). An unstamped build
reports the module version or commit the Go toolchain recorded, with
"+dirty" for uncommitted changes, or "devel" when it recorded none
("go run").

Example:
  zertzboard version
  zertzboard version --short   # e.g. 0.0~git20261122.223014.0e75f5d
  dpkg-query -W zertzboard     # the installed package's version, to compare`, stderr)
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

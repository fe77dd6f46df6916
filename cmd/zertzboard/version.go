package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
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
		info, ok := debug.ReadBuildInfo()
		fmt.Fprintln(stdout, buildVersion(version, info, ok))
		return exitOK
	}
	printVersion(stdout)
	return exitOK
}

func printVersion(w io.Writer) {
	info, ok := debug.ReadBuildInfo()
	fmt.Fprintf(w, "zertzboard %s (%s %s/%s)\n", buildVersion(version, info, ok), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// buildVersion is the stamped version if there is one; else the main
// module's version the toolchain derived from VCS tags (Go 1.24 and later,
// e.g. v0.0.0-20261122223014-0e75f5d1a2b3+dirty); else the VCS revision
// it recorded (devel-0e75f5d1a2b3, with "+dirty"); else "devel".
func buildVersion(stamped string, info *debug.BuildInfo, ok bool) string {
	if stamped != "" {
		return stamped
	}
	if !ok || info == nil {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := "devel-" + rev
	if dirty {
		v += "+dirty"
	}
	return v
}

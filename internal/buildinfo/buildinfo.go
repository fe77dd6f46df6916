// Package buildinfo says which build of zertzboard runs: the version
// stamped at link time, or what the Go toolchain recorded. It imports only
// the standard library.
//
// Layer: base. May import: base.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Version is the stamped version if there is one; else what the Go
// toolchain recorded in this binary (see FromInfo).
func Version(stamped string) string {
	info, ok := debug.ReadBuildInfo()
	return FromInfo(stamped, info, ok)
}

// Line is the version line: "zertzboard VERSION (GOVERSION GOOS/GOARCH)".
func Line(stamped string) string {
	return fmt.Sprintf("zertzboard %s (%s %s/%s)", Version(stamped), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// FromInfo is the stamped version if there is one; else the main
// module's version the toolchain derived from VCS tags (Go 1.24 and later,
// e.g. v0.0.0-20261122223014-0e75f5d1a2b3+dirty); else the VCS revision
// it recorded (devel-0e75f5d1a2b3, with "+dirty"); else "devel".
func FromInfo(stamped string, info *debug.BuildInfo, ok bool) string {
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

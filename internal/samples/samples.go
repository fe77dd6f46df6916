// Package samples locates the ZÈRTZ game records the project tests and
// demonstrates with.
//
// Two sets exist:
//   - the built-in set: 33 real Boardspace games chosen for rule coverage,
//     shipped in this package's boardspace/ directory and embedded in the
//     binary (see boardspace/PROVENANCE.md for where they come from and on
//     what terms);
//   - an optional larger set, in the same layout (records plus a
//     MANIFEST.tsv): the directory named by $ZERTZ_SAMPLES, or else
//     ../shared/games/boardspace-sample beside the repository.
//
// Tests always run over the built-in set and also over the larger one when it
// is there, so a lone clone of the repository builds, tests and runs without
// anything beside it.
//
// Layer: base. May import: base.
package samples

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// EnvDir names the environment variable that points at a larger sample.
const EnvDir = "ZERTZ_SAMPLES"

//go:embed boardspace/*.sgf boardspace/MANIFEST.tsv
var builtin embed.FS

// Builtin returns the built-in games: *.sgf files and MANIFEST.tsv at its
// root. It works in an installed binary, far from the source tree.
func Builtin() fs.FS {
	sub, err := fs.Sub(builtin, "boardspace")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return sub
}

// BuiltinNames returns the built-in games' file names, sorted.
func BuiltinNames() []string {
	names, _ := fs.Glob(Builtin(), "*.sgf")
	sort.Strings(names)
	return names
}

// sourceDir is this package's directory in the source tree, for tests.
func sourceDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	return filepath.Dir(file)
}

// BuiltinDir returns the built-in games' directory in the source tree, for
// tests that read records by path. It is empty in a binary built with
// -trimpath, which should use Builtin.
func BuiltinDir() string {
	dir := filepath.Join(sourceDir(), "boardspace")
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		return ""
	}
	return dir
}

// Path returns the path in the source tree of the built-in game name.
func Path(name string) string { return filepath.Join(BuiltinDir(), name) }

// ExtendedDir returns the larger sample's directory, or "" when there is
// none: $ZERTZ_SAMPLES if set, else ../shared/games/boardspace-sample beside
// the repository. A set $ZERTZ_SAMPLES that is not a directory is returned as
// it is, so that the tests using it fail and say so rather than skip.
func ExtendedDir() string {
	if d := os.Getenv(EnvDir); d != "" {
		return d
	}
	src := sourceDir()
	if src == "" {
		return ""
	}
	// internal/samples → repository root → its parent.
	d := filepath.Join(src, "..", "..", "..", "shared", "games", "boardspace-sample")
	if fi, err := os.Stat(d); err == nil && fi.IsDir() {
		return filepath.Clean(d)
	}
	return ""
}

// Records returns the sorted paths of the game records (*.sgf, *.json) in
// dir.
func Records(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && (strings.HasSuffix(n, ".sgf") || strings.HasSuffix(n, ".json")) {
			files = append(files, filepath.Join(dir, n))
		}
	}
	sort.Strings(files)
	return files, nil
}

// All returns the built-in games' paths, then those of the larger sample
// (ExtendedDir) that are not built in, by file name. Tests that walk every
// game use it, so the larger sample only adds to what a lone clone checks.
func All() ([]string, error) {
	files, err := Records(BuiltinDir())
	if err != nil {
		return nil, err
	}
	dir := ExtendedDir()
	if dir == "" {
		return files, nil
	}
	more, err := Records(dir)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[filepath.Base(f)] = true
	}
	for _, f := range more {
		if !seen[filepath.Base(f)] {
			files = append(files, f)
		}
	}
	return files, nil
}

package samples

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuiltinMatchesManifest checks that the embedded set, the source
// directory and the manifest name exactly the same games, so a game cannot
// be added without its manifest row (which the conformance tests read).
func TestBuiltinMatchesManifest(t *testing.T) {
	names := BuiltinNames()
	if len(names) < 30 {
		t.Fatalf("BuiltinNames() has %d games; want at least 30", len(names))
	}
	data, err := fs.ReadFile(Builtin(), "MANIFEST.tsv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if !strings.HasPrefix(lines[0], "file\t") {
		t.Fatalf("MANIFEST.tsv header = %q; want it to start with a file column", lines[0])
	}
	inManifest := map[string]bool{}
	for _, l := range lines[1:] {
		inManifest[strings.SplitN(l, "\t", 2)[0]] = true
	}
	for _, n := range names {
		if !inManifest[n] {
			t.Errorf("%s is built in but has no MANIFEST.tsv row", n)
		}
		if _, err := os.Stat(Path(n)); err != nil {
			t.Errorf("Path(%q): %v", n, err)
		}
	}
	if len(inManifest) != len(names) {
		t.Errorf("MANIFEST.tsv has %d rows; %d games are built in", len(inManifest), len(names))
	}
	onDisk, err := Records(BuiltinDir())
	if err != nil || len(onDisk) != len(names) {
		t.Errorf("Records(BuiltinDir()) = %d files, %v; want %d", len(onDisk), err, len(names))
	}
}

func TestExtendedDirFromEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvDir, dir)
	if got := ExtendedDir(); got != dir {
		t.Errorf("ExtendedDir() with %s=%s = %q", EnvDir, dir, got)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.sgf"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Records(dir)
	if err != nil || len(got) != 2 || filepath.Base(got[0]) != "a.json" || filepath.Base(got[1]) != "b.sgf" {
		t.Errorf("Records(%s) = %v, %v; want a.json, b.sgf", dir, got, err)
	}
}

func TestAllAddsTheLargerSample(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvDir, dir)
	builtin := BuiltinNames()
	// One game also in the built-in set, one new.
	for _, n := range []string{builtin[0], "999_new.sgf"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(builtin)+1 || filepath.Base(all[len(all)-1]) != "999_new.sgf" {
		t.Errorf("All() = %d files ending %q; want the %d built-in games then 999_new.sgf", len(all), all[len(all)-1], len(builtin))
	}
	t.Setenv(EnvDir, filepath.Join(dir, "missing"))
	if _, err := All(); err == nil {
		t.Error("All() with a missing $ZERTZ_SAMPLES directory succeeded; want an error naming it")
	}
}

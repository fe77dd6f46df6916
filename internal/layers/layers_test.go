package layers

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTree: the whole module keeps its layers. No import runs back up, no
// package is outside the table, nothing imports in a cycle, and every
// package comment states its layer's rule.
func TestTree(t *testing.T) {
	module, g, docs, err := Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	if module != "github.com/zertzboard/zertzboard" {
		t.Fatalf("module %q", module)
	}
	// The loader saw the tree: a few packages and imports it must find.
	for pkg, imp := range map[string]string{
		"referee":       "engine",
		"hardware/open": "hardware/scan",
		"board":         "controller",
	} {
		if !slices.Contains(g[pkg], imp) {
			t.Errorf("Load: %s does not import %s; it read %v", pkg, imp, g[pkg])
		}
	}
	if len(g) < 50 {
		t.Errorf("Load found %d packages; the tree has about 60", len(g))
	}
	for _, p := range Check(Table, g) {
		t.Error(p)
	}
	for _, p := range CheckDocs(Table, docs) {
		t.Error(p)
	}
}

// fake is a table of three layers for the checker's own tests.
var fake = []Layer{
	{Name: "low", Packages: []string{"util/...", "engine"}},
	{Name: "mid", May: []string{"low"}, Packages: []string{"engine/...", "hw/..."}, Hardware: true},
	{Name: "top", May: []string{"low", "mid"}, Packages: []string{"cmd/..."}, Hardware: true},
}

func TestCheckAcceptsDownwardImports(t *testing.T) {
	g := Graph{
		"util":          nil,
		"engine":        {"util"},
		"engine/search": {"engine", "util", "hw/spi"},
		"hw/spi":        {"periph.io/x/conn/v3/spi", "github.com/x/y"},
		"cmd/app":       {"engine/search", "hw/spi", "util"},
	}
	if p := Check(fake, g); len(p) != 0 {
		t.Errorf("Check found %v in a graph that keeps the layers", p)
	}
}

func TestCheckNamesTheImportThatRunsBackUp(t *testing.T) {
	g := Graph{
		"engine":        {"engine/search"}, // low imports mid
		"engine/search": nil,
		"cmd/app":       {"engine"},
	}
	got := Check(fake, g)
	if len(got) != 1 {
		t.Fatalf("Check = %v, want one problem", got)
	}
	for _, want := range []string{"engine imports engine/search", "runs back up", "layer low may import only low", "engine/search is in layer mid"} {
		if !strings.Contains(string(got[0]), want) {
			t.Errorf("problem %q does not say %q", got[0], want)
		}
	}
}

func TestCheckFindsCycles(t *testing.T) {
	g := Graph{
		"util/a": {"util/b"},
		"util/b": {"util/c"},
		"util/c": {"util/a"},
		"util/d": {"util/d"},
		"util/e": {"util/a"}, // imports into the cycle, is not part of it
	}
	got := Check(fake, g)
	want := []Problem{
		"import cycle: util/a -> util/b -> util/c -> util/a",
		"import cycle: util/d -> util/d",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Check = %q\nwant %q", got, want)
	}
}

func TestCheckShortestLoopOfABigComponent(t *testing.T) {
	g := Graph{
		"util/a": {"util/b", "util/c"},
		"util/b": {"util/c"},
		"util/c": {"util/a"},
	}
	got := Cycles(g)
	if len(got) != 1 || !slices.Equal(got[0], []string{"util/a", "util/c"}) {
		t.Errorf("Cycles = %v, want [[util/a util/c]]", got)
	}
}

func TestCheckUnknownPackage(t *testing.T) {
	got := Check(fake, Graph{"newpkg": {"util"}})
	if len(got) != 1 || !strings.Contains(string(got[0]), "package newpkg is in no layer") {
		t.Errorf("Check = %v, want newpkg named as in no layer", got)
	}
}

func TestCheckHardwareLibraries(t *testing.T) {
	got := Check(fake, Graph{"engine": {"periph.io/x/conn/v3/gpio"}})
	if len(got) != 1 || !strings.Contains(string(got[0]), "engine imports periph.io/x/conn/v3/gpio: layer low may not import the hardware libraries") {
		t.Errorf("Check = %v", got)
	}
}

func TestCheckTheTableItself(t *testing.T) {
	bad := []Layer{
		{Name: "a", May: []string{"b"}},
		{Name: "b", May: []string{"a", "nowhere"}},
		{Name: "b"},
	}
	got := Check(bad, Graph{})
	for _, want := range []string{
		"layer a may import b, which is not listed before it",
		"layer b may import nowhere, which is no layer of the table",
		"the table lists layer b twice",
	} {
		found := false
		for _, p := range got {
			found = found || strings.Contains(string(p), want)
		}
		if !found {
			t.Errorf("Check = %q: nothing says %q", got, want)
		}
	}
}

func TestOfLongestMatchWins(t *testing.T) {
	for pkg, want := range map[string]string{
		"engine":        "low", // exact beats engine/... of the same length
		"engine/search": "mid",
		"util":          "low",
		"util/x/y":      "low",
		"cmd":           "top",
	} {
		l, ok := Of(fake, pkg)
		if !ok || l.Name != want {
			t.Errorf("Of(%s) = %s, %v; want %s", pkg, l.Name, ok, want)
		}
	}
	if _, ok := Of(fake, "utility"); ok {
		t.Error("util/... matched utility")
	}
	// The real table: the players sit above the board, the simulated
	// hardware below it.
	for pkg, want := range map[string]string{"sim": "simulator", "sim/players": "players", "scoreboard/stream": "base", "scoreboard/view": "presentation", "display/face": "base", "command": "game"} {
		if l, _ := Of(Table, pkg); l.Name != want {
			t.Errorf("Of(Table, %s) = %q, want %s", pkg, l.Name, want)
		}
	}
}

func TestCheckDocs(t *testing.T) {
	docs := map[string]string{
		"util":      "Package util helps.\n\nLayer: low.\nMay import: low.\n", // wrapped: still the rule
		"engine":    "Package engine plays.\n",
		"cmd/app":   "",
		"elsewhere": "Package elsewhere is in no layer; Check says so.",
	}
	got := CheckDocs(fake, docs)
	want := []Problem{
		`package cmd/app has no package comment: say what it is, and end with "Layer: top. May import: low, mid, top."`,
		`package engine's comment does not state its layer: add "Layer: low. May import: low."`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("CheckDocs = %q\nwant %q", got, want)
	}
}

// TestLoad reads a small module from disk: imports of every platform's
// files, none of the tests', none of an ignored file's, the package
// comments, and the module's own root package.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.org/m\n\ngo 1.24\n")
	write("m.go", "// Package m is the root.\npackage m\n\nimport _ \"example.org/m/util\"\n")
	write("util/util.go", "// Package util helps.\npackage util\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n")
	write("engine/a_linux.go", "//go:build linux\n\n// Package engine plays.\npackage engine\n\nimport \"example.org/m/util\"\n\nvar _ = util.X\n")
	write("engine/a_other.go", "//go:build !linux\n\npackage engine\n\nimport \"periph.io/x/conn/v3\"\n")
	write("engine/gen.go", "//go:build ignore\n\npackage main\n\nimport \"example.org/m/cmd/app\"\n")
	write("engine/a_test.go", "package engine\n\nimport \"example.org/m/cmd/app\"\n")
	write("engine/testdata/x.go", "package x\n\nimport \"example.org/m/cmd/app\"\n")
	write("cmd/app/main.go", "package main\n\nimport (\n\t\"example.org/m/engine\"\n\t\"example.org/m\"\n)\n")
	write("other/go.mod", "module example.org/other\n")
	write("other/o.go", "package o\n")

	module, g, docs, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if module != "example.org/m" {
		t.Errorf("module %q", module)
	}
	want := Graph{
		"":        {"util"},
		"util":    nil,
		"engine":  {"periph.io/x/conn/v3", "util"},
		"cmd/app": {"", "engine"},
	}
	if len(g) != len(want) {
		t.Errorf("Load found packages %v, want %v", sortedKeys(g), sortedKeys(want))
	}
	for pkg, imps := range want {
		if !slices.Equal(g[pkg], imps) {
			t.Errorf("%q imports %q, want %q", pkg, g[pkg], imps)
		}
	}
	if docs["engine"] != "Package engine plays.\n" || docs["util"] != "Package util helps.\n" || docs["cmd/app"] != "" {
		t.Errorf("docs = %q", docs)
	}
}

func TestLoadNamesAMissingModule(t *testing.T) {
	_, _, _, err := Load(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "go.mod") {
		t.Errorf("Load of a directory without go.mod: %v", err)
	}
}

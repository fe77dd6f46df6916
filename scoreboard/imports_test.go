package scoreboard

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPartsImportNoHigher: the scoreboard's parts (view, stream, results,
// console)
// never import the server or each other's way up: each may use the
// standard library, the game's packages and what its package comment
// names, so the server wires them and nothing runs back. A part that
// imported the server would not build (a cycle); this also keeps them
// from the MQTT client, the network and each other.
func TestPartsImportNoHigher(t *testing.T) {
	const mod = "github.com/zertzboard/zertzboard/"
	allowed := map[string][]string{
		// Rendering: the game's packages and the keyed tree it builds
		// (stream), no network, no other part.
		"view": {mod + "wire", mod + "engine", mod + "referee", mod + "display", mod + "i18n", mod + "scoreboard/stream"},
		// Patches and sockets: the standard library only.
		"stream": {},
		// The browser's side of the patches, for tests.
		"stream/streamtest": {mod + "scoreboard/stream"},
		// Finished games: their records and the engine's words for how a
		// game ended, nothing of the pages.
		"results": {mod + "record", mod + "engine"},
		// Operators' sessions and actions: the MQTT client, the view's
		// text helpers, the board's commands (and the time controls
		// new-game carries), no server.
		"console": {"github.com/eclipse/paho.mqtt.golang", "github.com/eclipse/paho.mqtt.golang/packets",
			mod + "clock", mod + "command", mod + "engine", mod + "i18n", mod + "internal/textcheck", mod + "scoreboard/view"},
	}
	for part, ok := range allowed {
		p, err := build.ImportDir(part, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.GoFiles) == 0 {
			t.Fatalf("%s has no Go files", part)
		}
		for _, imp := range p.Imports {
			if !strings.Contains(imp, ".") && !strings.HasPrefix(imp, mod) {
				continue // the standard library
			}
			allowedHere := false
			for _, a := range ok {
				if imp == a {
					allowedHere = true
				}
			}
			if !allowedHere {
				t.Errorf("scoreboard/%s imports %s; it may import only the standard library and %v", part, imp, ok)
			}
		}
	}
}

// TestNoHTMLReadOnThePatchPath: the views are made as keyed trees (package
// stream's Builder) and diffed as they are; nothing the scoreboard runs
// reads its own HTML back. No file but tests of the server, the views or
// the patches imports the browser-side reader (stream/streamtest) or an
// HTML parser, or unescapes HTML.
func TestNoHTMLReadOnThePatchPath(t *testing.T) {
	const mod = "github.com/zertzboard/zertzboard/"
	banned := map[string]bool{
		mod + "scoreboard/stream/streamtest": true,
		"golang.org/x/net/html":              true,
	}
	for _, dir := range []string{".", "view", "stream"} {
		p, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range p.Imports {
			if banned[imp] {
				t.Errorf("scoreboard/%s imports %s", dir, imp)
			}
		}
		if dir != "." && slices.Contains(p.Imports, "html/template") { // the server's pages use it, never on the patch path
			t.Errorf("scoreboard/%s imports html/template", dir)
		}
		fset := token.NewFileSet()
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "html" && sel.Sel.Name == "UnescapeString" {
						t.Errorf("%s unescapes HTML at %s", name, fset.Position(sel.Pos()))
					}
				}
				if fn, ok := n.(*ast.FuncDecl); ok && dir == "stream" && strings.HasPrefix(strings.ToLower(fn.Name.Name), "parse") {
					t.Errorf("scoreboard/stream has a reader of HTML, %s, at %s", fn.Name.Name, fset.Position(fn.Pos()))
				}
				return true
			})
		}
	}
}

package scoreboard

import (
	"go/build"
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
		// Rendering: the game's packages, no network, no other part.
		"view": {mod + "live", mod + "referee", mod + "display", mod + "i18n"},
		// Patches and sockets: the standard library only.
		"stream": {},
		// Finished games: their records, nothing of the pages.
		"results": {mod + "record"},
		// Operators' sessions and actions: the MQTT client, the view's
		// text helpers, no server.
		"console": {"github.com/eclipse/paho.mqtt.golang", "github.com/eclipse/paho.mqtt.golang/packets",
			mod + "i18n", mod + "internal/textcheck", mod + "scoreboard/view"},
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

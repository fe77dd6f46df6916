package display

import (
	"go/build"
	"strings"
	"testing"
)

// TestPure: display is pure; the drivers in hardware/ depend on what it
// lays out, never the other way round.
func TestPure(t *testing.T) {
	p, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range p.Imports {
		if strings.Contains(imp, "/hardware/") || strings.HasPrefix(imp, "periph.io/") {
			t.Errorf("display imports %s", imp)
		}
	}
}

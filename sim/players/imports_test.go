package players

import (
	"go/build"
	"strings"
	"testing"
)

// TestPure: the hands are pure: of the module they import only the rules
// engine and the settle rule, and nothing outside the standard library,
// so the referee's exams run them with no hardware or board at all.
func TestPure(t *testing.T) {
	p, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	const module = "github.com/zertzboard/zertzboard/"
	for _, imp := range p.Imports {
		own, ok := strings.CutPrefix(imp, module)
		switch {
		case ok && own != "engine" && own != "settle":
			t.Errorf("sim/players imports %s", imp)
		case !ok && strings.Contains(strings.SplitN(imp, "/", 2)[0], "."):
			t.Errorf("sim/players imports %s, outside the standard library", imp)
		}
	}
}

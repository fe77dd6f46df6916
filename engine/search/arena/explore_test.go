package arena

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
)

func TestExplore(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	n, _ := strconv.Atoi(os.Getenv("N"))
	b := engine.MustStandardBoard(os.Getenv("BOARD"))
	ops := Openings(b, engine.Standard, n, 1)
	run := func(a, c Player) {
		t0 := time.Now()
		s, err := Match(ops, a, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s vs %s: %s  (%v)", a.Name(), c.Name(), s, time.Since(t0))
	}
	switch os.Getenv("EXPLORE") {
	case "random":
		run(&Engine{Label: "L1", Opt: search.Options{Level: 1}}, &Random{Seed: 1})
	case "dumb":
		d := &Dumbot{Depth: 2}
		e := &Engine{Label: "L5", Opt: search.Options{Level: 5}}
		run(e, d)
		t.Logf("dumbot nodes %d engine nodes %d", d.Nodes, e.Nodes)
	case "levels":
		a, _ := strconv.Atoi(os.Getenv("A"))
		c, _ := strconv.Atoi(os.Getenv("C"))
		run(&Engine{Label: "La", Opt: search.Options{Level: a}}, &Engine{Label: "Lc", Opt: search.Options{Level: c}})
	}
}

package analyst

import (
	"runtime"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
	"github.com/zertzboard/zertzboard/internal/background"
)

// Busy starts the engine searching, as in a game against it: the 61-ring
// start at the top level, far longer than a measurement, on the
// background thread an Opponent uses. It returns once that thread runs;
// stop ends the search. It is for measuring what runs beside the engine
// (selftest --engine-thinking).
func Busy() (stop func()) {
	opp := &Opponent{}
	p := engine.NewPosition(engine.MustStandardBoard("61"), engine.Standard, 0)
	opp.Think(p, search.Options{Level: search.MaxLevel}, func(engine.Position, search.Result) {})
	for len(background.Running()) == 0 {
		runtime.Gosched() // until the search's thread has started
	}
	return opp.Close
}

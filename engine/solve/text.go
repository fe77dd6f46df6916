package solve

import (
	"fmt"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
)

// Text is the result of searching p within maxTurns in words, as
// "zertzboard analyze" prints it: the forced win and its line, that none
// exists within maxTurns, or how deep the search got before its budget ran
// out; each with the positions searched and the time taken (ms, the
// caller's clock).
func (r Result) Text(p engine.Position, maxTurns int, ms int64) string {
	rep := r.Report(p.Board(), ms)
	stats := fmt.Sprintf("(%d positions, %d ms)", rep.Nodes, rep.MS)
	switch {
	case p.Result().Over:
		return fmt.Sprintf("the game is over: %s", p.Result())
	case r.Win != nil:
		w := rep.ForcedWin
		return fmt.Sprintf("forced win for player %d in %s: %s %s", w.Player, plural(w.Turns, "turn"), strings.Join(w.Line, " "), stats)
	case r.Complete:
		return fmt.Sprintf("no forced win for player %d within %s %s", p.ToMove(), plural(maxTurns, "turn"), stats)
	case r.Depth > 0:
		return fmt.Sprintf("out of time: no forced win for player %d within %s; %d not finished %s", p.ToMove(), plural(r.Depth, "turn"), r.Depth+1, stats)
	}
	return fmt.Sprintf("out of time before a whole turn was searched %s", stats)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

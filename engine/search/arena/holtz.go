package arena

import "github.com/zertzboard/zertzboard/engine"

// Holtz is a baseline after Holtz's ZÈRTZ AI as issue 21 describes it
// (written from that description, not from its code): alpha-beta with
// iterative deepening (depth 1, 2, … while its node budget lasts, the
// previous depth's best turn searched first) and a capture extension: at
// the horizon, a position where the player to move must capture is not
// evaluated but searched on, capture by capture (captures are compulsory,
// so these are all its turns), up to MaxExtension extra turns. No
// transposition table. Its evaluation is the difference in marbles still
// needed to win, as Dumbot's.
type Holtz struct {
	MaxNodes int64
	// MaxDepth caps the deepening (0: 64); MaxExtension caps the capture
	// extension (0: 16 turns; below 0: no extension).
	MaxDepth, MaxExtension int
	Nodes                  int64
	// Reached is the last turn's deepest finished depth; Extended counts
	// the horizon positions it searched on instead of evaluating, over
	// every turn.
	Reached  int
	Extended int64

	nodes   int64
	stopped bool
}

// Name implements Player.
func (h *Holtz) Name() string { return "holtz" }

// Turn implements Player.
func (h *Holtz) Turn(p engine.Position) engine.Turn {
	h.nodes, h.stopped, h.Reached = 0, false, 0
	turns := p.LegalTurns(nil)
	if len(turns) == 1 {
		return turns[0]
	}
	maxDepth := h.MaxDepth
	if maxDepth <= 0 {
		maxDepth = 64
	}
	if h.MaxNodes <= 0 && h.MaxDepth <= 0 {
		maxDepth = 2 // no budget at all: a shallow search, not an endless one
	}
	for d := 1; d <= maxDepth; d++ {
		alpha := -1 << 30
		bi := -1
		for i := range turns {
			v := -h.ab(p.Apply(&turns[i]), d-1, 1, 0, -(1 << 30), -alpha)
			if h.stopped {
				break
			}
			if v > alpha {
				alpha, bi = v, i
			}
		}
		if h.stopped {
			break
		}
		h.Reached = d
		// The best turn first at the next depth.
		turns[0], turns[bi] = turns[bi], turns[0]
		if alpha >= dumbWin-64 || alpha <= -(dumbWin-64) {
			break // a forced result: deeper changes nothing
		}
	}
	h.Nodes += h.nodes
	return turns[0]
}

func (h *Holtz) ab(p engine.Position, depth, ply, ext, alpha, beta int) int {
	h.nodes++
	if h.MaxNodes > 0 && h.nodes >= h.MaxNodes {
		h.stopped = true
		return 0
	}
	if v, over := resultScore(p, ply); over {
		return v
	}
	maxExt := h.MaxExtension
	if maxExt == 0 {
		maxExt = 16
	}
	if depth <= 0 {
		if maxExt < 0 || !p.HasCapture() || ext >= maxExt {
			return dumbEval(p)
		}
		h.Extended++
		ext++ // searched on: the captures do not use up depth
	}
	best := -(1 << 30)
	for _, t := range p.LegalTurns(nil) {
		v := -h.ab(p.Apply(&t), depth-1, ply+1, ext, -beta, -alpha)
		if h.stopped {
			return 0
		}
		best = max(best, v)
		alpha = max(alpha, v)
		if alpha >= beta {
			break
		}
	}
	return best
}

// Package search plays ZÈRTZ: given a position it finds a good turn for
// the player to move, with a score and the line it expects.
//
// The search is a negamax alpha-beta over whole turns, as the engine
// generates them, with principal-variation search and iterative
// deepening:
//
//   - a transposition table keyed by the engine's Zobrist hash (bounded:
//     2^TableBits entries of 16 bytes) gives each position its best turn
//     from earlier iterations and cuts off positions already searched deep
//     enough;
//   - turns are ordered: the table's turn, then captures (longest chains
//     first), killers (turns that cut off at the same ply), then by a
//     history of the placements (colour and ring, and ring removed) that
//     caused cut-offs;
//   - captures are compulsory in ZÈRTZ, so a capture chain is a forced
//     reply: at the horizon a quiescence search plays every capture out
//     (no "stand pat" while one is on, since the mover must take), then
//     looks for a placement that wins at once (engine.Position.WinningTurn)
//     and tries the placements that claim marbles by isolation besides
//     standing pat. A position with a single legal turn is extended
//     (costs no depth);
//   - quiet placements (no capture given, no ring claimed, told without
//     playing them) late in the order are searched one or two turns
//     shallower (late-move reductions, the root included), and again at
//     full depth if they turn out better; at the frontier a few quiet
//     placements, and a few removals with each colour and ring, stand for
//     all (they leave the evaluation alike);
//   - at the root the exact forced-win solver (engine/solve) looks for a
//     win within SolveTurns of the mover's turns first: a proven win is
//     played as proven.
//
// The evaluation is Evaluate: progress towards each winning set, steeply
// non-linear, with unreachable sets left out.
//
// Budgets: a node limit (positions played), a level 1–10 that stands for a
// node limit, and a context for time. With a node limit and no deadline
// the search is deterministic: the same turn, score and node count on
// every machine and architecture (nothing iterates a map, no floating
// point decides, no clock is read). The seed only breaks ties between root turns of equal score.
//
// The package is pure: no I/O, no goroutines, no clocks.
//
// Of this module it imports only engine and engine/solve.
// Layer: game. May import: base, game.
package search

import (
	"context"
	"slices"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/solve"
)

// Scores.
const (
	// Mate is the score of a win on the board now; a win n plies away
	// scores Mate−n, a loss −(Mate−n).
	Mate = 30000
	// MaxPly bounds the search's depth in plies (turns), extensions and
	// quiescence included.
	MaxPly = 96
	inf    = 32000
)

// IsMate reports whether a score is a proven win (> 0) or loss (< 0).
func IsMate(score int) bool { return score > Mate-MaxPly || score < -(Mate-MaxPly) }

// MaxLevel is the strongest level.
const MaxLevel = 10

// levelNodes are the node budgets of levels 1 to 10. A level is a node
// budget so that it plays the same on every Pi; docs/ENGINE.md gives each
// level's time and strength.
var levelNodes = [MaxLevel + 1]int64{0, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000, 1_280_000, 2_560_000, 5_120_000}

// LevelNodes returns the node budget of level 1 to MaxLevel (clamped).
func LevelNodes(level int) int64 { return levelNodes[max(1, min(MaxLevel, level))] }

// levelDepth caps the depth of the lowest levels, so that they play a
// beginner's game: level 1 looks one turn ahead (and plays out the
// captures and claims that follow). 0: no cap.
var levelDepth = [MaxLevel + 1]int{0, 1}

// LevelDepth returns the depth cap, in turns, of a level (0: none).
func LevelDepth(level int) int { return levelDepth[max(1, min(MaxLevel, level))] }

// DefaultLevel is the level used when no budget at all is given.
const DefaultLevel = 6

// Options bound and shape a search.
type Options struct {
	// MaxNodes stops the search after about this many positions played
	// (0: no limit, unless Level sets one).
	MaxNodes int64
	// Level 1–10 sets MaxNodes to LevelNodes(Level) when MaxNodes is 0
	// (and MaxDepth to LevelDepth(Level), when that is not 0 and MaxDepth
	// is).
	// With neither, and no deadline in the context, DefaultLevel applies.
	Level int
	// MaxDepth bounds the iterative deepening, in turns (0: MaxPly).
	MaxDepth int
	// Seed breaks ties between root turns that score the same: the same
	// seed and budget give the same turn. 0 keeps the generation order.
	Seed uint64
	// TableBits sizes the transposition table at 2^TableBits entries of
	// 16 bytes (0: sized to the node budget, at most 18, 4 MiB). It is
	// clamped to 10…24.
	TableBits int
	// SolveTurns is K for the forced-win solver run first at the root
	// (0: 2; negative: not run). It gets up to an eighth of the node
	// budget (none below 8,192 nodes: the search's own check for a turn
	// that wins at once covers the shortest wins).
	SolveTurns int
	// Info, if set, is called after every completed iteration.
	Info func(Info)
}

// Info describes a completed iteration.
type Info struct {
	Depth int
	Score int
	Nodes int64
	PV    []engine.Turn
}

// Result is a search's answer.
type Result struct {
	// Move is the turn to play. Its Kind is 0 when the game is over.
	Move engine.Turn
	// Score is the move's value for the player to move, in points (about
	// 100 a marble), or a mate score (see IsMate).
	Score int
	// WinProb is the probability, 0 to 1, that the player to move wins,
	// estimated from Score (exactly 0 or 1 for a proven result).
	WinProb float64
	// Depth is the last iteration completed, in turns (0: none; Move is
	// then the best of the first iteration's turns searched so far).
	Depth int
	// Nodes counts the positions played, the solver's included.
	Nodes int64
	// PV is the expected line, Move first.
	PV []engine.Turn
	// Solved is true when the forced-win solver proved the win.
	Solved bool
	// Stopped is true when the budget or the context ended the search
	// before MaxDepth.
	Stopped bool
}

// ttEntry is one transposition-table slot.
type ttEntry struct {
	key   uint64
	move  uint32
	score int16
	depth int8
	flag  uint8
}

const (
	flagExact = 1
	flagLower = 2
	flagUpper = 3
)

// A moveKey orders a turn: the higher its score the smaller the key, and
// ties keep the generation order (the index is the low half), so every
// key is distinct and any sort gives the same order.
type moveKey uint64

func makeKey(score int32, idx int, quiet bool) moveKey {
	k := moveKey(uint64(uint32(1<<31-1-score))<<32 | uint64(uint32(idx)))
	if quiet {
		k |= quietBit
	}
	return k
}

// quietBit marks a quiet placement (see geometry.tactical).
const quietBit = 1 << 30

func (k moveKey) idx() int { return int(uint32(k) &^ quietBit) }

func (k moveKey) quiet() bool { return k&quietBit != 0 }

// pickLazy is how many turns are picked one by one (a selection, O(n)
// each) before the rest are sorted: most cut-offs come from the first.
const pickLazy = 3

// pick moves the n-th turn of the order into place and returns its key.
func pick(o []moveKey, n int) moveKey {
	switch {
	case n < pickLazy:
		m := n
		for j := n + 1; j < len(o); j++ {
			if o[j] < o[m] {
				m = j
			}
		}
		o[n], o[m] = o[m], o[n]
	case n == pickLazy:
		slices.Sort(o[n:])
	}
	return o[n]
}

type searcher struct {
	ctx      context.Context
	maxNodes int64
	nodes    int64
	nextPoll int64
	stopped  bool
	seed     uint64

	tt   []ttEntry
	mask uint64

	killers [MaxPly][2]engine.Turn
	histAt  [2][3][engine.MaxCells]int32
	histRem [2][engine.MaxCells + 1]int32
	histCap [2][engine.MaxCells][engine.MaxCells]int32

	bufs   [MaxPly][]engine.Turn
	orders [MaxPly][]moveKey
	pv     [MaxPly + 1][MaxPly + 1]engine.Turn
	pvLen  [MaxPly + 1]int
}

// claimsInQuiescence: the quiescence search tries claims by isolation.
var claimsInQuiescence = true

// lmpQuiet is how many quiet placements a frontier node (depth 1, not on
// the principal variation) tries.
const lmpQuiet = 3

// lmpRemovals is how many removals a frontier node (as for lmpQuiet)
// tries with each colour and ring.
const lmpRemovals = 2

// pollEvery is how many nodes pass between looks at the context.
const pollEvery = 1024

// solvePoll is how many nodes engine/solve may go past its limit.
const solvePoll = 1024

// Search finds a turn for the player to move in p. It returns at once, with
// no Move, when the game is over.
func Search(ctx context.Context, p engine.Position, opt Options) Result {
	if p.Result().Over {
		return Result{Score: 0, WinProb: winProb(p, 0)}
	}
	if opt.MaxNodes <= 0 {
		switch {
		case opt.Level > 0:
			opt.MaxNodes = LevelNodes(opt.Level)
			if opt.MaxDepth <= 0 {
				opt.MaxDepth = LevelDepth(opt.Level)
			}
		case ctxHasDeadline(ctx):
		default:
			opt.MaxNodes = LevelNodes(DefaultLevel)
		}
	}
	maxDepth := opt.MaxDepth
	if maxDepth <= 0 || maxDepth > MaxPly-1 {
		maxDepth = MaxPly - 1
	}
	bitsN := opt.TableBits
	switch {
	case bitsN == 0:
		// About two entries a node for small budgets, up to 4 MiB.
		bitsN = 18
		if opt.MaxNodes > 0 {
			bitsN = max(12, min(18, bitsLen(uint64(opt.MaxNodes))+1))
		}
	case bitsN < 10:
		bitsN = 10
	case bitsN > 24:
		bitsN = 24
	}
	s := &searcher{ctx: ctx, maxNodes: opt.MaxNodes, nextPoll: pollEvery, seed: opt.Seed,
		tt: make([]ttEntry, 1<<bitsN), mask: 1<<bitsN - 1}

	// The exact solver first: a proven win is played as proven.
	if k := opt.SolveTurns; k >= 0 {
		if k == 0 {
			k = 2
		}
		// The solver looks at its node limit every solvePoll nodes, so
		// it is given an eighth of the budget less that much; too small
		// a budget leaves it out.
		limit := int64(-1)
		if opt.MaxNodes > 0 {
			limit = opt.MaxNodes/8 - solvePoll
		} else {
			limit = 0
		}
		var res solve.Result
		if limit >= 0 {
			res = solve.Solve(ctx, p, solve.Options{MaxTurns: k, MaxNodes: max(limit, 1), TableBits: 14})
		}
		s.nodes += res.Nodes
		if res.Win != nil {
			score := Mate - len(res.Win.Line)
			return Result{Move: res.Win.Line[0], Score: score, WinProb: winProb(p, score), Depth: len(res.Win.Line),
				Nodes: s.nodes, PV: res.Win.Line, Solved: true}
		}
		s.nextPoll = s.nodes + pollEvery
	}
	return s.root(p, maxDepth, opt.Info)
}

func ctxHasDeadline(ctx context.Context) bool {
	_, ok := ctx.Deadline()
	return ok
}

// root runs the iterative deepening.
func (s *searcher) root(p engine.Position, maxDepth int, info func(Info)) Result {
	turns := p.LegalTurns(nil)
	order, quietRoot := s.rootOrder(p, turns)
	res := Result{Move: turns[order[0]], Score: 0}
	scores := make([]int, len(turns))
	var pv []engine.Turn
	for depth := 1; depth <= maxDepth; depth++ {
		alpha, beta := -inf, inf
		best, bestIdx := -inf, -1
		ext := 0
		if len(turns) == 1 {
			ext = 1
		}
		for n, i := range order {
			t := &turns[i]
			q := p.Apply(t)
			if s.tick() {
				break
			}
			reduce := quietRoot[i] && depth >= 2 && n >= 4
			score := s.rootScore(q, depth-1+ext, n == 0, reduce, alpha, beta)
			if s.stopped {
				break
			}
			scores[i] = score
			if n > 0 && score <= alpha {
				scores[i] = alpha - 1 - n // keep the order, below the best
			}
			if score > best {
				best, bestIdx = score, i
				s.pv[0][0] = *t
				copy(s.pv[0][1:], s.pv[1][1:s.pvLen[1]])
				s.pvLen[0] = max(s.pvLen[1], 1)
				if score > alpha {
					alpha = score
				}
				// A turn that beat the previous best with a full window is
				// better, even if the iteration does not finish.
				res.Move, res.Score = *t, score
				pv = append(pv[:0], s.pv[0][:s.pvLen[0]]...)
			}
		}
		if s.stopped {
			if bestIdx < 0 && depth == 1 {
				// Not even one turn searched: take the first in order.
				res.Move = turns[order[0]]
				pv = []engine.Turn{res.Move}
			}
			res.Stopped = true
			break
		}
		res.Depth = depth
		res.Move, res.Score = turns[bestIdx], best
		if info != nil {
			info(Info{Depth: depth, Score: best, Nodes: s.nodes, PV: slices.Clone(pv)})
		}
		// Next iteration: best first, then by this iteration's scores.
		slices.SortStableFunc(order, func(a, b int) int {
			if a == bestIdx {
				return -1
			}
			if b == bestIdx {
				return 1
			}
			return scores[b] - scores[a]
		})
		if IsMate(best) || len(turns) == 1 && depth >= 2 {
			break
		}
	}
	res.Nodes = s.nodes
	res.PV = pv
	if len(res.PV) == 0 {
		res.PV = []engine.Turn{res.Move}
	}
	res.WinProb = winProb(p, res.Score)
	return res
}

// rootOrder is the order the root searches turns in: shuffled by the
// seed among equals, captures first and the longest first; and which
// turns are quiet placements, searched a turn shallower first when late
// in the order.
func (s *searcher) rootOrder(p engine.Position, turns []engine.Turn) (order []int, quietRoot []bool) {
	order = make([]int, len(turns))
	for i := range order {
		order[i] = i
	}
	if s.seed != 0 {
		// A seeded shuffle: among root turns of equal score the first
		// searched is kept, so the seed picks among them.
		rng := s.seed
		for i := len(order) - 1; i > 0; i-- {
			rng = splitmix(rng)
			j := int(rng % uint64(i+1))
			order[i], order[j] = order[j], order[i]
		}
	}
	// Captures first, longest first, from the start.
	slices.SortStableFunc(order, func(a, b int) int {
		return turns[b].Hops() - turns[a].Hops()
	})
	// Quiet root placements late in the order are searched a turn
	// shallower first, like everywhere else.
	quietRoot = make([]bool, len(turns))
	if turns[0].Kind == engine.Place {
		g, st := geometryOf(p.Board()), setsOf(&p)
		for i := range turns {
			quietRoot[i] = turns[i].Kind == engine.Place && !g.tactical(&st, &turns[i])
		}
	}
	return order, quietRoot
}

// rootScore searches the position q after one root turn to depth nd: the
// first turn with the full window, the others with a null window first
// (one turn shallower when reduce), searched again wider when they beat
// alpha.
func (s *searcher) rootScore(q engine.Position, nd int, first, reduce bool, alpha, beta int) int {
	if first {
		return -s.search(q, nd, 1, -beta, -alpha, true)
	}
	red := 0
	if reduce {
		red = 1
	}
	score := -s.search(q, nd-red, 1, -alpha-1, -alpha, false)
	if score > alpha && red > 0 && !s.stopped {
		score = -s.search(q, nd, 1, -alpha-1, -alpha, false)
	}
	if score > alpha && !s.stopped {
		score = -s.search(q, nd, 1, -beta, -alpha, true)
	}
	return score
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	z := x
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// tick counts a node and says whether to stop.
func (s *searcher) tick() bool {
	s.nodes++
	if s.maxNodes > 0 && s.nodes >= s.maxNodes {
		s.stopped = true
	}
	if s.nodes >= s.nextPoll {
		s.nextPoll = s.nodes + pollEvery
		if s.ctx.Err() != nil {
			s.stopped = true
		}
	}
	return s.stopped
}

// terminal scores a finished game for the player to move at ply.
func terminal(p *engine.Position, ply int) int {
	r := p.Result()
	switch {
	case r.Winner < 0:
		return 0
	case r.Winner == p.ToMove():
		return Mate - ply
	}
	return -(Mate - ply)
}

// cacheable: positions with an empty pool can recur, and whether they are
// drawn by repetition depends on history the hash leaves out.
func cacheable(p *engine.Position) bool { return p.Pool() != [3]int{} }

func toTT(score, ply int) int16 {
	switch {
	case score > Mate-MaxPly:
		score += ply
	case score < -(Mate - MaxPly):
		score -= ply
	}
	return int16(score)
}

func fromTT(score int16, ply int) int {
	v := int(score)
	switch {
	case v > Mate-MaxPly:
		v -= ply
	case v < -(Mate - MaxPly):
		v += ply
	}
	return v
}

// encode packs a turn for the table and the killers: kind, then colour,
// ring and removal, or a capture's start, end and hops.
func encode(t *engine.Turn) uint32 {
	switch t.Kind {
	case engine.Place:
		return 1<<30 | uint32(t.Color)<<20 | uint32(t.From)<<18 | uint32(uint8(t.At))<<8 | uint32(uint8(t.Remove+1))
	case engine.Capture:
		h := t.Hops()
		return 2<<30 | uint32(h)<<20 | uint32(uint8(t.PathCell(0)))<<8 | uint32(uint8(t.PathCell(h)))
	case engine.Pass:
		return 3 << 30
	}
	return 0
}

// search is the negamax alpha-beta with PVS at depth > 0.
func (s *searcher) search(p engine.Position, depth, ply, alpha, beta int, pvNode bool) int {
	s.pvLen[ply] = ply

	if p.Result().Over {
		return terminal(&p, ply)
	}
	if ply >= MaxPly-1 {
		return evaluate(&p)
	}
	if depth <= 0 {
		return s.qsearch(p, ply, alpha, beta)
	}
	// Mate-distance pruning.
	alpha = max(alpha, -(Mate - ply))
	beta = min(beta, Mate-ply-1)
	if alpha >= beta {
		return alpha
	}
	origAlpha := alpha
	key := p.Hash()
	e, ttMove, v, done := s.probe(key, cacheable(&p), depth, ply, alpha, beta, pvNode)
	if done {
		return v
	}
	// A win at once ends the search here.
	if _, ok := p.WinningTurn(); ok {
		return Mate - ply - 1
	}

	n := &node{p: &p, depth: depth, ply: ply, alpha: alpha, beta: beta, pv: pvNode, best: -inf,
		me: p.ToMove()}
	n.myCaps = p.Captures(n.me)
	if p.CountTurns() == 1 {
		n.ext = 1 // forced: costs no depth
	}
	// Placements from the table and the killers are tried before the
	// turns are generated: a cut-off then saves writing out thousands.
	var tried [3]uint32
	nTried, stop := s.tryStored(n, &p, ply, ttMove, &tried)
	if stop {
		return 0
	}
	if !n.cut {
		turns := p.LegalTurns(s.bufs[ply][:0])
		s.bufs[ply] = turns
		order := s.order(&p, turns, ply, ttMove)
		if depth == 1 && !pvNode && turns[0].Kind == engine.Place {
			// The ring removed seldom changes what a placement starts:
			// at the frontier a few removals stand for all.
			order = frontierFilter(order, turns, tried[:nTried], n.searched == 0)
		}
		quiet := 0
		for i := range order {
			k := pick(order, i)
			t := &turns[k.idx()]
			if nTried > 0 && slices.Contains(tried[:nTried], encode(t)) {
				continue
			}
			if k.quiet() {
				// Quiet placements evaluate alike: at the frontier a few
				// stand for all (late-move pruning).
				quiet++
				if depth == 1 && !pvNode && quiet > lmpQuiet && n.searched > 0 {
					continue
				}
			}
			if s.visit(n, t) {
				return 0
			}
			if n.cut {
				break
			}
		}
	}
	if e != nil {
		s.store(e, key, n, origAlpha, beta, depth, ply)
	}
	return n.best
}

// probe looks the position of hash key up in the table when it is
// cacheable: its entry (nil when not), the turn the entry stored, and the
// score when the entry settles the search here (done).
func (s *searcher) probe(key uint64, cache bool, depth, ply, alpha, beta int, pvNode bool) (e *ttEntry, ttMove uint32, v int, done bool) {
	if cache {
		e = &s.tt[key&s.mask]
		if e.key == key && e.flag != 0 {
			ttMove = e.move
			if !pvNode && int(e.depth) >= depth {
				v := fromTT(e.score, ply)
				switch e.flag {
				case flagExact:
					return e, ttMove, v, true
				case flagLower:
					if v >= beta {
						return e, ttMove, v, true
					}
				case flagUpper:
					if v <= alpha {
						return e, ttMove, v, true
					}
				}
			}
		}
	}
	return e, ttMove, 0, false
}

// tryStored tries the placements from the table (ttMove) and the killers
// before the turns are generated: a cut-off then saves writing out
// thousands. It notes those it tried in tried, and reports stop when the
// search was stopped meanwhile.
func (s *searcher) tryStored(n *node, p *engine.Position, ply int, ttMove uint32, tried *[3]uint32) (nTried int, stop bool) {
	if !p.HasCapture() {
		var cands [3]engine.Turn
		nc := 0
		if t, ok := decodePlace(ttMove); ok {
			cands[nc] = t
			nc++
		}
		for _, k := range s.killers[ply] {
			if k.Kind == engine.Place {
				cands[nc] = k
				nc++
			}
		}
		for i := 0; i < nc && !n.cut; i++ {
			t := &cands[i]
			code := encode(t)
			if slices.Contains(tried[:nTried], code) || !p.Legal(*t) {
				continue
			}
			tried[nTried] = code
			nTried++
			if s.visit(n, t) {
				return nTried, true
			}
		}
	}
	return nTried, false
}

// store keeps node n's result in the table entry e for the position of
// hash key, unless e holds another position searched deeper.
func (s *searcher) store(e *ttEntry, key uint64, n *node, origAlpha, beta, depth, ply int) {
	flag := uint8(flagExact)
	switch {
	case n.best <= origAlpha:
		flag = flagUpper
	case n.best >= beta:
		flag = flagLower
	}
	if e.key != key || int(e.depth) <= depth {
		*e = ttEntry{key: key, move: n.bestMove, score: toTT(n.best, ply), depth: int8(min(depth, 127)), flag: flag}
	}
}

// node is the state of one search node, shared by its children's visits.
type node struct {
	p           *engine.Position
	depth, ply  int
	alpha, beta int
	pv          bool
	ext         int
	me          int
	myCaps      [3]int
	searched    int
	best        int
	bestMove    uint32
	cut         bool
}

// visit searches one child of n, updates n and reports whether the search
// must stop.
func (s *searcher) visit(n *node, t *engine.Turn) (stop bool) {
	q := n.p.Apply(t)
	if s.tick() {
		return true
	}
	nd := n.depth - 1 + n.ext
	ply := n.ply
	var score int
	if n.searched == 0 {
		score = -s.search(q, nd, ply+1, -n.beta, -n.alpha, n.pv)
	} else {
		red := 0
		if n.depth >= 2 && n.searched >= 3 && t.Kind == engine.Place && q.Captures(n.me) == n.myCaps && !q.HasCapture() {
			red = 1
			if n.depth >= 4 && n.searched >= 12 {
				red = 2
			}
		}
		score = -s.search(q, nd-red, ply+1, -n.alpha-1, -n.alpha, false)
		if score > n.alpha && red > 0 && !s.stopped {
			score = -s.search(q, nd, ply+1, -n.alpha-1, -n.alpha, false)
		}
		if score > n.alpha && score < n.beta && n.pv && !s.stopped {
			score = -s.search(q, nd, ply+1, -n.beta, -n.alpha, true)
		}
	}
	if s.stopped {
		return true
	}
	n.searched++
	if score > n.best {
		n.best = score
		n.bestMove = encode(t)
		if score > n.alpha {
			n.alpha = score
			s.pv[ply][ply] = *t
			copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
			s.pvLen[ply] = max(s.pvLen[ply+1], ply+1)
			if score >= n.beta {
				s.cutoff(t, n.me, ply, n.depth)
				n.cut = true
			}
		}
	}
	return false
}

// decodePlace turns a table code back into a placement (captures are not
// decoded: their positions have few turns, generated at once).
func decodePlace(code uint32) (engine.Turn, bool) {
	if code>>30 != 1 {
		return engine.Turn{}, false
	}
	rem := engine.Cell(int(code&0xff) - 1)
	return engine.PlaceTurn(engine.Color(code>>20&3), engine.Source(code>>18&3), engine.Cell(code>>8&0xff), rem), true
}

// frontierFilter keeps, of the placements in o, the lmpRemovals first in
// order with each colour and ring (and, when nothing has been searched
// yet, the very first turn besides), dropping the turns already tried: the
// turns a frontier node visits, found before the order is sorted.
func frontierFilter(o []moveKey, turns []engine.Turn, tried []uint32, exemptFirst bool) []moveKey {
	const none = ^moveKey(0)
	var best [3][engine.MaxCells][lmpRemovals]moveKey
	for c := range best {
		for a := range best[c] {
			for r := range best[c][a] {
				best[c][a][r] = none
			}
		}
	}
	isTried := func(t *engine.Turn) bool { return len(tried) > 0 && slices.Contains(tried, encode(t)) }
	exempt := none
	if exemptFirst {
		for _, k := range o {
			if k < exempt && !isTried(&turns[k.idx()]) {
				exempt = k
			}
		}
	}
	for _, k := range o {
		t := &turns[k.idx()]
		if k == exempt || isTried(t) {
			continue
		}
		g := &best[t.Color][t.At]
		for r := range g {
			if k < g[r] {
				copy(g[r+1:], g[r:len(g)-1])
				g[r] = k
				break
			}
		}
	}
	out := o[:0]
	for _, k := range o {
		t := &turns[k.idx()]
		if k == exempt || !isTried(t) && slices.Contains(best[t.Color][t.At][:], k) {
			out = append(out, k)
		}
	}
	return out
}

// cutoff rewards a turn that caused a beta cut-off.
func (s *searcher) cutoff(t *engine.Turn, me, ply, depth int) {
	code := encode(t)
	if t.Kind == engine.Capture {
		h := t.Hops()
		s.histCap[me][t.PathCell(0)][t.PathCell(h)] += int32(depth * depth)
		return
	}
	if encode(&s.killers[ply][0]) != code {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = *t
	}
	if t.Kind == engine.Place {
		bonus := int32(depth * depth)
		s.histAt[me][t.Color][t.At] += bonus
		s.histRem[me][t.Remove+1] += bonus
		if s.histAt[me][t.Color][t.At] > 1<<24 {
			s.ageHistory()
		}
	}
}

func (s *searcher) ageHistory() {
	for pl := range s.histAt {
		for c := range s.histAt[pl] {
			for i := range s.histAt[pl][c] {
				s.histAt[pl][c][i] /= 2
			}
		}
		for i := range s.histRem[pl] {
			s.histRem[pl][i] /= 2
		}
	}
}

// order scores the turns for pick, which hands them out best first; ties
// keep the generation order.
func (s *searcher) order(p *engine.Position, turns []engine.Turn, ply int, ttMove uint32) []moveKey {
	o := s.orders[ply][:0]
	me := p.ToMove()
	var tc *tacticalCache
	if len(turns) > 0 && turns[0].Kind == engine.Place {
		tc = newTacticalCache(geometryOf(p.Board()), setsOf(p))
	}
	k0, k1 := encode(&s.killers[ply][0]), encode(&s.killers[ply][1])
	for i := range turns {
		t := &turns[i]
		code := encode(t)
		var sc int32
		switch {
		case code == ttMove && ttMove != 0:
			sc = 1 << 30
		case t.Kind == engine.Capture:
			h := t.Hops()
			sc = 1<<28 + int32(h)<<20 + min(s.histCap[me][t.PathCell(0)][t.PathCell(h)], 1<<19)
		case code == k0:
			sc = 1 << 27
		case code == k1:
			sc = 1<<27 - 1
		case t.Kind == engine.Place:
			sc = s.histAt[me][t.Color][t.At] + s.histRem[me][t.Remove+1]
		}
		o = append(o, makeKey(sc, i, tc != nil && t.Kind == engine.Place && !tc.tactical(t)))
	}
	s.orders[ply] = o
	return o
}

// qsearch plays out compulsory captures and then evaluates.
func (s *searcher) qsearch(p engine.Position, ply, alpha, beta int) int {
	s.pvLen[ply] = ply
	if p.Result().Over {
		return terminal(&p, ply)
	}
	if ply >= MaxPly-1 {
		return evaluate(&p)
	}
	if !p.HasCapture() {
		if _, ok := p.WinningTurn(); ok {
			return Mate - ply - 1
		}
		stand := evaluate(&p)
		if stand >= beta || !claimsInQuiescence {
			return stand
		}
		// Claims by isolation win material at once, as captures do, but
		// are not compulsory: try them besides standing pat.
		best := stand
		alpha = max(alpha, stand)
		claims := claimTurns(&p, s.bufs[ply][:0])
		s.bufs[ply] = claims
		for i := range claims {
			q := p.Apply(&claims[i])
			if s.tick() {
				return 0
			}
			score := -s.qsearch(q, ply+1, -beta, -alpha)
			if s.stopped {
				return 0
			}
			if score > best {
				best = score
				if score > alpha {
					alpha = score
					s.pv[ply][ply] = claims[i]
					copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
					s.pvLen[ply] = max(s.pvLen[ply+1], ply+1)
					if score >= beta {
						break
					}
				}
			}
		}
		return best
	}
	turns := p.LegalTurns(s.bufs[ply][:0])
	s.bufs[ply] = turns
	order := s.order(&p, turns, ply, 0)
	best := -inf
	for n := range order {
		t := &turns[pick(order, n).idx()]
		q := p.Apply(t)
		if s.tick() {
			return 0
		}
		score := -s.qsearch(q, ply+1, -beta, -alpha)
		if s.stopped {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				s.pv[ply][ply] = *t
				copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = max(s.pvLen[ply+1], ply+1)
				if score >= beta {
					break
				}
			}
		}
	}
	return best
}

// winScale is the score at which the win probability is about 85 %.
const winScale = 400

// winProb maps a score for the player to move in p to a probability of
// winning. It uses integers only, so it is the same on every CPU: 0.5 +
// 0.5·s/√(s²+scale²), in thousandths.
func winProb(p engine.Position, score int) float64 {
	if r := p.Result(); r.Over {
		switch {
		case r.Winner < 0:
			return 0.5
		case r.Winner == p.ToMove():
			return 1
		}
		return 0
	}
	return float64(WinPermille(score)) / 1000
}

// WinPermille is the win probability, in thousandths, that Result.WinProb
// reports for a score: 1000 or 0 for a proven win or loss.
func WinPermille(score int) int {
	switch {
	case score > Mate-MaxPly:
		return 1000
	case score < -(Mate - MaxPly):
		return 0
	}
	s := int64(score)
	d := isqrt(s*s + winScale*winScale)
	v := 500 + (500*s)/d
	return int(max(1, min(999, v)))
}

func isqrt(n int64) int64 {
	if n <= 0 {
		return 0
	}
	x := int64(1) << ((bitsLen(uint64(n)) + 1) / 2)
	for {
		y := (x + n/x) / 2
		if y >= x {
			return x
		}
		x = y
	}
}

func bitsLen(x uint64) int {
	n := 0
	for x != 0 {
		x >>= 1
		n++
	}
	return n
}

// Package solve answers one question about a ZÈRTZ position: can the
// player to move force a win within K of their own turns, whatever the
// opponent does? When it can, it gives the principal line.
//
// The search is over whole turns, as the engine generates them. The
// attacker needs one turn that wins at once or leaves every defender turn
// losing within the remaining budget; the defender escapes with any turn
// after which the attacker cannot. Iterative deepening on K finds the
// shortest win first. Captures are compulsory, so where one exists the
// engine lists only capture chains and the search follows them first by
// construction; the defender's refutation of one attacker turn (a killer)
// is tried first at the next. A transposition table keyed by the engine's
// Zobrist hash remembers proven wins and refutations per depth.
//
// The last attacker turn of a line is not searched turn by turn:
// engine.Position.WinningTurn decides it from the isolation groups and the
// capture chains directly.
//
// The package is pure: no goroutines and no clocks. A caller bounds the
// work with a context (cancellation or deadline) and a node limit; the
// result then says whether the whole depth was searched.
//
// Of this module it imports only engine.
// Layer: game. May import: base, game.
package solve

import (
	"context"

	"github.com/zertzboard/zertzboard/engine"
)

// MaxTurns bounds K: deeper searches cannot finish on a board's computer.
const MaxTurns = 8

// Options bound a search.
type Options struct {
	// MaxTurns is K, the attacker's own turns, 1 to MaxTurns.
	MaxTurns int
	// MaxNodes stops the search after about this many positions (0: no
	// limit). Nodes are positions played or tested for a winning turn.
	MaxNodes int64
	// TableBits sizes the transposition table at 2^TableBits entries of
	// 16 bytes (0: 16, 1 MiB). It is clamped to 10…24.
	TableBits int
}

// Win is a forced win.
type Win struct {
	Player int           // the player to move, who wins
	Turns  int           // own turns to the win, 1 or more
	Line   []engine.Turn // the principal line: attacker, defender, …, attacker's winning turn
}

// Result is a search's outcome.
type Result struct {
	// Win is the shortest forced win found, or nil.
	Win *Win
	// Complete is true when the question was answered for the whole
	// depth: a win was found (no shorter one exists) or every depth up to
	// MaxTurns was refuted. It is false when the context or the node
	// limit stopped the search first.
	Complete bool
	// Depth is the deepest K fully refuted: there is no forced win within
	// Depth turns. With a Win it is Turns−1.
	Depth int
	// Nodes counts the positions searched.
	Nodes int64
}

// Solve searches p. It returns at once, with Complete set, when the game
// is over (nothing to force) or when MaxTurns is below 1.
func Solve(ctx context.Context, p engine.Position, opt Options) Result {
	if opt.MaxTurns > MaxTurns {
		opt.MaxTurns = MaxTurns
	}
	if p.Result().Over || opt.MaxTurns < 1 {
		return Result{Complete: true}
	}
	s := newSearcher(ctx, opt)
	var res Result
	for k := 1; k <= opt.MaxTurns; k++ {
		won := s.attack(p, k, 0)
		if s.stopped {
			break
		}
		if won {
			line := s.line(p, k)
			if s.stopped || !Wins(p, line) {
				// A line that does not replay to the win would mean a
				// hash collision in the table: report nothing rather
				// than a false claim.
				break
			}
			res.Win = &Win{Player: p.ToMove(), Turns: k, Line: line}
			res.Complete = true
			break
		}
		res.Depth = k
		res.Complete = k == opt.MaxTurns
	}
	res.Nodes = s.nodes
	return res
}

// entry is one transposition-table slot: the position's hash, the
// smallest K proven to win and the largest K proven not to (0: unknown).
type entry struct {
	key   uint64
	win   uint8
	noWin uint8
}

type searcher struct {
	ctx       context.Context
	maxNodes  int64
	nodes     int64
	nextPoll  int64
	stopped   bool
	table     []entry // allocated on first use
	tableBits int
	mask      uint64
	killer    [2 * MaxTurns]engine.Turn // the defender turn that last refuted, per ply
}

// pollEvery is how many nodes pass between looks at the context.
const pollEvery = 1024

func newSearcher(ctx context.Context, opt Options) *searcher {
	bitsN := opt.TableBits
	switch {
	case bitsN == 0:
		bitsN = 16
	case bitsN < 10:
		bitsN = 10
	case bitsN > 24:
		bitsN = 24
	}
	return &searcher{
		ctx: ctx, maxNodes: opt.MaxNodes, nextPoll: pollEvery,
		tableBits: bitsN, mask: 1<<bitsN - 1,
	}
}

// tick counts a node and says whether to stop.
func (s *searcher) tick() bool {
	s.nodes++
	if s.nodes >= s.nextPoll {
		s.nextPoll = s.nodes + pollEvery
		if s.ctx.Err() != nil || (s.maxNodes > 0 && s.nodes >= s.maxNodes) {
			s.stopped = true
		}
	}
	return s.stopped
}

// cacheable: positions with an empty pool can recur, and whether they
// are a draw by repetition depends on history the hash leaves out.
func cacheable(p engine.Position) bool { return p.Pool() != [3]int{} }

// minTableK: below it a node is cheaper to search than to look up. The
// root is never looked up (each depth searches it once), so a search
// within two turns never allocates the table.
const minTableK = 2

func (s *searcher) probe(p engine.Position, k, ply int) (won, known bool) {
	if k < minTableK || ply == 0 || !cacheable(p) {
		return false, false
	}
	if s.table == nil {
		s.table = make([]entry, 1<<s.tableBits)
	}
	h := p.Hash()
	e := &s.table[h&s.mask]
	if e.key != h {
		return false, false
	}
	switch {
	case e.win != 0 && int(e.win) <= k:
		return true, true
	case int(e.noWin) >= k:
		return false, true
	}
	return false, false
}

func (s *searcher) store(p engine.Position, k int, won bool) {
	if k < minTableK || !cacheable(p) || s.stopped || s.table == nil {
		// (nil: the root, never probed, so never allocated; see probe)
		return
	}
	h := p.Hash()
	e := &s.table[h&s.mask]
	if e.key != h {
		*e = entry{key: h}
	}
	if won {
		if e.win == 0 || int(e.win) > k {
			e.win = uint8(k)
		}
	} else if int(e.noWin) < k {
		e.noWin = uint8(k)
	}
}

// mayWin is a quick bound: can the player to move in p win within k own
// turns even if every marble on the board and every marble placed on the
// way (one a turn, 2k−1 turns) ended in their captures? A full-board win
// needs the vacant rings gone, and a placement turn fills one and removes
// at most one (claims take no vacant ring; captures only add vacancies).
func mayWin(p engine.Position, k int) bool {
	turns := 2*k - 1
	if p.VacantRings() <= 2*turns {
		return true
	}
	me := p.ToMove()
	r := p.Rules()
	have, board, pool, theirs := p.Captures(me), p.OnBoard(), p.Pool(), p.Captures(1-me)
	short := 0 // marbles still missing for one of each
	for c := range have {
		base := have[c] + board[c]
		avail := pool[c] + theirs[c] // what could yet be placed
		if base+min(turns, avail) >= r.Win[c] {
			return true
		}
		if need := r.WinEach - base; need > 0 {
			if need > avail {
				short = 1 << 20
			}
			short += need
		}
	}
	// The placed marbles are one a turn, shared among the colours.
	return short <= turns
}

// attack reports whether the player to move in p wins within k own turns.
// ply indexes the killer table.
func (s *searcher) attack(p engine.Position, k, ply int) bool {
	if s.tick() {
		return false
	}
	if _, ok := p.WinningTurn(); ok {
		return true
	}
	if k == 1 || !mayWin(p, k) {
		return false
	}
	if won, ok := s.probe(p, k, ply); ok {
		return won
	}
	won := false
	for t := range p.Turns() {
		q := p.Apply(&t)
		if q.Result().Over {
			continue // a win was caught above; a draw is no win
		}
		if s.tick() {
			return false
		}
		if s.defend(q, k-1, ply+1) {
			won = true
			break
		}
	}
	s.store(p, k, won)
	return won
}

// defend reports whether every turn of the player to move in q loses
// within k turns of the opponent.
func (s *searcher) defend(q engine.Position, k, ply int) bool {
	// The turn that refuted the previous attack at this ply often refutes
	// this one too: try it first, before generating the rest (a check
	// costs far less than writing out a thousand placements).
	killer := s.killer[ply]
	tried := false
	if killer.Kind != 0 && q.Legal(killer) {
		tried = true
		r := q.Apply(&killer)
		if r.Result().Over || !s.attack(r, k, ply+1) {
			return false // an escape (or the search stopped)
		}
	}
	for t := range q.Turns() {
		if tried && t == killer {
			continue
		}
		r := q.Apply(&t)
		if r.Result().Over || !s.attack(r, k, ply+1) {
			if !s.stopped {
				s.killer[ply] = t
			}
			return false
		}
	}
	return true
}

// line returns the principal line of a win within k turns, proven by
// attack: the attacker's winning turns and the defender's most stubborn
// replies (one that holds out longest).
func (s *searcher) line(p engine.Position, k int) []engine.Turn {
	var out []engine.Turn
	for ; k >= 1; k-- {
		if t, ok := p.WinningTurn(); ok {
			return append(out, t)
		}
		turns := p.LegalTurns(nil)
		var next engine.Position
		found := false
		for i := range turns {
			q := p.Apply(&turns[i])
			if q.Result().Over || !s.defend(q, k-1, 1) {
				if s.stopped {
					return nil
				}
				continue
			}
			out = append(out, turns[i])
			// The defender: any reply loses; show one that lasts.
			replies := q.LegalTurns(nil)
			best := 0
			for j := range replies {
				r := q.Apply(&replies[j])
				if k-2 < 1 || !s.attack(r, k-2, 2) {
					best = j
					break
				}
			}
			if s.stopped {
				return nil
			}
			out = append(out, replies[best])
			next = q.Apply(&replies[best])
			found = true
			break
		}
		if !found {
			return nil // cannot happen after a proof; treated as stopped
		}
		p = next
	}
	return out
}

// Wins reports whether line is legal from p, alternates from the player to
// move, and ends with that player's win on its last turn.
func Wins(p engine.Position, line []engine.Turn) bool {
	if len(line) == 0 || len(line)%2 == 0 {
		return false
	}
	player := p.ToMove()
	for i, t := range line {
		if p.Result().Over {
			return false
		}
		q, err := p.Play(t)
		if err != nil {
			return false
		}
		p = q
		if i < len(line)-1 && p.Result().Over {
			return false
		}
	}
	r := p.Result()
	return r.Over && r.Winner == player
}

// Report is a result in the contract's JSON form (zertzboard analyze
// --json; the "analysis" of the live state adds fields to it):
//
//	{"forced_win":null|{"player":0|1,"turns":K,"line":["notation",...]},"complete":true|false,"nodes":N,"ms":T}
type Report struct {
	ForcedWin *ReportWin `json:"forced_win"`
	Complete  bool       `json:"complete"`
	Nodes     int64      `json:"nodes"`
	MS        int64      `json:"ms"`
}

// ReportWin is a forced win with its line in the project's notation,
// starting with the side to move.
type ReportWin struct {
	Player int      `json:"player"`
	Turns  int      `json:"turns"`
	Line   []string `json:"line"`
}

// Report describes r, found on board b in ms milliseconds (the caller's
// clock: the package keeps none).
func (r Result) Report(b *engine.Board, ms int64) Report {
	rep := Report{Complete: r.Complete, Nodes: r.Nodes, MS: ms}
	if r.Win != nil {
		w := &ReportWin{Player: r.Win.Player, Turns: r.Win.Turns, Line: make([]string, len(r.Win.Line))}
		for i, t := range r.Win.Line {
			w.Line[i] = engine.FormatTurn(b, t)
		}
		rep.ForcedWin = w
	}
	return rep
}

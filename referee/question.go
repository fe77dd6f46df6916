package referee

import (
	"fmt"
	"sort"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
)

// maxOptions bounds the lines of play a question offers. The buttons step
// through them one at a time; more than this is no longer a question
// players can answer, and the referee waits for the board to say more.
const maxOptions = 8

// question is an open question to the players: the board is explained by
// more than one line of play from the official position after turn base,
// and the lines differ in something the record or the result depends on
// (the colour of a marble the board never showed, who moved which marble,
// who took an isolated group, whether the game is over). While it is open
// the official game follows options[prov] when prov >= 0; when the options
// disagree on the end of the game, none is committed (prov = -1) and the
// game waits for the answer.
type question struct {
	id      int
	base    int // the game's length before the options' turns
	options []option
	prov    int            // the option the game follows meanwhile; -1 for none
	cell    engine.Cell    // a colour question: the cell; NoCell otherwise
	colours []engine.Color // a colour question: each option's colour
	turn    int            // the turn (1-based) the question is about
	// lines: when the options are the beginnings of lines of play
	// (askFirst), the lines that begin with each option, from base.
	lines [][]line
	// groups: when more options differ than a question offers, the
	// options are the turns they begin with (or, when even their first
	// turns differ too much, a page of them and OtherRing), and groups
	// holds the options each stands for; an answer standing for more
	// than one asks about them next.
	groups [][]option
	follow []engine.Turn // the line the game follows meanwhile (prov's)
	// stuckCells: the sockets taken for stuck together when the question
	// was asked (two would do); the answer trusts again those its line
	// is not read with.
	stuckCells uint64
	// revised: a question about the turns read with these sockets taken
	// for stuck; its last option (OtherRing) is "none of these"
	// (answerNone).
	revised uint64
	// sockets: a socket question (askSocket); each option is a socket
	// that, stuck, explains the boards, with the lines it explains them
	// by.
	sockets []socketLines
	// allSockets: a socket question's sockets, those of every page (more
	// than a question offers are asked about 23 at a time, the last
	// option OtherRing turning the page).
	allSockets []socketLines
	page       int // where sockets begin in allSockets
}

// OtherRing is the last option of a socket question that does not offer
// every socket that would do: "on none of these rings"; the answer asks
// about the next ones.
const OtherRing = "other"

// option is one line of play a question offers.
type option struct {
	turns []engine.Turn
	label string // the turns in notation, separated by spaces
	end   engine.Result
	other bool // OtherRing: the options of the next page (see beginnings)
	// read: the sockets taken for stuck that the option's line is read
	// with (askRevisionBy); 0 when not told.
	read uint64
}

// Question: the board is explained by more than one line of play and the
// lines differ in what the record or the result depends on. The referee
// asks the players (or the arbiter) which was played. When About is
// "colour", the options differ only in the colour of the marble a turn put
// on Cell, and Options are colour letters; when it is "turns", each option
// is a line of play in notation, its turns separated by spaces; when it is
// "cell", the board did not see a marble put down from turn Turn on (its
// socket's sensor is stuck) and Options are the sockets it may be on.
// Provisional is the option the game follows until the answer, or -1 when
// the options disagree on the end of the game and none is committed.
// Answer with Referee.Answer.
type Question struct {
	ID          int      `json:"id"`
	Turn        int      `json:"turn"`
	Cell        string   `json:"cell,omitempty"`
	About       string   `json:"about"`
	Options     []string `json:"options"`
	Provisional int      `json:"provisional"`
	Text        string   `json:"question"`
}

// Kind names the body as the contract does.
func (Question) Kind() string { return "question" }

// Asking returns the open question, if there is one.
func (r *Referee) Asking() (Question, bool) {
	if r.question == nil {
		return Question{}, false
	}
	return r.questionBody(), true
}

// sameTurns reports whether two lines are the same turns.
func sameTurns(a, b []engine.Turn) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// colourOnly reports whether lines of play differ only in the colour of one
// placement: the same turns but for the marble's colour at one cell. It
// returns that cell, the index of the turn and each line's colour.
func colourOnly(lines [][]engine.Turn) (engine.Cell, int, []engine.Color, bool) {
	if len(lines) < 2 {
		return engine.NoCell, 0, nil, false
	}
	at, idx := engine.NoCell, -1
	for _, l := range lines[1:] {
		if len(l) != len(lines[0]) {
			return engine.NoCell, 0, nil, false
		}
		for i := range l {
			a, b := l[i], lines[0][i]
			if a == b {
				continue
			}
			a.Color, b.Color = 0, 0
			if a != b || a.Kind != engine.Place || (idx >= 0 && (idx != i || at != a.At)) {
				return engine.NoCell, 0, nil, false
			}
			at, idx = a.At, i
		}
	}
	if idx < 0 {
		return engine.NoCell, 0, nil, false
	}
	cols := make([]engine.Color, len(lines))
	for i, l := range lines {
		cols[i] = l[idx].Color
	}
	return at, idx, cols, true
}

// playable plays a line from p and returns the position after it, with
// the forced passes that follow each turn; a placement over a compulsory
// capture is allowed in tournament mode.
func (r *Referee) playable(p engine.Position, turns []engine.Turn) (engine.Position, bool) {
	for _, turn := range turns {
		q, err := p.Play(turn)
		if err != nil && r.cfg.Mode == Tournament && turn.Kind == engine.Place {
			q, err = p.PlayOverCapture(turn)
		}
		if err != nil {
			return p, false
		}
		p = q
		for p.MustPass() && !p.Result().Over {
			p = p.MustPlay(engine.PassTurn())
		}
	}
	return p, true
}

// decide takes the readings of a settled board: lines of play from the
// official position `back` turns ago, each explaining the board whole. One
// line is committed. Lines that differ are asked about: the game follows
// one of them meanwhile, unless they disagree on the end of the game. A
// line that ends the game is committed only once the board has held for
// the hop time, since an illegal try put right at once can look like a
// game's last turns.
func (r *Referee) decide(t int64, obs string, back int, lines [][]engine.Turn, reason string) []Event {
	base := r.game.Len() - back
	from := r.game.PositionAfter(base)
	var opts []option
	for _, l := range lines {
		dup := false
		for _, o := range opts {
			dup = dup || sameTurns(o.turns, l)
		}
		if dup {
			continue
		}
		q, ok := r.playable(from, l)
		if !ok {
			continue
		}
		opts = append(opts, option{turns: l, end: q.Result()})
	}
	if len(opts) == 0 {
		return nil
	}
	ends := false
	for _, o := range opts {
		ends = ends || o.end.Over
	}
	// A line read with a dead sensor, or from turns before the official
	// position, or after the referee was lost, or while a question is
	// open (the game follows one option of it), may not be the whole
	// story: it never ends the game without the players' or the
	// arbiter's word.
	risky := len(r.unknown) > 0 || back > 0 || r.doubtful || r.question != nil
	if ends && risky && t-r.obsSince >= r.hop {
		return r.askEnd(t, obs, back, opts, reason)
	}
	if ends && t-r.obsSince < r.hop {
		// Wait for the board to hold before anything ends the game. If
		// the players carry on meanwhile, the game did not end: follow
		// every option as a line of play, so the next board can tell.
		r.waitEnd = &decision{back: back, lines: lines, reason: reason}
		r.deferred = true
		if len(r.unknown) == 0 {
			r.followLines(base, opts)
		}
		return r.pendingEvent(t, Msg("need.finish-turn"), nil, make(hints, r.b.Len()))
	}
	if len(opts) == 1 && back > 0 && r.takesBack(back, opts[0].turns) {
		// Turns committed are taken back: the referee was wrong once, and
		// its new reading is no fact until the players confirm it.
		return r.ask(t, obs, back, opts, reason)
	}
	if len(opts) == 1 {
		ev := r.commitLine(t, obs, back, opts[0].turns)
		return append(ev, Event{t, Inferred{Turns: r.turnsFrom(base), Reason: reason}})
	}
	if len(opts) > maxOptions {
		// Too many to ask about: wait for the board to tell more.
		r.recheck, r.deferred = true, true
		return r.pendingEvent(t, Msg("need.finish-turn"), nil, make(hints, r.b.Len()))
	}
	return r.ask(t, obs, back, opts, reason)
}

// takesBack reports whether committing turns from the position back
// turns ago changes a committed turn (rather than only adding turns).
func (r *Referee) takesBack(back int, turns []engine.Turn) bool {
	done, _ := r.turnsPlayed(r.game.Len()-back, r.game.Len())
	return len(done) > len(turns) || !sameTurns(done, turns[:len(done)])
}

// turnsPlayed lists the game's turns from..to (0-based, to excluded),
// passes left out as lines of play leave them, and the game's length after
// each.
func (r *Referee) turnsPlayed(from, to int) (turns []engine.Turn, after []int) {
	for k := from; k < to; k++ {
		if turn, _ := r.game.Turn(k); turn.Kind != engine.Pass {
			turns = append(turns, turn)
			after = append(after, k+1)
		}
	}
	return turns, after
}

// askEnd asks about lines of play that end the game when the board may
// not tell the whole story: even one is asked about, and none is
// committed until the answer.
func (r *Referee) askEnd(t int64, obs string, back int, opts []option, reason string) []Event {
	back, opts, _ = r.widen(back, opts)
	shown, groups := r.beginnings(r.game.Len()-back, opts)
	q := r.openQuestion(back, shown)
	q.groups = groups
	q.prov = -1
	var ev []Event
	if back > 0 {
		ev = append(ev, r.takeback(t, back)...)
		r.redo = nil
	}
	r.hyps = nil
	r.question = q
	r.guide = r.idleGuidance()
	return append(ev, Event{t, r.questionBody()})
}

// followLines makes the lines of play track follows, should the board
// move on before a verdict: the official position and those before it,
// and each option from base.
func (r *Referee) followLines(base int, opts []option) {
	n := r.game.Len()
	r.hyps = nil
	for back := 0; back <= maxBack && back <= n; back++ {
		r.hyps = append(r.hyps, hypothesis{base: n - back, pos: r.game.PositionAfter(n - back)})
	}
	from := r.game.PositionAfter(base)
	for _, o := range opts {
		if q, ok := r.playable(from, o.turns); ok && len(r.hyps) < maxHypotheses {
			r.hyps = append(r.hyps, hypothesis{base: base, turns: append([]engine.Turn(nil), o.turns...), pos: q})
		}
	}
}

// decision is a verdict that waits for the board to hold.
type decision struct {
	back   int
	lines  [][]engine.Turn
	reason string
}

// commitLine takes back `back` turns, then commits the line's turns.
func (r *Referee) commitLine(t int64, obs string, back int, turns []engine.Turn) []Event {
	var ev []Event
	if back > 0 {
		ev = append(ev, r.takeback(t, back)...)
	}
	r.redo, r.hyps = nil, nil
	for _, turn := range turns {
		over := false
		if _, err := r.game.Position().Play(turn); err != nil && r.cfg.Mode == Tournament && turn.Kind == engine.Place {
			over = true
		}
		ev = append(ev, r.commit(t, obs, turn, over)...)
	}
	if r.game.Position().Result().Over {
		r.endInferred = true
	}
	return ev
}

// turnsFrom lists the turn numbers after base.
func (r *Referee) turnsFrom(base int) []int {
	turns := make([]int, 0, r.game.Len()-base)
	for k := base + 1; k <= r.game.Len(); k++ {
		turns = append(turns, k)
	}
	return turns
}

// ask opens a question about opts (lines from the position `back` turns
// ago). The game follows the first option that does not end it; when every
// option ends it, none until the answer (unless they differ only in a
// colour and agree on the result).
func (r *Referee) ask(t int64, obs string, back int, opts []option, reason string) []Event {
	back, opts, widened := r.widen(back, opts)
	return r.askWith(t, obs, back, opts, reason, widened)
}

// askWith is ask once the options are widened (widened says whether they
// were; see widen).
func (r *Referee) askWith(t int64, obs string, back int, opts []option, reason string, widened bool) []Event {
	base := r.game.Len() - back
	shown, groups := r.beginnings(base, opts)
	q := r.openQuestion(back, shown)
	q.groups = groups
	// The game follows the first option that does not end it (of a group,
	// its first such line).
	var follow []option
	for i := range shown {
		for _, o := range q.standsFor(i) {
			if !o.end.Over {
				q.prov = i
				follow = append(follow, o)
				break
			}
		}
		if q.prov >= 0 {
			break
		}
	}
	if q.prov < 0 && q.cell != engine.NoCell && !r.doubtful && !widened && groups == nil && sameEnd(opts) {
		// Options that differ only in the colour of a marble never seen,
		// every one ending the game with the same result: the turns and
		// the end are certain, the colour is asked for the record. (Not
		// so when the question was widened with an open one: its turns
		// are no more certain than the open one's.)
		q.prov = 0
	}
	// Otherwise, when every option ends the game, none is followed: the
	// lines are the referee's reading, and a game never ends on it.
	var ev []Event
	if len(follow) == 0 && q.prov >= 0 {
		follow = q.standsFor(q.prov)[:1]
	}
	if q.prov >= 0 {
		q.follow = follow[0].turns
	}
	if cur, _ := r.turnsPlayed(base, r.game.Len()); q.prov >= 0 && widened && len(follow[0].turns) >= len(cur) && sameTurns(follow[0].turns[:len(cur)], cur) {
		// The game already follows the line up to now: no take-back.
		ev = r.commitLine(t, obs, 0, follow[0].turns[len(cur):])
		ev = append(ev, Event{t, Inferred{Turns: r.turnsFrom(base), Reason: reason + fmt.Sprintf("; the players are asked which was played (%s assumed meanwhile)", r.notation(follow[0].turns))}})
	} else if q.prov >= 0 {
		ev = r.commitLine(t, obs, back, follow[0].turns)
		ev = append(ev, Event{t, Inferred{Turns: r.turnsFrom(base), Reason: reason + fmt.Sprintf("; the players are asked which was played (%s assumed meanwhile)", r.notation(follow[0].turns))}})
	} else if back > 0 {
		ev = append(ev, r.takeback(t, back)...)
		r.redo = nil
	}
	r.hyps = nil
	r.question = q
	r.guide = r.idleGuidance()
	return append(ev, Event{t, r.questionBody()})
}

// standsFor is the options question option i stands for: itself, or
// its group.
func (q *question) standsFor(i int) []option {
	if q.groups != nil {
		return q.groups[i]
	}
	return q.options[i : i+1]
}

// beginnings fits options (lines from the position after turn base) to a
// question: when more than maxIndistinct differ, it offers the turns they
// begin with, the longest beginnings of which at most maxIndistinct
// differ, and returns the options each stands for. When even their first
// turns apart differ too much, it offers a page: maxIndistinct-1 of them
// and a last option (OtherRing) standing for the others. Nothing is left
// out: the line played is always one an answer leads to.
func (r *Referee) beginnings(base int, opts []option) ([]option, [][]option) {
	if len(opts) <= maxIndistinct {
		return opts, nil
	}
	longest := 0
	for _, o := range opts {
		longest = max(longest, len(o.turns))
	}
	prefix := func(o option, k int) []engine.Turn { return o.turns[:min(k, len(o.turns))] }
	group := func(k int) ([]option, [][]option) {
		var shown []option
		var groups [][]option
		for _, o := range opts {
			p := prefix(o, k)
			i := 0
			for i < len(shown) && !sameTurns(shown[i].turns, p) {
				i++
			}
			if i == len(shown) {
				if len(shown) == maxIndistinct {
					return nil, nil
				}
				shown = append(shown, option{turns: p})
				groups = append(groups, nil)
			}
			groups[i] = append(groups[i], o)
		}
		return shown, groups
	}
	var shown []option
	var groups [][]option
	for k := 1; k <= longest; k++ {
		s, g := group(k)
		if s == nil {
			break
		}
		shown, groups = s, g
	}
	if len(shown) < 2 {
		// Even their first turns apart differ too much: a page.
		shown = append([]option(nil), opts[:maxIndistinct-1]...)
		groups = nil
		for _, o := range shown {
			groups = append(groups, []option{o})
		}
		shown = append(shown, option{other: true})
		groups = append(groups, opts[maxIndistinct-1:])
		return shown, groups
	}
	from := r.game.PositionAfter(base)
	for i := range shown {
		if len(groups[i]) == 1 {
			shown[i] = groups[i][0]
			continue
		}
		if q, ok := r.playable(from, shown[i].turns); ok {
			shown[i].end = q.Result()
		}
	}
	return shown, groups
}

// askGroup asks about the lines an answer stands for (see beginnings).
func (r *Referee) askGroup(t int64, q *question, opt int) []Event {
	g := q.groups[opt]
	label := q.options[opt].label
	stuck := q.stuckCells
	defer func() {
		if r.question != nil && r.question != q {
			r.question.stuckCells = stuck
		}
	}()
	r.question = nil
	obs := r.known(r.settled)
	if len(obs) != r.b.Len() {
		obs = r.Expected()
	}
	back := r.game.Len() - q.base
	reason := fmt.Sprintf("the players answered %s", label)
	if label == OtherRing {
		reason = "the players answered none of the lines offered"
	}
	for _, o := range g {
		if o.end.Over {
			return r.askEnd(t, obs, back, g, reason)
		}
	}
	return r.ask(t, obs, back, g, reason)
}

// widen keeps an open question's guess from standing as fact. While a
// question is open, the game follows one of its options; a new question
// about later turns would replace it, and that option would stay in the
// game unanswered. The new question asks about both instead: each of its
// options after each of the open one's, with the turns committed between,
// as far as they are legal (at most maxIndistinct), the line the game
// follows first. It returns the options and how many turns back they
// start, and whether it widened them.
func (r *Referee) widen(back int, opts []option) (int, []option, bool) {
	old := r.question
	base := r.game.Len() - back
	if old == nil || old.sockets != nil || old.prov < 0 || base <= old.base {
		return back, opts, false
	}
	done, _ := r.turnsPlayed(old.base, base)
	pt := old.follow
	if len(done) < len(pt) || !sameTurns(done[:len(pt)], pt) {
		return back, opts, false // the game left the line it followed
	}
	between := done[len(pt):]
	// The open question's lines, the one the game follows first.
	olds := [][]engine.Turn{pt}
	for i := range old.options {
		for _, o := range old.standsFor(i) {
			if !o.other && !sameTurns(o.turns, pt) { // "none of these" is no line
				olds = append(olds, o.turns)
			}
		}
	}
	from := r.game.PositionAfter(old.base)
	var out []option
	for _, ot := range olds {
		for _, o := range opts {
			line := append(append(append([]engine.Turn(nil), ot...), between...), o.turns...)
			dup := false
			for _, x := range out {
				dup = dup || sameTurns(x.turns, line)
			}
			if dup {
				continue
			}
			if q, ok := r.playable(from, line); ok {
				out = append(out, option{turns: line, end: q.Result()})
			}
		}
	}
	if len(out) == 0 || len(out) > maxIndistinct {
		return back, opts, false
	}
	return r.game.Len() - old.base, out, true
}

// sameEnd reports whether every option ends the game with the same
// result.
func sameEnd(opts []option) bool {
	for _, o := range opts {
		if !o.end.Over || o.end != opts[0].end {
			return false
		}
	}
	return len(opts) > 0
}

// openQuestion numbers a question about opts (lines from the position
// back turns ago) and words its options.
func (r *Referee) openQuestion(back int, opts []option) *question {
	base := r.game.Len() - back
	q := &question{id: r.nextQuestion + 1, base: base, options: opts, prov: -1, cell: engine.NoCell, turn: base + 1}
	r.nextQuestion++
	lines := make([][]engine.Turn, len(opts))
	for i, o := range opts {
		lines[i] = o.turns
		q.options[i].label = r.notation(o.turns)
		if o.other {
			q.options[i].label = OtherRing
		}
	}
	if cell, idx, cols, ok := colourOnly(lines); ok && !r.askingUnsure {
		q.cell, q.colours, q.turn = cell, cols, base+1+idx
	}
	return q
}

// notation writes a line of play in notation, the turns separated by
// spaces.
func (r *Referee) notation(turns []engine.Turn) string {
	parts := make([]string, len(turns))
	for i, turn := range turns {
		parts[i] = engine.FormatTurn(r.b, turn)
	}
	return strings.Join(parts, " ")
}

func (r *Referee) questionBody() Question {
	q := r.question
	body := Question{ID: q.id, Turn: q.turn, About: "turns", Provisional: q.prov, Text: r.questionText()}
	if q.sockets != nil {
		body.About = "cell"
		for _, o := range q.options {
			body.Options = append(body.Options, o.label)
		}
		return body
	}
	if q.cell != engine.NoCell {
		body.About, body.Cell = "colour", r.b.Label(q.cell)
		for _, c := range q.colours {
			body.Options = append(body.Options, c.Letter())
		}
		return body
	}
	for _, o := range q.options {
		body.Options = append(body.Options, o.label)
	}
	return body
}

func (r *Referee) questionText() string {
	q := r.question
	if q.cell != engine.NoCell {
		names := make([]string, len(q.colours))
		for i, c := range q.colours {
			names[i] = c.String()
		}
		return fmt.Sprintf("which colour was on %s (%s)?", r.b.Label(q.cell), strings.Join(names, ", "))
	}
	labels := make([]string, len(q.options))
	if q.sockets != nil {
		for i, o := range q.options {
			labels[i] = o.label
			if o.label == OtherRing {
				labels[i] = "another ring"
			}
		}
		return fmt.Sprintf("the board did not see a marble put down (turn %d or after): on which ring was it put, %s?", q.turn, strings.Join(labels, " or "))
	}
	for i, o := range q.options {
		labels[i] = o.label
		if o.end.Over {
			labels[i] += " (" + endWords(o.end) + ")"
		}
	}
	return fmt.Sprintf("which was played after turn %d: %s?", q.base, strings.Join(labels, " or "))
}

func endWords(res engine.Result) string {
	if res.Winner >= 0 {
		return fmt.Sprintf("player %d wins", res.Winner)
	}
	return "a draw"
}

// Answer takes the players' (or the arbiter's) answer to question id:
// the index of the option that was played. The game is rewritten from the
// question's turns on when the answer is not the line it followed: those
// turns are taken back, the answer's played, then the turns committed
// since are played again.
func (r *Referee) Answer(t int64, id, opt int) []Event {
	q := r.question
	if q == nil {
		return []Event{{t, Fault{Reason: "there is no question to answer"}}}
	}
	if id != q.id {
		return []Event{{t, Fault{Reason: fmt.Sprintf("question %d is not open (the open question is %d)", id, q.id)}}}
	}
	if opt < 0 || opt >= len(q.options) {
		return []Event{{t, Fault{Reason: fmt.Sprintf("question %d has options 0 to %d, not %d", id, len(q.options)-1, opt)}}}
	}
	if q.sockets != nil {
		return r.answerSocket(t, q, opt)
	}
	if q.revised != 0 && q.options[opt].other {
		return r.answerNone(t, q)
	}
	if q.groups != nil {
		g := q.groups[opt]
		if len(g) > 1 {
			// The answer stands for several lines: ask about them.
			return r.askGroup(t, q, opt)
		}
		q.options[opt] = g[0]
		q.options[opt].label = r.notation(g[0].turns)
	}
	chosen := q.options[opt]
	trusted := r.trustAgain(t, q, chosen)
	ev := r.answerTurns(t, q, opt, chosen)
	return append(trusted, ev...)
}

// answerTurns takes the answer chosen (option opt) to a question about
// turns (see Answer).
func (r *Referee) answerTurns(t int64, q *question, opt int, chosen option) []Event {
	r.question = nil
	if q.lines == nil || opt != q.prov {
		// Lines followed for the option the game took (askFirst) go on.
		r.lines = nil
	}
	r.linesBefore, r.linesOld = nil, nil
	if opt == q.prov {
		r.guide = r.idleGuidance()
		turns := r.answeredTurns(q, chosen)
		r.markAnswered(turns)
		return []Event{{t, Inferred{Turns: turns, Reason: fmt.Sprintf("the players confirmed %s", chosen.label)}}}
	}
	have := 0
	if q.prov >= 0 {
		have = len(q.follow)
	}
	if r.game.Len() < q.base+have {
		r.guide = r.idleGuidance()
		return []Event{{t, Fault{Reason: fmt.Sprintf("the turns asked about were taken back; the answer %s is not used", chosen.label)}}}
	}
	var later []engine.Turn
	for i := q.base + have; i < r.game.Len(); i++ {
		turn, _ := r.game.Turn(i)
		if turn.Kind != engine.Pass {
			later = append(later, turn)
		}
	}
	obs := r.known(r.settled)
	if len(obs) != r.b.Len() {
		obs = r.Expected()
	}
	var ev []Event
	if back := r.game.Len() - q.base; back > 0 {
		ev = r.takeback(t, back)
	}
	r.redo = nil
	ev = append(ev, r.commitLine(t, obs, 0, chosen.turns)...)
	r.markAnswered(r.turnsFrom(q.base))
	for _, turn := range later {
		if r.game.Position().Result().Over {
			ev = append(ev, Event{t, Fault{Reason: fmt.Sprintf("with %s the game was over: turn %s and those after it are dropped", chosen.label, engine.FormatTurn(r.b, turn))}})
			break
		}
		if _, ok := r.playable(r.game.Position(), []engine.Turn{turn}); !ok {
			ev = append(ev, Event{t, Fault{Reason: fmt.Sprintf("with %s, turn %s is no longer legal", chosen.label, engine.FormatTurn(r.b, turn))}})
			break
		}
		ev = append(ev, r.commitLine(t, obs, 0, []engine.Turn{turn})...)
	}
	if q.lines != nil {
		// The lines that begin with the answer go on from the game.
		done, _ := r.turnsPlayed(q.base, r.game.Len())
		if r.lines = trimLines(q.lines[opt], done); len(r.lines) == 0 {
			r.lines = nil
		}
	}
	r.guide = r.idleGuidance()
	return append(ev, Event{t, Inferred{Turns: r.turnsFrom(q.base), Reason: fmt.Sprintf("the players answered %s; the game is replayed with it", chosen.label)}})
}

// answeredTurns lists the turns an option put in the game.
func (r *Referee) answeredTurns(q *question, o option) []int {
	turns := make([]int, 0, len(o.turns))
	for k := q.base + 1; k <= q.base+len(o.turns) && k <= r.game.Len(); k++ {
		turns = append(turns, k)
	}
	return turns
}

// Answered lists the turns (1-based) the players answered rather than
// the board showed.
func (r *Referee) Answered() []int {
	out := []int{}
	for _, n := range r.answered {
		if n <= r.game.Len() {
			out = append(out, n)
		}
	}
	return out
}

// markAnswered notes turns as answered, keeping the list short and sorted.
func (r *Referee) markAnswered(turns []int) {
	for _, n := range turns {
		dup := false
		for _, m := range r.answered {
			dup = dup || m == n
		}
		if !dup {
			r.answered = append(r.answered, n)
		}
	}
	sort.Ints(r.answered)
}

// DeadCells lists the cells whose sensors are dead or stuck, as reported.
func (r *Referee) DeadCells() []string {
	out := []string{}
	for _, c := range cellsOf(r.faulty()) {
		out = append(out, r.b.Label(c))
	}
	return out
}

// AnswerColour answers a colour question with a colour, as the buttons
// and the players in tests do.
func (r *Referee) AnswerColour(t int64, colour engine.Color) []Event {
	q := r.question
	if q == nil {
		return []Event{{t, Fault{Reason: "there is no question to answer"}}}
	}
	for i, c := range q.colours {
		if c == colour {
			return r.Answer(t, q.id, i)
		}
	}
	return []Event{{t, Fault{Reason: fmt.Sprintf("%s is not an answer to question %d", colour, q.id)}}}
}

package referee

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/settle"
)

// Mode is how strictly the referee applies the capture rules, by its word
// on the wire, in the journal and in the configuration. The zero Mode is
// unset: the referee plays it as Casual, and String says casual.
//
// Mode is a string underneath so that a state from a newer board, with a
// mode this build does not know, reads back and is shown as it came
// (UnmarshalText keeps it); ParseMode is the strict reader.
type Mode string

// The modes.
const (
	// Casual refuses a placement while a capture is compulsory, at once.
	Casual Mode = "casual"
	// Tournament lets such a placement stand as a missed capture (the
	// opponent may demand it be taken back) and flags touch-move breaches.
	Tournament Mode = "tournament"
)

// String is the mode's word; the unset Mode is casual.
func (m Mode) String() string {
	if m == "" {
		return string(Casual)
	}
	return string(m)
}

// MarshalText writes the mode's word as it is (the unset Mode as "").
func (m Mode) MarshalText() ([]byte, error) { return []byte(m), nil }

// UnmarshalText reads a mode's word. It keeps a word it does not know, as
// the readers of the state always have; ParseMode refuses one.
func (m *Mode) UnmarshalText(b []byte) error {
	*m = Mode(b)
	return nil
}

// ParseMode reads "casual" or "tournament".
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case Casual, Tournament:
		return m, nil
	}
	return "", fmt.Errorf("referee: mode %q: want casual or tournament", s)
}

// DefaultSettleMS and DefaultGlitchMS are package settle's: how long an
// observation must hold before it counts, and how long the frames may
// stray from it and come back without restarting its clock.
const (
	DefaultSettleMS = settle.DefaultMS
	DefaultGlitchMS = settle.DefaultGlitchMS
)

// DefaultHopMS is how long a lifted jumper may stay in the hand before
// the board it leaves behind counts as a take-back. A hop (lift, carry a
// few centimetres, set down) takes a person well under a second.
const DefaultHopMS = 1500

// Config sets up a referee.
type Config struct {
	Board *engine.Board
	Rules *engine.Rules
	First int  // the player who moves first, 0 or 1
	Mode  Mode // casual or tournament
	// SettleMS is how long an observation must hold, in milliseconds;
	// 0 means DefaultSettleMS.
	SettleMS int64
	// GlitchMS is the longest excursion that does not interrupt settling;
	// 0 means DefaultGlitchMS. It must be shorter than SettleMS.
	GlitchMS int64
	// HopMS is how long a position that is both an earlier position of
	// the game and a capture under way (the jumper lifted off its ring)
	// must hold before it counts as a take-back: longer than a hop takes.
	// 0 means DefaultHopMS (or SettleMS if longer); it must be at least
	// SettleMS.
	HopMS int64
	// Game, if not nil, resumes a game in progress (e.g. from a journal)
	// instead of starting a new one; First is then ignored.
	Game *engine.Game
	// MissedCaptures lists the resumed game's turns that were placements
	// over a compulsory capture (tournament rules).
	MissedCaptures []int
	// Ended, if not nil, says the resumed game ended off the board.
	Ended *Ending
	// Answered lists the resumed game's turns the players answered
	// rather than the board showed.
	Answered []int
}

// Referee turns a stream of sensor frames into the turns played. It is
// pure: time arrives with each frame, and it does no I/O. It is not safe
// for concurrent use.
type Referee struct {
	cfg   Config
	b     *engine.Board
	game  *engine.Game
	cells []string // the official board after each turn, in frame-log form

	// Settling: the stage, the frame seen last, the board inferred last
	// and since when it showed, and the cells whose sensors are dead.
	stage     *settle.Stage
	frame     string
	settled   string
	obsSince  int64
	unknown   []int
	dead      []int // the dead sensors reported
	deadCheck int64
	lastT     int64
	fault     string // the fault reported last, to report each once

	// Claimed rings still on the physical board, and what they held.
	cl claims

	hop int64 // see Config.HopMS
	// deferred: a verdict waits for the board to hold HopMS: a take-back
	// of tbWait turns, or (recheck) lines of play followed while lost.
	deferred bool
	tbWait   int
	recheck  bool
	// recheckOne: a single turn whose claimed marble was never seen
	// settled, confirmed (unseenOK) once the board has held.
	recheckOne, unseenOK bool
	// redo holds the turns the last take-back undid, in playing order:
	// putting the pieces back re-commits them.
	redo  []redoTurn
	noTwo bool // inferring the turn under way after an inferred one
	lost  int  // settled boards in a row that were illegal
	// lostBefore is lost before the observation being inferred.
	lostBefore int
	hyps       []hypothesis // lines of play followed while lost
	// lines are the lines of play followed while a sensor is dead, and
	// linesBefore and linesOld those before the last two settled boards.
	lines, linesBefore, linesOld []line
	// linesTry: the lines that explained the board before the last one,
	// which the last board killed while other lines explained it (an
	// illegal try that a line happened to explain): the next board may
	// go on from them (see linesObserve). Kept for the board after the
	// one of time linesTrySince, with the game linesTryLen turns long.
	linesTry      []line
	linesTrySince int64
	linesTryLen   int
	// kept: the lines no line of which explained the last board, an
	// illegal board; they go on if the next board is keptCells again,
	// the board before it, while the game is keptLen turns long (a try
	// put right at once).
	kept      []line
	keptLen   int
	keptCells string
	// touched holds the cells that showed anything else between the last
	// two settled boards (a hand over them included), moving those since
	// the last.
	touched, moving uint64
	// gap is the longest wait between two frames since the board last
	// settled, and stalled says the board settled after one (a stall).
	gap       int64
	stalled   bool
	linesHold bool // look at the lines again once the board holds
	// doubtful: the referee was lost this game (lostBoards illegal boards
	// in a row, or a resynchronisation); a line that ends the game is
	// then asked about.
	doubtful bool
	question *question // an open question to the players
	// nextQuestion numbers the questions asked.
	nextQuestion int
	// answered: turns the players answered rather than the board showed.
	answered []int
	// waitEnd: lines that end the game wait for the board to hold.
	waitEnd *decision
	// recheckUnknown: a board read with dead sensors that the official
	// position does not explain; tryUnknown looks again once it holds.
	recheckUnknown bool
	// endInferred: the game ended on turns the board never showed one by
	// one, so a take-back to an earlier position outranks clearing.
	endInferred bool
	cleared     bool // after the game, the board was seen cleared
	// seen is the colour of the marble last seen settled on each vacant
	// ring of the official board, 0 for none: evidence for inferring turns
	// the board never showed whole.
	seen [engine.MaxCells]byte

	restAt     engine.Cell   // tournament: where a placed marble rested this turn
	jumperSeen []engine.Cell // where the jumping marble was seen this turn
	illegal    bool          // the last settled observation was illegal
	missed     []int         // turns (1-based) that were placements over a capture
	guide      Guidance
	demand     bool // a take-back demand is being guided
	// mustCapture: the last turn was taken back on the opponent's demand
	// (a missed capture), so the capture must now be made (rulebook I); a
	// placement is refused as in casual mode until a turn is committed.
	mustCapture bool
	// ended: the game ended off the board (Ending); nil while it goes on.
	ended *Ending
	// expect: the turn the player to move must carry out (the engine's).
	expect *expectation

	// Stuck sensors (stuck.go): when each cell's reading last changed,
	// the settled boards of the last turns, the sockets found stuck and
	// what each reads, and the frame with those hidden.
	lastChange [engine.MaxCells]int64
	hist       []histBoard
	stuck      uint64
	// notStuck: sockets the players said they put no marble on (a socket
	// question answered "other"), since turn notStuckAt; the search
	// passes over them for the next maxRevise turns.
	notStuck   uint64
	notStuckAt int
	stuckRead  [engine.MaxCells]byte
	masked     string

	// rejected: the lines of play the players answered "none of these"
	// to (a revision read with a socket taken for stuck), each from the
	// position after its turn base; a search passes over the lines that
	// begin with one (see answerNone).
	rejected []rejectedLine
	// doubted: those of notStuck passed over because the players answered
	// "none of these" to the lines read with them (answerNone), not
	// because they put no marble there: the search tries them again,
	// with other lines, when no other socket explains the boards.
	doubted uint64
	// captureHeld: the board shows a capture under way; look for a stuck
	// sensor once it has held.
	captureHeld bool
	// plays bounds the turns step plays (nil: unbounded), and short says
	// it ran out: see step.
	plays *int
	short bool
	// showed holds, for white, grey and black, the cells that showed a
	// marble of that colour in passing since touched was last cleared.
	showed [3]uint64
	// deeper is the turns played whole before the last that extend looks
	// for beyond its usual depth (linesObserve's second look).
	deeper int
	// jumping: a single turn explains the board seen after a stall, and
	// the lines look for a hidden marble jumping now too (see doubt).
	jumping bool
	// still: the marbles of the settled board being refereed whose
	// sensors have read the same since the official position's last turn
	// (stillMarbles): no turn since took one away and put it back.
	still uint64
	// passing holds the frames seen since the last settled board, passed
	// those that led to the board settled last; passFull and passedFull
	// say there were too many to keep (see passing.go).
	passing, passed      []string
	passFull, passedFull bool
	passBase             string // the frame the board settled on last
	// askingUnsure: the lines being asked about are not borne out whole
	// by the board (askUnsure), and no turn they share is taken as
	// certain.
	askingUnsure bool
	// illegalTry: the illegal board broke a named rule (an illegal try),
	// rather than differing from every reading (see settlePassing).
	illegalTry bool
	// jumpsHidden: extend looks, after a stall, for marbles put down
	// unseen and jumping (hiddenJumps).
	jumpsHidden bool
}

// New starts a referee.
func New(cfg Config) (*Referee, error) {
	if cfg.Board == nil || cfg.Rules == nil {
		return nil, fmt.Errorf("referee: a board and rules are required")
	}
	if cfg.First != 0 && cfg.First != 1 {
		return nil, fmt.Errorf("referee: first player %d: want 0 or 1", cfg.First)
	}
	if cfg.Mode == "" {
		cfg.Mode = Casual
	}
	if _, err := ParseMode(string(cfg.Mode)); err != nil {
		return nil, err
	}
	r := &Referee{cfg: cfg, b: cfg.Board, hop: cfg.HopMS, restAt: engine.NoCell, lastT: -1 << 62}
	stage, err := settle.New(cfg.Board.Len(), settle.Config{SettleMS: cfg.SettleMS, GlitchMS: cfg.GlitchMS})
	if err != nil {
		return nil, fmt.Errorf("referee: %w", err)
	}
	r.stage = stage
	if r.hop == 0 {
		r.hop = max(DefaultHopMS, stage.SettleMS())
	}
	if r.hop < stage.SettleMS() {
		return nil, fmt.Errorf("referee: hop time %d ms is shorter than the settle time %d ms", r.hop, stage.SettleMS())
	}
	if cfg.Game != nil {
		if cfg.Game.Position().Board() != cfg.Board {
			return nil, fmt.Errorf("referee: the game to resume is on the %s board, not %s", cfg.Game.Position().Board(), cfg.Board)
		}
		r.game = cfg.Game
		r.missed = append([]int(nil), cfg.MissedCaptures...)
		r.answered = append([]int(nil), cfg.Answered...)
		if e := cfg.Ended; e != nil {
			c := *e
			r.ended = &c
		}
		for i := 0; i <= r.game.Len(); i++ {
			r.cells = append(r.cells, r.game.PositionAfter(i).Cells())
		}
	} else {
		r.game = engine.NewGame(engine.NewPosition(cfg.Board, cfg.Rules, cfg.First))
		r.cells = []string{r.game.Position().Cells()}
	}
	r.guide = r.idleGuidance()
	return r, nil
}

// Game returns the official game. Callers must not play turns on it.
func (r *Referee) Game() *engine.Game { return r.game }

// Position returns the official position.
func (r *Referee) Position() engine.Position { return r.game.Position() }

// Mode returns the referee's mode (Casual when the Config left it unset).
func (r *Referee) Mode() Mode { return r.cfg.Mode }

// Phase is the phase of the game as the state publishes it: over when the
// game is over on the board or off it, capture when a capture is
// compulsory, else place.
func (r *Referee) Phase() engine.Phase {
	if r.ended != nil {
		return engine.PhaseOver
	}
	return r.game.Position().Phase()
}

// MissedCaptures lists the turns (1-based) that were placements made while
// a capture was compulsory (tournament mode only).
func (r *Referee) MissedCaptures() []int { return append([]int(nil), r.missed...) }

// Guidance returns what the LEDs and the screen should show now: the
// sockets whose sensors are dead or stuck show RoleSensorFault where
// nothing else is to be shown. The returned value must not be modified.
func (r *Referee) Guidance() Guidance {
	faulty := r.faulty()
	if faulty == 0 {
		return r.guide
	}
	g := r.guide
	g.Hints = append(make([]Hint, 0, r.b.Len()), r.guide.Hints...)
	for len(g.Hints) < r.b.Len() {
		g.Hints = append(g.Hints, Hint{})
	}
	for _, c := range cellsOf(faulty) {
		if int(c) < len(g.Hints) && g.Hints[c].Role == RoleNone {
			g.Hints[c].Role = RoleSensorFault
		}
	}
	return g
}

// Expected returns the official board in frame-log form.
func (r *Referee) Expected() string { return r.cells[len(r.cells)-1] }

// Observe takes one frame: t in milliseconds (never decreasing) and one
// frame-log character per cell in board order. It returns the events the
// frame causes, usually none. A frame that repeats the last one costs a
// string comparison and allocates nothing.
//
// An observation counts once it has held for the settle time and has no
// unreadable cell. Frames that stray from it for no longer than the glitch
// window and come back do not restart its clock; a change that lasts
// longer becomes the new observation, timed from when it first appeared.
func (r *Referee) Observe(t int64, cells string) []Event {
	if t < r.lastT {
		return r.reportFault(t, fmt.Sprintf("frame time %d ms goes back from %d ms; frame ignored", t, r.lastT))
	}
	if r.frame != "" {
		r.gap = max(r.gap, t-r.lastT)
	}
	r.lastT = t
	var ev []Event
	if cells != r.frame {
		stuckEv, ok := r.newFrame(t, cells)
		if !ok {
			return stuckEv // a fault
		}
		ev = stuckEv
	}
	cells = r.masked
	if t >= r.deadCheck {
		// Dead sensors are reported once, and once more when all read
		// again: checked four times a second, not on every frame.
		r.deadCheck = t + 250
		ev = append(ev, r.noteDead(t, r.stage.Dead())...)
	}
	obs, ok := r.stage.Push(t, cells)
	if !ok {
		if r.deferred && cells == r.settled && t-r.obsSince >= r.hop {
			// The board settling is the one settled, since it settled, or
			// again for the hop time (a glitch long enough to restart
			// its clock came and went).
			if cand, since := r.stage.Settling(); cand == r.settled && (since == r.obsSince || t-since >= r.hop) {
				return append(ev, r.late(t)...)
			}
		}
		return ev
	}
	// A socket that has just become unknown held every board back for the
	// unknown time: as blind as a stall, whatever the scan did.
	blind := r.gap >= stallMS || newlyUnknown(r.unknown, obs.Unknown)
	before := r.settled
	r.noteSettled(obs, blind)
	return append(ev, r.observeSettled(t, obs.Cells, before)...)
}

// newFrame takes a frame that differs from the last: it checks its form
// (false and a fault if it is bad), notes the cells that changed, masks
// the stuck sensors and the frames seen in passing. It returns the
// events of the stuck sensors' masks.
func (r *Referee) newFrame(t int64, cells string) ([]Event, bool) {
	if len(cells) != r.b.Len() {
		return r.reportFault(t, fmt.Sprintf("frame has %d cells; the %s board has %d", len(cells), r.b, r.b.Len())), false
	}
	for i := 0; i < len(cells); i++ {
		if c := cells[i]; c != '.' && c != 'o' && c != 'w' && c != 'g' && c != 'b' && c != '?' {
			return r.reportFault(t, fmt.Sprintf("frame has %q at cell %s, which is not a frame-log character", c, r.b.Label(engine.Cell(i)))), false
		}
	}
	for i := 0; i < len(cells); i++ {
		if len(r.frame) != len(cells) || cells[i] != r.frame[i] {
			r.lastChange[i] = t // the first frame: as good as a change
		}
	}
	r.frame = cells
	var stuckEv []Event
	r.masked, stuckEv = r.mask(t, cells)
	r.notePassing(r.masked)
	if len(r.settled) == len(cells) {
		for i := 0; i < len(cells); i++ {
			if r.masked[i] != r.settled[i] {
				r.moving |= 1 << uint(i)
			}
		}
	}
	return stuckEv, true
}

// noteSettled takes a settled observation as the board: what the hands
// touched and showed in passing since the last one, and what the
// sensors that died may no longer tell. blind says the scan saw too
// little in between (a stall, a socket just become unknown).
func (r *Referee) noteSettled(obs settle.Observation, blind bool) {
	r.settled, r.obsSince, r.unknown = obs.Cells, obs.Since, obs.Unknown
	r.settlePassing(r.illegal, r.illegalTry)
	if r.illegal {
		// The last board explained nothing (an illegal try, or turns not
		// yet understood): what the hands did before it still counts.
		r.touched, r.stalled = r.touched|r.moving, r.stalled || blind
	} else {
		r.touched, r.stalled = r.moving, blind
		r.showed = [3]uint64{}
	}
	r.moving, r.gap = 0, 0
	for _, tr := range obs.Transients {
		r.touched |= bit(engine.Cell(tr.Cell))
		for i := 0; i < len(tr.Showed); i++ {
			if k := marbleIndex(tr.Showed[i]); k >= 0 {
				r.showed[k] |= bit(engine.Cell(tr.Cell))
			}
		}
	}
	r.fault = ""
	for _, c := range r.unknown {
		r.seen[c] = 0 // what a dead sensor showed before it died is no evidence
	}
	r.still = r.stillMarbles(obs.Cells)
	if !r.Over() {
		r.remember(obs.Cells)
	}
}

// observeSettled referees a settled board, cells, whose board before was
// before: blind when sensors are dead, the lines of play when they are
// followed, else turn by turn from the official position (infer).
func (r *Referee) observeSettled(t int64, cells, before string) []Event {
	if len(r.unknown) > 0 && len(r.unknown) <= maxUnknownTried && !r.Over() {
		r.tbWait, r.recheck, r.recheckOne, r.deferred, r.waitEnd, r.recheckUnknown = 0, false, false, false, nil, false
		r.linesHold = false
		return r.blindObserve(t, cells)
	}
	if r.lines == nil && r.kept != nil && r.keptLen == r.game.Len() && !r.Over() {
		// The board before was an illegal try, put right at once: the
		// board is again the one the lines explained before it, or one
		// they explain with the turns played since (the scan saw no
		// board between the try put right and the next turn), and they
		// go on.
		r.lines = r.kept
	}
	r.kept = nil
	if r.lines != nil && !r.Over() {
		// Following lines of play: the board goes to them first.
		if got, ok := r.linesObserve(t, cells); ok {
			return got
		}
		r.kept, r.keptLen, r.keptCells = r.lines, r.game.Len(), before
	}
	r.lines, r.linesBefore, r.linesOld = nil, nil, nil
	got := r.infer(t, r.known(cells))
	if commits(got) || !r.illegal {
		r.kept = nil // the board made sense without them
	}
	if len(r.unknown) > 0 && !commits(got) && r.known(cells) != r.Expected() {
		r.recheckUnknown, r.deferred = true, true
	}
	return got
}

// newlyUnknown reports whether now holds a cell that was not in before.
func newlyUnknown(before, now []int) bool {
	for _, c := range now {
		fresh := true
		for _, b := range before {
			fresh = fresh && b != c
		}
		if fresh {
			return true
		}
	}
	return false
}

// commits reports whether events commit a turn or take one back.
func commits(ev []Event) bool {
	for _, e := range ev {
		switch e.Body.(type) {
		case Move, Takeback:
			return true
		}
	}
	return false
}

// ObserveBytes is Observe for a frame in a reused buffer. It copies the
// frame only when it changes.
func (r *Referee) ObserveBytes(t int64, cells []byte) []Event {
	if string(cells) == r.frame { // compared in place: no copy
		return r.Observe(t, r.frame)
	}
	return r.Observe(t, string(cells))
}

func (r *Referee) reportFault(t int64, reason string) []Event {
	if reason == r.fault {
		return nil
	}
	r.fault = reason
	return []Event{{t, Fault{Reason: reason}}}
}

// NewGame abandons the game and starts a new one with the given first
// player.
func (r *Referee) NewGame(t int64, first int) []Event {
	r.game = engine.NewGame(engine.NewPosition(r.cfg.Board, r.cfg.Rules, first&1))
	r.cells = []string{r.game.Position().Cells()}
	r.cl, r.restAt, r.illegal, r.missed, r.demand, r.jumperSeen = claims{}, engine.NoCell, false, nil, false, nil
	r.tbWait, r.redo, r.hyps, r.lost, r.question, r.cleared, r.mustCapture = 0, nil, nil, 0, nil, false, false
	r.waitEnd, r.endInferred, r.answered = nil, false, nil
	r.doubtful = false
	r.lines, r.linesBefore, r.linesOld, r.kept = nil, nil, nil, nil
	r.ended, r.expect = nil, nil
	r.seen = [engine.MaxCells]byte{}
	r.hist, r.stuck, r.rejected, r.notStuck, r.doubted = nil, 0, nil, 0, 0
	r.stage.Reset() // look at the board afresh
	r.settled = ""
	r.resetPassing()
	r.guide = r.idleGuidance()
	return nil
}

// DemandTakeback records the opponent's demand that the last turn be taken
// back (tournament rules, a missed capture) and guides the players to
// restore the position before it. The board returning there reverts the
// game, as any take-back does.
func (r *Referee) DemandTakeback(t int64) []Event { return r.DemandTakebackTurns(t, 1) }

// DemandTakebackTurns is DemandTakeback of the last k turns (at least 1,
// at most all): in a game against the engine, the person's turn and the
// engine's reply. The event's Turn is the earliest turn to take back.
func (r *Referee) DemandTakebackTurns(t int64, k int) []Event {
	n := r.game.Len()
	if r.ended != nil {
		return []Event{{t, Fault{Reason: "the game is over: there is no turn to take back"}}}
	}
	if n == 0 {
		return []Event{{t, Fault{Reason: "there is no turn to take back"}}}
	}
	k = max(1, min(k, n))
	r.demand = true
	prev := r.cells[n-k]
	fixes, h := r.restore(prev, r.Expected())
	r.guide = guidance(h, Msg("guide.takeback-demand", n-k+1, fixList(fixes)))
	return []Event{{t, TakebackDemand{Turn: n - k + 1, By: r.game.Position().ToMove(), Cells: fixes}}}
}

// restore lists what differs between the board now (have) and want, with
// hints marking those cells.
func (r *Referee) restore(want, have string) ([]CellFix, hints) {
	h := make(hints, r.b.Len())
	var fixes []CellFix
	for c := 0; c < r.b.Len(); c++ {
		if want[c] != have[c] {
			fixes = append(fixes, CellFix{Cell: r.b.Label(engine.Cell(c)), Is: string(have[c]), Should: string(want[c])})
			h.wrong(engine.Cell(c), engine.Content(want[c]))
		}
	}
	return fixes, h
}

// fixList says what each cell should hold: "D4 (white), E5 (no ring)".
func fixList(fixes []CellFix) []Message {
	parts := make([]Message, len(fixes))
	for i, f := range fixes {
		parts[i] = Msg("guide.fix", f.Cell, ContentMessage(f.Should))
	}
	return parts
}

// ContentMessage names what a cell holds, by frame-log character.
func ContentMessage(s string) Message {
	switch s {
	case ".":
		return Msg("content.no-ring")
	case "o":
		return Msg("content.vacant")
	case "w":
		return Msg("content.white")
	case "g":
		return Msg("content.grey")
	case "b":
		return Msg("content.black")
	}
	return Msg("content.unknown")
}

func cellsOf(set uint64) []engine.Cell {
	var out []engine.Cell
	for ; set != 0; set &= set - 1 {
		out = append(out, engine.Cell(bits.TrailingZeros64(set)))
	}
	return out
}

func bit(c engine.Cell) uint64 {
	if c < 0 {
		return 0
	}
	return 1 << uint(c)
}

func isMarble(c byte) bool { return c == 'w' || c == 'g' || c == 'b' }

// marbleIndex is 0, 1 or 2 for a white, grey or black marble's reading,
// and -1 for any other.
func marbleIndex(c byte) int { return strings.IndexByte("wgb", c) }

func (r *Referee) labels(cs []engine.Cell) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, r.b.Label(c))
	}
	return out
}

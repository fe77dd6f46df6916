// Package controller joins the parts of a zertzboard into one: sensor
// frames go to the referee; every committed change goes first to the
// journal on disk (fsync'd), then to the broadcast and the display.
// Hardware and network live behind small interfaces, so the same
// controller runs on the Pi, in the simulator and in tests.
//
// The controller is the single owner of the live game: the journal
// hands back, at start, the game it replayed (Config.Resume), and from
// then on only writes the entries the controller gives it. A failed
// write does not stop the game (journal.go).
//
// Layer: services. May import: base, game, services.
package controller

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"

	"github.com/zertzboard/zertzboard/analyst"
	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// Publisher broadcasts the live game. Its methods must not block for long:
// the controller calls them from the frame loop.
type Publisher interface {
	State(wire.State)
	Move(wire.MoveMessage)
	Event(referee.Event)
	Record(json []byte)
}

// Display shows guidance: the per-socket LEDs and the status screen.
type Display interface {
	Show(g referee.Guidance, s wire.State)
}

// Config sets up a controller.
type Config struct {
	BoardID  string
	Variant  string // e.g. "48" or "37b"; a resumed journal's game wins
	First    int
	Mode     referee.Mode
	Players  [2]string
	SettleMS int64
	// Journal, if set, is where every committed change is written before
	// it is announced.
	Journal *journal.Journal
	// Resume, if set, is the game the journal's Open replayed: the
	// controller takes it up (and owns it from then on) instead of
	// starting one.
	Resume *journal.Game
	// OnJournalFault, if set, is told when a journal write fails (the
	// error) and when the journal is whole again (nil): the status
	// screen shows it. The log and a fault event say it too.
	OnJournalFault func(err error)
	Publisher      Publisher // may be nil
	Display        Display   // may be nil
	Logger         *slog.Logger
	// Analysis, if set, searches every new position for a forced win on
	// its own goroutine and publishes the state again with it; tournament
	// games only with InTournament (the players must not see it). Nil:
	// off.
	Analysis *analyst.Options
	// Control is the time control of new games (the zero Control: none);
	// a new-game command may set another.
	Control clock.Control
	// MaxGapMS is the longest gap between frames charged to a clock;
	// 0 means clock.DefaultMaxGapMS.
	MaxGapMS int64
	// CheckpointMS is how often, at most, a running clock is journalled;
	// 0 means DefaultCheckpointMS.
	CheckpointMS int64
	// Play, if not nil, has the engine play one side of new games (a
	// new-game command may say otherwise); nil: people play both.
	Play *Play
	// Event names the tournament in every game's record (the JSON
	// record's event, SGF EV[]); "" for none.
	Event string
}

// DefaultCheckpointMS is how often a running clock is journalled: a crash
// loses at most this much of the mover's time, in the mover's favour. An
// fsync on an SD card takes milliseconds; every 10 s it costs nothing.
const DefaultCheckpointMS = 10_000

// DisturbMS is how long after a commit an illegal board counts as the
// last mover's (their hand is still on the board), unless the player to
// move has begun a legal turn since.
const DisturbMS = 3000

// Controller is one board's game. Its methods are safe for concurrent use:
// frames come from the scan loop, commands from the network and buttons.
type Controller struct {
	mu      sync.Mutex
	cfg     Config
	ref     *referee.Referee
	seq     uint64
	players [2]string
	naming  journal.Naming // the tournament and round the arbiter named (set-players)
	log     *slog.Logger
	lastT   int64

	an       *analyst.Analyst // nil when analysis is off
	analysed engine.Position  // the position analysis is for
	analysis *wire.Analysis   // its result, nil while it runs

	clk     clock.Clock
	waiting bool              // the clock waits for the board to be set up
	times   []record.TurnTime // each turn's time; nil when not known for every turn
	notes   []record.Note     // the arbiter's notes on this game, at the turns played (record.Notes)
	gameSeq uint64            // the seq of the game's start: the game's ID
	frameT  int64             // the latest frame's time
	ckT     int64             // when the clocks were last journalled
	commitT int64             // the last commit's time
	begun   bool              // the player to move has begun a legal turn
	culprit int               // the player charged for the board being fixed, or -1
	demand  bool              // a take-back demand is being restored
	request *wire.TakebackRequest
	jfault  bool  // a journal write failed and is not yet written
	jretryT int64 // when the journal was last written or tried
	dirty   bool  // seq went up outside a turn: publish the state
	repub   bool  // the state changed without a new seq: publish it
	rerec   bool  // the record changed and the state did not (a note): publish the record

	// Play against the engine (play.go).
	play     Play              // this game's; Engine is NoEngine without it
	opp      *analyst.Opponent // nil until the engine or a hint is wanted
	thinking *thought          // the search under way
	hint     string            // the last hint, in notation
	hintAt   engine.Position   // the position it is for
}

// New makes a controller, resuming the journal's game if it has one.
func New(cfg Config) (*Controller, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	c := &Controller{cfg: cfg, players: cfg.Players, log: cfg.Logger, play: Play{Engine: NoEngine}}
	if cfg.Play != nil {
		if err := CheckPlay(*cfg.Play); err != nil {
			return nil, fmt.Errorf("controller: %w", err)
		}
		c.play = *cfg.Play
	}
	if c.play.Engine != NoEngine {
		c.opp = &analyst.Opponent{}
	}
	if cfg.Analysis != nil {
		c.an = analyst.New(*cfg.Analysis, c.analysisDone)
	}
	if g := cfg.Resume; g != nil {
		if err := c.resume(g); err != nil {
			return nil, fmt.Errorf("controller: resuming the journal's game: %w", err)
		}
		if c.play.Engine != NoEngine && c.opp == nil {
			c.opp = &analyst.Opponent{}
		}
	} else if err := c.startGame(0, cfg.Variant, cfg.First, cfg.Control); err != nil {
		return nil, err
	}
	// The analysis goroutine may report before New returns: hold the lock
	// as every other caller of announce does.
	c.mu.Lock()
	c.announce(c.lastT, nil)
	c.mu.Unlock()
	return c, nil
}

// startGame begins a new game and journals it.
func (c *Controller) startGame(t int64, variant string, first int, ctl clock.Control) error {
	b, rules, err := engine.ParseVariant(variant)
	if err != nil {
		return fmt.Errorf("controller: %w", err)
	}
	ref, err := referee.New(referee.Config{Board: b, Rules: rules, First: first, Mode: c.cfg.Mode, SettleMS: c.cfg.SettleMS})
	if err != nil {
		return fmt.Errorf("controller: %w", err)
	}
	seq := c.seq + 1
	var eng *journal.Engine
	if c.play.Engine != NoEngine {
		eng = &journal.Engine{Player: c.play.Engine, Level: c.play.Level, Seed: c.play.Seed}
	}
	e := journal.NewGame{Seq: seq, T: t, Variant: variant, First: first, Mode: c.cfg.Mode.String(), Players: c.players, Naming: c.naming, Control: ctl.String(), Engine: eng}
	if err := c.journal(t, e); err != nil {
		return err
	}
	c.ref, c.seq, c.lastT = ref, seq, t
	c.newClock(ctl)
	c.gameSeq, c.times, c.ckT = seq, []record.TurnTime{}, t
	c.notes = nil
	return nil
}

// Frame takes one scan of the board: t in milliseconds, one frame-log
// character per cell of the game board, in board order. It is the hot
// path: a frame that changes nothing costs the referee's comparison.
//
// The clocks come first: a flag that falls at this frame ends the game
// before anything the frame shows counts.
func (c *Controller) Frame(t int64, cells []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.frameT = t
	c.retryJournal(t)
	if err := c.tick(t, cells); err != nil {
		return err
	}
	ev := c.ref.ObserveBytes(t, cells)
	if len(ev) == 0 {
		return nil
	}
	if _, ok := ev[0].Body.(referee.SetUp); ok && len(ev) == 1 {
		// The finished game was cleared away and the board set up: the
		// next game begins, the other player first, under the same time
		// control.
		p := c.ref.Position()
		if err := c.startGame(t, p.Variant(), 1-c.ref.Game().Start().ToMove(), c.clk.Control()); err != nil {
			return err
		}
		c.log.Info("new game: the board was cleared and set up", "variant", p.Variant(), "seq", c.seq)
		c.announce(t, nil)
		return nil
	}
	return c.handle(t, ev)
}

// handle journals, then announces, the referee's events.
func (c *Controller) handle(t int64, events []referee.Event) error {
	var moves []wire.MoveMessage
	var err error
	keep := func(e error) { err = cmp.Or(err, e) } // the first error
	for _, e := range events {
		switch b := e.Body.(type) {
		case referee.Move:
			keep(c.commitMove(e.T, b))
			moves = append(moves, wire.MoveMessage{Event: e, Seq: c.seq})
		case referee.Takeback:
			keep(c.commitTakeback(e.T, b))
		case referee.Pending:
			c.begun = true
		case referee.Restored:
			if c.culprit >= 0 && !c.demand {
				c.culprit = -1
				keep(c.chargeTo(e.T, c.ref.Position().ToMove()))
			}
		case referee.GameOver:
			c.clk.Stop(e.T)
			winner := "none (a draw)"
			if b.Winner != nil {
				winner = fmt.Sprintf("player %d", *b.Winner)
			}
			c.log.Info("game over", "winner", winner, "reason", b.Reason)
		case referee.Illegal:
			c.log.Debug("illegal board", "reason", b.Reason)
			keep(c.chargeTo(e.T, c.illegalCulprit(e.T, b)))
		case referee.Fault:
			c.log.Warn("fault", "reason", b.Reason)
			c.repub = true // the state's dead_cells may change
		case referee.Inferred:
			c.log.Warn("turns inferred", "turns", b.Turns, "reason", b.Reason)
		case referee.Question:
			c.log.Warn("question to the players", "question", b.Text, "id", b.ID, "options", b.Options)
			c.repub = true
			keep(c.journal(e.T, journal.Question{Seq: c.seq, T: e.T, QA: journal.QA{ID: b.ID, Turn: b.Turn, About: b.About, Options: b.Options, Provisional: b.Provisional}}))
		}
	}
	c.lastT = t
	c.announce(t, events, moves...)
	return err
}

// commitMove commits a turn the referee saw: the clocks, then the
// journal.
func (c *Controller) commitMove(t int64, b referee.Move) error {
	c.seq++
	missed := false
	for _, n := range c.ref.MissedCaptures() {
		missed = missed || n == b.Turn
	}
	ck := c.commitClock(t, b)
	c.log.Info("move", "turn", b.Turn, "player", b.Player, "move", b.Notation, "seq", c.seq, "used_ms", ck.TurnMS)
	return c.journal(t, journal.Turn{Seq: c.seq, T: t, Notation: b.Notation, Missed: missed, Clock: ck})
}

// commitTakeback commits a take-back: the clocks, then the journal.
func (c *Controller) commitTakeback(t int64, b referee.Takeback) error {
	c.seq++
	// The player to move right after the take-back (turns of the same
	// batch may follow it).
	mover := c.ref.Game().PositionAfter(b.Turn).ToMove()
	if len(b.Undone) == 1 && !c.demand && len(c.times) == b.Turn+1 {
		// A player taking back their own turn: its time goes on.
		c.clk.TakeBack(t, mover, c.times[b.Turn].UsedMS)
	} else {
		c.clk.Switch(t, mover)
	}
	c.culprit, c.demand, c.request, c.begun = -1, false, nil, false
	if c.times != nil && len(c.times) > b.Turn {
		c.times = c.times[:b.Turn]
	}
	for i := range c.notes {
		// A note given after a turn taken back follows the turns left,
		// as the journal replays it.
		c.notes[i].Turn = min(c.notes[i].Turn, b.Turn)
	}
	c.ckT = t
	c.log.Info("takeback", "undone", b.Undone, "seq", c.seq)
	return c.journal(t, journal.Takeback{Seq: c.seq, T: t, N: len(b.Undone), Clock: c.clockEntry(t)})
}

// announce publishes the state (when it changed), the moves and the other
// events, the record (when it or the state changed), and refreshes the
// display.
func (c *Controller) announce(t int64, events []referee.Event, moves ...wire.MoveMessage) {
	c.analyse()
	c.engineStep()
	st := c.snapshot(t)
	changed := events == nil || len(moves) > 0 || c.dirty || c.repub
	for _, e := range events {
		if _, ok := e.Body.(referee.Takeback); ok {
			changed = true
		}
	}
	rerec := changed || c.rerec
	c.dirty, c.repub, c.rerec = false, false, false
	if p := c.cfg.Publisher; p != nil {
		// Moves, then the state they led to, then the other events: a
		// viewer ties a notice (missed capture, game over, illegal board)
		// to the state it has, so the state must come first.
		for _, m := range moves {
			p.Move(m)
		}
		if changed {
			p.State(st)
		}
		if rerec {
			if rec, err := c.recordJSON(); err == nil {
				p.Record(rec)
			} else {
				c.log.Error("record", "err", err)
			}
		}
		for _, e := range events {
			if _, ok := e.Body.(referee.Move); !ok {
				p.Event(e)
			}
		}
	}
	if d := c.cfg.Display; d != nil {
		d.Show(c.guidance(), st)
	}
}

func (c *Controller) recordJSON() ([]byte, error) {
	g := c.ref.Game()
	rec := record.FromGame(g, c.ref.MissedCaptures())
	rec.Players, rec.Answered, rec.GameID, rec.Event, rec.Round = c.players, c.ref.Answered(), c.gameID(), c.event(), c.round()
	rec.Clock = &record.Clock{Control: c.clk.Control().String(), Turns: []record.TurnTime{}}
	if len(c.times) == g.Len() {
		rec.Clock.Turns = c.times
	}
	if e := c.ref.Ended(); e != nil {
		rec.Stop = stopOf(e)
	}
	rec.Notes = c.notes
	var buf bytes.Buffer
	if err := record.WriteJSON(&buf, rec); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSpace(buf.Bytes())), nil
}

// NewGame abandons the game and starts another; variant "" keeps the
// board and rules. The time control is the configured one.
func (c *Controller) NewGame(t int64, variant string, first int) error {
	return c.Command(t, command.NewGame{Variant: variant, First: first})
}

// SetPlayers names the players.
func (c *Controller) SetPlayers(t int64, players [2]string) error {
	return c.Command(t, command.SetPlayers{Players: players})
}

func (c *Controller) setPlayers(t int64, players [2]string, named journal.Naming) error {
	seq := c.seq + 1
	if err := c.journal(t, journal.Players{Seq: seq, T: t, Players: players, Naming: named}); err != nil {
		return err
	}
	c.players, c.seq = players, seq
	c.name(named)
	c.announce(t, nil)
	return nil
}

// name takes what a command named of the tournament and round (a nil
// field keeps one).
func (c *Controller) name(named journal.Naming) {
	if named.Event != nil {
		c.naming.Event = named.Event
	}
	if named.Round != nil {
		c.naming.Round = named.Round
	}
}

// event is the tournament the board's games are played in: the one the
// arbiter named, else the configured one ("" for none).
func (c *Controller) event() string {
	if e := c.naming.Event; e != nil {
		return *e
	}
	return c.cfg.Event
}

// round is the tournament's round the arbiter named, "" for none.
func (c *Controller) round() string {
	if r := c.naming.Round; r != nil {
		return *r
	}
	return ""
}

// DemandTakeback is the opponent's demand that the last turn be taken back
// (tournament rules); the referee guides the players.
func (c *Controller) DemandTakeback(t int64) {
	c.Command(t, command.Takeback{})
}

func (c *Controller) demandTakeback(t int64) {
	ev := c.ref.DemandTakebackTurns(t, c.takebackTurns())
	for _, e := range ev {
		if _, ok := e.Body.(referee.TakebackDemand); ok {
			// The board is put back by the player who placed over the
			// capture: their clock runs meanwhile.
			c.request, c.demand, c.culprit = nil, true, 1-c.ref.Position().ToMove()
			if err := c.chargeTo(t, c.culprit); err != nil {
				c.log.Error("journal write failed", "err", err)
			}
			c.repub = true
		}
	}
	c.announce(t, ev)
}

// Asking returns the referee's open question, if any.
func (c *Controller) Asking() (referee.Question, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ref.Asking()
}

// Answer gives the players' answer (the buttons) to the referee's
// question id: the option played. A different line than the one the game
// followed rewrites the game, journalled and announced like any change.
func (c *Controller) Answer(t int64, id, option int) error {
	return c.Command(t, command.Answer{Question: id, Option: option})
}

// answer carries out an answer that check accepted: the turns it changes
// are journalled as turns and take-backs, then the answer itself.
func (c *Controller) answer(t int64, id, option int) error {
	before := map[int]bool{}
	for _, n := range c.ref.Answered() {
		before[n] = true
	}
	ev := c.ref.Answer(t, id, option)
	c.log.Info("question answered", "question", id, "option", option)
	err := c.handle(t, ev)
	var turns []int
	for _, n := range c.ref.Answered() {
		if !before[n] {
			turns = append(turns, n)
		}
	}
	return cmp.Or(err, c.journal(t, journal.Answer{Seq: c.seq, T: t, QA: journal.QA{ID: id, Option: option, Turns: turns}}))
}

// State returns the current snapshot.
func (c *Controller) State() wire.State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snapshot(c.lastT)
}

// snapshot is the state with the analysis, when it is done, and the
// clocks as of the latest frame.
func (c *Controller) snapshot(t int64) wire.State {
	st := wire.Snapshot(c.ref, c.cfg.BoardID, c.players, c.seq, t)
	st.Analysis = c.analysis
	st.Clock = c.clockView()
	st.GameID = c.gameID()
	st.Event, st.Round = c.event(), c.round()
	if st.Play = c.playView(); st.Play != nil && st.Play.Thinking {
		g := c.guidance()
		st.Status, st.StatusMsg = g.Status, g.Parts
	}
	if r := c.request; r != nil {
		v := *r
		st.TakebackRequest = &v
	}
	return st
}

// analyse starts the analysis of the current position unless it is the
// one analysed already (a players' rename changes no position). The
// analyst cancels the previous search: a new commit always wins.
func (c *Controller) analyse() {
	if c.an == nil {
		return
	}
	if c.ref.Mode() == referee.Tournament && !c.an.Options().InTournament {
		c.analysed, c.analysis = engine.Position{}, nil
		return
	}
	p := c.ref.Position()
	if c.analysed.Board() != nil && c.analysed.Equal(p) {
		return
	}
	c.analysed, c.analysis = p, nil
	c.an.Analyze(p)
}

// analysisDone takes a finished analysis from the analyst's goroutine and, if
// the game is still at that position, publishes the state again with it.
func (c *Controller) analysisDone(p engine.Position, a wire.Analysis) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.analysed.Equal(p) || !c.ref.Position().Equal(p) {
		return // stale: the game moved on
	}
	c.analysis = &a
	st := c.snapshot(c.lastT)
	if pub := c.cfg.Publisher; pub != nil {
		pub.State(st)
	}
	if d := c.cfg.Display; d != nil {
		d.Show(c.guidance(), st)
	}
	if w := a.ForcedWin; w != nil {
		c.log.Info("analysis", "seq", c.seq, "forced_win_player", w.Player, "turns", w.Turns, "line", w.Line, "ms", a.MS)
	} else {
		c.log.Debug("analysis", "seq", c.seq, "no_forced_win_within", a.Depth, "complete", a.Complete, "ms", a.MS)
	}
}

// Close stops the analysis under way. The controller must not be used
// after.
func (c *Controller) Close() {
	if c.an != nil {
		c.an.Close()
	}
	c.mu.Lock()
	opp := c.opp
	c.mu.Unlock()
	if opp != nil {
		opp.Close()
	}
}

// First returns the player who moved first in the current game.
func (c *Controller) First() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ref.Game().Start().ToMove()
}

// Board returns the game's board.
func (c *Controller) Board() *engine.Board {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ref.Position().Board()
}

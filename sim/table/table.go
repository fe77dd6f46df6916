// Package table is a simulated game table: a simulated board's hardware,
// opened and calibrated as on a Pi, and simulated players seated at it
// who play recorded games on it against the running board, closed-loop,
// as `zertzboard sim` runs them.
//
// The players move the pieces as package players (sim/players) generates
// the moves of hands, at a human pace scaled by a speed; every board they
// mean the referee to see they hold until the board's scan has seen it
// settled, however slow the machine, and only then go on. They answer the
// referee's questions with the buttons, from what they played; they keep
// their hands off the board while the arbiter has paused the game; and
// against the engine, a hand carries out the engine's turns as the LEDs
// show them. On the lockstep clock (Config.Virtual) the board and the
// players run on virtual time, the same on every run.
//
// It sits at the top of the simulator, just below cmd: it may import the
// simulator (sim, sim/players), one board's runtime (board) and what that
// runs (controller, referee, engine, record, display, rig, hardware/...,
// sensors/...), and the standard library. Nothing but cmd and tests
// imports it; in particular board must not: the players play on a board
// from above, as people do.
//
// Layer: players. May import: base, game, drivers, sensors, services,
// presentation, config, simulator, rig, board, players.
package table

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/zertzboard/zertzboard/board"
	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/buttons"
	"github.com/zertzboard/zertzboard/hardware/open"
	timebase "github.com/zertzboard/zertzboard/hardware/timebase"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/rig"
	"github.com/zertzboard/zertzboard/sensors/classify"
	"github.com/zertzboard/zertzboard/sim"
	"periph.io/x/conn/v3/physic"
)

// Config says which board to simulate, what the players play, and how.
type Config struct {
	// Wiring is the board's wiring; nil means wiring.Reference().
	Wiring *wiring.Wiring
	// Games are played in order, then again from the first (Games).
	Games []*record.Record
	// Speed scales the players' pace: 2 is twice human speed. More than 0.
	Speed float64
	// SettleMS is the referee's settle time, in milliseconds.
	SettleMS int64
	// ScanHz is the board's scan rate; 0 means the scanner's default.
	ScanHz int
	// Seed seeds the players' behaviour and the sensors' noise.
	Seed uint64
	// StallEvery, if not 0, stalls the board's scan for 150-600 ms about
	// this often, as a starved Pi does, while the hands go on.
	StallEvery time.Duration
	// ExitAtEnd stops the players once the board has committed the first
	// game; otherwise they play on for ever.
	ExitAtEnd bool
	// Virtual runs the board and the players on the lockstep clock.
	Virtual bool
	// VsEngine has the engine play EnginePlayer (0 or 1): the players'
	// hand carries out its turns as the LEDs show them.
	VsEngine     bool
	EnginePlayer int
	// Log is where the players say what they do; nil discards it.
	Log *slog.Logger
}

// Table is a simulated board and the players seated at it. Open makes
// one; hand Rig, Calibration, Lockstep, OnFrame and OnButton to the
// board's options, then run Play beside the board (on a goroutine that
// Spawn starts).
type Table struct {
	rig         *open.Rig
	calibration *classify.Calibration
	lockstep    *timebase.Lockstep

	board     *sim.Board
	wiring    *wiring.Wiring
	games     []*record.Record
	speed     float64
	settleMS  int64
	seed      uint64
	exitAtEnd bool
	log       *slog.Logger
	seen      *frameWatch
	// arbiter says whether the arbiter has paused the game, and whether
	// it is over (ended off the board: a flag fall, a declared result);
	// nil in tests that drive play alone.
	arbiter func() (paused, over bool)
	// hw and presses: the virtual buttons, and the presses the board
	// carried out (OnButton), for answering the referee's questions; nil
	// in tests that drive play alone.
	hw      *sim.Hardware
	presses chan buttons.Event
	// stallEvery: the scan stalls for 150-600 ms about this often, and
	// misses what the hands do meanwhile; virtual is the board's virtual
	// clock the stalls pass on (nil: the wall clock).
	stallEvery time.Duration
	virtual    timebase.Clock
	// game is the record being played, as the players remember it;
	// begun counts the turns of it they have begun (answers come from
	// those), from playedBase, the turns before the current play call.
	game       atomic.Pointer[engine.Game]
	begun      atomic.Int64
	playedBase int
	// vs, if not nil, plays against the engine (Config.VsEngine).
	vs *vsEngine
	// leftOpen is the last question the players leave open (none of its
	// options is what they played).
	leftOpen atomic.Int64
	// hands is the players' time: the wall clock, or the lockstep
	// clock's (Config.Virtual).
	hands hands
}

// Open builds the simulated board of cfg, calibrates it in memory, opens
// its drivers as on a Pi, and seats the players at it. Close closes it.
func Open(cfg Config) (*Table, error) {
	if len(cfg.Games) == 0 {
		return nil, errors.New("no games for the players to play")
	}
	if cfg.Speed <= 0 {
		return nil, fmt.Errorf("speed %g: want more than 0", cfg.Speed)
	}
	if cfg.VsEngine && cfg.EnginePlayer != 0 && cfg.EnginePlayer != 1 {
		return nil, fmt.Errorf("engine player %d: want 0 or 1", cfg.EnginePlayer)
	}
	w := cfg.Wiring
	if w == nil {
		w = wiring.Reference()
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	bo := sim.DefaultBoardOpts
	bo.Seed = cfg.Seed
	t := &Table{board: sim.NewBoard(w.Base, &bo), wiring: w, games: cfg.Games, speed: cfg.Speed, settleMS: cfg.SettleMS,
		seed: cfg.Seed, exitAtEnd: cfg.ExitAtEnd, log: log, seen: newFrameWatch(), presses: make(chan buttons.Event, 8),
		stallEvery: cfg.StallEvery}
	t.hands = wallHands{t.seen}
	hw, err := sim.New(w, t.board)
	if err != nil {
		return nil, err
	}
	t.hw = hw
	if t.calibration, err = Calibrate(w, hw); err != nil {
		return nil, fmt.Errorf("calibrating the simulator: %w", err)
	}
	if cfg.VsEngine {
		lr, err := newLEDReader(w, hw.LEDs)
		if err != nil {
			return nil, err
		}
		t.vs = &vsEngine{player: cfg.EnginePlayer, leds: lr}
	}
	// On virtual time, the scan loop steps the lockstep clock, and the
	// players (participants) act between its scans.
	ro := &open.Opts{Rate: physic.Frequency(cfg.ScanHz) * physic.Hertz}
	if cfg.Virtual {
		t.lockstep = timebase.NewLockstep(time.Unix(0, 0).UTC())
		ro.Clock = t.lockstep
		t.virtual = t.lockstep
	}
	if t.rig, err = open.Open(w, hw, ro); err != nil {
		return nil, err
	}
	return t, nil
}

// Close closes the board's drivers.
func (t *Table) Close() error { return t.rig.Close() }

// Rig is the simulated board's drivers, for board.Options.Rig.
func (t *Table) Rig() *open.Rig { return t.rig }

// Calibration is the simulated board's calibration, for
// board.Options.Calibration.
func (t *Table) Calibration() *classify.Calibration { return t.calibration }

// Lockstep is the virtual clock (Config.Virtual), for
// board.Options.Lockstep; nil on the wall clock.
func (t *Table) Lockstep() *timebase.Lockstep { return t.lockstep }

// OnFrame is board.Options.OnFrame: the players watch the frames the scan
// classifies, to know when the board has seen what they did.
func (t *Table) OnFrame(ms int64, cells []byte) { t.seen.frame(ms, cells) }

// OnButton is board.Options.OnButton: the players see which of their
// button presses the board carried out.
func (t *Table) OnButton(e buttons.Event) {
	select {
	case t.presses <- e:
	default:
	}
}

// Spawn starts f, the goroutine that runs Play: on the wall clock a
// goroutine of its own; on virtual time the lockstep clock's first
// participant, whose time the players then keep.
func (t *Table) Spawn(f func()) {
	if t.lockstep == nil {
		go f()
		return
	}
	t.lockstep.Go(func(pp *timebase.Participant) {
		t.hands = stepHands{pp}
		f()
	})
}

// Calibrate calibrates the simulated base in memory, on a fake clock, as
// "calibrate --sim" does. It opens its own virtual hardware around the
// same board (ports, once opened, stay claimed) so that the board's rig
// can open the real one afterwards.
func Calibrate(w *wiring.Wiring, live *sim.Hardware) (*classify.Calibration, error) {
	r, err := rig.Open(rig.Options{Wiring: w, Sim: true, Board: live.Board})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cal, err := r.Calibrate(rig.CalibrateOpts{Frames: 40})
	live.Board.SetAll(engine.NoRing)
	return cal, err
}

// errEndedOffBoard stops the players' hands: the game ended off the board.
var errEndedOffBoard = errors.New("the game ended off the board")

// stepTimeout bounds a wait for the scan to see a board: generous, and
// shorter at higher speed (but never under a few seconds, since a loaded
// machine is slow at any speed).
func (t *Table) stepTimeout() time.Duration {
	return max(5*time.Second, time.Duration(float64(60*time.Second)/t.speed))
}

// Play plays the games on the board n runs until ctx is done, or, with
// Config.ExitAtEnd, until the board has committed the first game. It
// resumes the journal's game if that is the first game's beginning.
func (t *Table) Play(ctx context.Context, n *board.Node) error {
	if t.hw != nil && t.presses != nil {
		t.hands.Go(func(h hands) { t.answer(ctx, n, h) })
	}
	t.arbiter = func() (bool, bool) {
		st := n.Controller().State()
		// Ended off the board; an end on it is the last turn's.
		return st.Clock.Paused, st.Result.OffBoard()
	}
	for i := 0; ; i++ {
		rec := t.games[i%len(t.games)]
		g, m, k, err := t.setUp(ctx, n, rec, i == 0)
		if err != nil {
			return err
		}
		if err := t.playGame(ctx, n, rec, g, m, k, t.seed+uint64(i)); err != nil {
			return err
		}
		if t.exitAtEnd {
			if t.vs != nil {
				return t.awaitEnd(ctx, n, 1<<30) // until the game is over
			}
			return t.awaitEnd(ctx, n, g.Len())
		}
		if err := t.hands.Sleep(ctx, time.Duration(float64(5*time.Second)/t.speed)); err != nil {
			return err
		}
		// The players clear the board for the next game.
		t.place(m, []byte(strings.Repeat(".", len(g.Start().Cells()))))
		if err := t.hands.Sleep(ctx, time.Duration(float64(2*time.Second)/t.speed)); err != nil {
			return err
		}
	}
}

// setUp readies the board for rec: it resumes the journal's game if it is
// rec's beginning, or starts rec afresh (first: the board's first game,
// whose finished predecessor the players clear off first), names the
// players, and sets the position to play from on the base. It returns
// rec's game, the board's mount, and the turns of it already played.
func (t *Table) setUp(ctx context.Context, n *board.Node, rec *record.Record, first bool) (*engine.Game, *wiring.Mount, int, error) {
	rep, err := rec.Replay()
	if err != nil {
		return nil, nil, 0, err
	}
	st := n.Controller().State()
	k := 0
	switch {
	case st.Variant == rec.Variant && st.Turn <= len(rec.Turns) && st.Phase != engine.PhaseOver && isPrefix(st.Moves, rec):
		k = st.Turn
		if k > 0 {
			t.log.Info("resuming the game in the journal", "turn", k)
		}
	default:
		if st.Phase == engine.PhaseOver && first {
			// The journal's game is over: the board shows its end
			// until the players clear it for the next game.
			if err := t.clearFinished(ctx, n); err != nil {
				return nil, nil, 0, err
			}
		}
		if err := n.Do(command.NewGame{Variant: rec.Variant, First: rec.First}); err != nil {
			return nil, nil, 0, err
		}
	}
	if err := n.Do(command.SetPlayers{Players: rec.Players}); err != nil {
		return nil, nil, 0, err
	}
	t.game.Store(rep.Game)
	t.begun.Store(int64(k))
	from := rep.Game.PositionAfter(k)
	m, err := t.wiring.Mount(from.Board())
	if err != nil {
		return nil, nil, 0, err
	}
	t.place(m, []byte(from.Cells()))
	t.log.Info("players start", "game", Describe(rec), "from turn", k+1)
	return rep.Game, m, k, nil
}

// playGame plays rec's game g on from turn k (the board's), the players'
// turns and, against the engine, its turns as the LEDs show them. A game
// ended off the board stops it without an error.
func (t *Table) playGame(ctx context.Context, n *board.Node, rec *record.Record, g *engine.Game, m *wiring.Mount, k int, seed uint64) error {
	from := g.PositionAfter(k)
	var err error
	if t.vs != nil {
		err = t.playVsEngine(ctx, n, m, from, rec, k, seed)
	} else {
		t.playedBase = k
		err = t.play(ctx, m, from, rec.Turns[k:], seed)
	}
	if errors.Is(err, errEndedOffBoard) {
		t.log.Info("the game ended off the board; the players stop", "result", n.Controller().State().Result)
		return nil
	}
	return err
}

// clearFinished sets the journal's finished game on the board, lets the
// referee see it, and has the players clear it.
func (t *Table) clearFinished(ctx context.Context, n *board.Node) error {
	st := n.Controller().State()
	m, err := t.wiring.Mount(n.Controller().Board())
	if err != nil {
		return err
	}
	t.log.Info("the journal's game is over; the players clear the board", "result", st.Result, "turns", st.Turn)
	t.place(m, []byte(st.Cells))
	if err := t.seen.await(ctx, t.hands, st.Cells, t.settleMS, t.stepTimeout()); err != nil {
		t.log.Warn("the scan did not see the finished game's board", "err", err)
	}
	empty := strings.Repeat(".", len(st.Cells))
	t.place(m, []byte(empty))
	if err := t.seen.await(ctx, t.hands, empty, t.settleMS, t.stepTimeout()); err != nil {
		t.log.Warn("the scan did not see the board cleared", "err", err)
	}
	return nil
}

// place sets the base from game-board cells; '?' (a hand over a ring)
// leaves the magnet where it was.
func (t *Table) place(m *wiring.Mount, cells []byte) {
	for s := range m.Cells {
		if m.Cells[s] == engine.NoCell {
			t.board.Set(engine.Cell(s), engine.NoRing)
		}
	}
	for c, s := range m.Sockets {
		if cells[c] != '?' {
			t.board.Set(s, engine.Content(cells[c]))
		}
	}
}

package table

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"slices"
	"time"

	"github.com/zertzboard/zertzboard/board"
	"github.com/zertzboard/zertzboard/display"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
	"github.com/zertzboard/zertzboard/hardware/leds"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/sim"
)

// ledReader reads guidance back off the virtual LED chain, as a player
// reads the LEDs: each LED's decoded colour (after the driver's gamma and
// brightness) is matched to the role whose palette colour gives it.
type ledReader struct {
	chain  *sim.LEDChain
	order  []engine.Cell // the base socket of each LED
	byLook map[color.NRGBA]referee.Role
}

func newLEDReader(w *wiring.Wiring, chain *sim.LEDChain) (*ledReader, error) {
	if w.LEDs == nil || chain == nil {
		return nil, errors.New("the wiring has no LED chain to read the engine's turns from")
	}
	gamma := w.LEDs.Gamma
	if gamma <= 0 {
		gamma = 1
	}
	t := leds.Table(gamma, w.LEDs.Brightness)
	r := &ledReader{chain: chain, order: w.LEDs.Order, byLook: map[color.NRGBA]referee.Role{}}
	for role := referee.RoleNone; role <= referee.RoleMax; role++ {
		c := display.DefaultPalette[role]
		look := color.NRGBA{t[c.R], t[c.G], t[c.B], 255}
		if other, dup := r.byLook[look]; dup {
			return nil, fmt.Errorf("the LEDs show %v and %v alike at brightness %d", other, role, w.LEDs.Brightness)
		}
		r.byLook[look] = role
	}
	return r, nil
}

// roles returns the role each game cell's LED shows (-1 for a colour of
// no role, e.g. a frame dimmed to the current budget), and how many
// frames the chain had received.
func (r *ledReader) roles(m *wiring.Mount) ([]referee.Role, int) {
	frames := r.chain.Frames()
	cols := r.chain.Colors()
	out := make([]referee.Role, m.Game.Len())
	for i, s := range r.order {
		if i >= len(cols) || int(s) >= len(m.Cells) {
			continue
		}
		c := m.Cells[s]
		if c == engine.NoCell {
			continue
		}
		role, ok := r.byLook[cols[i]]
		if !ok {
			role = referee.Role(255)
		}
		out[c] = role
	}
	return out, frames
}

// vsEngine is play against the engine in the simulator: which side it
// plays, and what the simulated hand did with its turns.
type vsEngine struct {
	player int
	leds   *ledReader
	// turns counts the engine's turns the hand carried out; guided, those
	// that the board committed as the hand read them off the LEDs and as
	// the engine chose them.
	turns, guided int
	deviated      bool // the engine left the record
}

// vsStepTimeout bounds one step of the hand waiting for the board.
func (t *Table) vsStepTimeout() time.Duration { return t.stepTimeout() + 30*time.Second }

// playVsEngine plays a game against the engine: the simulated person plays
// the record's turns while the engine follows it (its own choice once the
// engine has left it), and the simulated hand carries out the engine's
// turns from the LEDs alone.
func (t *Table) playVsEngine(ctx context.Context, n *board.Node, m *wiring.Mount, from engine.Position, rec *record.Record, k int, seed uint64) error {
	ve := t.vs
	pos := from
	i := k
	for !pos.Result().Over {
		if _, over := t.arbiterState(); over {
			return errEndedOffBoard
		}
		played := n.Controller().State().Turn
		var turn engine.Turn
		var err error
		if pos.ToMove() == ve.player {
			if turn, err = t.engineHand(ctx, n, m, pos, played); err != nil {
				return err
			}
			if !ve.deviated && (i >= len(rec.Turns) || rec.Turns[i] != turn) {
				ve.deviated = true
				t.log.Info("the engine left the record; the person plays their own turns from here", "turn", played+1)
			}
		} else if turn, err = t.personPlays(ctx, n, m, pos, rec, i, played, seed); err != nil {
			return err
		}
		i++
		pos = pos.MustPlay(turn)
		for pos.MustPass() {
			pos = pos.MustPlay(engine.PassTurn())
			if i < len(rec.Turns) && rec.Turns[i].Kind == engine.Pass {
				i++
			}
		}
	}
	t.log.Info("the game against the engine is over", "engine_turns", ve.turns, "carried_out_as_guided", ve.guided, "result", n.Controller().State().Result)
	return nil
}

// personPlays plays the person's turn at pos: the record's turn i while
// the engine follows the record, else their own choice (the engine's at
// level 1); and waits until the board has committed it.
func (t *Table) personPlays(ctx context.Context, n *board.Node, m *wiring.Mount, pos engine.Position, rec *record.Record, i, played int, seed uint64) (engine.Turn, error) {
	ve := t.vs
	var turn engine.Turn
	if !ve.deviated && i < len(rec.Turns) && pos.Legal(rec.Turns[i]) {
		turn = rec.Turns[i]
	} else {
		ve.deviated = true
		turn = search.Search(ctx, pos, search.Options{Level: 1, Seed: seed + uint64(played)}).Move
	}
	t.log.Debug("the person plays", "turn", played+1, "move", engine.FormatTurn(pos.Board(), turn), "from_record", !ve.deviated)
	t.playedBase = played
	if err := t.play(ctx, m, pos, []engine.Turn{turn}, seed+uint64(played)); err != nil {
		return turn, err
	}
	return turn, t.awaitTurns(ctx, n, played+1)
}

// arbiterState is t.arbiter, or nothing paused or over without one.
func (t *Table) arbiterState() (paused, over bool) {
	if t.arbiter == nil {
		return false, false
	}
	return t.arbiter()
}

// awaitTurns waits until the board has committed want turns.
func (t *Table) awaitTurns(ctx context.Context, n *board.Node, want int) error {
	deadline := t.hands.Now().Add(t.vsStepTimeout())
	for n.Controller().State().Turn < want {
		if t.hands.Now().After(deadline) {
			st := n.Controller().State()
			return fmt.Errorf("the board committed %d turns, not %d, within %s (status %q)", st.Turn, want, t.vsStepTimeout(), st.Status)
		}
		if err := t.hands.Frame(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
	return nil
}

// engineHand carries out the engine's turn as the LEDs show it, one step
// at a time as a hand does (the marble, the ring, each hop, the pieces to
// take off), waiting after each for the board to see it and the LEDs to
// show the next. It returns the turn it carried out.
func (t *Table) engineHand(ctx context.Context, n *board.Node, m *wiring.Mount, pos engine.Position, played int) (engine.Turn, error) {
	h := &hand{b: pos.Board(), board: []byte(pos.Cells()), at: engine.NoCell, rem: engine.NoCell, frames: -1}
	deadline := t.hands.Now().Add(t.vsStepTimeout())
	for step := 0; ; step++ {
		roles, err := t.awaitPrompt(ctx, n, m, h, played, deadline)
		if err != nil {
			return engine.Turn{}, err
		}
		h.prompt = roles
		if !h.step(roles) {
			if h.mode != handIdle && n.Controller().State().Turn > played {
				break // committed, and nothing more lit for it
			}
			continue
		}
		t.place(m, h.board)
		if err := t.seen.await(ctx, t.hands, string(h.board), t.settleMS, t.stepTimeout()); err != nil {
			return engine.Turn{}, err
		}
		if step > 64 {
			return engine.Turn{}, fmt.Errorf("the engine's turn %d took more than 64 steps", played+1)
		}
	}
	turn := h.turn(pos)
	if err := t.awaitTurns(ctx, n, played+1); err != nil {
		return turn, err
	}
	t.vs.turns++
	st := n.Controller().State()
	did := engine.FormatTurn(h.b, turn)
	if len(st.Moves) > played && st.Moves[played] == did {
		t.vs.guided++
		t.log.Info("the hand carried out the engine's turn as the LEDs showed it", "turn", played+1, "move", did)
	} else {
		t.log.Warn("the engine's turn was not committed as the hand carried it out", "turn", played+1, "hand", did, "moves", st.Moves[played:])
	}
	return turn, nil
}

// awaitPrompt waits for the LEDs to show something new since the hand's
// last step, and returns it; or nil once the turn is committed and the
// LEDs show nothing more to do for it.
func (t *Table) awaitPrompt(ctx context.Context, n *board.Node, m *wiring.Mount, h *hand, played int, deadline time.Time) ([]referee.Role, error) {
	for {
		committed := n.Controller().State().Turn > played
		roles, f := t.vs.leds.roles(m)
		if f > h.frames && !slices.Equal(roles, h.prompt) && (h.mode != handIdle || hasInstruction(roles)) {
			h.frames = f
			h.after = committed
			return roles, nil
		}
		// The turn is committed and the LEDs show nothing more to do
		// for it: a new frame, or the frame drawn after the commit
		// whose claimed rings the hand has taken off (a finished
		// game's board stays as it is).
		if st := n.Controller().State(); h.mode != handIdle && st.Turn > played && (f > h.frames || st.Phase == engine.PhaseOver || (h.after && !takeOffLeft(h.prompt, h.board, h.mode == handPlacing))) {
			h.frames = f
			return nil, nil
		}
		if t.hands.Now().After(deadline) {
			return nil, fmt.Errorf("the LEDs showed no step of the engine's turn %d within %s (status %q)", played+1, t.vsStepTimeout(), n.Controller().State().Status)
		}
		if err := t.hands.Frame(ctx, 20*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

// What the hand is doing with the engine's turn.
const (
	handIdle = iota
	handPlacing
	handCapturing
)

// hand is the simulated hand carrying out an engine's turn: the board as
// it has made it, and the turn so far.
type hand struct {
	b     *engine.Board
	board []byte // the game board's cells as the hand has left them
	mode  int    // handIdle, handPlacing or handCapturing
	col   engine.Color
	// at: the placed marble; rem: the removed ring; path: the jumps.
	at, rem engine.Cell
	path    []engine.Cell
	// frames: the LED frames seen at the last prompt; prompt: its roles.
	frames int
	prompt []referee.Role
	// after: the last prompt was read once the board had committed the
	// turn, so it shows what is left of it (claimed rings, captured
	// marbles to take off) and the next player's guidance.
	after bool
}

// step takes the next step the LEDs show, if the board allows it: a
// frame the LEDs showed before the engine's turn (the person's capture
// still lit) asks for what cannot be done. It reports whether it acted.
func (h *hand) step(roles []referee.Role) bool {
	find := func(want referee.Role) engine.Cell {
		for c, r := range roles {
			if r == want {
				return engine.Cell(c)
			}
		}
		return engine.NoCell
	}
	if h.placeOn(find(referee.RolePlaceWhite), 'w', engine.White) || h.placeOn(find(referee.RolePlaceGrey), 'g', engine.Grey) ||
		h.placeOn(find(referee.RolePlaceBlack), 'b', engine.Black) {
		return true
	}
	if c := find(referee.RoleRemoveRing); c != engine.NoCell && h.mode == handPlacing && h.board[c] == 'o' {
		h.board[c], h.rem = '.', c
		return true
	}
	if j, to := find(referee.RoleChainContinues), find(referee.RoleJumpTarget); j != engine.NoCell && to != engine.NoCell && h.mode != handPlacing &&
		isMarble(h.board[j]) && h.board[to] == 'o' && isMarble(h.board[h.b.Between(j, to)]) && (len(h.path) == 0 || h.path[len(h.path)-1] == j) {
		if len(h.path) == 0 {
			h.path = append(h.path, j)
		}
		h.path = append(h.path, to)
		h.board[to], h.board[j] = h.board[j], 'o'
		h.board[h.b.Between(j, to)] = 'o' // the jumped marble, taken off
		h.mode = handCapturing
		return true
	}
	if h.mode == handIdle {
		return false
	}
	acted := false
	for c, r := range roles {
		if r == referee.RoleTakeOff && h.board[c] != '.' {
			if h.mode == handPlacing {
				h.board[c] = '.' // a claimed ring
			} else if h.board[c] != 'o' {
				h.board[c] = 'o' // a captured marble
			}
			acted = true
		}
	}
	return acted
}

// placeOn places a marble of colour on c, if the hand may.
func (h *hand) placeOn(c engine.Cell, letter byte, colour engine.Color) bool {
	if c == engine.NoCell || h.mode == handCapturing || h.board[c] != 'o' {
		return false
	}
	h.board[c], h.col, h.at, h.mode = letter, colour, c, handPlacing
	return true
}

// turn is the turn the hand carried out from pos.
func (h *hand) turn(pos engine.Position) engine.Turn {
	if h.mode == handPlacing {
		src := engine.FromPool
		if pool := pos.Pool(); pool[0]+pool[1]+pool[2] == 0 {
			src = engine.FromCaptures
		}
		return engine.PlaceTurn(h.col, src, h.at, h.rem)
	}
	return engine.CaptureTurn(h.path...)
}

func isMarble(c byte) bool { return c == 'w' || c == 'g' || c == 'b' }

// takeOffLeft reports whether the LEDs ask to take off a piece that the
// hand has not taken off yet: a claimed ring after a placement, a
// captured marble after a capture.
func takeOffLeft(roles []referee.Role, board []byte, placing bool) bool {
	for c, r := range roles {
		if r == referee.RoleTakeOff && board[c] != '.' && (placing || board[c] != 'o') {
			return true
		}
	}
	return false
}

// hasInstruction reports whether the LEDs show the start of an engine's
// turn: a marble to place or a jumper to move.
func hasInstruction(roles []referee.Role) bool {
	for _, r := range roles {
		switch r {
		case referee.RolePlaceWhite, referee.RolePlaceGrey, referee.RolePlaceBlack, referee.RoleChainContinues:
			return true
		}
	}
	return false
}

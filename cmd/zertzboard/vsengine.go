package main

import (
	"context"
	"errors"
	"fmt"
	"image/color"
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
func (p *simPlayers) vsStepTimeout() time.Duration { return p.stepTimeout() + 30*time.Second }

// playVsEngine plays a game against the engine: the simulated person plays
// the record's turns while the engine follows it (its own choice once the
// engine has left it), and the simulated hand carries out the engine's
// turns from the LEDs alone.
func (p *simPlayers) playVsEngine(ctx context.Context, n *board.Node, m *wiring.Mount, from engine.Position, rec *record.Record, k int, seed uint64) error {
	ve := p.vs
	pos := from
	i := k
	for !pos.Result().Over {
		if _, over := p.tableState(); over {
			return errEndedOffBoard
		}
		played := n.Controller().State().Turn
		var turn engine.Turn
		if pos.ToMove() == ve.player {
			var err error
			if turn, err = p.engineHand(ctx, n, m, pos, played); err != nil {
				return err
			}
			if !ve.deviated && (i >= len(rec.Turns) || rec.Turns[i] != turn) {
				ve.deviated = true
				p.log.Info("the engine left the record; the person plays their own turns from here", "turn", played+1)
			}
		} else {
			if !ve.deviated && i < len(rec.Turns) && pos.Legal(rec.Turns[i]) {
				turn = rec.Turns[i]
			} else {
				ve.deviated = true
				turn = search.Search(ctx, pos, search.Options{Level: 1, Seed: seed + uint64(played)}).Move
			}
			p.log.Debug("the person plays", "turn", played+1, "move", engine.FormatTurn(pos.Board(), turn), "from_record", !ve.deviated)
			p.playedBase = played
			if err := p.play(ctx, m, pos, []engine.Turn{turn}, seed+uint64(played)); err != nil {
				return err
			}
			if err := p.awaitTurns(ctx, n, played+1); err != nil {
				return err
			}
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
	p.log.Info("the game against the engine is over", "engine_turns", ve.turns, "carried_out_as_guided", ve.guided, "result", n.Controller().State().Result)
	return nil
}

// tableState is p.table, or nothing paused or over without one.
func (p *simPlayers) tableState() (paused, over bool) {
	if p.table == nil {
		return false, false
	}
	return p.table()
}

// awaitTurns waits until the board has committed want turns.
func (p *simPlayers) awaitTurns(ctx context.Context, n *board.Node, want int) error {
	deadline := p.hands.Now().Add(p.vsStepTimeout())
	for n.Controller().State().Turn < want {
		if p.hands.Now().After(deadline) {
			st := n.Controller().State()
			return fmt.Errorf("the board committed %d turns, not %d, within %s (status %q)", st.Turn, want, p.vsStepTimeout(), st.Status)
		}
		if err := p.hands.Frame(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
	return nil
}

// engineHand carries out the engine's turn as the LEDs show it, one step
// at a time as a hand does (the marble, the ring, each hop, the pieces to
// take off), waiting after each for the board to see it and the LEDs to
// show the next. It returns the turn it carried out.
func (p *simPlayers) engineHand(ctx context.Context, n *board.Node, m *wiring.Mount, pos engine.Position, played int) (engine.Turn, error) {
	ve := p.vs
	b := pos.Board()
	board := []byte(pos.Cells())
	const (
		none = iota
		placing
		capturing
	)
	mode := none
	var col engine.Color
	at, rem := engine.NoCell, engine.NoCell
	var path []engine.Cell
	frames := -1
	var prompt []referee.Role
	// after: the last prompt was read once the board had committed the
	// turn, so it shows what is left of it (claimed rings, captured
	// marbles to take off) and the next player's guidance.
	after := false
	deadline := p.hands.Now().Add(p.vsStepTimeout())
	for step := 0; ; step++ {
		// Wait for the LEDs to show something new since the last step.
		var roles []referee.Role
		for {
			var f int
			committed := n.Controller().State().Turn > played
			roles, f = ve.leds.roles(m)
			if f > frames && !sameRoles(roles, prompt) && (mode != none || hasInstruction(roles)) {
				frames = f
				after = committed
				break
			}
			// The turn is committed and the LEDs show nothing more to do
			// for it: a new frame, or the frame drawn after the commit
			// whose claimed rings the hand has taken off (a finished
			// game's board stays as it is).
			if st := n.Controller().State(); mode != none && st.Turn > played && (f > frames || st.Phase == engine.PhaseOver || (after && !takeOffLeft(prompt, board, mode == placing))) {
				roles, frames = nil, f
				break
			}
			if p.hands.Now().After(deadline) {
				return engine.Turn{}, fmt.Errorf("the LEDs showed no step of the engine's turn %d within %s (status %q)", played+1, p.vsStepTimeout(), n.Controller().State().Status)
			}
			if err := p.hands.Frame(ctx, 20*time.Millisecond); err != nil {
				return engine.Turn{}, err
			}
		}
		prompt = roles
		acted := false
		find := func(want referee.Role) engine.Cell {
			for c, r := range roles {
				if r == want {
					return engine.Cell(c)
				}
			}
			return engine.NoCell
		}
		// A step is taken only if the board allows it: a frame the LEDs
		// showed before the engine's turn (the person's capture still lit)
		// asks for what cannot be done.
		placeOn := func(c engine.Cell, letter byte, colour engine.Color) bool {
			if c == engine.NoCell || mode == capturing || board[c] != 'o' {
				return false
			}
			board[c], col, at, mode = letter, colour, c, placing
			return true
		}
		if placeOn(find(referee.RolePlaceWhite), 'w', engine.White) || placeOn(find(referee.RolePlaceGrey), 'g', engine.Grey) ||
			placeOn(find(referee.RolePlaceBlack), 'b', engine.Black) {
			acted = true
		} else if c := find(referee.RoleRemoveRing); c != engine.NoCell && mode == placing && board[c] == 'o' {
			board[c], rem, acted = '.', c, true
		} else if j, to := find(referee.RoleChainContinues), find(referee.RoleJumpTarget); j != engine.NoCell && to != engine.NoCell && mode != placing &&
			isMarble(board[j]) && board[to] == 'o' && isMarble(board[b.Between(j, to)]) && (len(path) == 0 || path[len(path)-1] == j) {
			if len(path) == 0 {
				path = append(path, j)
			}
			path = append(path, to)
			board[to], board[j] = board[j], 'o'
			board[b.Between(j, to)] = 'o' // the jumped marble, taken off
			mode, acted = capturing, true
		} else if mode != none {
			for c, r := range roles {
				if r == referee.RoleTakeOff && board[c] != '.' {
					if mode == placing {
						board[c] = '.' // a claimed ring
					} else if board[c] != 'o' {
						board[c] = 'o' // a captured marble
					}
					acted = true
				}
			}
		}
		if !acted {
			if mode != none && n.Controller().State().Turn > played {
				break // committed, and nothing more lit for it
			}
			continue
		}
		p.place(m, board)
		if err := p.seen.await(ctx, p.hands, string(board), p.settleMS, p.stepTimeout()); err != nil {
			return engine.Turn{}, err
		}
		if step > 64 {
			return engine.Turn{}, fmt.Errorf("the engine's turn %d took more than 64 steps", played+1)
		}
	}
	var turn engine.Turn
	if mode == placing {
		src := engine.FromPool
		if pool := pos.Pool(); pool[0]+pool[1]+pool[2] == 0 {
			src = engine.FromCaptures
		}
		turn = engine.PlaceTurn(col, src, at, rem)
	} else {
		turn = engine.CaptureTurn(path...)
	}
	if err := p.awaitTurns(ctx, n, played+1); err != nil {
		return turn, err
	}
	ve.turns++
	st := n.Controller().State()
	did := engine.FormatTurn(b, turn)
	if len(st.Moves) > played && st.Moves[played] == did {
		ve.guided++
		p.log.Info("the hand carried out the engine's turn as the LEDs showed it", "turn", played+1, "move", did)
	} else {
		p.log.Warn("the engine's turn was not committed as the hand carried it out", "turn", played+1, "hand", did, "moves", st.Moves[played:])
	}
	return turn, nil
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

func sameRoles(a, b []referee.Role) bool {
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

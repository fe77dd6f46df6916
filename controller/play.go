package controller

import (
	"errors"
	"fmt"

	"github.com/zertzboard/zertzboard/analyst"
	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// NoEngine as Play.Engine: both players are people.
const NoEngine = command.NoEngine

// Play sets up play against the engine on the board.
type Play struct {
	// Engine is the player the engine plays, 0 or 1, or NoEngine.
	Engine int
	// Level is the engine's strength, 1 to search.MaxLevel, a node budget:
	// the same level plays the same turn on every Pi. 0 means
	// search.DefaultLevel.
	Level int
	// Seed breaks the engine's ties between turns of equal score.
	Seed uint64
}

// ParseEngine reads the engine's player as configured or commanded: "0",
// "1" or "none".
func ParseEngine(s string) (int, error) {
	switch s {
	case "0":
		return 0, nil
	case "1":
		return 1, nil
	case "none", "":
		return NoEngine, nil
	}
	return 0, fmt.Errorf("engine %q: want 0, 1 or none", s)
}

// CheckPlay says what is wrong with p, or nil.
func CheckPlay(p Play) error {
	if p.Engine != NoEngine && p.Engine != 0 && p.Engine != 1 {
		return fmt.Errorf("engine player %d: want 0, 1 or none", p.Engine)
	}
	if p.Level < 0 || p.Level > search.MaxLevel {
		return fmt.Errorf("engine level %d: want 1 to %d", p.Level, search.MaxLevel)
	}
	return nil
}

// thought is the search under way: the position and what it is for.
type thought struct {
	p    engine.Position
	hint bool
}

func (c *Controller) searchOptions() search.Options {
	level := c.play.Level
	if level == 0 {
		level = search.DefaultLevel
	}
	return search.Options{Level: level, Seed: c.play.Seed}
}

// engineStep starts the engine's search when it is its turn and it has
// none under way or chosen, and stops a search the game has left behind.
// It runs under c.mu after every change (announce); the search runs on
// the opponent's goroutine, never under c.mu.
func (c *Controller) engineStep() {
	if c.opp == nil {
		return
	}
	p := c.ref.Position()
	if th := c.thinking; th != nil && !th.p.Equal(p) {
		c.opp.Stop()
		c.thinking = nil
	}
	if c.play.Engine == NoEngine || p.Result().Over || c.ref.Ended() != nil || p.ToMove() != c.play.Engine || p.MustPass() {
		return
	}
	if _, asking := c.ref.Asking(); asking {
		return
	}
	if _, ok := c.ref.Expecting(); ok {
		return
	}
	if th := c.thinking; th != nil && !th.hint {
		return
	}
	c.think(p, false)
}

func (c *Controller) think(p engine.Position, hint bool) {
	c.thinking = &thought{p: p, hint: hint}
	c.log.Debug("engine thinking", "hint", hint, "turn", c.ref.Game().Len()+1)
	c.opp.Think(p, c.searchOptions(), func(p engine.Position, r search.Result) { c.engineDone(p, r, hint) })
}

// engineDone takes the engine's turn (or hint) from its goroutine: if the
// game is still where it searched, the referee expects the turn (or shows
// the hint) and the LEDs show it.
func (c *Controller) engineDone(p engine.Position, r search.Result, hint bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	th := c.thinking
	if th == nil || th.hint != hint || !th.p.Equal(p) || !c.ref.Position().Equal(p) {
		return // stale: the game moved on
	}
	c.thinking = nil
	name := engine.FormatTurn(p.Board(), r.Move)
	if hint {
		c.ref.ShowTurn(r.Move, referee.Msg("guide.hint", name))
		c.hint, c.hintAt = name, p
		c.log.Info("hint", "turn", c.ref.Game().Len()+1, "move", name, "depth", r.Depth, "nodes", r.Nodes)
	} else {
		if err := c.ref.Expect(&r.Move); err != nil {
			c.log.Error("the engine's turn", "move", name, "err", err)
			return
		}
		c.log.Info("engine turn", "turn", c.ref.Game().Len()+1, "player", p.ToMove(), "move", name, "score", r.Score,
			"depth", r.Depth, "nodes", r.Nodes)
	}
	c.repub = true
	c.announce(c.lastT, nil)
}

// playView is the state's play object, nil without the engine.
func (c *Controller) playView() *wire.Play {
	if c.play.Engine == NoEngine {
		return nil
	}
	v := &wire.Play{Engine: c.play.Engine, Level: c.searchOptions().Level}
	p := c.ref.Position()
	if th := c.thinking; th != nil && !th.hint && th.p.Equal(p) {
		v.Thinking = true
	}
	if t, ok := c.ref.Expecting(); ok {
		v.Turn = engine.FormatTurn(p.Board(), t)
	}
	if c.hint != "" && c.hintAt.Equal(p) {
		v.Hint = c.hint
	}
	return v
}

// guidance is the referee's guidance, or while the engine thinks, only
// what stands on the board (the last turn, rings to take off, what is
// wrong) and "thinking".
func (c *Controller) guidance() referee.Guidance {
	g := c.ref.Guidance()
	th := c.thinking
	if th == nil || th.hint || !th.p.Equal(c.ref.Position()) {
		return g
	}
	h := make([]referee.Hint, len(g.Hints))
	for i, x := range g.Hints {
		switch x.Role {
		case referee.RoleWrong:
			return g // an illegal board first
		case referee.RoleLastMove, referee.RoleTakeOff:
			h[i] = x
		}
	}
	parts := []referee.Message{referee.Msg("guide.engine-thinking", referee.Msg("guide.player", c.play.Engine))}
	return referee.Guidance{Hints: h, Status: parts[0].English(), Parts: parts}
}

// takebackTurns is how many turns a take-back demand undoes: in a game
// against the engine, back to before the person's last turn, so the
// engine's reply goes with it.
func (c *Controller) takebackTurns() int {
	g := c.ref.Game()
	n := g.Len()
	if c.play.Engine == NoEngine || n == 0 {
		return 1
	}
	for i := n - 1; i >= 0; i-- {
		turn, _ := g.Turn(i)
		if g.PositionAfter(i).ToMove() != c.play.Engine && turn.Kind != engine.Pass {
			return n - i
		}
	}
	return 1
}

// errNoEngineTurn refuses show-last when the engine has not played.
var errNoEngineTurn = errors.New("the engine has played no turn to show")

// checkPlayCommand checks the hint and show-last commands.
func (c *Controller) checkPlayCommand(cmd command.Command) error {
	p := c.ref.Position()
	_, hint := cmd.(command.Hint)
	switch {
	case c.ref.Over():
		return errors.New("the game is over")
	case c.ref.Mode() == referee.Tournament:
		return fmt.Errorf("%s is for casual games, not tournament games", command.Name(cmd))
	case hint && c.play.Engine != NoEngine && p.ToMove() == c.play.Engine:
		return errors.New("it is the engine's turn: its turn is lit")
	case !hint:
		n := c.ref.Game().Len()
		if c.play.Engine == NoEngine || n == 0 || c.ref.Game().PositionAfter(n-1).ToMove() != c.play.Engine {
			return errNoEngineTurn
		}
		if t, _ := c.ref.Game().Turn(n - 1); t.Kind == engine.Pass {
			return errNoEngineTurn
		}
	}
	return nil
}

// hintOrLast carries out hint and show-last; a hint asked for again while
// it is shown shows the engine's last turn, and the other way round, so
// one button does both.
func (c *Controller) hintOrLast(t int64, cmd command.Command) {
	p := c.ref.Position()
	shown := ""
	if parts := c.ref.Guidance().Parts; len(parts) > 0 {
		shown = parts[0].Key
	}
	_, hint := cmd.(command.Hint)
	if hint && shown == "guide.hint" && c.checkPlayCommand(command.ShowLast{}) == nil {
		hint = false
	} else if !hint && shown == "guide.engine-last" && c.checkPlayCommand(command.Hint{}) == nil {
		hint = true
	}
	if hint {
		if c.opp == nil {
			c.opp = &analyst.Opponent{}
		}
		c.think(p, true)
		return
	}
	n := c.ref.Game().Len()
	turn, _ := c.ref.Game().Turn(n - 1)
	c.ref.ShowLastTurn(referee.Msg("guide.engine-last", engine.FormatTurn(p.Board(), turn)))
	c.announce(t, nil)
}

// String says who the engine plays, for the log.
func (p Play) String() string {
	if p.Engine == NoEngine {
		return "none"
	}
	return fmt.Sprintf("player %d level %d", p.Engine, p.Level)
}

package controller

import (
	"encoding/json"

	"errors"
	"fmt"
	"github.com/zertzboard/zertzboard/analyst"

	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// Command is an instruction to the board from the arbiter (MQTT's cmd/
// topics, the console) or its buttons. Name says which; the fields a
// command does not take are ignored (broadcast checks them on the wire).
type Command struct {
	Name string // new-game, set-players, takeback, pause, resume, add-time, declare-result, takeback-request, takeback-answer, answer, hint, show-last

	Variant string     // new-game: "" keeps the board and rules
	First   int        // new-game
	Players *[2]string // set-players; new-game: nil keeps the names
	// Event and Round (set-players, new-game) name the tournament and
	// its round for the records and pages; nil keeps one, "" clears it.
	Event, Round *string
	Control      *clock.Control // new-game: nil is the configured one
	// Engine (new-game): the player the engine plays, 0 or 1, or
	// NoEngine; nil is the configured one. Level: its level, 0 the
	// configured one (or search.DefaultLevel).
	Engine *int
	Level  int

	Player int   // add-time: whose clock
	MS     int64 // add-time: 1 .. clock.MaxAddMS

	Result string // declare-result: resignation, time, adjudication or draw
	Winner *int   // declare-result: nil only for a draw
	Note   string // declare-result

	Accept bool // takeback-answer

	Question int // answer: the open question's id
	Option   int // answer: the option played, 0-based

	// Arbiter, if not nil, is the command as it came from outside: it is
	// logged and journalled (an "arbiter" entry) before it is carried
	// out; a command refused is logged, not journalled.
	Arbiter *Arbiter
}

// Arbiter is a command's identity as it came in: its id and fields (a
// JSON object, never the token).
type Arbiter struct {
	ID     string
	Fields json.RawMessage
}

// ErrNoRequest refuses a take-back answer when no request is pending.
var ErrNoRequest = errors.New("no take-back request is pending")

// ErrNoQuestion refuses an answer when the referee asks nothing.
var ErrNoQuestion = errors.New("the referee has no open question")

// TakebackRequested (tournament): the take-back button asked for the
// last turn to be taken back; the arbiter answers (takeback-answer).
type TakebackRequested struct {
	Turn int `json:"turn"`
	By   int `json:"by"`
}

// TakebackRefused (tournament): the arbiter refused the request.
type TakebackRefused struct {
	Turn int `json:"turn"`
	By   int `json:"by"`
}

// Kind names the events as the contract does.
func (TakebackRequested) Kind() string { return "takeback-request" }

// Kind names the events as the contract does.
func (TakebackRefused) Kind() string { return "takeback-refused" }

// Command carries out cmd at frame time t.
func (c *Controller) Command(t int64, cmd Command) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.check(cmd); err != nil {
		if cmd.Arbiter != nil {
			c.log.Warn("command refused", "command", cmd.Name, "id", cmd.Arbiter.ID, "reason", err.Error())
		}
		return err
	}
	if a := cmd.Arbiter; a != nil {
		c.log.Info("arbiter command", "command", cmd.Name, "id", a.ID, "fields", string(a.Fields), "seq", c.seq)
		c.journal(t, journal.Arbiter{Seq: c.seq, T: t, Command: cmd.Name, ID: a.ID, Fields: a.Fields}) // refused: logged
	}
	switch cmd.Name {
	case "new-game":
		variant := cmd.Variant
		if variant == "" {
			variant = c.ref.Position().Variant()
		}
		ctl := c.cfg.Control
		if cmd.Control != nil {
			ctl = *cmd.Control
		}
		old, oldPlay, oldNaming := c.players, c.play, c.naming
		if cmd.Players != nil {
			c.players = *cmd.Players
		}
		c.name(journal.Naming{Event: cmd.Event, Round: cmd.Round})
		c.play = c.newGamePlay(cmd)
		if err := c.startGame(t, variant, cmd.First, ctl); err != nil {
			c.players, c.play, c.naming = old, oldPlay, oldNaming
			return err
		}
		if c.play.Engine != NoEngine && c.opp == nil {
			c.opp = &analyst.Opponent{}
		}
		c.log.Info("new game", "variant", variant, "first", cmd.First, "control", ctl.String(), "engine", c.play.String(), "seq", c.seq)
		c.announce(t, nil)
	case "set-players":
		return c.setPlayers(t, *cmd.Players, journal.Naming{Event: cmd.Event, Round: cmd.Round})
	case "takeback":
		c.demandTakeback(t)
	case "pause":
		c.clk.Pause(t)
		c.log.Info("clocks paused", "seq", c.seq+1)
		err := c.journalClock(t, true)
		c.announce(t, nil)
		return err
	case "resume":
		p := c.ref.Position().ToMove()
		if c.culprit >= 0 {
			p = c.culprit
		}
		c.clk.Resume(t, p)
		c.log.Info("clocks resumed", "player", p, "seq", c.seq+1)
		err := c.journalClock(t, true)
		c.announce(t, nil)
		return err
	case "add-time":
		c.clk.Add(t, cmd.Player, cmd.MS)
		c.log.Info("time added", "player", cmd.Player, "ms", cmd.MS, "seq", c.seq+1)
		err := c.journalClock(t, true)
		c.announce(t, nil)
		return err
	case "declare-result":
		return c.end(t, referee.Ending{Winner: cmd.Winner, Reason: engine.Reason(cmd.Result), Note: cmd.Note})
	case "takeback-request":
		n := c.ref.Game().Len()
		c.request = &wire.TakebackRequest{Turn: n, By: c.ref.Position().ToMove()}
		c.repub = true
		c.log.Info("take-back requested", "turn", n, "by", c.request.By)
		err := c.journalRequest(t)
		c.announce(t, []referee.Event{{T: t, Body: TakebackRequested{Turn: n, By: c.request.By}}})
		return err
	case "takeback-answer":
		r := *c.request
		if cmd.Accept {
			c.log.Info("take-back request accepted", "turn", r.Turn, "by", r.By)
			c.demandTakeback(t)
			return nil
		}
		c.request, c.repub = nil, true
		c.log.Info("take-back request refused", "turn", r.Turn, "by", r.By)
		err := c.journalRequest(t)
		c.announce(t, []referee.Event{{T: t, Body: TakebackRefused{Turn: r.Turn, By: r.By}}})
		return err
	case "answer":
		return c.answer(t, cmd.Question, cmd.Option)
	case "hint", "show-last":
		c.hintOrLast(t, cmd.Name)
	}
	return nil
}

// newGamePlay is a new game's play against the engine: the command's,
// else the configured one.
func (c *Controller) newGamePlay(cmd Command) Play {
	p := Play{Engine: NoEngine}
	if c.cfg.Play != nil {
		p = *c.cfg.Play
	}
	if cmd.Engine != nil {
		p.Engine = *cmd.Engine
	}
	if cmd.Level != 0 {
		p.Level = cmd.Level
	}
	return p
}

// check says why cmd cannot be carried out now, or nil.
func (c *Controller) check(cmd Command) error {
	over := c.ref.Over()
	switch cmd.Name {
	case "new-game":
		if cmd.First != 0 && cmd.First != 1 {
			return fmt.Errorf("first player %d: want 0 or 1", cmd.First)
		}
		if err := CheckPlay(c.newGamePlay(cmd)); err != nil {
			return err
		}
	case "hint", "show-last":
		return c.checkPlayCommand(cmd.Name)
	case "set-players":
		if cmd.Players == nil {
			return errors.New("no players named")
		}
	case "takeback":
		// The referee answers a demand it cannot guide with a fault event.
	case "pause":
		switch {
		case over:
			return errors.New("the game is over")
		case c.clk.Paused():
			return errors.New("the game is already paused")
		}
	case "resume":
		switch {
		case over:
			return errors.New("the game is over")
		case !c.clk.Paused():
			return errors.New("the game is not paused")
		}
	case "add-time":
		switch {
		case over:
			return errors.New("the game is over")
		case !c.clk.Control().Timed():
			return errors.New("the game has no time control")
		case cmd.Player != 0 && cmd.Player != 1:
			return fmt.Errorf("player %d: want 0 or 1", cmd.Player)
		case cmd.MS < 1 || cmd.MS > clock.MaxAddMS:
			return fmt.Errorf("%d ms: want 1 to %d", cmd.MS, clock.MaxAddMS)
		}
	case "declare-result":
		if over {
			return errors.New("the game is already over")
		}
		switch engine.Reason(cmd.Result) {
		case referee.EndDraw:
			if cmd.Winner != nil {
				return errors.New("a draw has no winner")
			}
		case referee.EndResignation, referee.EndTime, referee.EndAdjudication:
			if cmd.Winner == nil || *cmd.Winner != 0 && *cmd.Winner != 1 {
				return fmt.Errorf("a result by %s needs the winner, 0 or 1", cmd.Result)
			}
		default:
			return fmt.Errorf("result %q: want resignation, time, adjudication or draw", cmd.Result)
		}
	case "takeback-request":
		switch {
		case c.ref.Mode() != referee.Tournament:
			return errors.New("take-back requests are for tournament mode; casual mode takes back at once")
		case over:
			return errors.New("the game is over")
		case c.ref.Game().Len() == 0:
			return errors.New("there is no turn to take back")
		case c.request != nil:
			return fmt.Errorf("a take-back of turn %d is already requested", c.request.Turn)
		}
	case "takeback-answer":
		if c.request == nil {
			return ErrNoRequest
		}
	case "answer":
		q, ok := c.ref.Asking()
		switch {
		case !ok:
			return ErrNoQuestion
		case cmd.Question != q.ID:
			return fmt.Errorf("question %d is not open; the open question is %d", cmd.Question, q.ID)
		case cmd.Option < 0 || cmd.Option >= len(q.Options):
			return fmt.Errorf("option %d: question %d has options 0 to %d", cmd.Option, q.ID, len(q.Options)-1)
		}
	default:
		return fmt.Errorf("unknown command %q", cmd.Name)
	}
	return nil
}

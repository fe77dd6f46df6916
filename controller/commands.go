package controller

import (
	"errors"
	"fmt"
	"strings"

	"github.com/zertzboard/zertzboard/analyst"
	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

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

// MaxGameNotes bounds the arbiter's notes on one game, so that its
// record stays well inside what the scoreboard keeps (256 KiB): 100 notes
// of 200 bytes, escaped, are at most some 125 KiB.
const MaxGameNotes = 100

// ArbiterNote is the arbiter's note (the note command), at the game's
// turn Turn (the turns played so far).
type ArbiterNote struct {
	Text string `json:"text"`
	Turn int    `json:"turn"`
}

// Kind names the events as the contract does.
func (ArbiterNote) Kind() string { return "arbiter-note" }

// Kind names the events as the contract does.
func (TakebackRequested) Kind() string { return "takeback-request" }

// Kind names the events as the contract does.
func (TakebackRefused) Kind() string { return "takeback-refused" }

// Command carries out cmd, one of the board's own (its buttons, the
// simulator), at frame time t.
func (c *Controller) Command(t int64, cmd command.Command) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.check(cmd); err != nil {
		return err
	}
	return c.carryOut(t, cmd)
}

// FromArbiter carries out a command from the arbiter (MQTT's cmd/ topics,
// the console) at frame time t. It is logged and journalled (an
// "arbiter" entry: its name, id and fields) before it is carried out; a
// command refused is logged, not journalled.
func (c *Controller) FromArbiter(t int64, e command.Envelope) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	name := command.Name(e.Command)
	if err := c.check(e.Command); err != nil {
		c.log.Warn("command refused", "command", name, "id", e.ID, "reason", err.Error())
		return err
	}
	fields := command.Fields(e.Command)
	c.log.Info("arbiter command", "command", name, "id", e.ID, "fields", string(fields), "seq", c.seq)
	c.journal(t, journal.Arbiter{Seq: c.seq, T: t, Command: name, ID: e.ID, Fields: fields}) // refused: logged
	return c.carryOut(t, e.Command)
}

// carryOut carries out a command check accepted.
func (c *Controller) carryOut(t int64, cmd command.Command) error {
	switch cmd := cmd.(type) {
	case command.NewGame:
		return c.newGame(t, cmd)
	case command.SetPlayers:
		return c.setPlayers(t, cmd.Players, journal.Naming{Event: cmd.Event, Round: cmd.Round})
	case command.Takeback:
		c.demandTakeback(t)
	case command.Pause:
		c.clk.Pause(t)
		c.log.Info("clocks paused", "seq", c.seq+1)
		return c.clockChanged(t)
	case command.Resume:
		p := c.ref.Position().ToMove()
		if c.culprit >= 0 {
			p = c.culprit
		}
		c.clk.Resume(t, p)
		c.log.Info("clocks resumed", "player", p, "seq", c.seq+1)
		return c.clockChanged(t)
	case command.AddTime:
		c.clk.Add(t, cmd.Player, cmd.MS)
		c.log.Info("time added", "player", cmd.Player, "ms", cmd.MS, "seq", c.seq+1)
		return c.clockChanged(t)
	case command.DeclareResult:
		return c.end(t, referee.Ending{Winner: cmd.Winner, Reason: cmd.Result, Note: cmd.Note})
	case command.TakebackRequest:
		n := c.ref.Game().Len()
		c.request = &wire.TakebackRequest{Turn: n, By: c.ref.Position().ToMove()}
		c.repub = true
		c.log.Info("take-back requested", "turn", n, "by", c.request.By)
		err := c.journalRequest(t)
		c.announce(t, []referee.Event{{T: t, Body: TakebackRequested{Turn: n, By: c.request.By}}})
		return err
	case command.TakebackAnswer:
		return c.answerRequest(t, cmd.Accept)
	case command.Answer:
		opt, _ := c.option(cmd) // checked
		return c.answer(t, cmd.Question, opt)
	case command.Hint, command.ShowLast:
		c.hintOrLast(t, cmd)
	case command.Note:
		n := c.ref.Game().Len()
		c.notes = append(c.notes, record.Note{Turn: n, Text: cmd.Text})
		c.rerec = true // the record has it; the state does not
		c.log.Info("arbiter note", "turn", n, "text", cmd.Text)
		c.announce(t, []referee.Event{{T: t, Body: ArbiterNote{Text: cmd.Text, Turn: n}}})
	}
	return nil
}

// newGame abandons the game and starts the one cmd describes.
func (c *Controller) newGame(t int64, cmd command.NewGame) error {
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
	return nil
}

// clockChanged journals and announces the arbiter's change to the clocks.
func (c *Controller) clockChanged(t int64) error {
	err := c.journalClock(t, true)
	c.announce(t, nil)
	return err
}

// answerRequest answers the pending take-back request.
func (c *Controller) answerRequest(t int64, accept bool) error {
	r := *c.request
	if accept {
		c.log.Info("take-back request accepted", "turn", r.Turn, "by", r.By)
		c.demandTakeback(t)
		return nil
	}
	c.request, c.repub = nil, true
	c.log.Info("take-back request refused", "turn", r.Turn, "by", r.By)
	err := c.journalRequest(t)
	c.announce(t, []referee.Event{{T: t, Body: TakebackRefused{Turn: r.Turn, By: r.By}}})
	return err
}

// newGamePlay is a new game's play against the engine: the command's,
// else the configured one.
func (c *Controller) newGamePlay(cmd command.NewGame) Play {
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
func (c *Controller) check(cmd command.Command) error {
	over := c.ref.Over()
	switch cmd := cmd.(type) {
	case command.NewGame:
		if cmd.First != 0 && cmd.First != 1 {
			return fmt.Errorf("first player %d: want 0 or 1", cmd.First)
		}
		return CheckPlay(c.newGamePlay(cmd))
	case command.Hint, command.ShowLast:
		return c.checkPlayCommand(cmd)
	case command.SetPlayers:
		// Taken at any time.
	case command.Note:
		// Taken at any time, up to MaxGameNotes, as the record bounds
		// it (the wire's decoder has; the board's own callers may not).
		if len(c.notes) >= MaxGameNotes {
			return fmt.Errorf("the game has %d notes; a game takes at most %d", len(c.notes), MaxGameNotes)
		}
		if err := record.CheckNote(cmd.Text); err != nil {
			return fmt.Errorf("note: %w", err)
		}
	case command.Takeback:
		// The referee answers a demand it cannot guide with a fault event.
	case command.Pause, command.Resume:
		_, resume := cmd.(command.Resume)
		switch {
		case over:
			return errors.New("the game is over")
		case !resume && c.clk.Paused():
			return errors.New("the game is already paused")
		case resume && !c.clk.Paused():
			return errors.New("the game is not paused")
		}
	case command.AddTime:
		return c.checkAddTime(cmd)
	case command.DeclareResult:
		if over {
			return errors.New("the game is already over")
		}
		return checkResult(cmd)
	case command.TakebackRequest:
		return c.checkRequest()
	case command.TakebackAnswer:
		if c.request == nil {
			return ErrNoRequest
		}
	case command.Answer:
		_, err := c.option(cmd)
		return err
	default:
		return fmt.Errorf("unknown command %T", cmd)
	}
	return nil
}

func (c *Controller) checkAddTime(cmd command.AddTime) error {
	switch {
	case c.ref.Over():
		return errors.New("the game is over")
	case !c.clk.Control().Timed():
		return errors.New("the game has no time control")
	case cmd.Player != 0 && cmd.Player != 1:
		return fmt.Errorf("player %d: want 0 or 1", cmd.Player)
	case cmd.MS < 1 || cmd.MS > clock.MaxAddMS:
		return fmt.Errorf("%d ms: want 1 to %d", cmd.MS, clock.MaxAddMS)
	}
	return nil
}

func checkResult(cmd command.DeclareResult) error {
	switch cmd.Result {
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
	return nil
}

func (c *Controller) checkRequest() error {
	switch {
	case c.ref.Mode() != referee.Tournament:
		return errors.New("take-back requests are for tournament mode; casual mode takes back at once")
	case c.ref.Over():
		return errors.New("the game is over")
	case c.ref.Game().Len() == 0:
		return errors.New("there is no turn to take back")
	case c.request != nil:
		return fmt.Errorf("a take-back of turn %d is already requested", c.request.Turn)
	}
	return nil
}

// option is the index of the option a answers the open question with:
// a's index, or the option whose text is a's.
func (c *Controller) option(a command.Answer) (int, error) {
	q, ok := c.ref.Asking()
	switch {
	case !ok:
		return 0, ErrNoQuestion
	case a.Question != q.ID:
		return 0, fmt.Errorf("question %d is not open; the open question is %d", a.Question, q.ID)
	case a.OptionText != "":
		for i, o := range q.Options {
			if o == a.OptionText {
				return i, nil
			}
		}
		return 0, fmt.Errorf("option %q is not one of question %d's: %s", a.OptionText, q.ID, strings.Join(q.Options, "; "))
	case a.Option < 0 || a.Option >= len(q.Options):
		return 0, fmt.Errorf("option %d: question %d has options 0 to %d", a.Option, q.ID, len(q.Options)-1)
	}
	return a.Option, nil
}

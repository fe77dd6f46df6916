package controller

import (
	"fmt"
	"slices"

	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// newClock gives the new game fresh clocks, which wait for the board to
// be set up: the first player's clock starts at the first frame showing
// the starting position (or at the first commit, if the referee never saw
// it whole).
func (c *Controller) newClock(ctl clock.Control) {
	c.clk = clock.New(ctl)
	c.clk.SetMaxGap(c.cfg.MaxGapMS)
	c.waiting, c.culprit, c.demand, c.request, c.begun = true, -1, false, nil, false
}

func (c *Controller) checkpointMS() int64 {
	if c.cfg.CheckpointMS > 0 {
		return c.cfg.CheckpointMS
	}
	return DefaultCheckpointMS
}

// tick runs the clocks to frame time t: it starts the first player's
// clock once the board shows the starting position, ends the game when a
// flag falls, and journals a running clock every checkpointMS. A frame
// that changes nothing allocates nothing.
func (c *Controller) tick(t int64, cells []byte) error {
	if c.ref.Over() {
		return nil
	}
	if c.waiting {
		c.clk.Tick(t)
		if string(cells) != c.ref.Expected() {
			return nil
		}
		c.waiting = false
		c.clk.Start(t, c.ref.Position().ToMove())
		c.log.Info("clock started: the board is set up", "player", c.ref.Position().ToMove(), "control", c.clk.Control().String())
		if !c.clk.Control().Timed() {
			return nil // nothing to show: the times are only recorded
		}
		err := c.journalClock(t, false)
		c.lastT = t
		c.announce(t, nil) // the state shows the running clock
		return err
	}
	if f := c.clk.Tick(t); f != clock.NoPlayer {
		return c.flagFall(t, f)
	}
	if t-c.ckT >= c.checkpointMS() && c.clk.Running() != clock.NoPlayer && c.clk.Control().Timed() {
		return c.journalClock(t, false)
	}
	return nil
}

// commitClock is a committed turn on the clocks: the mover's time stops,
// the increment is added, the opponent's starts. A forced pass takes no
// time and earns no increment. It returns the clocks for the turn's
// journal entry, with the time the turn used.
func (c *Controller) commitClock(t int64, m referee.Move) *journal.Clock {
	if !c.clk.Started() {
		c.clk.Start(t, m.Player) // the board was never seen set up
		c.waiting = false
	}
	var used int64
	if m.Notation == "pass" {
		c.clk.Switch(t, 1-m.Player)
	} else {
		used = c.clk.Commit(t, m.Player)
	}
	ck := c.clockEntry(t)
	ck.TurnMS = used
	if c.times != nil && len(c.times) == m.Turn-1 {
		tt := record.TurnTime{UsedMS: used}
		if c.clk.Control().Timed() {
			r := ck.Remaining
			tt.Remaining = &r
		}
		c.times = append(c.times, tt)
	} else {
		c.times = nil
	}
	c.commitT, c.begun, c.culprit, c.demand, c.request, c.ckT = t, false, -1, false, nil, t
	return ck
}

// illegalCulprit decides who made an illegal board, from what the
// referee knows: while a take-back demand is being restored, the player
// who placed over the capture; right after a commit (DisturbMS), before
// the player to move has begun a legal turn, a board disturbed at the
// cells of that last turn is the last mover's hand; otherwise the player
// to move's.
func (c *Controller) illegalCulprit(t int64, ill referee.Illegal) int {
	mover := c.ref.Position().ToMove()
	switch {
	case c.demand:
		return 1 - mover
	case c.ref.Game().Len() > 0 && !c.begun && t-c.commitT <= DisturbMS && c.lastTurnOnly(ill.Cells):
		return 1 - mover
	}
	return mover
}

// lastTurnOnly reports whether every cell to fix is one the last turn
// touched: its marble's ring and the ring it removed, or a capture's path
// and the marbles it jumped.
func (c *Controller) lastTurnOnly(fixes []referee.CellFix) bool {
	g := c.ref.Game()
	turn, _ := g.Turn(g.Len() - 1)
	b := c.ref.Position().Board()
	var touched []engine.Cell
	switch turn.Kind {
	case engine.Place:
		touched = append(touched, turn.At, turn.Remove)
	case engine.Capture:
		path := turn.Path()
		touched = append(touched, path...)
		for i := 0; i+1 < len(path); i++ {
			touched = append(touched, b.Between(path[i], path[i+1]))
		}
	default:
		return false
	}
	for _, f := range fixes {
		cell, err := b.ParseCell(f.Cell)
		if err != nil || !slices.Contains(touched, cell) {
			return false
		}
	}
	return len(fixes) > 0
}

// chargeTo makes player's clock the running one from t, journalled when
// it changes.
func (c *Controller) chargeTo(t int64, player int) error {
	if player != c.ref.Position().ToMove() {
		c.culprit = player
	}
	if !c.clk.Started() || c.clk.Runner() == player {
		return nil
	}
	c.clk.Switch(t, player)
	c.repub = true
	return c.journalClock(t, false)
}

// flagFall ends the game by time: a win for the opponent if they can
// still complete a winning set, else a draw.
func (c *Controller) flagFall(t int64, flagged int) error {
	opp := 1 - flagged
	e := referee.Ending{Reason: referee.EndTime}
	if clock.CanWin(c.ref.Position(), opp) {
		e.Winner = &opp
	}
	c.log.Info("flag fall", "player", flagged, "opponent_can_win", e.Winner != nil)
	return c.end(t, e)
}

// end ends the game off the board, journalled and announced.
func (c *Controller) end(t int64, e referee.Ending) error {
	ev, err := c.ref.End(t, e)
	if err != nil {
		return err
	}
	c.clk.Stop(t)
	seq := c.seq + 1
	jerr := c.journal(t, journal.Ended{Seq: seq, T: t, End: journal.End{Winner: e.Winner, Reason: e.Reason, Note: e.Note}, Clock: c.clockEntry(t)})
	c.seq, c.lastT, c.dirty, c.request, c.culprit, c.demand = seq, t, true, nil, -1, false
	winner := "none (a draw)"
	if e.Winner != nil {
		winner = []string{"player 0", "player 1"}[*e.Winner]
	}
	c.log.Info("game over off the board", "reason", e.Reason, "winner", winner, "note", e.Note, "seq", seq)
	c.announce(t, ev)
	return jerr
}

// clockView is the clocks for the state, as of the latest frame.
func (c *Controller) clockView() wire.Clock {
	ctl := c.clk.Control()
	v := wire.Clock{Control: ctl.String(), Paused: c.clk.Paused(), IncrementMS: ctl.IncMS()}
	if !ctl.Timed() {
		return v
	}
	r := c.clk.Remaining(c.frameT)
	v.Remaining = &r
	if run := c.clk.Running(); run != clock.NoPlayer && !c.waiting && !c.ref.Over() {
		v.Running = &run
	}
	return v
}

// gameID names the game: the board and the seq of its start.
func (c *Controller) gameID() string { return fmt.Sprintf("%s-%d", c.cfg.BoardID, c.gameSeq) }

// Clock returns the clocks as of the latest frame (the status screen
// counts down with it between states).
func (c *Controller) Clock() wire.Clock {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.clockView()
}

// stopOf is the record's Stop for a game ended off the board.
func stopOf(e *referee.Ending) record.Stop {
	w := -1
	if e.Winner != nil {
		w = *e.Winner
	}
	s := record.Stop{Note: e.Note}
	switch {
	case e.Reason == referee.EndResignation && w >= 0:
		s.Kind, s.Player = record.Resign, 1-w
	case e.Reason == referee.EndTime && w >= 0:
		s.Kind, s.Player = record.WinOnTime, w
	case e.Reason == referee.EndTime:
		s.Kind = record.DrawOnTime
	case e.Reason == referee.EndAdjudication && w >= 0:
		s.Kind, s.Player = record.Adjudication, w
	default:
		s.Kind = record.DrawDeclared
	}
	return s
}

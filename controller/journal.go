package controller

import (
	"errors"

	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// JournalRetryMS is how often, in frame time, a journal whose write
// failed is tried again while no change is committed (every commit tries
// it first anyway).
const JournalRetryMS = 1000

// journal writes e, every committed change's entry, through the one
// Append. A failed write does not stop the game: the journal keeps the
// entry, the failure is reported where operators look (the log, a fault
// event, Config.OnJournalFault for the screen), and the next write or
// retry resyncs the file. Only an entry the journal refuses (out of
// bounds: a bug) is returned.
func (c *Controller) journal(t int64, e journal.Entry) error {
	j := c.cfg.Journal
	if j == nil {
		return nil
	}
	err := j.Append(e)
	var we *journal.WriteError
	if err != nil && !errors.As(err, &we) {
		c.log.Error("journal entry refused", "entry", e.Line().Op, "err", err)
		return err
	}
	c.journalHealth(t, err)
	return nil
}

// retryJournal tries a failed journal again once JournalRetryMS of frame
// time has passed since the last try (or the frame time went back: a new
// run). A retry that fails changes nothing the operators see: it is
// logged at debug level.
func (c *Controller) retryJournal(t int64) {
	if !c.jfault || t-c.jretryT < JournalRetryMS && t >= c.jretryT {
		return
	}
	if err := c.cfg.Journal.Retry(); err != nil {
		c.jretryT = c.frameT
		c.log.Debug("journal retry failed", "err", err)
		return
	}
	c.journalHealth(t, nil)
}

// journalHealth reports the journal's state after a write: every failure
// in the log, and the change between failing and whole on "events" and
// the screen.
func (c *Controller) journalHealth(t int64, err error) {
	c.jretryT = c.frameT
	if err != nil {
		c.log.Error("journal write failed; the game goes on, its entries kept in memory until the disk takes them", "err", err)
		if c.jfault {
			return
		}
		c.jfault = true
		cause := err
		var we *journal.WriteError
		if errors.As(err, &we) {
			cause = we.Err // the disk's error, without the journal's wording
		}
		c.journalFault(t, err, "journal: write failed; its entries are kept in memory and written when the disk works: "+cause.Error())
		return
	}
	if c.jfault {
		c.jfault = false
		c.log.Info("journal back on disk: every entry written")
		c.journalFault(t, nil, "journal: back on disk")
	}
}

// journalFault says it on "events" and to Config.OnJournalFault.
func (c *Controller) journalFault(t int64, err error, reason string) {
	if p := c.cfg.Publisher; p != nil {
		p.Event(referee.Event{T: t, Body: referee.Fault{Reason: reason}})
	}
	if f := c.cfg.OnJournalFault; f != nil {
		f(err)
	}
}

// JournalFault returns the failed journal write the controller is
// recovering from, or nil.
func (c *Controller) JournalFault() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if j := c.cfg.Journal; j != nil && c.jfault {
		return j.Fault()
	}
	return nil
}

// resume takes up the game the journal's Open replayed: the referee, the
// players and naming, the sides, the clocks, the arbiter's notes and a
// waiting take-back request.
func (c *Controller) resume(g *journal.Game) error {
	p := g.Game.Position()
	mode, err := referee.ParseMode(g.Mode)
	if err != nil {
		mode = c.cfg.Mode
	}
	var ended *referee.Ending
	if e := g.End; e != nil {
		ended = &referee.Ending{Winner: e.Winner, Reason: e.Reason, Note: e.Note}
	}
	ref, err := referee.New(referee.Config{Board: p.Board(), Rules: p.Rules(), Mode: mode, SettleMS: c.cfg.SettleMS, Game: g.Game.Clone(), MissedCaptures: g.Missed, Answered: g.Answered, Ended: ended})
	if err != nil {
		return err
	}
	c.ref, c.seq, c.players, c.lastT = ref, g.Seq, g.Players, g.T
	c.naming = g.Naming
	c.notes = append([]record.Note(nil), g.Notes...)
	// The resumed game's sides, not the configuration's.
	c.play = Play{Engine: NoEngine}
	if e := g.Engine; e != nil {
		c.play = Play{Engine: e.Player, Level: e.Level, Seed: e.Seed}
	}
	c.resumeClock(g)
	if r := g.Request; r != nil && g.End == nil {
		c.request = &wire.TakebackRequest{Turn: r.Turn, By: r.By}
	}
	c.log.Info("resumed game from journal", "variant", g.Variant, "turns", g.Game.Len(), "seq", g.Seq, "clock", c.clk.Control().String())
	return nil
}

// resumeClock restores the journal's clocks. Nothing is charged until the
// first frame of this run: while the process was down the board was
// offline, and the frame times restart from 0.
func (c *Controller) resumeClock(g *journal.Game) {
	ctl := clock.Control{}
	if g.Control != "" {
		var err error
		if ctl, err = clock.Parse(g.Control); err != nil {
			c.log.Error("the journal's time control is not readable; no clocks", "err", err)
		}
	}
	c.newClock(ctl)
	if s := g.Clock; s != nil {
		c.clk = clock.Restore(ctl, clock.State{Remaining: s.Remaining, Running: s.Running, Paused: s.Paused, Flag: s.Flag, Used: s.Used})
		c.clk.SetMaxGap(c.cfg.MaxGapMS)
		c.waiting = !c.clk.Started() && c.ref.Game().Len() == 0
	}
	c.gameSeq = g.GameSeq
	c.times = nil
	if g.Clocks != nil && len(g.Clocks) == g.Game.Len() {
		c.times = make([]record.TurnTime, len(g.Clocks))
		for i, tc := range g.Clocks {
			c.times[i] = record.TurnTime{UsedMS: tc.Used}
			if ctl.Timed() {
				r := tc.Remaining
				c.times[i].Remaining = &r
			}
		}
	}
}

// clockEntry is the clocks at t as the journal keeps them.
func (c *Controller) clockEntry(t int64) *journal.Clock {
	s := c.clk.State(t)
	return &journal.Clock{Remaining: s.Remaining, Running: s.Running, Paused: s.Paused, Flag: s.Flag, Used: s.Used}
}

// journalClock journals the clocks: a checkpoint (same seq) or, with
// change, a committed change (seq+1, the state published).
func (c *Controller) journalClock(t int64, change bool) error {
	seq := c.seq
	if change {
		seq++
		c.seq, c.dirty, c.lastT = seq, true, t
	}
	c.ckT = t
	return c.journal(t, journal.ClockEvent{Seq: seq, T: t, Clock: *c.clockEntry(t)})
}

// journalRequest writes the take-back request now waiting, or that none
// waits, so a board restarted after a crash still has it. An accepted
// request is not written as answered: until its take-back happens (or
// the next turn is played), a crash leaves it waiting again rather than
// lose it.
func (c *Controller) journalRequest(t int64) error {
	var r *journal.Request
	if c.request != nil {
		r = &journal.Request{Turn: c.request.Turn, By: c.request.By}
	}
	return c.journal(t, journal.TakebackRequest{Seq: c.seq, T: t, Request: r})
}

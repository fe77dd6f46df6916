package referee

import (
	"fmt"

	"github.com/zertzboard/zertzboard/engine"
)

// Ending is how a game ended off the board: by time, resignation,
// adjudication or a draw the arbiter declared.
type Ending struct {
	Winner *int          // nil for a draw
	Reason engine.Reason // time, resignation, adjudication or draw
	Note   string        // the arbiter's note, may be ""
}

// The reasons a game ends off the board (engine.Reason's off-board
// words, by the names the referee has always used).
const (
	EndTime         = engine.ReasonTime
	EndResignation  = engine.ReasonResignation
	EndAdjudication = engine.ReasonAdjudication
	EndDraw         = engine.ReasonDraw
)

// End ends the game off the board: the referee takes no more turns, and
// the board shows the result until it is cleared and set up again, as
// after a game over on the board. It refuses a game already over.
func (r *Referee) End(t int64, e Ending) ([]Event, error) {
	if r.ended != nil || r.game.Position().Result().Over {
		return nil, fmt.Errorf("referee: the game is already over")
	}
	if !e.Reason.OffBoard() {
		return nil, fmt.Errorf("referee: %q is not a way a game ends off the board", e.Reason)
	}
	if w := e.Winner; w != nil {
		if *w != 0 && *w != 1 {
			return nil, fmt.Errorf("referee: winner %d: want 0 or 1", *w)
		}
		v := *w
		e.Winner = &v
	}
	r.ended = &e
	r.demand, r.question, r.hyps, r.redo, r.deferred = false, nil, nil, nil, false
	r.cleared = false
	r.stage.Reset() // look at the board afresh: it may be cleared already
	r.settled = ""
	r.guide = r.idleGuidance()
	return []Event{{t, GameOver(e)}}, nil
}

// Ended returns how the game ended off the board, or nil.
func (r *Referee) Ended() *Ending {
	if r.ended == nil {
		return nil
	}
	e := *r.ended
	return &e
}

// Over reports whether the game is over, on the board or off it.
func (r *Referee) Over() bool { return r.ended != nil || r.game.Position().Result().Over }

// endedStatus is the status line of a game ended off the board.
func (r *Referee) endedStatus() Message {
	e := r.ended
	if e.Winner != nil {
		return Msg("guide.over-win", player(*e.Winner), Msg("result."+e.Reason.String()))
	}
	return Msg("guide.over-draw", Msg("result."+e.Reason.String()))
}

package table

import (
	"context"
	"time"

	"github.com/zertzboard/zertzboard/board"
	"github.com/zertzboard/zertzboard/hardware/buttons"
	"github.com/zertzboard/zertzboard/sim/players"
	"periph.io/x/conn/v3/gpio"
)

// answer answers the referee's questions as the players do: from what
// they played (the record), with the buttons: take-back steps to the
// option, confirm answers. It runs beside the hands until ctx is done.
func (t *Table) answer(ctx context.Context, n *board.Node, h hands) {
	done := 0
	for ctx.Err() == nil {
		q, ok := n.Controller().Asking()
		g := t.game.Load()
		if !ok || q.ID == done || g == nil {
			if h.Frame(ctx, time.Second) != nil {
				return
			}
			continue
		}
		played := int(t.begun.Load())
		if played <= 0 || played > g.Len() {
			played = g.Len()
		}
		opt, known := players.AnswerSoFar(g.Start().Board(), g, played, q.About, q.Turn, q.Cell, q.Options, q.Provisional)
		if !known {
			// None of the options is what they played: they leave the
			// question open, and the referee follows the board on.
			t.log.Warn("the players played none of the referee's options; they leave the question open", "question", q.Text)
			done = q.ID
			t.leftOpen.Store(int64(q.ID))
			continue
		}
		t.log.Info("the players answer the referee", "question", q.ID, "option", q.Options[opt])
		// The screen says which option confirm would answer: step from
		// there (a press that did not register is tried again).
		steps := opt
		if id, at := n.Offered(); id == q.ID {
			steps = (opt - at + len(q.Options)) % len(q.Options)
		}
		ok = true
		for i := 0; i < steps && ok; i++ {
			ok = t.press(ctx, h, t.wiring.Buttons.Takeback, buttons.Takeback)
		}
		if ok && t.press(ctx, h, t.wiring.Buttons.Confirm, buttons.Confirm) {
			done = q.ID
		}
	}
}

// press presses a button until the board has carried the press out, then
// releases it and pauses as a hand does (long enough for the release to
// be seen, twice the buttons' debounce time). It reports false if the
// press did not register in time (ctx done, or a stalled machine: the
// caller tries the whole answer again).
func (t *Table) press(ctx context.Context, h hands, pin string, b buttons.Button) bool {
	gp := t.hw.Pin(pin)
	if gp == nil {
		return false
	}
	for drained := false; !drained; {
		select {
		case <-t.presses:
		default:
			drained = true
		}
	}
	gp.Out(gpio.Low)
	defer func() {
		gp.Out(gpio.High)
		_ = h.Sleep(ctx, max(4*buttons.DefaultOpts.Debounce, time.Duration(float64(300*time.Millisecond)/t.speed)))
	}()
	deadline := h.Now().Add(t.stepTimeout())
	for {
		select {
		case e := <-t.presses:
			if e.Button == b {
				return true
			}
			continue
		default:
		}
		if !h.Now().Before(deadline) {
			t.log.Warn("a button press did not register", "button", b)
			return false
		}
		if h.Frame(ctx, buttons.DefaultOpts.Poll) != nil {
			return false
		}
	}
}

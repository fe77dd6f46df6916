package referee_test

import (
	"os"
	"strconv"
	"testing"

	"github.com/zertzboard/zertzboard/physical"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
)

func TestZZDebug(t *testing.T) {
	file := os.Getenv("ZZ_GAME")
	if file == "" {
		t.Skip()
	}
	rec, _ := record.ReadFile(file)
	rep, _ := rec.Replay()
	start := rep.Game.Start()
	opt := physical.DefaultOptions
	opt.Seed = 7
	opt.Takebacks = 0
	plain, _ := physical.Play(start, rec.Turns, opt, func(int64, []byte) error { return nil })
	for _, c := range examConditions {
		if c.name == os.Getenv("ZZ_COND") {
			c.opt(&opt, rep, plain.DurationMS/2)
		}
	}
	from, _ := strconv.ParseInt(os.Getenv("ZZ_FROM"), 10, 64)
	ref, _ := referee.New(referee.Config{Board: start.Board(), Rules: start.Rules(), First: rec.First})
	var prev string
	var lastMS int64
	var lastCells []byte
	obs := func(ms int64, cells []byte) error {
		lastMS, lastCells = ms, append(lastCells[:0], cells...)
		if ms >= from && string(cells) != prev && os.Getenv("ZZ_FRAMES") != "" {
			t.Logf("%6d %s", ms, cells)
		}
		prev = string(cells)
		for _, e := range ref.ObserveBytes(ms, cells) {
			if ms >= from {
				t.Logf("       %v", e)
			}
			if q, ok := e.Body.(referee.Question); ok {
				i, ok := physical.Answer(start.Board(), rep.Game, q.About, q.Turn, q.Cell, q.Options, q.Provisional)
				if !ok {
					continue
				}
				for _, a := range ref.Answer(ms, q.ID, i) {
					t.Logf("   ans %v", a)
				}
			}
		}
		return nil
	}
	physical.Play(start, rec.Turns, opt, obs)
	for end := lastMS + 3000; lastMS < end; {
		obs(lastMS+opt.ScanMS, lastCells)
	}
	for i := 0; i < rep.Game.Len(); i++ {
		tn, _ := rep.Game.Turn(i)
		if i >= 18 {
			t.Logf("record %d %v", i+1, tn)
		}
	}
}

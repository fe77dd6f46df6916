package referee

import (
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// FuzzReferee feeds random frame streams: cells set to random contents or
// back to the official board, held briefly or long enough to settle. The
// referee must never panic, every turn it commits must be legal, and its
// official position must be the one its turns lead to.
func FuzzReferee(f *testing.F) {
	f.Add([]byte{0, 40, 3, 1, 7, 200, 2, 9, 9})
	f.Add([]byte{1, 22, 2, 0, 200, 1, 0, 15, 1, 200})
	f.Add([]byte{2, 30, 1, 24, 0, 200, 27, 4, 200})
	starts := []string{start37, diagram3, "37 w.oo/o.ooo/.ooooo/o.ooooo/o.gooo/ooooo/oooo 1,4,8 2,0,0 2,3,2 0"}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		p, err := engine.ParsePosition(starts[int(data[0])%len(starts)])
		if err != nil {
			t.Fatal(err)
		}
		mode := []Mode{Casual, Tournament}[data[1]%2]
		r, err := New(Config{Board: p.Board(), Rules: p.Rules(), Mode: mode, Game: engine.NewGame(p)})
		if err != nil {
			t.Fatal(err)
		}
		cells := []byte(r.Expected())
		const alphabet = ".owgb?"
		now := int64(0)
		for i := 2; i+1 < len(data); i += 2 {
			op, arg := data[i], data[i+1]
			switch {
			case op >= 200: // hold long enough to settle
				for k := 0; k < 30; k++ {
					r.ObserveBytes(now, cells)
					now += 5
				}
				continue
			case op >= 150: // back to the official board
				copy(cells, r.Expected())
			default:
				c := int(op) % len(cells)
				cells[c] = alphabet[int(arg)%len(alphabet)]
			}
			r.ObserveBytes(now, cells)
			now += 5
		}
		// Every committed turn replays legally from the start.
		g := r.Game()
		q := g.Start()
		missed := map[int]bool{}
		for _, n := range r.MissedCaptures() {
			missed[n] = true
		}
		for i := 0; i < g.Len(); i++ {
			turn, _ := g.Turn(i)
			var err error
			if missed[i+1] {
				q, err = q.PlayOverCapture(turn)
			} else {
				q, err = q.Play(turn)
			}
			if err != nil {
				t.Fatalf("committed turn %d %s is illegal: %v", i+1, engine.FormatTurn(p.Board(), turn), err)
			}
		}
		if !q.Equal(g.Position()) || r.Expected() != q.Cells() {
			t.Fatalf("official position %s; its turns lead to %s", g.Position(), q)
		}
		if len(r.Guidance().Hints) != p.Board().Len() {
			t.Fatalf("guidance has %d hints for %d cells", len(r.Guidance().Hints), p.Board().Len())
		}
	})
}

package search

import (
	"context"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// FuzzSearch: from a position reached by turns the fuzzer picks (each byte
// chooses among the legal turns), or from any position text that reads,
// the search plays a legal turn and a legal line within its node budget,
// twice the same.
func FuzzSearch(f *testing.F) {
	f.Add("37", []byte{1, 2, 3, 4, 5, 6, 7, 8}, uint16(500), uint64(1), "")
	f.Add("61", []byte{200, 17, 3, 99, 12, 250, 7, 1, 0, 0, 33, 80, 11}, uint16(2000), uint64(7), "")
	f.Add("37b", []byte{9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9}, uint16(900), uint64(0), "")
	f.Add("48", []byte{}, uint16(300), uint64(3), "37 w.oo/o.ooo/.ooooo/.oooooo/o.gooo/ooooo/oooo 1,3,9 2,0,0 2,4,1 0")
	f.Fuzz(func(t *testing.T, variant string, picks []byte, budget uint16, seed uint64, text string) {
		var p engine.Position
		if q, err := engine.ParsePosition(text); err == nil {
			p = q
		} else {
			b, r, err := engine.ParseVariant(variant)
			if err != nil {
				b, r = engine.MustStandardBoard("37"), engine.Standard
			}
			p = engine.NewPosition(b, r, int(seed&1))
		}
		for _, c := range picks {
			turns := p.LegalTurns(nil)
			if len(turns) == 0 {
				break
			}
			p = p.Apply(&turns[int(c)*len(turns)/256])
		}
		if p.Result().Over {
			return
		}
		nodes := int64(budget%4000) + 1
		r := Search(context.Background(), p, Options{MaxNodes: nodes, Seed: seed})
		checkResult(t, p, r)
		if r.Nodes > nodes+1 {
			t.Fatalf("%s: %d nodes for a budget of %d", p, r.Nodes, nodes)
		}
		if r2 := Search(context.Background(), p, Options{MaxNodes: nodes, Seed: seed}); r2.Move != r.Move || r2.Score != r.Score || r2.Nodes != r.Nodes {
			t.Fatalf("%s: two searches differ", p)
		}
	})
}

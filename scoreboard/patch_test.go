package scoreboard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/zertzboard/zertzboard/wire"

	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/scoreboard/stream"
	"github.com/zertzboard/zertzboard/scoreboard/stream/streamtest"
)

// viewsOf are the board views of a whole game as viewers see them, as
// the server made them (their keyed trees): each state, with a pending
// notice, clocks running and paused, and the tournament view of the board
// beside another.
func viewsOf(t *testing.T, variant string) (boards, index []*stream.Node) {
	rec, rep := sampleGameOf(t, variant, 20)
	states := gameStates(t, rec, rep, "t1")
	s := New(Options{})
	defer s.Close()
	tree := func(board string) *stream.Node {
		f, _ := s.currentFrame(board)
		if f.Tree == nil {
			t.Fatalf("view of %q has no tree", board)
		}
		return f.Tree
	}
	s.Handle("zertz/t0/status", []byte("online"))
	for i, st := range states {
		run := st.ToMove
		st.Clock = wire.Clock{Control: "fischer:5m+3s", Remaining: &[2]int64{300000 - int64(i)*1000, 299000 - int64(i)*900}, Running: &run, Paused: i%7 == 3}
		if st.Phase == "over" {
			st.Clock.Running = nil
		}
		s.Handle("zertz/t1/state", mustJSON(t, st))
		boards = append(boards, tree("t1"))
		index = append(index, tree(""))
		if i%5 == 2 && st.Phase == "place" {
			s.Handle("zertz/t1/events", eventJSON(t, referee.Pending{Player: st.ToMove, Need: "remove a free ring", Cells: []string{st.Layout[0].Label}}))
			boards = append(boards, tree("t1"))
		}
		if i == len(states)/2 {
			s.Handle("zertz/t1/status", []byte("offline"))
			boards = append(boards, tree("t1"))
			index = append(index, tree(""))
			s.Handle("zertz/t1/status", []byte("online"))
		}
	}
	return boards, index
}

// sameTree says how the tree the view built differs from the one a
// browser reads from its HTML, or "".
func sameTree(built, read *stream.Node) string {
	switch {
	case read == nil:
		return "the HTML is not read"
	case built.Key() != read.Key() || built.Tag() != read.Tag() || built.HTML() != read.HTML():
		return fmt.Sprintf("%q <%s> built as %q <%s>", read.Key(), read.Tag(), built.Key(), built.Tag())
	case !slices.Equal(built.Attrs(), read.Attrs()) || !slices.Equal(built.Between(), read.Between()):
		return fmt.Sprintf("%q: attributes or content built %q %q, read %q %q", read.Key(), built.Attrs(), built.Between(), read.Attrs(), read.Between())
	case len(built.Kids()) != len(read.Kids()):
		return fmt.Sprintf("%q: %d keyed elements built, %d read", read.Key(), len(built.Kids()), len(read.Kids()))
	}
	for i := range built.Kids() {
		if d := sameTree(built.Kids()[i], read.Kids()[i]); d != "" {
			return d
		}
	}
	return ""
}

// TestPatchesRebuildTheView: for every view of whole games (37, 48 and 61
// rings, with notices, clocks and the tournament view), the keyed tree the
// view built is the one a browser finds in its HTML; the patch the server
// makes from the view before, applied to that view as the page does, gives
// exactly the new view; none falls back to whole views; keys are unique;
// and the patches are a fraction of the views.
func TestPatchesRebuildTheView(t *testing.T) {
	for _, variant := range []string{"37", "48", "61"} {
		boards, index := viewsOf(t, variant)
		for name, views := range map[string][]*stream.Node{"board": boards, "tournament": index} {
			var whole, patched, patches int
			for i, built := range views {
				h := built.HTML()
				n := streamtest.Parse(h)
				if d := sameTree(built, n); d != "" {
					t.Fatalf("%s %s view %d: %s:\n%s", variant, name, i, d, h)
				}
				keys := map[string]bool{}
				var walk func(*stream.Node)
				walk = func(n *stream.Node) {
					for _, k := range n.Kids() {
						if keys[k.Key()] {
							t.Errorf("%s %s view %d: key %q twice", variant, name, i, k.Key())
						}
						keys[k.Key()] = true
						walk(k)
					}
				}
				walk(n)
				if i == 0 {
					continue
				}
				p, ok := stream.Diff(views[i-1], built)
				if !ok {
					continue
				}
				if got := streamtest.Apply(streamtest.Parse(views[i-1].HTML()), p); got != h {
					t.Fatalf("%s %s view %d: the patch rebuilds\n%s\nwant\n%s", variant, name, i, got, h)
				}
				whole += len(h)
				patched += len(patchJSON(t, p))
				patches++
			}
			if patches < len(views)*3/4 {
				t.Errorf("%s %s: %d of %d views could be patched", variant, name, patches, len(views)-1)
			}
			t.Logf("%s rings, %s: %d patches, %d B on average for views of %d B", variant, name, patches, patched/max(1, patches), whole/max(1, patches))
			if name == "board" && patched*3 > whole {
				t.Errorf("%s %s: patches are %d B for views of %d B", variant, name, patched, whole)
			}
		}
	}
}

// patchJSON is p as the "patch" event carries it, after the opening
// brace (where the stream writes its own fields).
func patchJSON(t testing.TB, p stream.Patch) []byte {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(p); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimPrefix(bytes.TrimSpace(buf.Bytes()), []byte("{"))
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

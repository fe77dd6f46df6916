package view

import (
	"encoding/xml"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// newState is the opening state of a standard board.
func newState(t testing.TB, board string, players [2]string) wire.State {
	t.Helper()
	ref, err := referee.New(referee.Config{Board: engine.MustStandardBoard(board), Rules: engine.Standard})
	if err != nil {
		t.Fatal(err)
	}
	return wire.Snapshot(ref, "t1", players, 1, 0)
}

type svgRing struct {
	label string
	x, y  float64
	class string
}

// parseSVG checks the SVG is well-formed XML and returns its ring
// elements with their cell labels.
func parseSVG(t *testing.T, svg string) (rings []svgRing, viewBox [4]float64) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	var cell string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := map[string]string{}
		for _, a := range se.Attr {
			attr[a.Name.Local] = a.Value
		}
		switch se.Name.Local {
		case "svg":
			for i, f := range strings.Fields(attr["viewBox"]) {
				viewBox[i], _ = strconv.ParseFloat(f, 64)
			}
		case "g":
			if l, ok := attr["data-cell"]; ok {
				cell = l
			}
		case "circle":
			if strings.Fields(attr["class"])[0] == "ring" {
				x, _ := strconv.ParseFloat(attr["cx"], 64)
				y, _ := strconv.ParseFloat(attr["cy"], 64)
				rings = append(rings, svgRing{label: cell, x: x, y: y, class: attr["class"]})
			}
		}
	}
	return rings, viewBox
}

func TestGeometry(t *testing.T) {
	if 2*RingRadius+RingStroke > Spacing {
		t.Fatalf("ring diameter %g with stroke %g exceeds the spacing %g", 2*RingRadius, RingStroke, Spacing)
	}
	if MarbleRadius >= RingRadius+RingStroke/2 {
		t.Fatalf("marble radius %g is wider than the ring", MarbleRadius)
	}
	for _, name := range engine.StandardBoardNames {
		t.Run(name, func(t *testing.T) {
			s := newState(t, name, [2]string{"a", "b"})
			rings, vb := parseSVG(t, BoardSVG(&s, nil))
			if len(rings) != len(s.Layout) {
				t.Fatalf("%d ring elements; want one per cell, %d", len(rings), len(s.Layout))
			}
			xy := map[string]wire.Cell{}
			for _, c := range s.Layout {
				xy[c.Label] = c
			}
			seen := map[string]bool{}
			outer := RingRadius + RingStroke/2
			for _, r := range rings {
				if _, ok := xy[r.label]; !ok || seen[r.label] {
					t.Fatalf("ring for %q: unknown or repeated cell", r.label)
				}
				seen[r.label] = true
				if r.x-outer < vb[0] || r.y-outer < vb[1] || r.x+outer > vb[0]+vb[2] || r.y+outer > vb[1]+vb[3] {
					t.Errorf("ring %s at (%g,%g) is outside the viewBox %v", r.label, r.x, r.y, vb)
				}
			}
			neighbours := 0
			for i, a := range rings {
				for _, b := range rings[i+1:] {
					ca, cb := xy[a.label], xy[b.label]
					dx, dy := ca.X-cb.X, ca.Y-cb.Y
					adjacent := (dx == 0 && (dy == 2 || dy == -2)) || ((dx == 1 || dx == -1) && (dy == 1 || dy == -1))
					d := math.Hypot(a.x-b.x, a.y-b.y)
					switch {
					case adjacent:
						neighbours++
						if math.Abs(d-Spacing) > 0.02 {
							t.Errorf("neighbours %s and %s are %.3f apart; want %g", a.label, b.label, d, Spacing)
						}
					case d < 2*outer || d < Spacing*1.5:
						t.Errorf("non-neighbours %s and %s are only %.3f apart", a.label, b.label, d)
					}
				}
			}
			if neighbours == 0 {
				t.Error("no neighbouring cells found")
			}
		})
	}
}

func TestRemovedRingsFaded(t *testing.T) {
	s := newState(t, "37", [2]string{})
	cells := []byte(s.Cells)
	cells[0] = '.'
	cells[1] = 'w'
	cells[2] = 'g'
	cells[3] = 'b'
	s.Cells = string(cells)
	rings, _ := parseSVG(t, BoardSVG(&s, nil))
	if got := rings[0].class; got != "ring removed" {
		t.Errorf("removed ring class = %q; want %q", got, "ring removed")
	}
	if got := rings[1].class; got != "ring" {
		t.Errorf("ring class = %q; want ring", got)
	}
	svg := BoardSVG(&s, nil)
	for _, c := range []string{"w", "g", "b"} {
		if n := strings.Count(svg, `class="marble `+c+`"`); n != 1 {
			t.Errorf("%d %s marbles; want 1", n, c)
		}
	}
}

func TestEscaping(t *testing.T) {
	evil := `<script>alert("x")</script>&`
	s := newState(t, "37", [2]string{evil, `"><img src=x onerror=alert(1)>`})
	s.Moves = []string{evil}
	s.Status = evil
	html := RenderBoard(Board{ID: "b<1>", State: &s, Status: "online",
		Notice: &Notice{Kind: "illegal", Body: NoticeBody{Reason: evil, Cells: CellsOrFixes{Fixes: []referee.CellFix{{Cell: evil, Is: "w", Should: evil}}}}}})
	for _, bad := range []string{"<script", "<img", `"x")`} {
		if strings.Contains(html, bad) {
			t.Errorf("rendered view contains %q unescaped", bad)
		}
	}
	if !strings.Contains(html, "&lt;script&gt;") {
		t.Error("the escaped name is missing")
	}
	card := TournamentTree("", []Board{{ID: `x"<y`, State: &s}}).HTML()
	if strings.Contains(card, `x"<y`) {
		t.Error("the card contains the board ID unescaped")
	}
}

func TestLastMoveHighlights(t *testing.T) {
	s := newState(t, "37", [2]string{})
	s.LastMove = &referee.Move{Turn: 1, Move: engine.MoveObject{Kind: "capture", Path: []string{"C3", "C5", "E6"}}}
	svg := BoardSVG(&s, nil)
	if !strings.Contains(svg, `class="capture-path"`) {
		t.Error("no capture path")
	}
	// C3→C5 jumps C4; C5→E6 jumps D5 (doubled coordinates: one column and
	// one row over each).
	if n := strings.Count(svg, `last-jumped"`); n != 2 {
		t.Errorf("%d jumped cells marked; want 2", n)
	}
	if !strings.Contains(svg, `last-jumped" data-cell="C4"`) {
		t.Error("jumped cell C4 not marked")
	}
	s.LastMove = &referee.Move{Turn: 1, Move: engine.MoveObject{Kind: "place", Color: "w", At: "D4", Remove: "A1", Claimed: []string{"A2"}}}
	svg = BoardSVG(&s, nil)
	for _, want := range []string{`last-at" data-cell="D4"`, `last-removed" data-cell="A1"`, `last-claimed" data-cell="A2"`, `class="xmark"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("placement highlight %s missing", want)
		}
	}
}

// TestPlayersNamedEverywhere: the footer's referee status names the players
// as the header does, and two players of one name are told apart.
func TestPlayersNamedEverywhere(t *testing.T) {
	tests := []struct {
		players      [2]string
		status, want string
	}{
		{[2]string{"Ann", "Bob"}, "P1 must capture: D4 can jump E4", "Bob must capture: D4 can jump E4"},
		{[2]string{"Ann", "Bob"}, "Game over: P0 wins (captures)", "Game over: Ann wins (captures)"},
		{[2]string{"guest", "guest"}, "P0 to move: place a marble", "guest (player 0) to move: place a marble"},
		{[2]string{"", ""}, "P1: remove a free ring", "Player 1: remove a free ring"},
		// Only whole tokens: a cell label or a word containing P0 stays.
		{[2]string{"Ann", "Bob"}, "P10 PP0 P0x", "P10 PP0 P0x"},
	}
	for _, tt := range tests {
		s := newState(t, "37", tt.players)
		if got := NamePlayers(&s, tt.status); got != tt.want {
			t.Errorf("namePlayers(%q, %q) = %q; want %q", tt.players, tt.status, got, tt.want)
		}
	}
	s := newState(t, "37", [2]string{"guest", "guest"})
	s.Phase, s.Result = "over", "captures"
	w := 1
	s.Winner = &w
	if got, want := ResultText(i18n.EN, &s), "guest (player 1) wins (captures)"; got != want {
		t.Errorf("resultText with two guests = %q; want %q", got, want)
	}
	s.Status = "Game over: P1 wins (captures)"
	s.StatusMsg = []referee.Message{referee.Msg("guide.over-win", referee.Msg("guide.player", 1), referee.Msg("result.captures"))}
	for _, msg := range [][]referee.Message{s.StatusMsg, nil} { // said from status_msg, or from the English status
		s.StatusMsg = msg
		html := RenderBoard(Board{ID: "t1", State: &s, Status: "online"})
		if !strings.Contains(html, `<p class="status" data-k="status">Game over: guest (player 1) wins (captures)</p>`) {
			t.Errorf("the footer does not name the winner; page:\n%s", html)
		}
	}
}

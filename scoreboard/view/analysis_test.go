package view

import (
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine/solve"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/wire"
)

func TestParseNotation(t *testing.T) {
	tests := []struct {
		in, kind, colour, cells string
	}{
		{"BE4-D2", "place", "b", "E4 D2"},
		{"wb1", "place", "w", "B1"},
		{"*GC3-A1", "place", "g", "C3 A1"},
		{"E3xE5", "capture", "", "E3 E5"},
		{"D1xD3xF3xF5", "capture", "", "D1 D3 F3 F5"},
		{"pass", "pass", "", ""},
		{"", "", "", ""},
	}
	for _, tt := range tests {
		kind, colour, cells := parseNotation(tt.in)
		if kind != tt.kind || colour != tt.colour || strings.Join(cells, " ") != tt.cells {
			t.Errorf("parseNotation(%q) = %q, %q, %v; want %q, %q, %q", tt.in, kind, colour, cells, tt.kind, tt.colour, tt.cells)
		}
	}
}

// TestAnalysisView: a forced win shows a banner naming the player and the
// number of turns, with the line, and the line on the board as numbered
// steps (arrows for the capture and the removals); no forced win shows the
// small indicator; nothing once the game is over or while analysis runs.
func TestAnalysisView(t *testing.T) {
	st := newState(t, "37", [2]string{"Ann", "Bob"})
	st.Analysis = &wire.Analysis{Report: solve.Report{
		ForcedWin: &solve.ReportWin{Player: 0, Turns: 2, Line: []string{"BE4-D2", "E3xE5", "WB1-C2"}},
		Complete:  true, Nodes: 3440, MS: 12}, MaxTurns: 2, Depth: 1}
	page := RenderBoard(Board{ID: "t1", State: &st})
	if !strings.Contains(page, `<b>Forced win for Ann in 2 turns</b>`) || !strings.Contains(page, `data-forced-player="0"`) {
		t.Errorf("no forced-win banner:\n%s", page)
	}
	for i, m := range []string{"BE4-D2", "E3xE5", "WB1-C2"} {
		if !strings.Contains(page, "<small>"+string(rune('1'+i))+"</small>"+m) {
			t.Errorf("banner lacks step %d %s", i+1, m)
		}
	}
	svg := BoardSVG(&st, nil)
	parseSVG(t, svg) // well-formed
	for _, want := range []string{
		`<circle class="aplace attacker b" data-step="1"`,    // black on E4
		`<line class="aarrow remove attacker" data-step="1"`, // removing D2
		`<polyline class="aarrow defender" data-step="2"`,    // E3xE5
		`<circle class="aplace attacker w" data-step="3"`,    // white on B1
		`<path class="aremove attacker" data-step="3"`,       // C2
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("board lacks %s", want)
		}
	}
	if n := strings.Count(svg, `class="astep"`); n != 3 {
		t.Errorf("%d numbered steps; want 3", n)
	}

	st.Analysis = &wire.Analysis{Report: solve.Report{Complete: true, Nodes: 10, MS: 1}, MaxTurns: 2, Depth: 2}
	page = RenderBoard(Board{ID: "t1", State: &st})
	if !strings.Contains(page, `<div class="banner analysis none" data-depth="2">No forced win within 2 turns</div>`) || strings.Contains(page, "aarrow") {
		t.Errorf("no-win indicator wrong:\n%s", page)
	}
	st.Analysis.Depth, st.Analysis.Complete = 1, false // ran out of time at 2
	if page = RenderBoard(Board{ID: "t1", State: &st}); !strings.Contains(page, "No forced win within 1 turn<") {
		t.Errorf("partial search should claim 1 turn only:\n%s", page)
	}
	st.Analysis = nil
	if page = RenderBoard(Board{ID: "t1", State: &st}); strings.Contains(page, "analysis") {
		t.Errorf("analysis shown without one")
	}
	st.Analysis = &wire.Analysis{Report: solve.Report{ForcedWin: &solve.ReportWin{Player: 1, Turns: 1, Line: []string{"A1xA3"}}}, MaxTurns: 2}
	st.Phase = "over"
	if page = RenderBoard(Board{ID: "t1", State: &st}); strings.Contains(page, "Forced win") || strings.Contains(page, "aarrow") {
		t.Errorf("analysis shown after the game")
	}
	// Junk from MQTT is escaped and cannot break the SVG.
	st.Phase = "place"
	st.Analysis.ForcedWin.Line = []string{`<script>x</script>`, `ZZ99-Q0`, `A1x"><`}
	page = RenderBoard(Board{ID: "t1", State: &st})
	if strings.Contains(page, "<script>") {
		t.Errorf("unescaped line in the page")
	}
	parseSVG(t, BoardSVG(&st, nil))
}

// TestEvalBar: the engine's evaluation is a bar with player 0's share, the
// two chances in per cent with the players' names and the best turn, in
// the page's language; nothing without one, or once the game is over.
func TestEvalBar(t *testing.T) {
	st := newState(t, "37", [2]string{"Ann", "Bob"})
	st.Analysis = &wire.Analysis{Report: solve.Report{Complete: true, Nodes: 10, MS: 1}, MaxTurns: 2, Depth: 2,
		WinProb: &[2]float64{0.623, 0.377}, BestTurn: "WD4-A1", EvalDepth: 3, EvalScore: 130}
	page := RenderBoard(Board{ID: "t1", State: &st})
	for _, want := range []string{
		`<div class="evalbox" data-p0="623" data-best="WD4-A1">`,
		`<rect class="ev0" width="623" height="10"/><rect class="ev1" x="623" width="377" height="10"/>`,
		`<span class="evtext">Engine: Ann 62% · Bob 38% · best turn: WD4-A1</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s:\n%s", want, page)
		}
	}
	if fr := RenderBoard(Board{ID: "t1", State: &st, Lang: i18n.FR}); !strings.Contains(fr, "Moteur : Ann 62 % · Bob 38 % · meilleur coup : WD4-A1") {
		t.Errorf("French page lacks the evaluation:\n%s", fr)
	}
	st.Analysis.WinProb, st.Analysis.BestTurn = nil, ""
	if page = RenderBoard(Board{ID: "t1", State: &st}); strings.Contains(page, "evalbox") {
		t.Errorf("an evaluation bar without an evaluation")
	}
	st.Analysis.WinProb = &[2]float64{1, 0}
	st.Phase = "over"
	if page = RenderBoard(Board{ID: "t1", State: &st}); strings.Contains(page, "evalbox") {
		t.Errorf("an evaluation bar after the game")
	}
}

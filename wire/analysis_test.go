package wire

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine/solve"
)

// The state's "analysis" is analyze --json's object plus max_turns and
// depth, and reads back the same; null when there is none.
func TestAnalysisJSON(t *testing.T) {
	a := &Analysis{Report: solve.Report{ForcedWin: &solve.ReportWin{Player: 1, Turns: 2, Line: []string{"BE4-D2", "E3xE5", "WB1-C2"}},
		Complete: true, Nodes: 3440, MS: 7}, MaxTurns: 3, Depth: 1}
	b, err := json.Marshal(State{Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	want := `"analysis":{"forced_win":{"player":1,"turns":2,"line":["BE4-D2","E3xE5","WB1-C2"]},"complete":true,"nodes":3440,"ms":7,"max_turns":3,"depth":1}`
	if !strings.Contains(string(b), want) {
		t.Errorf("state JSON %s\nlacks %s", b, want)
	}
	var back State
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back.Analysis, a) {
		t.Errorf("read back %+v, %v; want %+v", back.Analysis, err, a)
	}
	b, _ = json.Marshal(State{})
	if !strings.Contains(string(b), `"analysis":null`) {
		t.Errorf("no analysis: %s; want \"analysis\":null", b)
	}
}

// The engine's evaluation adds win_prob (player 0 first), best_turn,
// eval_depth and eval_score; without it the object is as before.
func TestAnalysisEvalJSON(t *testing.T) {
	a := &Analysis{Report: solve.Report{Complete: true, Nodes: 10, MS: 1}, MaxTurns: 2, Depth: 2,
		WinProb: &[2]float64{0.375, 0.625}, BestTurn: "WD4-A1", EvalDepth: 3, EvalScore: -130}
	b, err := json.Marshal(State{Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	want := `"analysis":{"forced_win":null,"complete":true,"nodes":10,"ms":1,"max_turns":2,"depth":2,"win_prob":[0.375,0.625],"best_turn":"WD4-A1","eval_depth":3,"eval_score":-130}`
	if !strings.Contains(string(b), want) {
		t.Errorf("state JSON %s\nlacks %s", b, want)
	}
	var back State
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back.Analysis, a) {
		t.Errorf("read back %+v, %v; want %+v", back.Analysis, err, a)
	}
}

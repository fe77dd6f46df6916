package config

import (
	"strings"
	"testing"
	"time"
)

func TestAnalysis(t *testing.T) {
	tests := []struct {
		src    string
		on     bool
		turns  int
		budget time.Duration
	}{
		{"[board]\nmode = casual", true, 2, time.Second},
		{"[board]\nmode = tournament", false, 2, time.Second},
		{"[board]\nmode = tournament\n[analysis]\nenabled = on\nturns = 3\nbudget = 500ms", true, 3, 500 * time.Millisecond},
		{"[analysis]\nenabled = off", false, 2, time.Second},
		{"[analysis]\nenabled = auto", true, 2, time.Second},
	}
	for _, tt := range tests {
		c, err := Parse("z.conf", strings.NewReader(tt.src))
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.src, err)
		}
		if c.AnalysisOn() != tt.on || c.AnalysisTurns != tt.turns || c.AnalysisBudget != tt.budget {
			t.Errorf("Parse(%q): analysis on %v, %d turns, %v; want %v, %d, %v", tt.src, c.AnalysisOn(), c.AnalysisTurns, c.AnalysisBudget, tt.on, tt.turns, tt.budget)
		}
	}
	for _, tt := range []struct {
		src  string
		eval int
	}{{"", 5}, {"[analysis]\neval = 9", 9}, {"[analysis]\neval = off", -1}, {"[analysis]\neval = 1", 1}} {
		c, err := Parse("z.conf", strings.NewReader(tt.src))
		if err != nil || c.AnalysisEval != tt.eval {
			t.Errorf("Parse(%q): evaluation level %d, %v; want %d", tt.src, c.AnalysisEval, err, tt.eval)
		}
	}
	for _, tt := range []struct{ src, want string }{
		{"[analysis]\neval = 0", `z.conf:2: analysis.eval: "0": want an engine level from 1 to 10, or off`},
		{"[analysis]\neval = 11", `z.conf:2: analysis.eval: "11"`},
		{"[analysis]\nenabled = yes", `z.conf:2: analysis.enabled: "yes": want auto, on or off`},
		{"[analysis]\nturns = 9", `z.conf:2: analysis.turns: "9": want 1 to 4`},
		{"[analysis]\nbudget = 5ms", `z.conf:2: analysis.budget: "5ms"`},
		{"[analysis]\ndepth = 2", `z.conf:2: analysis.depth: unknown key`},
	} {
		if _, err := Parse("z.conf", strings.NewReader(tt.src)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v; want %q", tt.src, err, tt.want)
		}
	}
}

// TestPlay: [play] engine and level, with errors that name the line.
func TestPlay(t *testing.T) {
	for _, tt := range []struct {
		src           string
		engine, level int
	}{{"", -1, 6}, {"[play]\nengine = 1\nlevel = 3", 1, 3}, {"[play]\nengine = 0", 0, 6}, {"[play]\nengine = none\nlevel = 10", -1, 10}} {
		c, err := Parse("z.conf", strings.NewReader(tt.src))
		if err != nil || c.Engine != tt.engine || c.EngineLevel != tt.level {
			t.Errorf("Parse(%q): engine %d level %d, %v; want %d, %d", tt.src, c.Engine, c.EngineLevel, err, tt.engine, tt.level)
		}
	}
	for _, tt := range []struct{ src, want string }{
		{"[play]\nengine = 2", `z.conf:2: play.engine: "2": want 0 or 1 (the player the engine plays) or none`},
		{"[play]\nlevel = 0", `z.conf:2: play.level: "0": want an engine level from 1 (a beginner) to 10`},
		{"[play]\nseed = 4", `z.conf:2: play.seed: unknown key`},
	} {
		if _, err := Parse("z.conf", strings.NewReader(tt.src)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v; want %q", tt.src, err, tt.want)
		}
	}
}

package search

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// The report is the contract's object: its keys in order, the turns in
// notation, the line starting with the move.
func TestReport(t *testing.T) {
	p, err := engine.ParsePosition("37 w.oo/o.ooo/.ooooo/.oooooo/o.gooo/ooooo/oooo 1,3,9 2,0,0 2,4,1 0")
	if err != nil {
		t.Fatal(err)
	}
	res := Search(context.Background(), p, Options{MaxNodes: 20000})
	data, err := json.Marshal(res.Report(p.Board(), 7))
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Move != "BE4-D2" || len(back.PV) == 0 || back.PV[0] != "BE4-D2" || back.MS != 7 || back.Nodes != res.Nodes || back.WinProb != 1 {
		t.Errorf("report %s; want diagram 5's win BE4-D2 first in its line, 7 ms", data)
	}
	want := `{"move":"BE4-D2","score":`
	if string(data[:len(want)]) != want {
		t.Errorf("report %s; want it to start %s", data, want)
	}
	empty, _ := json.Marshal(Result{}.Report(p.Board(), 0))
	if want := `{"move":"?","score":0,"win_prob":0,"depth":0,"nodes":0,"ms":0,"pv":[]}`; string(empty) != want {
		t.Errorf("empty report %s; want %s", empty, want)
	}
}

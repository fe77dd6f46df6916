package search

import "github.com/zertzboard/zertzboard/engine"

// Report is a result in the contract's JSON form ("zertzboard bestmove
// --json"; docs/CONTRACTS.md):
//
//	{"move":"WD4-A1","score":S,"win_prob":P,"depth":D,"nodes":N,"ms":T,"pv":["WD4-A1",...]}
type Report struct {
	Move    string   `json:"move"`
	Score   int      `json:"score"`
	WinProb float64  `json:"win_prob"`
	Depth   int      `json:"depth"`
	Nodes   int64    `json:"nodes"`
	MS      int64    `json:"ms"`
	PV      []string `json:"pv"`
}

// Report describes r, found on board b in ms milliseconds (the caller's
// clock): the turns in the project's notation, pv [] rather than null
// when empty.
func (r Result) Report(b *engine.Board, ms int64) Report {
	rep := Report{Move: engine.FormatTurn(b, r.Move), Score: r.Score, WinProb: r.WinProb,
		Depth: r.Depth, Nodes: r.Nodes, MS: ms, PV: make([]string, 0, len(r.PV))}
	for _, t := range r.PV {
		rep.PV = append(rep.PV, engine.FormatTurn(b, t))
	}
	return rep
}

package scoreboard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/solve"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/scoreboard/results"
	"github.com/zertzboard/zertzboard/scoreboard/view"
	"github.com/zertzboard/zertzboard/wire"
)

// The game viewer: a finished game (/results/GAME) or the live game of a
// board (/board/ID/pos/N) stepped through turn by turn. Each position is
// rendered as the live page renders a state (renderBoard), from the
// record replayed to that turn, with the clocks as the record has them
// after that turn. The forced-win analysis of a position, and the turns
// of a game that let a forced win go, are computed on demand: one search
// at a time per scoreboard, each bounded in nodes and time, at most
// viewerWaiting requests waiting for it (others get 503), and the
// results remembered for the games viewed last.
//
//	GET /results/GAME               the viewer page
//	GET /results/GAME/pos/N         position after N turns (an HTML fragment;
//	                                ?analysis=1 adds the forced-win search)
//	GET /results/GAME/missed.json   every position's search and the missed turns
//	GET /board/ID/pos/N             the same for the board's game under way

// Search bounds for the viewer: within K own turns, as the live analysis
// does by default, and at most so many nodes (a few hundred ms on a Pi).
const (
	viewerMaxTurns = 2
	viewerMaxNodes = 3_000_000
	viewerBudget   = 3 * time.Second
	viewerGames    = 32 // games whose searches are remembered
	viewerWaiting  = 8  // requests that may wait for the search slot
)

// errBusy is a search refused because too many wait for the slot.
var errBusy = errors.New("the analysis is busy; try again in a moment")

// viewer holds the searches done, per game and position.
type viewer struct {
	sem     chan struct{} // one search at a time
	waiting atomic.Int32  // requests waiting for it

	mu     sync.Mutex
	found  map[string]map[int]*posSearch // game → position → search
	order  []string                      // games, oldest first
	replay map[string]*replayed          // finished games replayed, by key
	rorder []string                      // their keys, oldest first
}

// replayedOf is the finished game res replayed, once for the last
// viewerGames games viewed (a replayed game is only read after).
func (vw *viewer) replayedOf(res *GameResult) (*replayed, error) {
	key := "game:" + res.GameID
	vw.mu.Lock()
	g := vw.replay[key]
	vw.mu.Unlock()
	if g != nil && g.end == res {
		return g, nil
	}
	g, err := replayRecord(key, res.Board, res.Record, res)
	if err != nil {
		return nil, err
	}
	vw.mu.Lock()
	defer vw.mu.Unlock()
	if vw.replay[key] == nil {
		vw.rorder = append(vw.rorder, key)
		if len(vw.rorder) > viewerGames {
			delete(vw.replay, vw.rorder[0])
			vw.rorder = vw.rorder[1:]
		}
	}
	vw.replay[key] = g
	return g, nil
}

func newViewer() *viewer {
	return &viewer{sem: make(chan struct{}, 1), found: map[string]map[int]*posSearch{}, replay: map[string]*replayed{}}
}

// posSearch is one position's forced-win search.
type posSearch struct {
	N        int              `json:"n"`     // turns played before it
	Mover    int              `json:"mover"` // the player to move
	Win      *solve.ReportWin `json:"win"`   // the mover's forced win, or null
	Depth    int              `json:"depth"` // no win within so many turns (refuted)
	Complete bool             `json:"complete"`
	Nodes    int64            `json:"nodes"`
	Over     bool             `json:"over"`             // the game is over here
	Winner   *int             `json:"winner,omitempty"` // who won, when over
	an       *wire.Analysis
}

// replayed is a game's record replayed, to show any of its positions.
type replayed struct {
	key      string // the viewer's cache key ("" for the live game: never cached)
	board    string
	rec      *record.Record
	rep      *record.Replay
	end      *GameResult // the result kept, nil for a live game
	control  *clock.Control
	notation []string // the turns in notation
}

func replayRecord(key, board string, data []byte, end *GameResult) (*replayed, error) {
	rec, err := record.ReadJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	rep, err := rec.Replay()
	if err != nil {
		return nil, err
	}
	g := &replayed{key: key, board: board, rec: rec, rep: rep, end: end}
	b, _, _ := rec.Board()
	for i := 0; i < rep.Game.Len(); i++ {
		t, _ := rep.Game.Turn(i)
		g.notation = append(g.notation, engine.FormatTurn(b, t))
	}
	if rec.Clock != nil {
		if c, err := clock.Parse(rec.Clock.Control); err == nil && c.Timed() {
			g.control = &c
		}
	}
	return g, nil
}

// turns is the number of turns of the game.
func (g *replayed) turns() int { return g.rep.Game.Len() }

// state is the game after n turns, as a board would publish it, and the
// clocks then.
func (g *replayed) state(n int) (wire.State, *wire.Clock) {
	b, rules, _ := g.rec.Board()
	game := g.rep.Game.Clone()
	_ = game.Undo(g.turns() - n)
	ref, err := referee.New(referee.Config{Board: b, Rules: rules, Game: game})
	var s wire.State
	if err == nil {
		s = wire.Snapshot(ref, g.board, g.rec.Players, uint64(n+1), 0)
	}
	if e := g.end; e != nil && n == g.turns() && e.Reason != "" {
		s.Phase, s.Winner, s.Result, s.ResultNote = engine.PhaseOver, e.Winner, e.Reason, e.Note
	}
	if g.control == nil {
		return s, nil
	}
	c := &wire.Clock{Control: g.rec.Clock.Control, IncrementMS: g.control.IncMS()}
	var rem [2]int64
	switch {
	case n == 0:
		rem = [2]int64{g.control.BaseMS(), g.control.BaseMS()}
	case n-1 < len(g.rec.Clock.Turns) && g.rec.Clock.Turns[n-1].Remaining != nil:
		rem = *g.rec.Clock.Turns[n-1].Remaining
	default:
		return s, nil
	}
	c.Remaining = &rem
	return s, c
}

// render is the view of the position after n turns, with its search if
// an is not nil.
func (g *replayed) render(n int, l i18n.Lang, an *wire.Analysis) string {
	s, c := g.state(n)
	if an != nil && s.Phase != engine.PhaseOver {
		s.Analysis = an
	}
	v := view.Board{ID: g.board, State: &s, Clock: c, Lang: l, AllMoves: g.notation}
	if g.end != nil && n == g.turns() {
		v.Note = g.end.Note
	}
	return view.RenderBoard(v)
}

// search is the forced-win search of the position after n turns, done
// once per game (a live game's every time), one search at a time.
func (vw *viewer) search(ctx context.Context, g *replayed, n int) (*posSearch, error) {
	if g.key != "" {
		vw.mu.Lock()
		ps := vw.found[g.key][n]
		vw.mu.Unlock()
		if ps != nil {
			return ps, nil
		}
	}
	if vw.waiting.Add(1) > viewerWaiting {
		vw.waiting.Add(-1)
		return nil, errBusy
	}
	select {
	case vw.sem <- struct{}{}:
		vw.waiting.Add(-1)
	case <-ctx.Done():
		vw.waiting.Add(-1)
		return nil, ctx.Err()
	}
	defer func() { <-vw.sem }()
	p := g.rep.Game.PositionAfter(n)
	ctx, cancel := context.WithTimeout(ctx, viewerBudget)
	defer cancel()
	t0 := time.Now()
	res := solve.Solve(ctx, p, solve.Options{MaxTurns: viewerMaxTurns, MaxNodes: viewerMaxNodes})
	if errors.Is(ctx.Err(), context.Canceled) {
		return nil, ctx.Err()
	}
	rep := res.Report(p.Board(), time.Since(t0).Milliseconds())
	ps := &posSearch{N: n, Mover: p.ToMove(), Win: rep.ForcedWin, Depth: res.Depth, Complete: res.Complete, Nodes: res.Nodes,
		an: &wire.Analysis{Report: rep, MaxTurns: viewerMaxTurns, Depth: res.Depth}}
	if r := p.Result(); r.Over {
		ps.Over = true
		if r.Winner >= 0 {
			w := r.Winner
			ps.Winner = &w
		}
	}
	if g.key != "" {
		vw.mu.Lock()
		if vw.found[g.key] == nil {
			vw.found[g.key] = map[int]*posSearch{}
			vw.order = append(vw.order, g.key)
			if len(vw.order) > viewerGames {
				delete(vw.found, vw.order[0])
				vw.order = vw.order[1:]
			}
		}
		vw.found[g.key][n] = ps
		vw.mu.Unlock()
	}
	return ps, nil
}

// missedWins are the turns (1-based) that let a forced win go: before the
// turn its mover could force a win within K of their own turns, and the
// turn did not win at once (a win in 1) or, after it and the opponent's
// reply, they could no longer force one within one turn fewer (a search
// cut short proves nothing, and marks nothing). ps holds every
// position's search, by turns played.
func missedWins(ps []*posSearch) []int {
	var out []int
	for i := 1; i < len(ps); i++ {
		before := ps[i-1]
		w := before.Win
		if w == nil || w.Player != before.Mover {
			continue
		}
		m := before.Mover
		after := ps[i]
		if after.Over {
			if after.Winner == nil || *after.Winner != m {
				out = append(out, i)
			}
			continue
		}
		if w.Turns == 1 {
			out = append(out, i) // the winning turn was there, and not played
			continue
		}
		if i+1 >= len(ps) {
			continue // the game stopped off the board: nothing to compare
		}
		next := ps[i+1]
		if next.Over {
			if next.Winner == nil || *next.Winner != m {
				out = append(out, i)
			}
			continue
		}
		if next.Mover != m {
			continue
		}
		stillWins := next.Win != nil && next.Win.Player == m && next.Win.Turns <= w.Turns-1
		refuted := next.Depth >= w.Turns-1
		if !stillWins && refuted {
			out = append(out, i)
		}
	}
	return out
}

// ---------- HTTP ----------

// viewerPages is the viewer page's template in each language.
var viewerPages = pageTemplates("web/viewer.html")

type viewerData struct {
	Lang     i18n.Lang
	Langs    []opsLangLink
	Title    string
	Base     string // the URL the positions are under
	Back     string // the results page or the board page
	Turns    int
	HTML     template.HTML
	Finished string
	Result   string
	Naming   string // the tournament and round, "" for neither
	Live     bool
}

// replayedGame is the finished game id, or an error answered already.
func (s *Server) replayedGame(w http.ResponseWriter, id string) *replayed {
	if !results.ValidGameID(id) {
		http.Error(w, fmt.Sprintf("scoreboard: %q is not a valid game ID (1 to %d of A-Z a-z 0-9 . _ -)", view.ClipText(id, 120), results.MaxGameID), http.StatusBadRequest)
		return nil
	}
	res := s.res.Get(id)
	if res == nil {
		http.Error(w, fmt.Sprintf("scoreboard: no finished game %q", id), http.StatusNotFound)
		return nil
	}
	g, err := s.vw.replayedOf(res)
	if err != nil {
		http.Error(w, fmt.Sprintf("scoreboard: game %q cannot be replayed: %v", id, err), http.StatusUnprocessableEntity)
		return nil
	}
	return g
}

// liveGame is the game under way on board id, or an error answered.
func (s *Server) liveGame(w http.ResponseWriter, id string) *replayed {
	if !badBoard(w, id) {
		return nil
	}
	data := s.obs.boardRecord(id)
	if data == nil {
		http.Error(w, fmt.Sprintf("scoreboard: no record from board %q yet", id), http.StatusNotFound)
		return nil
	}
	g, err := replayRecord("", id, data, nil)
	if err != nil {
		http.Error(w, fmt.Sprintf("scoreboard: board %q's record cannot be replayed: %v", id, err), http.StatusUnprocessableEntity)
		return nil
	}
	return g
}

func (s *Server) viewerRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /results/{game}/pos/{n}", langChecked(func(w http.ResponseWriter, r *http.Request) {
		if g := s.replayedGame(w, r.PathValue("game")); g != nil {
			s.servePosition(w, r, g)
		}
	}))
	mux.HandleFunc("GET /board/{id}/pos/{n}", langChecked(func(w http.ResponseWriter, r *http.Request) {
		if g := s.liveGame(w, r.PathValue("id")); g != nil {
			s.servePosition(w, r, g)
		}
	}))
	mux.HandleFunc("GET /results/{game}/missed.json", func(w http.ResponseWriter, r *http.Request) {
		g := s.replayedGame(w, r.PathValue("game"))
		if g == nil {
			return
		}
		all := make([]*posSearch, 0, g.turns()+1)
		for n := 0; n <= g.turns(); n++ {
			ps, err := s.vw.search(r.Context(), g, n)
			if errors.Is(err, errBusy) {
				http.Error(w, "scoreboard: "+err.Error(), http.StatusServiceUnavailable)
				return
			}
			if err != nil {
				return // the viewer went away
			}
			all = append(all, ps)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(struct {
			MaxTurns  int          `json:"max_turns"`
			Positions []*posSearch `json:"positions"`
			Missed    []int        `json:"missed"`
		}{viewerMaxTurns, all, append([]int{}, missedWins(all)...)})
	})
}

// servePosition writes the position after n turns, as an HTML fragment.
func (s *Server) servePosition(w http.ResponseWriter, r *http.Request, g *replayed) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 0 || n > g.turns() {
		http.Error(w, fmt.Sprintf("scoreboard: position %q: want a number of turns from 0 to %d", view.ClipText(r.PathValue("n"), 20), g.turns()), http.StatusBadRequest)
		return
	}
	opt, err := view.ParseOverlay(r.URL.Query())
	if err != nil {
		http.Error(w, "scoreboard: "+err.Error(), http.StatusBadRequest)
		return
	}
	var an *wire.Analysis
	if !opt.NoAnalysis && r.URL.Query().Has("analysis") {
		ps, err := s.vw.search(r.Context(), g, n)
		if errors.Is(err, errBusy) {
			http.Error(w, "scoreboard: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		if err != nil {
			return // the viewer went away
		}
		an = ps.an
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.Write([]byte(g.render(n, opsLang(r), an)))
}

// serveViewer writes the viewer page of finished game g, at its end.
func (s *Server) serveViewer(w http.ResponseWriter, r *http.Request, g *replayed) {
	l := opsLang(r)
	e := g.end
	d := viewerData{Lang: l, Langs: opsLangLinks(r, l), Turns: g.turns(), HTML: template.HTML(g.render(g.turns(), l, nil)),
		Base: "/results/" + url.PathEscape(e.GameID), Back: withLang("/results", l),
		Title:    nameOf(e.Players, 0, l) + " – " + nameOf(e.Players, 1, l),
		Finished: e.Finished.Format("2006-01-02 15:04") + " UTC", Result: gameResultText(e, l), Naming: view.NamingText(l, g.rec.Event, g.rec.Round)}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")
	if err := viewerPages[l].Execute(w, d); err != nil {
		s.log.Debug("scoreboard: writing the viewer", "err", err)
	}
}

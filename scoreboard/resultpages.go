package scoreboard

import (
	"archive/zip"
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/scoreboard/results"
	"github.com/zertzboard/zertzboard/scoreboard/view"
)

// ---------- HTTP ----------

func (s *Server) resultRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /results", langChecked(s.serveResults))
	mux.HandleFunc("GET /results.csv", s.serveResultsCSV)
	mux.HandleFunc("GET /results.zip", s.serveResultsZip)
	mux.HandleFunc("GET /results/{file}", func(w http.ResponseWriter, r *http.Request) {
		file := r.PathValue("file")
		id, ext := file, ""
		if i := strings.LastIndexByte(file, '.'); i > 0 {
			id, ext = file[:i], file[i:]
		}
		if ext != ".json" && ext != ".sgf" && results.ValidGameID(file) && (ext == "" || s.res.Get(file) != nil) {
			if g := s.replayedGame(w, file); g != nil { // the game viewer (viewer.go)
				s.serveViewer(w, r, g)
			}
			return
		}
		if !results.ValidGameID(id) || (ext != ".json" && ext != ".sgf") {
			http.Error(w, fmt.Sprintf("scoreboard: %q is not GAME.json or GAME.sgf with a valid game ID", view.ClipText(file, 120)), http.StatusBadRequest)
			return
		}
		g := s.res.Get(id)
		if g == nil {
			http.Error(w, fmt.Sprintf("scoreboard: no finished game %q", id), http.StatusNotFound)
			return
		}
		serveRecord(w, id+ext, g.Record, g.SGF)
	})
	for _, ext := range []string{".json", ".sgf"} {
		mux.HandleFunc("GET /board/{id}/record"+ext, func(w http.ResponseWriter, r *http.Request) {
			id := r.PathValue("id")
			if !badBoard(w, id) {
				return
			}
			rec := s.obs.boardRecord(id)
			if rec == nil {
				http.Error(w, fmt.Sprintf("scoreboard: no record from board %q yet", id), http.StatusNotFound)
				return
			}
			serveRecord(w, id+ext, rec, func() ([]byte, error) { return results.SGFOf(rec) })
		})
	}
}

// pageLink is a link in the scoreboard page's corner.
type pageLink struct {
	Text, URL string
	Download  bool
}

// pageLinks are the tournament view's links to the results and the
// console, and a board page's downloads of its game (once it has a record).
func (s *Server) pageLinks(board string, l i18n.Lang) []pageLink {
	q := "?lang=" + string(l)
	if board == "" {
		links := []pageLink{{Text: l.T("console.results"), URL: "/results" + q}}
		if s.ops != nil {
			links = append(links, pageLink{Text: l.T("console.title"), URL: "/console" + q})
		}
		return links
	}
	if s.obs.boardRecord(board) == nil {
		return nil
	}
	base := "/board/" + url.PathEscape(board) + "/record"
	return []pageLink{{Text: l.T("results.download", "SGF"), URL: base + ".sgf", Download: true},
		{Text: l.T("results.download", "JSON"), URL: base + ".json", Download: true}}
}

// serveRecord writes a record as a download: JSON as published, or SGF.
func serveRecord(w http.ResponseWriter, name string, rec []byte, sgfOf func() ([]byte, error)) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	if strings.HasSuffix(name, ".sgf") {
		sgf, err := sgfOf()
		if err != nil {
			h.Del("Content-Disposition")
			http.Error(w, "scoreboard: this game cannot be written as Boardspace SGF (download the JSON record): "+err.Error(), http.StatusUnprocessableEntity)
			return
		}
		h.Set("Content-Type", "application/x-go-sgf")
		w.Write(sgf)
		return
	}
	h.Set("Content-Type", "application/json")
	w.Write(bytes.TrimSpace(rec))
	w.Write([]byte("\n"))
}

func (s *Server) serveResultsCSV(w http.ResponseWriter, r *http.Request) {
	games, _ := s.res.List()
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Disposition", `attachment; filename="results.csv"`)
	if err := results.WriteCSV(w, games); err != nil {
		s.log.Debug("scoreboard: writing results.csv", "err", err)
	}
}

// serveResultsZip streams every record, JSON and SGF (where Boardspace
// SGF can hold the game), and results.csv.
func (s *Server) serveResultsZip(w http.ResponseWriter, r *http.Request) {
	games, _ := s.res.List()
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Disposition", `attachment; filename="results.zip"`)
	zw := zip.NewWriter(w)
	add := func(name string, mod time.Time, data []byte) error {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: mod})
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	}
	var csvBuf bytes.Buffer
	results.WriteCSV(&csvBuf, games)
	err := add("results.csv", s.obs.now(), csvBuf.Bytes())
	for _, g := range games {
		if err != nil {
			break
		}
		err = add(g.GameID+".json", g.Finished, append(bytes.TrimSpace(g.Record), '\n'))
		if sgf, serr := g.SGF(); serr == nil && err == nil {
			err = add(g.GameID+".sgf", g.Finished, sgf)
		}
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		s.log.Debug("scoreboard: writing results.zip", "err", err)
	}
}

// resultsPages is the results page's template in each language.
var resultsPages = pageTemplates("web/results.html")

type resultRow struct {
	*GameResult
	WinnerName string // "" for a draw
	Result     string
	Clocks     string
	Size       string // "37 rings", "48 rings, blitz"
	ViewURL    string // the game viewer (viewer.go)
	Naming     string // the tournament and round, "" for neither
	// NoteLines are the arbiter's notes on the game in words ("after
	// turn 12: …", noteText), shown under its row; none for most games.
	NoteLines []string
}

func (s *Server) serveResults(w http.ResponseWriter, r *http.Request) {
	l := opsLang(r)
	games, diskErr := s.res.List()
	rows := make([]resultRow, 0, len(games))
	for i := len(games) - 1; i >= 0; i-- { // newest first
		g := games[i]
		row := resultRow{GameResult: g, Result: gameResultText(g, l), Clocks: finalClocks(g.Clock),
			Size: variantText(l, g.Variant), ViewURL: withLang("/results/"+url.PathEscape(g.GameID), l)}
		if event, round := g.Naming(); event != "" || round != "" {
			row.Naming = view.NamingText(l, event, round)
		}
		if g.Winner != nil && (*g.Winner == 0 || *g.Winner == 1) {
			row.WinnerName = nameOf(g.Players, *g.Winner, l)
		}
		for _, n := range g.Notes() {
			row.NoteLines = append(row.NoteLines, noteText(l, n.Turn, n.Text))
		}
		rows = append(rows, row)
	}
	d := struct {
		Lang    i18n.Lang
		Langs   []opsLangLink
		Rows    []resultRow
		DiskErr string
	}{Lang: l, Langs: opsLangLinks(r, l), Rows: rows}
	if diskErr != nil {
		d.DiskErr = diskErr.Error()
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")
	if err := resultsPages[l].Execute(w, d); err != nil {
		s.log.Debug("scoreboard: writing the results page", "err", err)
	}
}

// gameResultText is a result in words: "alice wins (captures)", "draw".
func gameResultText(g *GameResult, l i18n.Lang) string {
	reason := string(g.Reason)
	if k := reasonKey[g.Reason]; k != "" {
		reason = l.T(k)
	}
	if g.Winner != nil && (*g.Winner == 0 || *g.Winner == 1) {
		return l.T("results.wins", nameOf(g.Players, *g.Winner, l), reason)
	}
	switch g.Reason {
	case engine.ReasonTime:
		return l.T("results.draw-on-time")
	case engine.ReasonDraw:
		return l.T("results.draw")
	case engine.ReasonRepetition, engine.ReasonNoMoves:
		return l.T("results.draw") + " (" + reason + ")"
	}
	return l.T("results.over", reason)
}

// reasonKey names the state's result reasons.
var reasonKey = map[engine.Reason]string{
	engine.ReasonCaptures: "results.r-captures", engine.ReasonFullBoard: "results.r-full-board", engine.ReasonRepetition: "results.r-repetition",
	engine.ReasonNoMoves: "results.r-no-moves", engine.ReasonTime: "results.r-time", engine.ReasonResignation: "results.r-resignation",
	engine.ReasonAdjudication: "results.r-adjudication", engine.ReasonDraw: "results.r-draw",
}

func finalClocks(c *results.ClockState) string {
	if c == nil || c.RemainingMS == nil {
		return ""
	}
	return view.FmtClock(max(c.RemainingMS[0], 0)) + " – " + view.FmtClock(max(c.RemainingMS[1], 0))
}

// variantText names a variant in words: "37 rings", "48 rings blitz".
func variantText(l i18n.Lang, variant string) string {
	base, blitz := strings.CutSuffix(variant, "b")
	t := view.RingsText(l, base)
	if blitz {
		t += " " + l.T("page.blitz")
	}
	return t
}

// GameResult is a finished game as the results keep it (package results).
type GameResult = results.GameResult

// DefaultMaxResults is how many finished games are kept unless told.
const DefaultMaxResults = results.DefaultMaxResults

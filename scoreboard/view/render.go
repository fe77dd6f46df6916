package view

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/zertzboard/zertzboard/display"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/scoreboard/stream"
	"github.com/zertzboard/zertzboard/wire"
)

// Board geometry, in SVG user units. Neighbouring rings are Spacing apart;
// a ring's outer edge (RingRadius plus half its stroke) stays inside half
// the spacing, so rings never overlap.
const (
	Spacing      = 60.0
	RingRadius   = 22.0
	RingStroke   = 10.0
	MarbleRadius = 17.0
	margin       = 34.0
)

var colX = Spacing * math.Sqrt(3) / 2

// The radii as the SVG says them.
var ringR, marbleR, miniMarbleR = num(RingRadius), num(MarbleRadius), num(MarbleRadius + 2)

// Center is the centre of a cell in SVG coordinates. Doubled coordinates
// put the neighbours of (x, y) at (x, y±2) and (x±1, y±1); row 1 is drawn
// at the bottom, as on Boardspace.
func Center(c wire.Cell) (x, y float64) {
	return float64(c.X) * colX, -float64(c.Y) * Spacing / 2
}

// colour names by frame-log character.
var ColourName = map[byte]string{'w': "white", 'g': "grey", 'b': "black"}

// Notice is the latest referee event that still describes the board: a
// pending turn, an illegal board, and the like, for the state's seq.
type Notice struct {
	Seq  uint64
	Kind string
	Body NoticeBody
}

// NoticeBody is the body of a board event shown as a notice (docs/CONTRACTS.md 5.3).
type NoticeBody struct {
	Player int            `json:"player"`
	Need   string         `json:"need"`
	Cells  CellsOrFixes   `json:"cells"`
	Reason string         `json:"reason"`
	Rule   string         `json:"rule"`
	From   string         `json:"from"`
	To     string         `json:"to"`
	Jumps  []referee.Jump `json:"jumps"`
	Turn   int            `json:"turn"`
	Undone []string       `json:"undone"`
	// NeedMsg and ReasonMsg say Need and Reason for other languages.
	NeedMsg   *referee.Message `json:"need_msg"`
	ReasonMsg *referee.Message `json:"reason_msg"`
}

// CellsOrFixes is an event's "cells": labels (pending) or per-cell fixes
// (illegal, take-back demand).
type CellsOrFixes struct {
	Labels []string
	Fixes  []referee.CellFix
}

// UnmarshalJSON reads either form of an event's "cells".
func (c *CellsOrFixes) UnmarshalJSON(b []byte) error {
	*c = CellsOrFixes{}
	if err := json.Unmarshal(b, &c.Labels); err == nil {
		return nil
	}
	c.Labels = nil
	return json.Unmarshal(b, &c.Fixes)
}

// Board is what the board page is drawn from: the latest state, the
// board's MQTT status and the notice for the state's seq.
type Board struct {
	ID     string
	State  *wire.State
	Status string // "online", "offline", "unreachable" (its hall's bridge is down) or "" (unknown)
	Notice *Notice
	Clock  *wire.Clock // the state's clocks, nil without a state
	Note   string      // the arbiter's note on the result
	Lang   i18n.Lang   // the page's language; "" is English
	// AllMoves, for the game viewer (viewer.go), is the whole game's
	// turns: the move list shows them all, those not played yet dimmed.
	AllMoves []string
}

// RenderBoard is the board view's HTML (BoardTree).
func RenderBoard(v Board) string { return BoardTree(v).HTML() }

// BoardTree writes the board view: the SVG board, the banners and the side
// panel, as HTML and as the tree of its keyed elements, which package
// stream diffs. Every string from MQTT is escaped.
func BoardTree(v Board) *stream.Node {
	var b stream.Builder
	b.Grow(viewSize(v.State))
	s := v.State
	if s == nil {
		b.Root("div", "class", "sb waiting", "data-board", v.ID, "data-seq", "0")
		fmt.Fprintf(&b, `<p class="wait">%s</p>`, Text(v.Lang, "page.waiting", "<b>"+Esc(v.ID)+"</b>"+StatusText(v.Lang, v.Status)))
		b.Close()
		return b.MustFinish()
	}
	b.Root("div", "class", "sb", "data-board", v.ID, "data-seq", strconv.FormatUint(s.Seq, 10), "data-turn", strconv.Itoa(s.Turn),
		"data-phase", string(s.Phase), "data-to-move", strconv.Itoa(s.ToMove), "data-status", v.Status)
	b.WriteString(`<div class="stage">`)
	renderHeader(&b, v)
	renderBanners(&b, v)
	b.WriteString(`<div class="boardwrap">`)
	boardSVG(&b, v.Lang, s, v.Notice)
	b.WriteString(`</div></div>`)
	renderSide(&b, v)
	b.Close()
	return b.MustFinish()
}

// viewSize is about how long a board's view is, so that it is written
// into one buffer.
func viewSize(s *wire.State) int {
	if s == nil {
		return 512
	}
	return 4096 + 400*len(s.Layout) + 16*len(s.Moves)
}

// RingsText is "48 rings" in l: the board's name is its ring count, which
// picks the plural form (43 pierścienie, 61 кольцо); a custom layout's
// name reads as many.
func RingsText(l i18n.Lang, board string) string {
	n, err := strconv.Atoi(board)
	if err != nil {
		n = 5
	}
	return l.N("page.rings", n, board)
}

// NamingText is the tournament and its round as the pages show them:
// "Club Open 2026 · round 3", either alone, or "" for neither. Both come
// from the board and are clipped.
func NamingText(l i18n.Lang, event, round string) string {
	event, round = ClipText(strings.TrimSpace(event), maxEvent), ClipText(strings.TrimSpace(round), maxRound)
	switch {
	case round == "":
		return event
	case event == "":
		return l.T("page.round", round)
	}
	return event + " · " + l.T("page.round", round)
}

// The longest event and round names shown (the board's own limits).
const (
	maxEvent = 100
	maxRound = 32
)

// LangQuery is the query that keeps a link in language l: "" for
// English, the default.
func LangQuery(l i18n.Lang) string {
	if l == "" || l == i18n.EN {
		return ""
	}
	return "?lang=" + string(l)
}

// StatusText is what a waiting view says of the board's connection.
func StatusText(l i18n.Lang, status string) string {
	switch status {
	case "online", "offline", StatusUnreachable:
		return " (" + Esc(l.T("page.conn."+status)) + ")"
	}
	return ""
}

// Text formats a message into HTML: the message's own text is escaped; args
// must be HTML already (escape what comes from MQTT with esc).
func Text(l i18n.Lang, key string, args ...any) string {
	return fmt.Sprintf(Esc(l.Format(key)), args...)
}

func renderHeader(b *stream.Builder, v Board) {
	s := v.State
	l := v.Lang
	blitz := ""
	if s.Rules == "blitz" {
		blitz = " " + l.T("page.blitz")
	}
	turn := l.T("page.turn", s.Turn+1)
	if s.Phase == engine.PhaseOver {
		turn = l.N("page.n-turns", s.Turn, s.Turn)
	}
	mode := string(s.Mode) // as it came: a state without one shows none
	if i18n.Has("page.mode." + mode) {
		mode = l.T("page.mode." + mode)
	}
	b.Open("header", "class", "head", "data-k", "head")
	fmt.Fprintf(b, `<span class="bid">%s</span><span class="variant">%s%s · %s · %s</span>`,
		Esc(v.ID), Esc(RingsText(l, strings.TrimSuffix(s.Variant, "b"))), Esc(blitz), Esc(mode), Esc(turn))
	if c := controlText(l, v.Clock); c != "" {
		fmt.Fprintf(b, `<span class="control">%s</span>`, Esc(c))
	}
	if ev := NamingText(l, s.Event, s.Round); ev != "" {
		fmt.Fprintf(b, `<span class="event">%s</span>`, Esc(ev))
	}
	if v.Status != "" {
		fmt.Fprintf(b, `<span class="conn %s">%s</span>`, Esc(v.Status), Esc(l.T("page.conn."+v.Status)))
	}
	b.Close()
}

func renderBanners(b *stream.Builder, v Board) {
	s, l := v.State, v.Lang
	b.Open("div", "class", "banners", "data-k", "banners")
	if s.Phase == engine.PhaseOver {
		fmt.Fprintf(b, `<div class="banner over">%s</div>`, Esc(EndText(l, s)))
	}
	renderClockBanners(b, v)
	if s.Phase == engine.PhaseCapture && s.Forced != nil {
		fmt.Fprintf(b, `<div class="banner capture"><b>%s</b>`, Esc(l.T("page.must-capture", PlayerName(l, s, s.ToMove))))
		var jumps []string
		for _, j := range s.Forced.Jumps {
			jumps = append(jumps, fmt.Sprintf(`<span class="jump">%s × %s → %s</span>`, Esc(j.From), Esc(j.Over), Esc(j.To)))
		}
		if len(jumps) > 0 {
			b.WriteString(` `)
			b.WriteString(strings.Join(jumps, " "))
		}
		b.WriteString(`</div>`)
	}
	if n := v.Notice; n != nil {
		switch n.Kind {
		case "pending":
			need := n.Body.Need
			if m := n.Body.NeedMsg; m != nil {
				need = speaker(l, s).Say(*m)
			}
			fmt.Fprintf(b, `<div class="banner pending">%s</div>`, Esc(l.T("guide.pending", PlayerName(l, s, n.Body.Player), need)))
		case "illegal":
			reason := n.Body.Reason
			if m := n.Body.ReasonMsg; m != nil {
				reason = speaker(l, s).Say(*m)
			}
			fmt.Fprintf(b, `<div class="banner illegal"><b>%s</b>: %s`, Esc(l.T("page.illegal")), Esc(reason))
			if n.Body.Rule != "" {
				fmt.Fprintf(b, ` <span class="rule">(%s)</span>`, Esc(n.Body.Rule))
			}
			if len(n.Body.Cells.Fixes) > 0 {
				b.WriteString(` — ` + Esc(l.T("page.restore")) + ` `)
				var fs []string
				for _, f := range n.Body.Cells.Fixes {
					fs = append(fs, Esc(l.T("page.fix", f.Cell, contentName(l, f.Should))))
				}
				b.WriteString(strings.Join(fs, ", "))
			}
			b.WriteString(`</div>`)
		case "touch-move":
			fmt.Fprintf(b, `<div class="banner illegal"><b>%s</b>: %s</div>`, Esc(l.T("page.touch-move")),
				Esc(l.T("page.touch-move-text", PlayerName(l, s, n.Body.Player), n.Body.From, n.Body.To)))
		case "missed-capture":
			fmt.Fprintf(b, `<div class="banner illegal"><b>%s</b> %s</div>`, Esc(l.T("page.missed-capture")), Esc(l.T("page.missed-capture-text", n.Body.Turn, PlayerName(l, s, n.Body.Player))))
		case "takeback-demand":
			fmt.Fprintf(b, `<div class="banner illegal"><b>%s</b>: %s</div>`, Esc(l.T("page.takeback-demanded")), Esc(l.T("page.restore-previous")))
		case "takeback":
			fmt.Fprintf(b, `<div class="banner info">%s</div>`, Esc(l.T("page.taken-back", strings.Join(n.Body.Undone, ", "))))
		case "fault":
			reason := n.Body.Reason
			if m := n.Body.ReasonMsg; m != nil {
				reason = speaker(l, s).Say(*m)
			}
			fmt.Fprintf(b, `<div class="banner illegal"><b>%s</b>: %s</div>`, Esc(l.T("page.fault")), Esc(reason))
		}
	}
	if s.Phase == engine.PhasePlace && v.Notice == nil {
		fmt.Fprintf(b, `<div class="banner turn">%s</div>`, Esc(l.T("page.to-place", PlayerName(l, s, s.ToMove))))
	}
	renderAnalysisBanner(b, l, s)
	b.Close()
}

// ResultText is how a finished game ended, in l.
func ResultText(l i18n.Lang, s *wire.State) string {
	reason := string(s.Result)
	if i18n.Has("result." + reason) {
		reason = l.T("result." + reason)
	}
	if s.Winner != nil {
		return l.T("page.wins", PlayerName(l, s, *s.Winner), reason)
	}
	if reason == "" {
		reason = l.T("page.over")
	}
	return l.T("page.game-over", reason)
}

// speaker says the referee's messages in the page's language with the
// players' names as the page gives them.
func speaker(l i18n.Lang, s *wire.State) display.Speaker {
	return display.Speaker{Lang: l, Names: [2]string{PlayerName(l, s, 0), PlayerName(l, s, 1)}}
}

// PlayerName is what the page calls player p: the name, or "Player N"
// without one. Two players of the same name (two "guest"s) are told apart by
// their number, so a result never leaves it open who won.
func PlayerName(l i18n.Lang, s *wire.State, p int) string {
	if p < 0 || p > 1 {
		return "?"
	}
	n := strings.TrimSpace(s.Players[p])
	switch {
	case n == "":
		return l.T("page.player", p)
	case strings.EqualFold(n, strings.TrimSpace(s.Players[1-p])):
		return l.T("page.player-n", n, p)
	}
	return n
}

// playerToken matches the referee's names for the players, P0 and P1: the
// referee is pure and knows no names.
var playerToken = regexp.MustCompile(`\bP([01])\b`)

// NamePlayers puts the players' names into a referee status line, so the
// footer names players as the header does.
func NamePlayers(s *wire.State, status string) string {
	return playerToken.ReplaceAllStringFunc(status, func(tok string) string {
		return PlayerName(i18n.EN, s, int(tok[1]-'0'))
	})
}

// maxStatusParts bounds the status line a board's state can make the
// page say; the referee's has at most three parts.
const maxStatusParts = 8

// statusLine is the referee's status line in the page's language: said
// from the state's status_msg, or the English status with names.
func statusLine(l i18n.Lang, s *wire.State) string {
	if len(s.StatusMsg) > 0 {
		return speaker(l, s).SayAll(s.StatusMsg[:min(len(s.StatusMsg), maxStatusParts)])
	}
	return NamePlayers(s, s.Status)
}

func contentName(l i18n.Lang, c string) string {
	switch c {
	case ".":
		return l.T("page.content.no-ring")
	case "o":
		return l.T("page.content.vacant")
	case "w", "g", "b":
		return l.T("page.marble-" + ColourName[c[0]])
	}
	return c
}

// renderSide writes the players with their captures and progress toward
// each winning set, the pool and the move list.
func renderSide(b *stream.Builder, v Board) {
	s, l := v.State, v.Lang
	b.WriteString(`<aside class="side">`)
	for p := 0; p < 2; p++ {
		cls := "player"
		if s.Phase != engine.PhaseOver && s.ToMove == p {
			cls += " to-move"
		}
		if s.Winner != nil && *s.Winner == p {
			cls += " winner"
		}
		c := s.Captures[p]
		b.Open("section", "class", cls, "data-player", strconv.Itoa(p), "data-captures", fmt.Sprintf("%d %d %d", c.White, c.Grey, c.Black), "data-k", sideKeys[p][0])
		fmt.Fprintf(b, `<div class="pname"><span class="dot"></span>%s</div>`, Esc(PlayerName(l, s, p)))
		RenderClock(b, v, p, sideKeys[p][1])
		b.Open("div", "class", "caps", "data-k", sideKeys[p][2])
		have := [3]int{c.White, c.Grey, c.Black}
		need := [3]int{s.Win.White, s.Win.Grey, s.Win.Black}
		for i, ch := range []byte("wgb") {
			fmt.Fprintf(b, `<div class="cap" title="%s"><span class="count">%d<small>/%d</small></span>`, Esc(l.T("page.cap-title", i18n.Key("colour."+ColourName[ch]), have[i], need[i])), have[i], need[i])
			pips(b, ch, have[i], need[i])
			b.WriteString(`</div>`)
		}
		each := min(have[0], have[1], have[2])
		if s.Win.Each > 0 {
			fmt.Fprintf(b, `<div class="cap each" title="%s"><span class="count">%d<small>%s</small></span>`, Esc(l.T("page.each-title", each, s.Win.Each)), each, Esc(l.T("page.each", s.Win.Each)))
			pips(b, 'e', each, s.Win.Each)
			b.WriteString(`</div>`)
		}
		b.Close()
		b.Close()
	}
	b.Open("section", "class", "pool", "data-pool", fmt.Sprintf("%d %d %d", s.Pool.White, s.Pool.Grey, s.Pool.Black), "data-k", "pool")
	fmt.Fprintf(b, `<h3>%s</h3>`, Esc(l.T("page.pool")))
	for i, n := range []int{s.Pool.White, s.Pool.Grey, s.Pool.Black} {
		ch := "wgb"[i]
		fmt.Fprintf(b, `<span class="pm"><span class="mb %c"></span>%d</span>`, ch, n)
	}
	b.Close()
	// The list only grows during a game: patches append to it (the last
	// move is styled as li:last-child).
	b.Open("section", "class", "moves", "data-k", "moves")
	fmt.Fprintf(b, `<h3>%s `, Esc(l.T("page.moves")))
	b.Open("small", "data-k", "mcount")
	b.WriteString(Esc(l.N("page.played", s.Turn, s.Turn)))
	b.Close()
	b.WriteString(`</h3>`)
	b.Open("ol", "data-k", "mlist")
	if v.AllMoves != nil {
		for i, m := range v.AllMoves {
			cls := "played"
			switch {
			case i+1 == s.Turn:
				cls = "cur"
			case i+1 > s.Turn:
				cls = "future"
			}
			fmt.Fprintf(b, `<li data-n="%d" class="%s" tabindex="-1">%s</li>`, i+1, cls, Esc(m))
		}
	} else {
		for i, m := range s.Moves {
			fmt.Fprintf(b, `<li data-n="%d">%s</li>`, i+1, Esc(m))
		}
	}
	b.Close()
	b.Close()
	if s.Status != "" {
		b.Open("p", "class", "status", "data-k", "status")
		b.WriteString(Esc(statusLine(l, s)))
		b.Close()
	}
	b.WriteString(`</aside>`)
}

// sideKeys are the keys of each player's section, clock and captures.
var sideKeys = [2][3]string{{"p0", "p0-clock", "p0-caps"}, {"p1", "p1-clock", "p1-caps"}}

// pips draws have of need as filled dots; 'e' (each) uses all colours.
func pips(b *stream.Builder, ch byte, have, need int) {
	b.WriteString(`<span class="pips">`)
	for i := 0; i < max(need, have) && i < 12; i++ {
		cls := "pip"
		if i < have {
			cls += " on"
		}
		fmt.Fprintf(b, `<i class="%s %c"></i>`, cls, ch)
	}
	b.WriteString(`</span>`)
}

// BoardSVG draws the board of s: one ring element per layout cell (faded
// when removed), the marbles, the last move, and the cells a forced
// capture or a notice concerns. The SVG is well-formed XML.
func BoardSVG(s *wire.State, n *Notice) string {
	var b stream.Builder
	b.Root("div")
	boardSVG(&b, i18n.EN, s, n)
	b.Close()
	h := b.MustFinish().HTML()
	return h[len("<div>") : len(h)-len("</div>")]
}

// boardSVG writes BoardSVG with its words (titles, labels) in language l.
func boardSVG(b *stream.Builder, l i18n.Lang, s *wire.State, n *Notice) {
	if len(s.Layout) == 0 {
		b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 10 10"></svg>`)
		return
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	pos := make(map[string][2]float64, len(s.Layout))
	byXY := make(map[[2]int]int, len(s.Layout))
	for i, c := range s.Layout {
		x, y := Center(c)
		pos[c.Label] = [2]float64{x, y}
		byXY[[2]int{c.X, c.Y}] = i
		minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		minY, maxY = math.Min(minY, y), math.Max(maxY, y)
	}
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="%s %s %s %s" role="img" aria-label="%s">`,
		num(minX-margin), num(minY-margin), num(maxX-minX+2*margin), num(maxY-minY+2*margin), Esc(l.T("page.board")))
	b.WriteString(svgDefs)

	m := markCells(s, n, byXY)
	var top strings.Builder
	boardCells(b, l, s, pos, &m, &top)
	boardOverlay(b, s, pos, &m, top.String())
	boardLabels(b, s, pos)
	b.WriteString(`</svg>`)
}

// boardMarks are what a board highlights: the extra classes of each
// cell by label, the last capture's path and the cells it jumped, and
// what each cell to fix should hold.
type boardMarks struct {
	mark         map[string]string
	path, jumped []string
	fixes        map[string]string
}

// markCells finds what to highlight: the last turn, the forced jumps,
// and the cells the notice n names.
func markCells(s *wire.State, n *Notice, byXY map[[2]int]int) boardMarks {
	m := boardMarks{mark: map[string]string{}, fixes: map[string]string{}}
	add := func(label, cls string) {
		if label != "" {
			m.mark[label] += " " + cls
		}
	}
	if lm := s.LastMove; lm != nil {
		switch lm.Move.Kind {
		case "place":
			add(lm.Move.At, "last-at")
			add(lm.Move.Remove, "last-removed")
			for _, c := range lm.Move.Claimed {
				add(c, "last-claimed")
			}
		case "capture":
			m.path = lm.Move.Path
			for i := 0; i+1 < len(m.path); i++ {
				if mid, ok := midpoint(s, byXY, m.path[i], m.path[i+1]); ok {
					m.jumped = append(m.jumped, mid)
					add(mid, "last-jumped")
				}
			}
			if len(m.path) > 0 {
				add(m.path[len(m.path)-1], "last-at")
			}
		}
	}
	if s.Phase == engine.PhaseCapture && s.Forced != nil {
		for _, c := range s.Forced.From {
			add(c, "must-jump")
		}
	}
	if n != nil {
		switch n.Kind {
		case "pending":
			for _, c := range n.Body.Cells.Labels {
				add(c, "need")
			}
		case "illegal", "takeback-demand":
			for _, f := range n.Body.Cells.Fixes {
				add(f.Cell, "fix")
				m.fixes[f.Cell] = f.Should
			}
		case "touch-move":
			add(n.Body.From, "fix")
			add(n.Body.To, "fix")
		}
	}
	return m
}

// cellContent is the content of the i-th cell of the layout, "." past
// the cells the state holds.
func cellContent(s *wire.State, i int) string {
	if i < len(s.Cells) {
		return s.Cells[i : i+1]
	}
	return "."
}

// boardCells writes the cells group: each ring, its marble and the
// cross of a ring just removed; the rings to fix go to top, which is
// drawn above everything.
func boardCells(b *stream.Builder, l i18n.Lang, s *wire.State, pos map[string][2]float64, m *boardMarks, top *strings.Builder) {
	b.WriteString(`<g class="cells">`)
	// The cells are most of the view: written piece by piece, numbers
	// formatted into one scratch buffer (no allocation per attribute).
	var scratch [32]byte
	wnum := func(f float64) {
		b.Write(strconv.AppendFloat(scratch[:0], math.Round(f*100)/100, 'f', -1, 64))
	}
	for i, c := range s.Layout {
		content := cellContent(s, i)
		p := pos[c.Label]
		label := Esc(c.Label)
		extra := m.mark[c.Label]
		cls := "cell"
		if content == "." {
			cls = "cell gone"
		}
		if extra != "" {
			cls += extra
		}
		b.Open("g", "class", cls, "data-cell", c.Label, "data-content", content, "data-k", cellKey("c-", c.Label))
		b.WriteString(`<circle class="ring`)
		if content == "." {
			b.WriteString(` removed`)
		}
		b.WriteString(`" cx="`)
		wnum(p[0])
		b.WriteString(`" cy="`)
		wnum(p[1])
		b.WriteString(`" r="` + ringR + `"/>`)
		if strings.Contains(extra, "last-removed") {
			b.WriteString(`<path class="xmark" d="M`)
			wnum(p[0] - 6)
			b.WriteByte(' ')
			wnum(p[1] - 6)
			b.WriteString(`l12 12m0 -12l-12 12"/>`)
		}
		if name, ok := ColourName[content[0]]; ok {
			b.WriteString(`<circle class="marble `)
			b.WriteString(content)
			b.WriteString(`" cx="`)
			wnum(p[0])
			b.WriteString(`" cy="`)
			wnum(p[1])
			b.WriteString(`" r="` + marbleR + `" fill="url(#zb-`)
			b.WriteString(name)
			b.WriteString(`)"><title>`)
			b.WriteString(label)
			b.WriteByte(' ')
			b.WriteString(Esc(l.T("colour." + name)))
			b.WriteString(`</title></circle>`)
		}
		if sh, ok := m.fixes[c.Label]; ok { // drawn last, above everything
			x, y := num(p[0]), num(p[1])
			fmt.Fprintf(top, `<circle class="fixring" cx="%s" cy="%s" r="%s"/><text class="fixlabel" x="%s" y="%s">%s</text>`,
				x, y, num(RingRadius+8), x, num(p[1]-RingRadius-10), Esc(shortContent(l, sh)))
		}
		b.Close()
	}
	b.WriteString(`</g>`)
}

// boardOverlay writes what is drawn over the cells, one part for the
// patches: the forced jumps, the last capture's path and the marbles it
// took, the analysis's arrows and top.
func boardOverlay(b *stream.Builder, s *wire.State, pos map[string][2]float64, m *boardMarks, top string) {
	// What is drawn over the cells is one part for patches (stream/patch.go).
	b.Open("g", "class", "marks", "data-k", "marks")
	if s.Phase == engine.PhaseCapture && s.Forced != nil {
		for _, j := range s.Forced.Jumps {
			a, okA := pos[j.From]
			c, okC := pos[j.To]
			if okA && okC {
				fmt.Fprintf(b, `<line class="forced-jump" x1="%s" y1="%s" x2="%s" y2="%s" marker-end="url(#zb-arrow-red)"/>`,
					num(a[0]), num(a[1]), num(a[0]+(c[0]-a[0])*0.86), num(a[1]+(c[1]-a[1])*0.86))
			}
		}
	}
	if len(m.path) > 1 {
		var ps [][2]float64
		for _, c := range m.path {
			if p, ok := pos[c]; ok {
				ps = append(ps, p)
			}
		}
		// The arrow stops at the edge of the marble that landed.
		if k := len(ps) - 1; k > 0 {
			dx, dy := ps[k][0]-ps[k-1][0], ps[k][1]-ps[k-1][1]
			if d := math.Hypot(dx, dy); d > 0 {
				cut := (MarbleRadius + 4) / d
				ps[k] = [2]float64{ps[k][0] - dx*cut, ps[k][1] - dy*cut}
			}
		}
		var pts []string
		for _, p := range ps {
			pts = append(pts, num(p[0])+","+num(p[1]))
		}
		fmt.Fprintf(b, `<polyline class="capture-path" points="%s" marker-end="url(#zb-arrow)"/>`, strings.Join(pts, " "))
		for _, c := range m.jumped {
			p := pos[c]
			fmt.Fprintf(b, `<circle class="ghost" cx="%s" cy="%s" r="%s"/>`, num(p[0]), num(p[1]), num(MarbleRadius))
		}
	}
	b.WriteString(analysisArrows(s, pos))
	b.WriteString(top)
	b.Close()
}

// boardLabels writes the cells' labels.
func boardLabels(b *stream.Builder, s *wire.State, pos map[string][2]float64) {
	var scratch [32]byte
	wnum := func(f float64) {
		b.Write(strconv.AppendFloat(scratch[:0], math.Round(f*100)/100, 'f', -1, 64))
	}
	// The labels are drawn above everything else, so that no arrow of the
	// analysis or the last move ever hides one. A label is hidden under a
	// marble, and dimmed on a removed ring, by its group's class (lc, lg),
	// so that a move changes one short attribute of it (stream/patch.go)
	// rather than the cell's whole text.
	b.WriteString(`<g class="labels">`)
	for i, c := range s.Layout {
		p := pos[c.Label]
		cls := "l"
		switch cellContent(s, i) {
		case ".":
			cls = "lg"
		case "o":
		default:
			cls = "lc"
		}
		b.Open("g", "class", cls, "data-k", cellKey("l-", c.Label))
		b.WriteString(`<text class="label" x="`)
		wnum(p[0])
		b.WriteString(`" y="`)
		wnum(p[1] + 0.5)
		b.WriteString(`">`)
		b.WriteString(Esc(c.Label))
		b.WriteString(`</text>`)
		b.Close()
	}
	b.WriteString(`</g>`)
}

// cellKey is a cell's key, prefix and label: those of the standard
// boards' labels are made once.
func cellKey(prefix, label string) string {
	if k, ok := cellKeys[prefix][label]; ok {
		return k
	}
	return prefix + label
}

// cellKeys are the keys of every label of a standard board (a letter and
// a number), by prefix.
var cellKeys = func() map[string]map[string]string {
	keys := map[string]map[string]string{}
	for _, prefix := range []string{"c-", "l-"} {
		keys[prefix] = map[string]string{}
		for col := 'A'; col <= 'J'; col++ {
			for row := 1; row <= 10; row++ {
				label := string(col) + strconv.Itoa(row)
				keys[prefix][label] = prefix + label
			}
		}
	}
	return keys
}()

// MiniSVG draws a small board for the tournament view: the rings left,
// the marbles and the last move's cell, with flat colours (no gradients,
// whose IDs would repeat across cards).
func MiniSVG(s *wire.State) string {
	if len(s.Layout) == 0 {
		return ""
	}
	var b strings.Builder
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range s.Layout {
		x, y := Center(c)
		minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		minY, maxY = math.Min(minY, y), math.Max(maxY, y)
	}
	const m = Spacing / 2
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="mini" viewBox="%s %s %s %s" aria-hidden="true">`,
		num(minX-m), num(minY-m), num(maxX-minX+2*m), num(maxY-minY+2*m))
	last := ""
	if lm := s.LastMove; lm != nil {
		last = lm.Move.At
		if lm.Move.Kind == "capture" && len(lm.Move.Path) > 0 {
			last = lm.Move.Path[len(lm.Move.Path)-1]
		}
	}
	var scratch [32]byte
	wnum := func(f float64) { b.Write(strconv.AppendFloat(scratch[:0], math.Round(f*100)/100, 'f', -1, 64)) }
	for i, c := range s.Layout {
		if i >= len(s.Cells) || s.Cells[i] == '.' {
			continue
		}
		x, y := Center(c)
		b.WriteString(`<circle class="ring`)
		if c.Label == last {
			b.WriteString(` last`)
		}
		b.WriteString(`" cx="`)
		wnum(x)
		b.WriteString(`" cy="`)
		wnum(y)
		b.WriteString(`" r="` + ringR + `"/>`)
		if _, ok := ColourName[s.Cells[i]]; ok {
			b.WriteString(`<circle class="m `)
			b.WriteByte(s.Cells[i])
			b.WriteString(`" cx="`)
			wnum(x)
			b.WriteString(`" cy="`)
			wnum(y)
			b.WriteString(`" r="` + miniMarbleR + `"/>`)
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

func shortContent(l i18n.Lang, c string) string {
	switch c {
	case ".":
		return l.T("page.label.remove")
	case "o":
		return l.T("page.label.ring")
	case "w", "g", "b":
		return l.T("colour." + ColourName[c[0]])
	}
	return c
}

// midpoint finds the cell between two cells two steps apart in a line.
func midpoint(s *wire.State, byXY map[[2]int]int, a, b string) (string, bool) {
	var ca, cb *wire.Cell
	for i := range s.Layout {
		switch s.Layout[i].Label {
		case a:
			ca = &s.Layout[i]
		case b:
			cb = &s.Layout[i]
		}
	}
	if ca == nil || cb == nil || (ca.X+cb.X)%2 != 0 || (ca.Y+cb.Y)%2 != 0 {
		return "", false
	}
	i, ok := byXY[[2]int{(ca.X + cb.X) / 2, (ca.Y + cb.Y) / 2}]
	if !ok {
		return "", false
	}
	return s.Layout[i].Label, true
}

const svgDefs = `<defs>` +
	`<radialGradient id="zb-white" cx="0.35" cy="0.3" r="0.75"><stop offset="0" stop-color="#ffffff"/><stop offset="0.55" stop-color="#f1efe8"/><stop offset="1" stop-color="#b9b4a6"/></radialGradient>` +
	`<radialGradient id="zb-grey" cx="0.35" cy="0.3" r="0.75"><stop offset="0" stop-color="#d6dbe0"/><stop offset="0.5" stop-color="#8a939c"/><stop offset="1" stop-color="#4c535a"/></radialGradient>` +
	`<radialGradient id="zb-black" cx="0.35" cy="0.3" r="0.75"><stop offset="0" stop-color="#6b6f76"/><stop offset="0.35" stop-color="#24262a"/><stop offset="1" stop-color="#050506"/></radialGradient>` +
	`<marker id="zb-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="arrowhead"/></marker>` +
	`<marker id="zb-arrow-red" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="arrowhead-red"/></marker>` +
	`<marker id="zb-arrow-attacker" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="arrowhead-attacker"/></marker>` +
	`<marker id="zb-arrow-defender" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="arrowhead-defender"/></marker>` +
	`</defs>`

func num(f float64) string { return strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64) }

// Esc escapes s for HTML text and double-quoted attribute values.
func Esc(s string) string { return html.EscapeString(s) }

// ClipText bounds a string from the broker, on a rune boundary.
func ClipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := n; i > 0; i-- {
		if s[i]&0xC0 != 0x80 {
			return s[:i] + "…"
		}
	}
	return ""
}

// StatusUnreachable is a board's status while its hall's bridge is down.
const StatusUnreachable = "unreachable"

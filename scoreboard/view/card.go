package view

import (
	"fmt"
	"net/url"
	"strconv"
	"unicode/utf8"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/scoreboard/stream"
)

// TournamentTree is the tournament view in language l: a card for each of
// boards, in their order.
func TournamentTree(l i18n.Lang, boards []Board) *stream.Node {
	var b stream.Builder
	b.Grow(1024 + 2048*len(boards))
	b.Root("div", "class", "tournament", "data-boards", strconv.Itoa(len(boards)))
	fmt.Fprintf(&b, `<h1>%s</h1>`, Esc(l.T("page.boards")))
	if len(boards) == 0 {
		fmt.Fprintf(&b, `<p class="wait">%s</p>`, Esc(l.T("page.no-boards")))
	}
	b.WriteString(`<div class="cards">`)
	for _, v := range boards {
		v.Lang = l
		RenderCard(&b, v)
	}
	b.WriteString(`</div>`)
	b.Close()
	return b.MustFinish()
}

// RenderCard is the tournament view's card of one board, keyed by its id.
func RenderCard(b *stream.Builder, v Board) {
	status := v.Status
	if status == "" {
		status = "unknown"
	}
	l := v.Lang
	b.Open("a", "class", "card "+status, "href", "/board/"+url.PathEscape(v.ID)+LangQuery(l), "data-board", v.ID, "data-k", "card:"+v.ID)
	fmt.Fprintf(b, `<div class="chead"><span class="bid">%s</span>`, Esc(v.ID))
	if s := v.State; s != nil {
		if ev := NamingText(l, s.Event, s.Round); ev != "" {
			fmt.Fprintf(b, `<span class="ev" title="%s">%s</span>`, Esc(ev), Esc(ev))
		}
	}
	fmt.Fprintf(b, `<span class="conn %s">%s</span></div>`, Esc(status), Esc(l.T("page.conn."+status)))
	s := v.State
	if s == nil {
		fmt.Fprintf(b, `<p class="wait">%s</p>`, Esc(l.T("page.no-game")))
		b.Close()
		return
	}
	b.WriteString(`<div class="cbody">`)
	b.WriteString(MiniSVG(s))
	b.WriteString(`<div class="cplayers">`)
	for p := 0; p < 2; p++ {
		cls := "row"
		if s.Phase != engine.PhaseOver && s.ToMove == p {
			cls += " to-move"
		}
		if s.Winner != nil && *s.Winner == p {
			cls += " winner"
		}
		c := s.Captures[p]
		name := PlayerName(l, s, p)
		fmt.Fprintf(b, `<div class="%s"><span class="pname%s"><span class="dot"></span>%s</span>`, cls, longName(name), Esc(name))
		RenderClock(b, v, p, "clock:"+v.ID+":"+strconv.Itoa(p))
		fmt.Fprintf(b, `<span class="score">`+
			`<span class="pm"><span class="mb w"></span>%d</span><span class="pm"><span class="mb g"></span>%d</span><span class="pm"><span class="mb b"></span>%d</span></span></div>`,
			c.White, c.Grey, c.Black)
	}
	b.WriteString(`</div></div>`)
	var line string
	switch s.Phase {
	case engine.PhaseOver:
		line = EndText(l, s)
	case engine.PhaseCapture:
		line = l.T("page.turn", s.Turn+1) + " · " + l.T("page.must-capture", PlayerName(l, s, s.ToMove))
	default:
		line = l.T("page.turn", s.Turn+1) + " · " + l.T("page.to-place", PlayerName(l, s, s.ToMove))
	}
	fmt.Fprintf(b, `<p class="line">%s · %s</p>`, Esc(line), Esc(RingsText(l, s.Variant)))
	b.Close()
}

// longName is the class and title a long name gets in the tournament
// view's cards, where it wraps in a smaller size rather than being cut
// (a short name needs neither, and each byte is sent to every viewer).
func longName(name string) string {
	if utf8.RuneCountInString(name) > 16 {
		return ` long" title="` + Esc(name)
	}
	return ""
}

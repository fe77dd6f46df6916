package referee

import (
	"fmt"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
)

// question is an open question to the players: the colour of a marble the
// board never showed settled (set down and claimed, or captured, while the
// scan was not looking). The referee goes on with the first possibility
// and rewrites the game if the answer differs.
type question struct {
	cell    engine.Cell
	base    int                            // the game's length before the inferred turns
	turn    int                            // the turn (1-based) that placed the marble
	options []engine.Color                 // possible colours, the provisional one first
	lines   map[engine.Color][]engine.Turn // the inferred turns for each colour
	chosen  engine.Color
}

// Question: the referee cannot tell the colour of the marble a turn put on
// Cell, because the board never showed it settled; it goes on with the
// first of Options and asks the players. Answer with Referee.Answer.
type Question struct {
	Turn    int      `json:"turn"`
	Cell    string   `json:"cell"`
	Options []string `json:"options"`
	Text    string   `json:"question"`
}

// Kind names the body as the contract does.
func (Question) Kind() string { return "question" }

// Asking returns the cell and colours of the open question, if there is
// one: the buttons offer the colours, Answer takes the choice.
func (r *Referee) Asking() (cell string, options []engine.Color, ok bool) {
	if r.question == nil {
		return "", nil, false
	}
	return r.b.Label(r.question.cell), append([]engine.Color(nil), r.question.options...), true
}

// colourOnly reports whether lines of play (each from the same base)
// differ only in the colour of one placement: the same turns but for the
// marble's colour at one cell. It returns that cell, the index of the turn
// and the colours in the lines' order.
func colourOnly(lines [][]engine.Turn) (engine.Cell, int, []engine.Color, bool) {
	if len(lines) < 2 {
		return engine.NoCell, 0, nil, false
	}
	at, idx := engine.NoCell, -1
	for _, l := range lines[1:] {
		if len(l) != len(lines[0]) {
			return engine.NoCell, 0, nil, false
		}
		for i := range l {
			a, b := l[i], lines[0][i]
			if a == b {
				continue
			}
			a.Color, b.Color = 0, 0
			if a != b || a.Kind != engine.Place || (idx >= 0 && (idx != i || at != a.At)) {
				return engine.NoCell, 0, nil, false
			}
			at, idx = a.At, i
		}
	}
	if idx < 0 {
		return engine.NoCell, 0, nil, false
	}
	var cols []engine.Color
	for _, l := range lines {
		c := l[idx].Color
		dup := false
		for _, x := range cols {
			dup = dup || x == c
		}
		if !dup {
			cols = append(cols, c)
		}
	}
	return at, idx, cols, len(cols) > 1
}

// ask commits the first of lines (from the game's current length, after
// back turns are taken back) and asks which colour the marble was.
func (r *Referee) ask(t int64, obs string, back int, lines [][]engine.Turn) ([]Event, bool) {
	cell, idx, cols, ok := colourOnly(lines)
	if !ok {
		return nil, false
	}
	var ev []Event
	if back > 0 {
		ev = append(ev, r.takeback(t, back)...)
	}
	r.redo, r.hyps = nil, nil
	base := r.game.Len()
	q := &question{cell: cell, base: base, options: cols, lines: map[engine.Color][]engine.Turn{}, chosen: cols[0]}
	for _, l := range lines {
		if _, dup := q.lines[l[idx].Color]; !dup {
			q.lines[l[idx].Color] = l
		}
	}
	for _, turn := range q.lines[cols[0]] {
		ev = append(ev, r.commit(t, obs, turn, false)...)
	}
	q.turn = base + 1 + idx
	turns := make([]int, 0, r.game.Len()-base)
	for k := base + 1; k <= r.game.Len(); k++ {
		turns = append(turns, k)
	}
	r.question = q
	r.guide = r.idleGuidance()
	ev = append(ev, Event{t, Inferred{Turns: turns, Reason: fmt.Sprintf("the colour of the marble on %s was never seen; %s assumed until the players answer", r.b.Label(cell), cols[0])}})
	return append(ev, Event{t, r.questionBody()}), true
}

func (r *Referee) questionBody() Question {
	q := r.question
	opts := make([]string, len(q.options))
	for i, c := range q.options {
		opts[i] = c.Letter()
	}
	return Question{Turn: q.turn, Cell: r.b.Label(q.cell), Options: opts, Text: r.questionText()}
}

func (r *Referee) questionText() string {
	q := r.question
	names := make([]string, len(q.options))
	for i, c := range q.options {
		names[i] = c.String()
	}
	return fmt.Sprintf("which colour was on %s (%s)?", r.b.Label(q.cell), strings.Join(names, ", "))
}

// Answer takes the players' answer to the open question. When it differs
// from the colour assumed, the game is rewritten from the inferred turns
// on: they are taken back and played with the answer, then the turns
// committed since are played again.
func (r *Referee) Answer(t int64, colour engine.Color) []Event {
	q := r.question
	if q == nil {
		return []Event{{t, Fault{Reason: "there is no question to answer"}}}
	}
	line, ok := q.lines[colour]
	if !ok {
		return []Event{{t, Fault{Reason: fmt.Sprintf("%s cannot have been on %s", colour, r.b.Label(q.cell))}}}
	}
	r.question = nil
	if colour == q.chosen {
		r.guide = r.idleGuidance()
		return []Event{{t, Inferred{Turns: []int{q.turn}, Reason: fmt.Sprintf("the players confirmed %s on %s", colour, r.b.Label(q.cell))}}}
	}
	if r.game.Len() < q.base+len(line) {
		r.guide = r.idleGuidance()
		return []Event{{t, Fault{Reason: fmt.Sprintf("the turns asked about were taken back; the answer %s is not used", colour)}}}
	}
	var later []engine.Turn
	for i := q.base + len(line); i < r.game.Len(); i++ {
		turn, _ := r.game.Turn(i)
		if turn.Kind != engine.Pass {
			later = append(later, turn)
		}
	}
	obs := r.settled
	if len(obs) != r.b.Len() {
		obs = r.Expected()
	}
	ev := r.takeback(t, r.game.Len()-q.base)
	r.redo = nil
	first := r.game.Len() + 1
	for _, turn := range append(append([]engine.Turn(nil), line...), later...) {
		if _, err := r.game.Position().Play(turn); err != nil {
			ev = append(ev, Event{t, Fault{Reason: fmt.Sprintf("with %s on %s, turn %s is no longer legal: %v", colour, r.b.Label(q.cell), engine.FormatTurn(r.b, turn), err)}})
			break
		}
		ev = append(ev, r.commit(t, obs, turn, false)...)
	}
	turns := make([]int, 0, r.game.Len()-first+1)
	for k := first; k <= r.game.Len(); k++ {
		turns = append(turns, k)
	}
	return append(ev, Event{t, Inferred{Turns: turns, Reason: fmt.Sprintf("the players answered %s on %s; the game is replayed with it", colour, r.b.Label(q.cell))}})
}

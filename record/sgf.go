package record

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/zertzboard/zertzboard/engine"
)

// sgfVariants maps Boardspace's SU[] to the contract's variant names.
var sgfVariants = map[string]string{
	"zertz":    "37",
	"zertz+11": "48",
	"zertz+24": "61",
}

// ReadSGF reads one Boardspace ZÈRTZ game (GM[22]) and assembles its UI
// actions into whole turns.
//
// Boardspace records what the player did with the mouse, not turns: a
// marble taken from a rack (RtoB), a ring removed (R-), each jump of a
// capture (BtoB), and the take-backs (R+, BtoR, a jump straight back, a
// placed marble moved elsewhere). ReadSGF replays those actions within each
// turn and keeps what the turn finally was. A turn ends at Done, or, in
// records without Done, when the other player acts. ReadSGF checks the
// record's form and the order of players, not the rules: Replay does that.
func ReadSGF(r io.Reader) (*Record, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("record: reading SGF: %w", err)
	}
	nodes, err := parseSGF(string(data))
	if err != nil {
		return nil, err
	}
	rec := &Record{First: -1}
	if err := readRoot(rec, nodes[0]); err != nil {
		return nil, err
	}
	b, _, err := rec.Board()
	if err != nil {
		return nil, err
	}
	a := &assembler{rec: rec, b: b, pending: pendingTurn{player: -1, remove: engine.NoCell}}
	for _, n := range nodes[1:] {
		if err := a.node(n); err != nil {
			return nil, err
		}
	}
	if err := a.flush(); err != nil {
		return nil, err
	}
	if rec.First < 0 {
		rec.First = 0
	}
	return rec, nil
}

// readRoot takes the game's metadata from the root node.
func readRoot(rec *Record, n sgfNode) error {
	fail := func(p sgfProp, v, msg string) error {
		return &SyntaxError{Format: "SGF", Line: p.Line, Node: n.Index, Input: p.ID + "[" + v + "]", Msg: msg}
	}
	haveSU := false
	for _, p := range n.Props {
		v := p.Values[0]
		switch p.ID {
		case "GM":
			if strings.TrimSpace(v) != "22" {
				return fail(p, v, "not a ZÈRTZ record (ZÈRTZ is GM[22])")
			}
		case "SU":
			name, ok := sgfVariants[strings.ToLower(strings.TrimSpace(v))]
			if !ok {
				return fail(p, v, "unsupported variant: want Zertz (37 rings), Zertz+11 (48) or Zertz+24 (61)")
			}
			rec.Variant, haveSU = name, true
		case "DT":
			rec.Date = sgfText(v)
		case "GN":
			rec.Name = sgfText(v)
		case "RE":
			rec.ResultText = sgfText(v)
		case "EV":
			rec.Event = sgfText(v)
		case "RO":
			rec.Round = sgfText(v)
		case "C":
			if err := readComment(rec, p, n.Index); err != nil {
				return err
			}
		case "P0", "P1":
			for _, v := range p.Values {
				if name, ok := playerID(v); ok {
					rec.Players[p.ID[1]-'0'] = sgfText(name)
				}
			}
		}
	}
	if !haveSU {
		return &SyntaxError{Format: "SGF", Line: n.Line, Node: n.Index, Msg: "the root node has no SU[] to name the variant"}
	}
	return nil
}

// sgfText makes a text value valid UTF-8. Boardspace records carry no
// charset (CA[]) and some hold stray non-UTF-8 bytes; each such byte is read
// as Latin-1 so that the text survives every format, JSON included.
func sgfText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			r = rune(s[i])
		}
		sb.WriteRune(r)
		i += n
	}
	return sb.String()
}

// playerID reads a root P0/P1 value of the form: id "name".
func playerID(v string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(v), "id")
	if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '"') {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	if len(rest) >= 2 && rest[0] == '"' && rest[len(rest)-1] == '"' {
		rest = rest[1 : len(rest)-1]
	}
	return rest, true
}

// action is one UI action: a P0/P1 value in a move node.
type action struct {
	player int
	cmd    string   // lower case, e.g. "rtob"
	name   string   // as written, e.g. "RtoB"
	args   []string // the fields after the command
	text   string   // the whole value, for errors
	line   int
	node   int
}

// assembler turns actions into whole turns. pending is the turn being
// built; it is flushed at Done or when the other player acts.
type assembler struct {
	rec     *Record
	b       *engine.Board
	pending pendingTurn
	ended   bool   // Resign or WinOnTime seen
	endCmd  string // which
}

// pendingTurn is a turn in the making.
type pendingTurn struct {
	player  int // -1 when nothing is pending
	started action
	placed  bool
	color   engine.Color
	from    engine.Source
	at      engine.Cell
	remove  engine.Cell
	path    []engine.Cell
}

func (a *assembler) fail(ac action, format string, args ...any) error {
	return &SyntaxError{Format: "SGF", Line: ac.line, Node: ac.node, Input: ac.text, Msg: fmt.Sprintf(format, args...)}
}

func (a *assembler) node(n sgfNode) error {
	if err := a.actions(n); err != nil {
		return err
	}
	// A comment is read once the node's actions are: on a Done node its
	// notes come after the turn it ends.
	for _, p := range n.Props {
		if p.ID == "C" {
			if err := readComment(a.rec, p, n.Index); err != nil {
				return err
			}
		}
	}
	return nil
}

// readComment reads the arbiter's notes in a comment, C[], at the turns
// played so far (see sgfCommentNotes).
func readComment(rec *Record, p sgfProp, node int) error {
	for _, v := range p.Values {
		for _, text := range sgfCommentNotes(sgfText(v)) {
			fail := func(msg string, err error) error {
				return &SyntaxError{Format: "SGF", Line: p.Line, Node: node, Input: "C[" + snippet(v) + "]", Msg: msg, Err: err}
			}
			if len(rec.Notes) == MaxNotes {
				return fail(fmt.Sprintf("more than %d arbiter's notes; a record carries at most %d", MaxNotes, MaxNotes), nil)
			}
			if err := CheckNote(text); err != nil {
				return fail("an arbiter's note", err)
			}
			rec.Notes = append(rec.Notes, Note{Turn: len(rec.Turns), Text: text})
		}
	}
	return nil
}

// actions applies the UI actions of a move node.
func (a *assembler) actions(n sgfNode) error {
	for _, p := range n.Props {
		if p.ID != "P0" && p.ID != "P1" {
			continue // P-1 is viewer noise; TM and others are timing
		}
		for _, v := range p.Values {
			f := strings.Fields(v)
			if len(f) > 0 && isDigits(f[0]) {
				f = f[1:] // VV[2] sequence number
			}
			if len(f) == 0 || strings.EqualFold(f[0], "time") {
				continue // the final clock node
			}
			ac := action{player: int(p.ID[1] - '0'), cmd: strings.ToLower(f[0]), name: f[0], args: f[1:], text: strings.TrimSpace(v), line: p.Line, node: n.Index}
			if err := a.act(ac); err != nil {
				return err
			}
		}
	}
	return nil
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// act applies one action.
func (a *assembler) act(ac action) error {
	if a.ended {
		if ac.cmd == "done" || ac.cmd == a.endCmd {
			return nil // a bare Done, or the same ending recorded twice
		}
		return a.fail(ac, "action after the game was resigned or won on time")
	}
	if ac.cmd == "start" {
		return a.start(ac)
	}
	if a.pending.player >= 0 && a.pending.player != ac.player && ac.cmd != "resign" && ac.cmd != "winontime" {
		// No Done: the other player acting ends the turn (a resignation
		// or time win ends it below, as possibly incomplete).
		if err := a.flush(); err != nil {
			return err
		}
	}
	switch ac.cmd {
	case "done":
		return a.flush()
	case "resign", "winontime":
		// A turn left half done when the game stopped (a ring removed
		// and no marble yet) is no turn: drop it, and say so. A
		// placement still missing its removal is kept for Replay, which
		// drops it if it is illegal (Record.StopCut).
		if t := a.pending; t.player >= 0 && !t.placed && len(t.path) < 2 && t.remove != engine.NoCell {
			a.rec.Warnings = append(a.rec.Warnings, fmt.Sprintf("line %d: the turn under way when the game stopped (a ring removed, no marble placed) is dropped", t.started.line))
			a.pending = pendingTurn{player: -1, remove: engine.NoCell}
		}
		n := len(a.rec.Turns)
		if err := a.flush(); err != nil {
			return err
		}
		a.rec.StopCut = len(a.rec.Turns) > n
		a.endCmd = ac.cmd
		kind := Resign
		if ac.cmd == "winontime" {
			kind = WinOnTime
		}
		a.rec.Stop, a.ended = Stop{Kind: kind, Player: ac.player}, true
		return nil
	case "rtor":
		return a.wantArgs(ac, 3) // a marble put back on its rack: no effect
	}
	a.touch(ac)
	switch ac.cmd {
	case "rtob":
		return a.place(ac)
	case "r-":
		return a.removeRing(ac)
	case "r+":
		return a.restoreRing(ac)
	case "btor":
		return a.unplace(ac)
	case "btob":
		return a.move(ac)
	case "edit", "reset", "setboard", "swap":
		return a.fail(ac, "%s rewrites the board outside the rules; such records are not supported", ac.name)
	}
	return a.fail(ac, "unknown command %q", ac.name)
}

// touch makes ac's player the owner of the pending turn.
func (a *assembler) touch(ac action) {
	if a.pending.player < 0 {
		a.pending.player, a.pending.started = ac.player, ac
	}
}

func (a *assembler) start(ac action) error {
	if err := a.wantArgs(ac, 1); err != nil {
		return err
	}
	switch strings.ToUpper(ac.args[0]) {
	case "P0":
		a.rec.First = 0
	case "P1":
		a.rec.First = 1
	default:
		return a.fail(ac, "Start names P0 or P1")
	}
	if len(a.rec.Turns) > 0 || a.pending.player >= 0 {
		return a.fail(ac, "Start after the game began")
	}
	return nil
}

func (a *assembler) wantArgs(ac action, n int) error {
	if len(ac.args) != n {
		return a.fail(ac, "%s takes %d arguments, not %d", ac.name, n, len(ac.args))
	}
	return nil
}

// cell reads a Boardspace cell: a column letter and a row number, as two
// fields ("D 4").
func (a *assembler) cell(ac action, col, row string) (engine.Cell, error) {
	c, err := a.b.ParseCell(col + row)
	if err != nil || len(col) != 1 || !isDigits(row) {
		return engine.NoCell, a.fail(ac, "%s %s is not a cell of the %s-ring board", col, row, a.b.Name())
	}
	return c, nil
}

// place: RtoB rack colour col row.
func (a *assembler) place(ac action) error {
	if err := a.wantArgs(ac, 4); err != nil {
		return err
	}
	t := &a.pending
	switch {
	case t.placed:
		return a.fail(ac, "a second marble in one turn")
	case len(t.path) > 0:
		return a.fail(ac, "a placement in a capture turn")
	}
	from := engine.FromPool
	switch ac.args[0] {
	case "2":
	case "0", "1":
		if int(ac.args[0][0]-'0') != ac.player {
			return a.fail(ac, "player %d takes a marble from player %s's captures", ac.player, ac.args[0])
		}
		from = engine.FromCaptures
	default:
		return a.fail(ac, "rack %s: want 2 (the pool) or 0/1 (a player's captures)", ac.args[0])
	}
	colours := map[string]engine.Color{"0": engine.White, "1": engine.Grey, "2": engine.Black}
	col, ok := colours[ac.args[1]]
	if !ok {
		return a.fail(ac, "colour %s: want 0 (white), 1 (grey) or 2 (black)", ac.args[1])
	}
	at, err := a.cell(ac, ac.args[2], ac.args[3])
	if err != nil {
		return err
	}
	t.placed, t.color, t.from, t.at = true, col, from, at
	return nil
}

// removeRing: R- col row.
func (a *assembler) removeRing(ac action) error {
	if err := a.wantArgs(ac, 2); err != nil {
		return err
	}
	c, err := a.cell(ac, ac.args[0], ac.args[1])
	if err != nil {
		return err
	}
	switch {
	case a.pending.remove != engine.NoCell:
		return a.fail(ac, "a second ring removed in one turn")
	case len(a.pending.path) > 0:
		return a.fail(ac, "a ring removed in a capture turn")
	}
	a.pending.remove = c
	return nil
}

// restoreRing: R+ col row puts back the ring removed this turn.
func (a *assembler) restoreRing(ac action) error {
	if err := a.wantArgs(ac, 2); err != nil {
		return err
	}
	c, err := a.cell(ac, ac.args[0], ac.args[1])
	if err != nil {
		return err
	}
	if a.pending.remove != c {
		return a.fail(ac, "puts back a ring that was not removed this turn")
	}
	a.pending.remove = engine.NoCell
	a.rec.Undos++
	return nil
}

// unplace: BtoR col row rack takes back the marble placed this turn.
func (a *assembler) unplace(ac action) error {
	if err := a.wantArgs(ac, 3); err != nil {
		return err
	}
	c, err := a.cell(ac, ac.args[0], ac.args[1])
	if err != nil {
		return err
	}
	if !a.pending.placed || a.pending.at != c {
		return a.fail(ac, "takes back a marble that was not placed this turn")
	}
	a.pending.placed = false
	a.rec.Undos++
	return nil
}

// move: BtoB c1 r1 c2 r2 is a jump, or one of three UI gestures: the same
// cell (nothing), the marble placed this turn moved elsewhere (it was not
// yet confirmed), or a jump straight back (taking that jump back).
func (a *assembler) move(ac action) error {
	if err := a.wantArgs(ac, 4); err != nil {
		return err
	}
	from, err := a.cell(ac, ac.args[0], ac.args[1])
	if err != nil {
		return err
	}
	to, err := a.cell(ac, ac.args[2], ac.args[3])
	if err != nil {
		return err
	}
	t := &a.pending
	n := len(t.path)
	switch {
	case from == to:
		a.rec.Undos++
	case t.placed && from == t.at && n == 0:
		t.at = to
		a.rec.Undos++
	case n >= 2 && from == t.path[n-1] && to == t.path[n-2]:
		t.path = t.path[:n-1]
		if len(t.path) == 1 {
			t.path = t.path[:0]
		}
		a.rec.Undos++
	case t.placed || t.remove != engine.NoCell:
		return a.fail(ac, "a jump in a placement turn")
	case n == 0:
		t.path = append(t.path, from, to)
	case from != t.path[n-1]:
		return a.fail(ac, "the jump does not go on from %s, where the chain stands", a.b.Label(t.path[n-1]))
	case n >= engine.MaxPath:
		return a.fail(ac, "capture chain longer than %d jumps", engine.MaxPath-1)
	default:
		t.path = append(t.path, to)
	}
	return nil
}

// flush ends the pending turn, if any, and appends it to the record.
func (a *assembler) flush() error {
	t := a.pending
	a.pending = pendingTurn{player: -1, remove: engine.NoCell}
	var turn engine.Turn
	switch {
	case len(t.path) >= 2:
		turn = engine.CaptureTurn(t.path...)
	case t.placed:
		turn = engine.PlaceTurn(t.color, t.from, t.at, t.remove)
	case t.remove != engine.NoCell:
		return a.fail(t.started, "a ring removed with no marble placed")
	default:
		return nil // nothing left after take-backs, or a bare Done
	}
	if a.rec.First < 0 {
		a.rec.First = t.player
	}
	if want := a.rec.First ^ (len(a.rec.Turns) & 1); t.player != want {
		return a.fail(t.started, "turn %d is player %d's, but player %d moves", len(a.rec.Turns)+1, want, t.player)
	}
	a.rec.Turns = append(a.rec.Turns, turn)
	return nil
}

package referee

import (
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// from returns the starting board with some cells changed.
func (b *bench) from(start string, edits string) string {
	b.t.Helper()
	cells := []byte(start)
	for _, e := range strings.Fields(edits) {
		label, val, _ := strings.Cut(e, "=")
		c, err := b.r.b.ParseCell(label)
		if err != nil {
			b.t.Fatal(err)
		}
		cells[c] = val[0]
	}
	return string(cells)
}

// A sensor stuck at "vacant ring": the white marble put on D4 never shows,
// so the next player's black marble looks like the end of the first turn.
// Once the black marble jumps over D4, no line of play explains the boards
// as read; with D4 unknown, one does. The referee reports D4 as stuck,
// asks about the turns it misread, and goes on without D4.
func TestStuckSensorFound(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	b.expect(b.hold(b.from(start, "A1=.")), "pending")                // WD4-A1: the marble does not show
	b.expect(b.hold(b.from(start, "A1=. D3=b")), "move")              // read as BD3-A1
	b.expect(b.hold(b.from(start, "A1=. D3=b G4=.")), "pending")      // BD3-G4 read as a ring lifted
	b.expect(b.hold(b.from(start, "A1=. D3=o D5=b G4=.")), "illegal") // D3xD5 over the hidden marble
	ev := b.hold(b.from(start, "A1=. D3=o D5=b G4=."))
	ev = append(ev, b.hold(b.from(start, "A1=. D3=o D5=b G4=. B1=."))...)
	var fault *Fault
	var q *Question
	for _, e := range ev {
		switch x := e.Body.(type) {
		case Fault:
			fault = &x
		case Question:
			q = &x
		}
	}
	if fault == nil || fault.ReasonMsg == nil || fault.ReasonMsg.Key != "fault.stuck-cell" || !strings.Contains(fault.Reason, "D4") {
		t.Fatalf("no stuck-sensor fault naming D4: %v", ev)
	}
	if q == nil || q.Turn != 1 {
		t.Fatalf("no question about the turns from turn 1: %v", ev)
	}
	want := -1
	for i, o := range q.Options {
		if strings.HasPrefix(o, "WD4-A1 BD3-G4 D3xD5") || q.About == "colour" && o == "w" {
			want = i
		}
	}
	if want < 0 {
		t.Fatalf("no option is what was played: %+v", q)
	}
	b.r.Answer(b.now, q.ID, want)
	got := b.gameTurns()
	if len(got) < 3 || strings.Join(got[:3], " ") != "WD4-A1 BD3-G4 D3xD5" {
		t.Fatalf("after the answer the game is %v", got)
	}
	// D4 is unknown from now on: its reading is not trusted.
	if !strings.Contains(strings.Join(b.r.DeadCells(), " "), "D4") && b.r.stuck&bit(mustCell(t, b, "D4")) == 0 {
		t.Fatalf("D4 is trusted again")
	}
}

// A stuck socket whose reading changes reads again: it is trusted again,
// and the players are told.
func TestStuckSensorReadsAgain(t *testing.T) {
	b := newBench(t, start37, Casual)
	d4 := mustCell(t, b, "D4")
	b.r.stuck |= bit(d4)
	b.r.stuckRead[d4] = 'o'
	ev := b.show("D4=w A1=.")
	if len(ev) == 0 || ev[0].Body.Kind() != "fault" || ev[0].Body.(Fault).ReasonMsg.Key != "fault.stuck-reads" {
		t.Fatalf("events %v; want the sensor reported reading again first", ev)
	}
	if b.r.stuck != 0 || b.r.Game().Len() != 1 {
		t.Fatalf("stuck %b, %d turns; want D4 trusted and WD4-A1 committed", b.r.stuck, b.r.Game().Len())
	}
}

func mustCell(t *testing.T, b *bench, label string) engine.Cell {
	c, err := b.r.b.ParseCell(label)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A socket whose sensor is stuck is lit as a sensor fault where nothing
// else is to be shown, and listed with the dead ones.
func TestStuckSocketIsShown(t *testing.T) {
	b := newBench(t, start37, Casual)
	d4 := mustCell(t, b, "D4")
	if g := b.r.Guidance(); g.Hints[d4].Role != RoleNone {
		t.Fatalf("D4 lit %v before any fault", g.Hints[d4].Role)
	}
	b.r.stuck |= bit(d4)
	b.r.stuckRead[d4] = 'o'
	if g := b.r.Guidance(); g.Hints[d4].Role != RoleSensorFault {
		t.Fatalf("stuck D4 lit %v; want %v", g.Hints[d4].Role, RoleSensorFault)
	}
	if got := b.r.DeadCells(); len(got) != 1 || got[0] != "D4" {
		t.Fatalf("dead cells %v; want [D4]", got)
	}
	// Other guidance on the cell says more.
	h := make(hints, b.r.b.Len())
	h.set(d4, RoleSensorFault)
	h.set(d4, RoleLastMove)
	if h[d4].Role != RoleLastMove {
		t.Fatalf("a sensor fault outranks the last move")
	}
}

// A verdict that ends the game and waits for the board to hold, beside
// lines of play that wait too, is given once the board has held: the
// lines' look does not drop it (the game was left one turn short).
func TestEndWaitsBesideHeldLines(t *testing.T) {
	b := newBench(t, start37, Casual)
	b.hold(b.r.Expected())
	turn := b.expectTurn("WD4-A1")
	b.r.waitEnd = &decision{lines: [][]engine.Turn{{turn}}, reason: "test"}
	b.r.linesHold, b.r.deferred = true, true
	b.r.obsSince = b.now - b.r.hop
	ev := b.r.late(b.now)
	if b.r.waitEnd != nil && !b.r.deferred {
		t.Fatalf("the waiting verdict is left without a look: events %v", ev)
	}
	ev = append(ev, b.r.late(b.now)...)
	if b.r.waitEnd != nil || b.r.Game().Len() != 1 {
		t.Fatalf("the waiting verdict was not given: %d turns, events %v", b.r.Game().Len(), ev)
	}
}

// A question left open (the players have not answered; its options may
// all be wrong, misled by the stuck sensor) does not stop the search: the
// revision asks about the turns from before it, and replaces it.
func TestStuckSensorFoundWhileAsking(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	b.expect(b.hold(b.from(start, "A1=.")), "pending")
	b.expect(b.hold(b.from(start, "A1=. D3=b")), "move")
	// An open question about the turns after turn 1, which nobody answers.
	b.r.question = &question{id: 99, base: 1, turn: 2, prov: -1, cell: engine.NoCell}
	b.hold(b.from(start, "A1=. D3=b G4=."))
	ev := b.hold(b.from(start, "A1=. D3=o D5=b G4=."))
	ev = append(ev, b.hold(b.from(start, "A1=. D3=o D5=b G4=."))...)
	ev = append(ev, b.hold(b.from(start, "A1=. D3=o D5=b G4=. B1=."))...)
	found, q := stuckFault(ev, "D4")
	if !found {
		t.Fatalf("no stuck-sensor fault naming D4 while a question was open: %v", ev)
	}
	if q == nil || q.Turn != 1 || q.ID == 99 {
		t.Fatalf("the revision does not replace the open question with one from turn 1: %v", ev)
	}
	if got, ok := b.r.Asking(); !ok || got.ID != q.ID {
		t.Fatalf("the question open is %+v; want the revision %d", got, q.ID)
	}
}

// A board that a line explains by chance (a marble set down and moved, a
// try) can kill the line that was played; the next board then goes to the
// lines from before it, and the try counts as a board passed over.
func TestReplayPassesOverAnExplainedTry(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	root := b.r.rootLine()
	at := func(edits string, since int64) histBoard {
		return histBoard{at: board{cells: b.from(start, edits)}, since: since, root: root}
	}
	boards := []histBoard{
		at("", 0),
		at("D4=w A1=.", 1000),
		at("D4=w A1=. D5=b G4=.", 2000), // read as BD5-G4...
		at("D4=w A1=. E5=b G4=.", 3000), // ...but the marble goes on E5
	}
	lines, skipped := b.r.replay(boards, engine.NoCell, nil, -1, 0)
	var got []string
	for _, l := range lines {
		var ts []string
		for _, tn := range l.turns {
			ts = append(ts, engine.FormatTurn(b.r.b, tn))
		}
		got = append(got, strings.Join(ts, " "))
	}
	if len(got) != 1 || got[0] != "WD4-A1 BE5-G4" || skipped != 1 {
		t.Fatalf("replay: lines %q, %d boards passed over; want [WD4-A1 BE5-G4] and 1", got, skipped)
	}
}

// When several sockets would explain the boards stuck, the players are
// asked which one they put the marble on; the socket they name is taken
// for stuck, and the turns its lines change are asked about.
func TestSocketQuestion(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	b.expect(b.hold(b.from(start, "A1=.")), "pending")
	b.expect(b.hold(b.from(start, "A1=. D3=b")), "move") // read as BD3-A1

	found := []socketLines{
		{cell: mustCell(t, b, "D4"), lines: [][]engine.Turn{b.lineFromStart("WD4-A1", "BD3-G4")}},
		{cell: mustCell(t, b, "E5"), lines: [][]engine.Turn{b.lineFromStart("GE5-A1", "BD3-G4")}},
	}
	ev := b.r.askSocket(b.now, 0, found, 0)
	q, ok := b.r.Asking()
	if len(ev) != 1 || !ok || q.About != "cell" || strings.Join(q.Options, " ") != "D4 E5 "+OtherRing || q.Turn != 1 || q.Provisional != -1 {
		t.Fatalf("socket question %+v, events %v", q, ev)
	}
	if b.r.Game().Len() != 1 {
		t.Fatalf("the question changed the game: %d turns", b.r.Game().Len())
	}
	ev = b.r.Answer(b.now, q.ID, 0)
	fault, rev := stuckFault(ev, "D4")
	if !fault || rev == nil || rev.About != "turns" || rev.Turn != 1 || len(rev.Options) != 2 || rev.Options[0] != "WD4-A1 BD3-G4" || rev.Options[1] != OtherRing {
		t.Fatalf("after naming D4: events %v", ev)
	}
	b.r.Answer(b.now, rev.ID, 0)
	got := b.gameTurns()
	if strings.Join(got, " ") != "WD4-A1 BD3-G4" || strings.Join(b.r.DeadCells(), " ") != "D4" {
		t.Fatalf("game %v, faulty sockets %v; want WD4-A1 BD3-G4 with D4 stuck", got, b.r.DeadCells())
	}
	// An answer out of range names the options.
	if ev := b.r.Answer(b.now, 99, 0); len(ev) != 1 || ev[0].Body.Kind() != "fault" {
		t.Fatalf("answer to no question: %v", ev)
	}
}

// seeTurns plays turns seen whole from the board start, two boards a
// turn: its ring removed (pending), then its marble put down (move). Each
// edit (from's form) adds to the last: "A1=.", "D4=w" is WD4-A1.
func (b *bench) seeTurns(start string, edits ...string) {
	b.t.Helper()
	for i := range edits {
		want := "pending"
		if i%2 == 1 {
			want = "move"
		}
		b.expect(b.hold(b.from(start, strings.Join(edits[:i+1], " "))), want)
	}
}

// lineFromStart parses turns in notation played one after the other
// from the game's start position.
func (b *bench) lineFromStart(s ...string) []engine.Turn {
	b.t.Helper()
	var out []engine.Turn
	p := b.r.Game().PositionAfter(0)
	for _, x := range s {
		tn, err := engine.ParseTurn(b.r.b, x)
		if err != nil {
			b.t.Fatal(err)
		}
		if p, err = p.Play(tn); err != nil {
			b.t.Fatal(err)
		}
		out = append(out, tn)
	}
	return out
}

// stuckFault reports whether events report the socket cell stuck, and
// returns the last question among them.
func stuckFault(ev []Event, cell string) (bool, *Question) {
	var found bool
	var q *Question
	for _, e := range ev {
		switch x := e.Body.(type) {
		case Fault:
			found = found || x.ReasonMsg != nil && x.ReasonMsg.Key == "fault.stuck-cell" && strings.Contains(x.Reason, cell)
		case Question:
			q = &x
		}
	}
	return found, q
}

// A sensor stuck while a jumper sat on it (the stuck exam's game 197):
// the jumper leaves B1, but B1 still reads its grey marble. That is no
// grey marble put on B1 by the next player: no hand takes a marble off a
// ring and puts another back without the sensor reading the ring in
// between. The referee must not commit a grey placement on B1 as fact.
func TestFrozenJumperIsNoPlacement(t *testing.T) {
	b := newBench(t, start37, Casual)
	b.expect(b.show("B1=g A1=."), "move")                // GB1-A1
	b.expect(b.show("C2=b A2=."), "move forced-capture") // BC2-A2: B1xD3 is compulsory
	// B1 reads g from now on. The jumper lands on D3, the jumped marble
	// comes off, and the next player puts a white marble on B1 (unseen)
	// and removes G4.
	base := b.r.Expected()
	for _, edits := range []string{"D3=g C2=o", "D3=g C2=o G4=.", "D3=g C2=o G4=."} {
		ev := b.hold(b.from(base, edits))
		asked := false
		for _, e := range ev {
			if _, ok := e.Body.(Question); ok {
				asked = true
			}
		}
		for _, e := range ev {
			if m, ok := e.Body.(Move); ok && m.Turn > 2 && strings.HasPrefix(m.Notation, "GB1") && !asked {
				t.Fatalf("committed %s without a question: no grey marble was put on B1\n%v", m.Notation, ev)
			}
		}
	}
}

// On a healthy board the same colour put back where a jumper set off is
// a placement: the sensor read the ring empty in between.
func TestMarblePutBackWhereAJumperLeft(t *testing.T) {
	b := newBench(t, start37, Casual)
	b.expect(b.show("B1=g A1=."), "move")
	b.expect(b.show("C2=b A2=."), "move forced-capture")
	base := b.r.Expected()
	b.hold(b.from(base, "B1=o D3=g C2=o")) // B1xD3
	b.hold(b.from(base, "D3=g C2=o"))      // a grey marble on B1
	b.hold(b.from(base, "D3=g C2=o G4=.")) // and G4 removed
	if got := strings.Join(b.gameTurns(), " "); got != "GB1-A1 BC2-A2 B1xD3 GB1-G4" {
		t.Fatalf("the game is %s; want GB1-A1 BC2-A2 B1xD3 GB1-G4", got)
	}
}

// A stuck socket whose reading last changed before the boards kept begin
// (here it never changed) may be found although the first board kept is
// an illegal try: that board is passed over like any other try, for none
// of the boards is the one that first showed the frozen reading.
func TestStuckSocketFoundPastAnEarlyTry(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	b.expect(b.hold(b.from(start, "C3=w E5=b")), "illegal") // two marbles: a try
	b.expect(b.hold(start), "restored")
	b.expect(b.hold(b.from(start, "A1=.")), "pending")   // WD4-A1: the marble does not show
	b.expect(b.hold(b.from(start, "A1=. D3=b")), "move") // read as BD3-A1
	b.expect(b.hold(b.from(start, "A1=. D3=b G4=.")), "pending")
	b.expect(b.hold(b.from(start, "A1=. D3=o D5=b G4=.")), "illegal")
	if h := b.r.histSince(); len(h) == 0 || h[0].at.cells != b.from(start, "C3=w E5=b") {
		t.Fatalf("the boards kept do not begin with the try: %+v", h)
	}
	ev := b.hold(b.from(start, "A1=. D3=o D5=b G4=."))
	ev = append(ev, b.hold(b.from(start, "A1=. D3=o D5=b G4=. B1=."))...)
	if found, _ := stuckFault(ev, "D4"); !found {
		t.Fatalf("no stuck-sensor fault naming D4: %v", ev)
	}
}

// A marble put on a stuck socket after its player lifted the ring first
// (the stuck exam's game 076 under seed 9): the next player's marble
// reads as the end of that turn, one player shifted. When the board then
// needs a resynchronisation whose lines put a marble on a socket whose
// reading never changed, the stuck sensor is as likely: the referee looks
// for it, and asks about the turns from the one it hid, rather than
// only about the marble's colour two turns later.
func TestResyncOverAnUnseenMarbleLooksForAStuckSensor(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	b.expect(b.hold(b.from(start, "A1=.")), "pending")           // WD4-A1, the ring first: D4 reads o
	b.expect(b.hold(b.from(start, "A1=. D3=b")), "move")         // read as BD3-A1
	b.expect(b.hold(b.from(start, "A1=. D3=b G4=.")), "pending") // BD3-G4, read as a ring lifted
	b.hold(b.from(start, "A1=. D3=b G4=. A2=. A3=. A4=."))       // an illegal try...
	b.hold(b.from(start, "A1=. D3=b G4=."))                      // ...put right
	ev := b.hold(b.from(start, "A1=. D3=o D5=b G4=."))           // D3xD5 over the hidden marble
	var first *Question
	for _, e := range ev {
		if q, ok := e.Body.(Question); ok && first == nil {
			first = &q
		}
	}
	if first == nil || first.Turn != 1 {
		t.Fatalf("no question from turn 1 (the turn the stuck socket hid): %v", ev)
	}
}

// A jumper frozen on its start (the stuck exam's game 082 under seed 8,
// A4 stuck): the capture A4xC4 never shows whole, and once the next turn
// is on the board a resynchronisation explained the boards by changing
// turns the board had shown whole (BB4-D6 read as BA4-D6), with no stall
// to hide anything, and asked about that; the turns after it were then
// committed on a reading no option of which was played. Changing turns
// the board showed is as likely a stuck sensor's doing: the referee looks
// for one first, and asks about the turns it misread.
func TestResyncThatRevisesShownTurnsLooksForAStuckSensor(t *testing.T) {
	p := engine.NewPosition(engine.MustStandardBoard("37"), engine.Standard, 0)
	p = playAll(t, p, "BA4-A2 WD4-B5 GF4-C6 BG3-D7 G3xE5 WF4-G3 F4xD6 BC5-E6 D6xB4 A4xC4xE3 WE2-E1 E2xE4")
	b := newBench(t, p.String(), Casual)
	played := strings.Fields("BB4-D6 BA4-G4 A4xC4 GC5-F4")
	if !b.scanAll([]scanFrame{
		{0, 0, "o.oooooo.ooooo.oooooo..oowo.ooooooo.o"},
		{320, 0, "o.ooooo?.ooooo.oooooo..oowo.ooooooo.o"},
		{370, 0, "o.ooooob.ooooo.oooooo..oowo.ooooooo.o"},
		{400, 0, "o.ooooob.ooooo.ooooo?..oowo.ooooooo.o"},
		{420, 0, "o.ooooob.ooooo.ooooo...oowo.ooooooo.o"},
		{790, 0, "o.o?ooob.ooooo.ooooo...oowo.ooooooo.o"},
		{810, 0, "o.obooob.ooooo.ooooo...oowo.ooooooo.o"},
		{1540, 0, "o.obooob.ooooo.ooooo...oowo.ooooooo.?"},
		{1600, 0, "o.obooob.ooooo.ooooo...oowo.ooooooo.."},
		{2330, 0, "o.obooob.ooo?o.ooooo...oowo.ooooooo.."},
		{2370, 0, "o.obooob.ooobo.ooooo...oowo.ooooooo.."},
		{2900, 0, "o.obooo?.ooobo.ooooo...oowo.ooooooo.."},
		{2910, 0, "o.oboooo.ooobo.ooooo...oowo.ooooooo.."},
		{3290, 0, "o.oboooo.ooob?.ooooo...oowo.ooooooo.."},
		{3340, 0, "o.oboooo.ooobg.ooooo...oowo.ooooooo.."},
		{3360, 0, "o.oboooo.ooobg.ooooo...oowo.ooo?ooo.."},
		{3400, 0, "o.oboooo.ooobg.ooooo...oowo.ooo.ooo.."},
	}, 1000, played) {
		t.Errorf("no question offers %s", strings.Join(played, " "))
	}
}

// More sockets than a question offers (a marble put down unseen and its
// ring claimed at once could have been on any ring that never changed)
// are offered a page at a time: 23 sockets and "other", which asks about
// the next ones. The socket named on any page is taken for stuck.
func TestSocketQuestionPages(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	b.expect(b.hold(b.from(start, "A1=.")), "pending")
	b.expect(b.hold(b.from(start, "A1=. D3=b")), "move") // read as BD3-A1
	p := b.r.Game().PositionAfter(0)
	var found []socketLines
	for c := 0; c < b.r.b.Len() && len(found) < 30; c++ {
		cell := engine.Cell(c)
		if l := b.r.b.Label(cell); l == "A1" || l == "D3" || l == "G4" {
			continue
		}
		first := engine.Turn{Kind: engine.Place, Color: engine.White, At: cell, Remove: mustCell(t, b, "A1")}
		q, err := p.Play(first)
		if err != nil {
			continue
		}
		second := engine.Turn{Kind: engine.Place, Color: engine.Black, At: mustCell(t, b, "D3"), Remove: mustCell(t, b, "G4")}
		if _, err := q.Play(second); err != nil {
			continue
		}
		found = append(found, socketLines{cell: cell, lines: [][]engine.Turn{{first, second}}})
	}
	if len(found) != 30 {
		t.Fatalf("%d sockets; the test wants 30", len(found))
	}
	b.r.askSocket(b.now, 0, found, 0)
	q, ok := b.r.Asking()
	if !ok || q.About != "cell" || len(q.Options) != 24 || q.Options[23] != OtherRing || q.Options[0] != b.r.b.Label(found[0].cell) {
		t.Fatalf("first page %+v", q)
	}
	if !strings.Contains(q.Text, "or another ring?") {
		t.Fatalf("the question does not say another ring may be meant: %q", q.Text)
	}
	b.r.Answer(b.now, q.ID, 23)
	q2, ok := b.r.Asking()
	if !ok || q2.ID == q.ID || q2.About != "cell" || len(q2.Options) != 8 || q2.Options[0] != b.r.b.Label(found[23].cell) || q2.Options[7] != OtherRing {
		t.Fatalf("second page %+v; want the other 7 and %q", q2, OtherRing)
	}
	want := found[26].cell
	ev := b.r.Answer(b.now, q2.ID, 3)
	fault, rev := stuckFault(ev, b.r.b.Label(want))
	if !fault || rev == nil || rev.About != "turns" {
		t.Fatalf("naming %s on the second page: %v", b.r.b.Label(want), ev)
	}
}

// "Other" on the last page of a socket question: the players put the
// marble on none of the sockets offered. The search passes over them, and
// the socket they did put it on is found.
func TestSocketQuestionNoneOfThese(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	b.expect(b.hold(b.from(start, "A1=.")), "pending")   // WD4-A1: the marble does not show
	b.expect(b.hold(b.from(start, "A1=. D3=b")), "move") // read as BD3-A1
	b.expect(b.hold(b.from(start, "A1=. D3=b G4=.")), "pending")
	// Ask about two sockets that are not D4 (as if the search had found
	// them first): the players answer "other".

	found := []socketLines{
		{cell: mustCell(t, b, "E5"), lines: [][]engine.Turn{b.lineFromStart("GE5-A1", "BD3-G4")}},
		{cell: mustCell(t, b, "C3"), lines: [][]engine.Turn{b.lineFromStart("GC3-A1", "BD3-G4")}},
		{cell: mustCell(t, b, "F2"), lines: [][]engine.Turn{b.lineFromStart("GF2-A1", "BD3-G4")}},
	}
	b.r.askSocket(b.now, 0, found, 0)
	q, ok := b.r.Asking()
	if !ok || len(q.Options) != 4 || q.Options[3] != OtherRing {
		t.Fatalf("socket question %+v", q)
	}
	b.expect(b.hold(b.from(start, "A1=. D3=o D5=b G4=.")), "illegal") // D3xD5 over the hidden marble
	ev := b.r.Answer(b.now, q.ID, 3)
	for _, s := range []string{"E5", "C3", "F2"} {
		if b.r.notStuck&bit(mustCell(t, b, s)) == 0 {
			t.Fatalf("%s is still a candidate after \"none of these\"", s)
		}
	}
	if found, _ := stuckFault(ev, "D4"); !found {
		t.Fatalf("the search did not find D4 after \"none of these\": %v", ev)
	}
}

// Two sockets taken for stuck together (either would explain the boards):
// the players' answer says which line was played, and the socket that line
// is not read with is trusted again, reported as such.
func TestAnswerTrustsTheOtherSocketAgain(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	b.expect(b.hold(b.from(start, "A1=.")), "pending")
	b.expect(b.hold(b.from(start, "A1=. D3=b")), "move") // read as BD3-A1

	d4, e5 := mustCell(t, b, "D4"), mustCell(t, b, "E5")
	cells := bit(d4) | bit(e5)
	b.r.stuck |= cells
	lines := [][]engine.Turn{b.lineFromStart("WD4-A1", "BD3-G4"), b.lineFromStart("GE5-A1", "BD3-G4")}
	b.r.askRevisionBy(b.now, b.r.Expected(), cells, 0, lines, []uint64{bit(d4), bit(e5)})
	q, ok := b.r.Asking()
	if !ok || len(q.Options) != 3 || q.Options[2] != OtherRing {
		t.Fatalf("question %+v; want the two lines and %q", q, OtherRing)
	}
	i := 0
	for i < len(q.Options) && q.Options[i] != "WD4-A1 BD3-G4" {
		i++
	}
	ev := b.r.Answer(b.now, q.ID, i)
	trusted := false
	for _, e := range ev {
		if f, ok := e.Body.(Fault); ok && f.ReasonMsg != nil && f.ReasonMsg.Key == "fault.stuck-trusted" && strings.Contains(f.Reason, "E5") {
			trusted = true
		}
	}
	if !trusted || b.r.stuck&bit(e5) != 0 || b.r.stuck&bit(d4) == 0 {
		t.Fatalf("after the answer read with D4: stuck %v, events %v", b.r.DeadCells(), ev)
	}
}

// "None of these" to the turns read with a socket taken for stuck: the
// answer rejects the lines offered, nothing more. The turns before those
// asked about stand (the boards showed them whole), the guess is taken
// back, the socket stays unknown (the answer does not say its sensor is
// sound), and the players are asked again about what the boards as read
// show, the rejected line left out.
func TestRevisionNoneOfThese(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	// WD4-A1 and BB2-G1, seen whole; GF2-G4, as read
	b.seeTurns(start, "A1=.", "D4=w", "G1=.", "B2=b", "G4=.", "F2=g")
	e5 := mustCell(t, b, "E5")
	b.r.stuck |= bit(e5)
	b.r.stuckRead[e5] = 'o'
	rejected := b.lineFromStart("WD4-A1", "BB2-G1", "WE5-G4", "GF2-A4")
	b.r.askRevisionBy(b.now, b.r.Expected(), bit(e5), 0, [][]engine.Turn{rejected}, []uint64{bit(e5)})
	q, ok := b.r.Asking()
	if !ok || q.Turn != 3 || len(q.Options) != 2 || q.Options[0] != "WE5-G4 GF2-A4" || q.Options[1] != OtherRing {
		t.Fatalf("question %+v; want WE5-G4 GF2-A4 from turn 3, and %q", q, OtherRing)
	}
	ev := b.r.Answer(b.now, q.ID, len(q.Options)-1)
	if got := b.gameTurns(); len(got) < 2 || got[0] != "WD4-A1" || got[1] != "BB2-G1" {
		t.Fatalf("the game is %v after \"none of these\"; want the turns seen whole kept: %v", got, ev)
	}
	if b.r.stuck&bit(e5) == 0 || b.r.notStuck&bit(e5) != 0 {
		t.Fatalf("E5 is trusted again after \"none of these\": %v", ev)
	}
	q2, ok := b.r.Asking()
	if !ok || q2.ID == q.ID {
		t.Fatalf("no new question from the boards as read: %v", ev)
	}
	found := false
	for _, o := range q2.Options {
		if strings.HasPrefix(o, "WE5-G4 GF2-A4") {
			t.Fatalf("the rejected line is offered again: %+v", q2)
		}
		found = found || o == "GF2-G4"
	}
	if !found || q2.Turn != 3 {
		t.Fatalf("question %+v; want GF2-G4 (the boards as read) offered from turn 3", q2)
	}
	// Answered, the game is the boards' again.
	for i, o := range q2.Options {
		if o == "GF2-G4" {
			b.r.Answer(b.now, q2.ID, i)
		}
	}
	if got := strings.Join(b.gameTurns(), " "); got != "WD4-A1 BB2-G1 GF2-G4" {
		t.Fatalf("after the answer the game is %s", got)
	}
}

// "None of these" when no line read with the socket unknown explains the
// boards: the socket was perhaps not the one, and is read again. The
// turns before those asked about stand all the same (they are not taken
// back to the first board the search kept), and the socket is passed
// over by the search while another explains the boards, not for good.
func TestRevisionNoneReadsTheSocketAgain(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	// WD4-A1, BB2-G1, GF2-G4
	b.seeTurns(start, "A1=.", "D4=w", "G1=.", "B2=b", "G4=.", "F2=g")
	// Take E5 for stuck, and ask about a line read with it.
	e5 := mustCell(t, b, "E5")
	b.r.stuck |= bit(e5)
	b.r.stuckRead[e5] = 'o'
	b.r.askRevisionBy(b.now, b.r.Expected(), bit(e5), 0, [][]engine.Turn{b.lineFromStart("WD4-A1", "BB2-G1", "WE5-G4")}, []uint64{bit(e5)})
	q, ok := b.r.Asking()
	if !ok || q.Options[len(q.Options)-1] != OtherRing {
		t.Fatalf("question %+v; want %q last", q, OtherRing)
	}
	// No board is kept (as after a restart): no line read with E5 unknown
	// explains the boards, nor one read with any other socket.
	b.r.hist = nil
	ev := b.r.Answer(b.now, q.ID, len(q.Options)-1)
	if got := b.gameTurns(); len(got) != 2 || got[0] != "WD4-A1" || got[1] != "BB2-G1" {
		t.Fatalf("the game is %v after \"none of these\"; want the two turns before those asked about: %v", got, ev)
	}
	if b.r.stuck&bit(e5) != 0 {
		t.Fatalf("E5 is still unknown though no line read so explains the boards: %v", ev)
	}
	if b.r.notStuck&bit(e5) == 0 || b.r.doubted&bit(e5) == 0 {
		t.Fatalf("E5 is not passed over (doubted) after \"none of these\": %v", ev)
	}
}

// Lines the players rejected are recognised from any base: a line from
// the same base that begins with one, and from an earlier base through
// the turns the game committed in between.
func TestRejectedLines(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	b.seeTurns(start, "A1=.", "D4=w") // WD4-A1
	l := b.lineFromStart("WD4-A1", "BB2-G1", "GF2-G4")
	b.r.rejected = []rejectedLine{{base: 1, turns: l[1:2]}}
	cases := []struct {
		base int
		line []engine.Turn
		want bool
	}{
		{1, l[1:], true},   // begins with the rejected line
		{1, l[1:2], true},  // is it
		{0, l, true},       // from before, through the game's WD4-A1
		{0, l[:1], false},  // stops short of it
		{1, l[2:3], false}, // another line
	}
	for i, c := range cases {
		if got := b.r.isRejected(c.base, c.line); got != c.want {
			t.Errorf("case %d: isRejected(%d, %s) = %v; want %v", i, c.base, b.r.notation(c.line), got, c.want)
		}
	}
	if lines, _ := b.r.dropRejected(1, [][]engine.Turn{l[1:], l[2:3]}, nil); len(lines) != 1 || !sameTurns(lines[0], l[2:3]) {
		t.Fatalf("dropRejected kept %d lines; want only the one not rejected", len(lines))
	}
	// Turns taken back past its base: the rejected line no longer applies.
	b.r.rejected = []rejectedLine{{base: 2, turns: l[2:]}}
	if b.r.isRejected(0, l) {
		t.Fatalf("a line rejected after turn 2 applies with the game at turn %d", b.r.Game().Len())
	}
}

// A socket passed over after "none of these" to the lines read with it is
// tried again when no other socket explains the boards: the answer
// rejected those lines, not the socket. (Before, the search never looked
// at it again while it was passed over, and the referee stayed lost.)
func TestDoubtedSocketTriedAgain(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	// D4 was doubted ("none of these" to lines read with it); every other
	// socket was offered in a socket question, and the players put no
	// marble there: those are not asked about again.
	d4 := mustCell(t, b, "D4")
	b.r.notStuck, b.r.doubted, b.r.notStuckAt = 1<<uint(b.r.b.Len())-1, bit(d4), 0
	b.expect(b.hold(b.from(start, "A1=.")), "pending")                // WD4-A1: the marble does not show
	b.expect(b.hold(b.from(start, "A1=. D3=b")), "move")              // read as BD3-A1
	b.expect(b.hold(b.from(start, "A1=. D3=b G4=.")), "pending")      // BD3-G4 read as a ring lifted
	b.expect(b.hold(b.from(start, "A1=. D3=o D5=b G4=.")), "illegal") // D3xD5 over the hidden marble
	ev := b.hold(b.from(start, "A1=. D3=o D5=b G4=."))
	ev = append(ev, b.hold(b.from(start, "A1=. D3=o D5=b G4=. B1=."))...)
	if found, q := stuckFault(ev, "D4"); !found || q == nil || q.About == "cell" {
		t.Fatalf("D4, passed over after \"none of these\", was not tried again alone: %v", ev)
	}
}

// Finding its place again with a socket taken for stuck, the referee reads
// the boards with that socket unknown, and its question ends with "none
// of these": the lines are read with a socket that may not be the one.
func TestRelockWithStuckSocketOffersNone(t *testing.T) {
	b := newBench(t, start37, Casual)
	start := b.r.Expected()
	b.seeTurns(start, "A1=.", "D4=w") // WD4-A1
	// The game says otherwise (as if misread), and G4 is taken for stuck.
	b.r.takeback(b.now, 1)
	b.r.commitLine(b.now, b.r.Expected(), 0, b.lineFromStart("WE5-A1"))
	g4 := mustCell(t, b, "G4")
	b.r.stuck |= bit(g4)
	b.r.stuckRead[g4] = 'o'
	ev, ok := b.r.relock(b.now, b.from(start, "A1=. D4=w G4=?"))
	if !ok {
		t.Fatalf("no place found again: %v", ev)
	}
	q, asked := b.r.Asking()
	if !asked || len(q.Options) < 2 || q.Options[len(q.Options)-1] != OtherRing || !strings.Contains(strings.Join(q.Options, " "), "WD4-A1") {
		t.Fatalf("question %+v; want WD4-A1 offered and %q last", q, OtherRing)
	}
}

package referee

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// The lines of play stay bounded whatever the frames: a dead socket and
// a board that wanders through random legal turns, random noise and
// illegal boards, with questions never answered.
func TestLinesStayBounded(t *testing.T) {
	p, err := engine.ParsePosition(start37)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(Config{Board: p.Board(), Rules: p.Rules(), Game: engine.NewGame(p)})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	dead, _ := p.Board().ParseCell("D4")
	pos := p
	now := int64(0)
	show := func(cells []byte) {
		cells[dead] = '?'
		for i := 0; i < 40; i++ { // 200 ms at 200 Hz
			r.ObserveBytes(now, cells)
			now += 5
		}
		if len(r.lines) > maxLines || len(r.linesBefore) > maxLines {
			t.Fatalf("%d lines (%d before); at most %d", len(r.lines), len(r.linesBefore), maxLines)
		}
		for _, l := range r.lines {
			if len(l.turns) > maxLineTurns+3 {
				t.Fatalf("a line of %d turns; at most %d", len(l.turns), maxLineTurns+3)
			}
		}
	}
	// The dead socket first reads '?' long enough to count as unknown.
	for i := 0; i < 8; i++ {
		show([]byte(pos.Cells()))
	}
	seenLines := 0
	for step := 0; step < 400; step++ {
		switch k := rng.IntN(10); {
		case k < 7 && !pos.Result().Over:
			turns := pos.LegalTurns(nil)
			pos = pos.MustPlay(turns[rng.IntN(len(turns))])
			for pos.MustPass() && !pos.Result().Over {
				pos = pos.MustPlay(engine.PassTurn())
			}
			show([]byte(pos.Cells()))
		case k < 9:
			noisy := []byte(pos.Cells())
			for j := rng.IntN(4); j >= 0; j-- {
				noisy[rng.IntN(len(noisy))] = ".owgb"[rng.IntN(5)]
			}
			show(noisy)
		default:
			pos = p // the game starts again on the board: a wholesale change
			show([]byte(pos.Cells()))
		}
		seenLines = max(seenLines, len(r.lines))
	}
	if seenLines < 2 {
		t.Errorf("at most %d line followed: the test exercised nothing", seenLines)
	}
}

// Hands faster than the settle time under a starved scan (the starved
// exam's game 099): after C1xC3, three turns are played whole and a
// fourth begins without the board settling once, across three stalls
// that each hide part of a turn. The transients show where the hands
// went. Looking two turns deep after a stall, the referee resynchronised
// on a shorter line the hands never played (WB3-C1 B4xB2xD4 WC5-A2) and
// committed it, and every later turn, without a question.
func TestFastHandsThreeTurnsBetweenBoards(t *testing.T) {
	p, err := engine.ParsePosition(start37)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"WB4-G1", "GC2-A1", "BC1-A4", "C1xC3"} {
		turn, err := engine.ParseTurn(p.Board(), s)
		if err != nil {
			t.Fatal(err)
		}
		p = p.MustPlay(turn)
	}
	b := newBench(t, p.String(), Casual)
	if got, want := b.r.Expected(), ".oo.ooowooobooooooooooooooooooooo.ooo"; got != want {
		t.Fatalf("the position after C1xC3 is %s; want %s", got, want)
	}
	b.holdFor(b.r.Expected(), 300)
	// What the scans saw, each shown from its time (ms) to the next's;
	// after a stalled one the scan stalls until the next.
	frames := []struct {
		ms    int64
		cells string
		stall bool
	}{
		{0, ".oo.ooowo?obooooooooooooooooooooo.ooo", true}, // C1 lifted
		{420, ".oo.ooowo.w?ooooooooooooooooooooo.ooo", false},
		{470, ".oo.ooowo.woooooooooooooooooooooo.ooo", false},
		{500, ".oo.ooowo.?oooooooooooooooooooooo.ooo", false},
		{550, ".oo.ooowo.ooooooooooooooooooooooo.ooo", false},
		{560, ".oo.ooowo.oo?oooooooooooooooooooo.ooo", false},
		{600, ".oo.ooowo.oowoooooooooooooooooooo.ooo", true}, // C2xC4
		{950, ".oo.ooo?o.oowoooooooooooooooooooo.ooo", false},
		{980, ".oo.ooooo.oowoooooooooooooooooooo.ooo", false},
		{990, ".oo.ooooo.oowooooo?oooooooooooooo.ooo", false},
		{1020, ".oo.ooooo.oowooooowoooooooooooooo.ooo", false},
		{1030, ".oo.ooooo.oo?ooooowoooooooooooooo.ooo", false},
		{1040, ".oo.ooooo.oooooooowoooooooooooooo.ooo", true},  // B4xD4
		{1630, ".oo.ooooo.ooowoooowoooooooooooooo.ooo", false}, // white on C5
		{1810, ".?o.ooooo.ooowoooowoooooooooooooo.ooo", false},
	}
	start := b.now
	var ev []Event
	for i, f := range frames {
		end := start + f.ms + 10
		if i+1 < len(frames) {
			end = start + frames[i+1].ms
		}
		for ; b.now < end; b.now += 10 {
			ev = append(ev, b.r.Observe(b.now, f.cells)...)
			if f.stall {
				b.now = end
			}
		}
	}
	// A2 removed: WC5-A2 is whole, and the board holds.
	for end := b.now + 1000; b.now < end; b.now += 10 {
		ev = append(ev, b.r.Observe(b.now, "..o.ooooo.ooowoooowoooooooooooooo.ooo")...)
	}
	var moves []string
	for _, e := range ev {
		if m, ok := e.Body.(Move); ok {
			moves = append(moves, m.Notation)
		}
	}
	want := "WC2-C1 C2xC4 B4xD4 WC5-A2"
	if got := strings.Join(moves, " "); got != want {
		t.Errorf("committed %q; the hands played %s\n%v", got, want, ev)
	}
}

// After a stall, a shorter line can explain the board as well as the one
// played (the starved exam's game 032): WH4-B4 H4xF6 BE6-B5 F6xD6 WA5-B6
// leaves the board WE6-B4 WH4-B5 H4xF6xD6 WA5-B6 does, one turn shorter,
// with other captures. The lines looked for the shorter only, and the
// referee committed it, asking only the colour of E6's marble; now it
// looks one turn deeper and asks which line was played. (Turns count
// from the test's position.)
func TestStallHidesALongerLine(t *testing.T) {
	p := engine.NewPosition(engine.MustStandardBoard("48"), engine.Standard, 0)
	for _, s := range []string{"GE5-A1", "WD3-A3", "BF5-A4", "E5xG5"} {
		turn, err := engine.ParseTurn(p.Board(), s)
		if err != nil {
			t.Fatal(err)
		}
		p = p.MustPlay(turn)
	}
	b := newBench(t, p.String(), Casual)
	if got, want := b.r.Expected(), ".o..oooooooooooooooowoooooooooooooooooooooogoooo"; got != want {
		t.Fatalf("the position after E5xG5 is %s; want %s", got, want)
	}
	b.holdFor(b.r.Expected(), 300)
	played := strings.Fields("WH4-B4 H4xF6 BE6-B5 F6xD6 WA5-B6")
	// What the scans saw, each from its time (ms) on; gap is the stall
	// before it, when the scan saw nothing.
	if !b.scanAll([]scanFrame{
		{0, 0, ".o..oooo?ooooooooooowoooooooooooooooooooooogoooo"},
		{420, 420, ".o..oooo.ooooooooooowoooooooooooooooooooooo?ooow"},
		{470, 0, ".o..oooo.ooooooooooowoooooooooooooooooooooooooow"},
		{500, 0, ".o..oooo.ooooooooooowoooooooooooooooooooooooooo?"},
		{550, 0, ".o..oooo.ooooooooooowooooooooooooooooooooooooooo"},
		{560, 0, ".o..oooo.ooooooooooowooooooooooooooooo?ooooooooo"},
		{600, 0, ".o..oooo.ooooooooooowooooooooooooooooowooooooooo"},
		{950, 340, ".o..oooo.ooooooooooowoooooooooo?oooooowooooooooo"},
		{980, 0, ".o..oooo.ooooooooooowooooooooooboooooowooooooooo"},
		{1630, 570, ".o..oooo..oooooooooowooooooooooboooooowooooooooo"},
		{1660, 0, ".o..oooo..oooooooooowoooooooooo?oooooowooooooooo"},
		{1670, 0, ".o..oooo..oooooooooowooooooooooooooooowooooooooo"},
		{1710, 0, ".o..oooo..oooooooooowooooooooooooooooo?ooooooooo"},
		{1750, 0, ".o..oooo..oooooooooowooooooooooooooooooooooooooo"},
		{1760, 0, ".o..oooo..oooooooooowoo?oooooooooooooooooooooooo"},
		{1780, 0, ".o..oooo..oooooooooowoowoooooooooooooooooooooooo"},
		{2300, 340, ".o..wooo...ooooooooowoowoooooooooooooooooooooooo"},
	}, 1000, played) {
		t.Errorf("no question offers %s", strings.Join(played, " "))
	}
}

// scanFrame is what the scans saw from ms on, after a stall of gap ms
// in which they saw nothing.
type scanFrame struct {
	ms, gap int64
	cells   string
}

// scanAll shows each frame from its time (relative to the bench's clock)
// to the next's, at 10 ms a scan, then the last one for hold ms more, and
// checks each batch of events: a turn from the first to the last of played
// committed other than played, with no question in its batch, is an
// error. It reports whether a question offered the played turns (from
// the one it asks about on), or the colour of the turn it asks about.
func (b *bench) scanAll(frames []scanFrame, hold int64, played []string) (asked bool) {
	b.t.Helper()
	base := b.r.Game().Len()
	observe := func(cells string) {
		batch := b.r.Observe(b.now, cells)
		for _, e := range batch {
			println("EV", e.String())
		}
		question := false
		for _, e := range batch {
			if q, ok := e.Body.(Question); ok && q.Turn > base && q.Turn <= base+len(played) {
				question = true
				for _, o := range q.Options {
					asked = asked || o == strings.Join(played[q.Turn-base-1:], " ")
					// A colour question: the colour of the marble the
					// turn asked about put on its cell.
					turn := played[q.Turn-base-1]
					at, _, _ := strings.Cut(turn[1:], "-")
					asked = asked || q.About == "colour" && q.Cell == at && strings.EqualFold(o, turn[:1])
				}
			}
		}
		for _, e := range batch {
			if m, ok := e.Body.(Move); ok && !question && m.Turn > base && m.Turn <= base+len(played) && m.Notation != played[m.Turn-base-1] {
				b.t.Errorf("turn %d committed as %s without a question; the hands played %s", m.Turn, m.Notation, played[m.Turn-base-1])
			}
		}
	}
	start := b.now
	for i, f := range frames {
		end := start + f.ms + 10
		if i+1 < len(frames) {
			end = start + frames[i+1].ms - frames[i+1].gap
		} else {
			end += hold
		}
		for b.now = max(b.now, start+f.ms); b.now < end; b.now += 10 {
			observe(f.cells)
		}
	}
	return asked
}

// A stall hides a marble put on a ring and jumped away at once (the
// starved exam's game 054): GF3-C6 F3xD5 leaves green on D5, where
// GD5-C6 would have put it, with a capture under way. The lines never
// tried F3, which the board never showed touched, and committed GD5-C6.
func TestStallHidesAMarbleJumpedAway(t *testing.T) {
	p, err := engine.ParsePosition(start37)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range strings.Fields("GC3-G4 WD5-F1 BE3-A1 WD2-G1 BB1-A4 GB4-E1 BA2-D7 WD6-F2 D6xD4xB2 B1xB3xB5 BC2-D1 D2xB2 A2xC2 GC5-G2 B5xD5 BD2-G3 D2xB2 WB1-C1 B1xB3 WD6-F5 D6xD4 E3xC4xA2 BB3-D2 A2xC4 BB4-C2 B4xD4 GE3-A2 E3xC4 WB1-B2 BE2-D3 GE3-B3 E2xE4") {
		turn, err := engine.ParseTurn(p.Board(), s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		p = p.MustPlay(turn)
	}
	b := newBench(t, p.String(), Casual)
	if got, want := b.r.Expected(), "..o....oo..ogoo...ooo..ooboo..oo....."; got != want {
		t.Fatalf("the position after E2xE4 is %s; want %s", got, want)
	}
	b.holdFor(b.r.Expected(), 300)
	played := strings.Fields("GF3-C6 F3xD5 C4xE5")
	asked := b.scanAll([]scanFrame{
		{0, 0, "..o....oo..ogoo...ooo..ooboo..oo....."},
		{1180, 890, "..o....oo..ogo....ogo..ooooo..oo....."},
		{1400, 0, "..o....oo..o?o....ogo..ooooo..oo....."},
		{1430, 0, "..o....oo..ooo....ogo..ooooo..oo....."},
		{1440, 0, "..o....oo..ooo....ogo..ooo?o..oo....."},
		{2020, 580, "..o....oo..ooo....ooo..ooogo..oo....."},
	}, 3000, played)
	var got []string
	g := b.r.Game()
	for i := 0; i < g.Len(); i++ {
		tn, _ := g.Turn(i)
		got = append(got, engine.FormatTurn(b.r.b, tn))
	}
	if !asked && strings.Join(got, " ") != strings.Join(played, " ") {
		t.Errorf("the game goes on with %q and asked nothing; the hands played %s", got, strings.Join(played, " "))
	}
}

// A glitch in a stall (the starved exam's game 155, seed 8): G1 read '?'
// for one scan, so no line accounted for every cell the board showed
// touched, and the longer lines the stall hid (BB1-B3 C1xA1 GB1-B2, the
// black marble put on B1 and captured at once) were left out for it. The
// referee committed GB1-B3, with the green marble it saw there later, and
// named the wrong winner at the end.
func TestStallGlitchKeepsLongerLines(t *testing.T) {
	p := engine.NewPosition(engine.MustStandardBoard("48"), engine.Standard, 0)
	for _, s := range strings.Fields("GC4-H4 WE4-D1 WG2-D8 WD3-F6 WD6-A5 BB4-E7 B4xD4xF4 BC5-E6 D6xB4 GC5-A3 B4xD6 BC5-E1 D6xB4 WD2-A4 D2xD4 BB3-B5 B4xB2 WF5-H1 F5xF3 G2xE4xC3xA1 BB1-A2") {
		turn, err := engine.ParseTurn(p.Board(), s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		p = p.MustPlay(turn)
	}
	b := newBench(t, p.String(), Casual)
	if got, want := b.r.Expected(), "w....booo.oooooooo.oooooo..oooo..ooooo.ooooo.oo."; got != want {
		t.Fatalf("the position after BB1-A2 is %s; want %s", got, want)
	}
	b.holdFor(b.r.Expected(), 300)
	played := strings.Fields("A1xC1 BB1-B3 C1xA1 GB1-B2")
	if !b.scanAll([]scanFrame{
		{570, 570, "o....oooo.owoooooo.oooooo..oooo..ooooo.ooooo.oo."},
		{1170, 580, "o....oooo.owoooooo.oooooo..oooo..ooooo.?oooo.oo."}, // the glitch
		{1180, 0, "o....oooo.owoooooo.oooooo..oooo..ooooo.ooooo.oo."},
		{1500, 310, "o....?ooo.owoooooo.oooooo..oooo..ooooo.ooooo.oo."},
		{1530, 0, "o....booo.owoooooo.oooooo..oooo..ooooo.ooooo.oo."},
		{1580, 0, "o....bo?o.owoooooo.oooooo..oooo..ooooo.ooooo.oo."},
		{1620, 0, "o....bo.o.owoooooo.oooooo..oooo..ooooo.ooooo.oo."},
		{2070, 430, "o....oo.o.owoooooo.oooooo..oooo..ooooo.ooooo.oo."},
		{2090, 0, "o....oo.o.o?oooooo.oooooo..oooo..ooooo.ooooo.oo."},
		{2150, 0, "o....oo.o.oooooooo.oooooo..oooo..ooooo.ooooo.oo."},
		{2160, 0, "?....oo.o.oooooooo.oooooo..oooo..ooooo.ooooo.oo."},
		{2180, 0, "w....oo.o.oooooooo.oooooo..oooo..ooooo.ooooo.oo."},
		{2540, 340, "w....?o.o.oooooooo.oooooo..oooo..ooooo.ooooo.oo."},
		{2550, 0, "w....go.o.oooooooo.oooooo..oooo..ooooo.ooooo.oo."},
		{2870, 0, "w....g?.o.oooooooo.oooooo..oooo..ooooo.ooooo.oo."},
		{2930, 0, "w....g..o.oooooooo.oooooo..oooo..ooooo.ooooo.oo."},
	}, 1000, played) {
		t.Errorf("no question offers %s", strings.Join(played, " "))
	}
}

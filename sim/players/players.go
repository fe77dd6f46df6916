// Package players plays a game onto a simulated board the way people do:
// with hands that hover over rings, marbles set down before or after the
// ring is lifted, capture chains jumped hop by hop or in one sweep, claimed
// groups cleared piece by piece, illegal tries that are put back, and the
// odd bad reading. It writes what the sensors would see, one frame per
// scan, in the frame-log alphabet.
//
// It exists to test the referee against the real games in the sample set,
// and to drive the simulator. It is deterministic for a given seed.
//
// Layer: players. May import: base, game, drivers, sensors, services,
// presentation, config, simulator, rig, board, players.
package players

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/settle"
)

// Options says how the players behave.
type Options struct {
	Seed uint64
	// ScanMS is the time between frames, in milliseconds (5 = 200 Hz).
	ScanMS int64
	// SettleMS is the referee's settle time: every state meant to be seen
	// is held at least twice this long.
	SettleMS int64
	// Speed scales every human duration: 2 plays twice as fast.
	Speed float64
	// Glitches is the chance, per held state, of a one- or two-scan bad
	// reading on a random cell.
	Glitches float64
	// IllegalTries is the chance, per turn, that the player first does
	// something illegal, holds it, and puts it back.
	IllegalTries float64
	// Takebacks is the chance, per placement turn, that the player first
	// makes another legal placement, then takes it back.
	Takebacks float64
	// Lag is the chance that a claimed group is left on the board until
	// after the next turn.
	Lag float64
	// HopMS is the referee's hop time: a take-back that restores a
	// position in which the lifted marble could be jumping is held longer
	// than this, so that it reads as a take-back and not a capture under
	// way. 0 means 1500.
	HopMS int64
	// Stalls is the chance, per scan, that the scan stalls: no frames for
	// StallMS while the hands keep moving (a GC pause, an SD card's fsync,
	// a starved CPU). The referee may then see the end of one turn merged
	// with the next.
	Stalls float64
	// StallMS is the longest stall; each lasts between a quarter of it and
	// all of it. 0 means 600.
	StallMS int64
	// Hover is the chance, per capture, that the jumper is held in the air
	// over its start for longer than the settle time before the first hop.
	Hover float64
	// Dead, if set, is a sensor that fails during the game: from DeadFromMS
	// on, cell DeadCell always reads DeadReading ('?' for a dead Hall
	// sensor or a loose wire; 0 for stuck at whatever it read when it
	// failed).
	Dead        bool
	DeadCell    engine.Cell
	DeadFromMS  int64
	DeadReading byte
	// Begin, if set, is told as the players begin each record turn (i
	// counts from 0), so that they answer questions from what they have
	// played so far (Answer's played).
	Begin func(i int)
}

// DefaultOptions plays at human speed with a little of everything.
var DefaultOptions = Options{ScanMS: 5, SettleMS: 100, Speed: 1, Glitches: 0.05, IllegalTries: 0.05, Takebacks: 0.03, Lag: 0.3}

// Stats counts what the players did beyond the record's turns.
type Stats struct {
	Frames       int
	IllegalTries int // illegal boards held long enough to be seen
	Takebacks    int // extra turns made and taken back
	Glitches     int
	Stalls       int   // frame windows dropped
	StalledMS    int64 // their total length
	DurationMS   int64
}

// Emit receives one frame. cells is only valid during the call.
type Emit func(t int64, cells []byte) error

// player is the simulated pair of players and the board under their hands.
type player struct {
	opt   Options
	rng   *rand.Rand
	b     *engine.Board
	cells []byte // what the sensors see
	now   int64
	emit  Emit
	stats Stats
	lag   []engine.Cell // claimed rings left on the board for later
	quiet int64         // no frames are emitted before this time (a stall)
	out   []byte        // the frame emitted, when a dead sensor changes it
	stuck byte          // what the dead sensor reads, once it has failed
}

// Play plays turns from start onto the board, calling emit for every scan.
func Play(start engine.Position, turns []engine.Turn, opt Options, emit Emit) (Stats, error) {
	if opt.ScanMS <= 0 {
		opt.ScanMS = DefaultOptions.ScanMS
	}
	if opt.SettleMS <= 0 {
		opt.SettleMS = DefaultOptions.SettleMS
	}
	if opt.Speed <= 0 {
		opt.Speed = 1
	}
	if opt.HopMS <= 0 {
		opt.HopMS = 1500
	}
	if opt.StallMS <= 0 {
		opt.StallMS = 600
	}
	pl := &player{opt: opt, rng: rand.New(rand.NewPCG(opt.Seed, 0x5eed)), b: start.Board(), cells: []byte(start.Cells()), emit: emit}
	if err := pl.hold(1000); err != nil {
		return pl.stats, err
	}
	p := start
	for i, turn := range turns {
		q, err := p.Play(turn)
		if err != nil {
			return pl.stats, fmt.Errorf("physical: turn %d %s: %w", i+1, engine.FormatTurn(p.Board(), turn), err)
		}
		if opt.Begin != nil {
			opt.Begin(i)
		}
		if err := pl.turn(p, turn, q); err != nil {
			return pl.stats, err
		}
		p = q
	}
	if err := pl.clearLag(); err != nil {
		return pl.stats, err
	}
	err := pl.hold(1000)
	pl.stats.DurationMS = pl.now
	return pl.stats, err
}

// ms scales a human duration and picks it between lo and hi.
func (pl *player) ms(lo, hi int) int64 {
	d := lo + pl.rng.IntN(hi-lo+1)
	return int64(float64(d) / pl.opt.Speed)
}

// scan emits the current cells once and advances the clock.
func (pl *player) scan() error {
	if pl.now < pl.quiet {
		pl.now += pl.opt.ScanMS // stalled: the hands move, nobody looks
		return nil
	}
	if pl.opt.Stalls > 0 && pl.rng.Float64() < pl.opt.Stalls {
		d := pl.opt.StallMS/4 + pl.rng.Int64N(pl.opt.StallMS*3/4+1)
		pl.quiet = pl.now + d
		pl.stats.Stalls++
		pl.stats.StalledMS += d
		pl.now += pl.opt.ScanMS
		return nil
	}
	pl.stats.Frames++
	frame := pl.cells
	if pl.opt.Dead && pl.now >= pl.opt.DeadFromMS {
		if pl.stuck == 0 {
			pl.stuck = pl.opt.DeadReading
			if pl.stuck == 0 {
				pl.stuck = pl.cells[pl.opt.DeadCell]
			}
		}
		pl.out = append(pl.out[:0], pl.cells...)
		pl.out[pl.opt.DeadCell] = pl.stuck
		frame = pl.out
	}
	err := pl.emit(pl.now, frame)
	pl.now += pl.opt.ScanMS
	return err
}

// hold keeps the board still for at least twice the settle time plus a
// human pause of up to extra ms, with the odd glitch.
func (pl *player) hold(extra int) error {
	d := max(2*pl.opt.SettleMS, settle.HoldMS(pl.opt.SettleMS, pl.opt.ScanMS)) + pl.ms(0, extra)
	glitchAt := int64(-1)
	if pl.rng.Float64() < pl.opt.Glitches {
		glitchAt = pl.now + pl.opt.SettleMS/2 + pl.rng.Int64N(d/2+1)
		pl.stats.Glitches++
	}
	for end := pl.now + d; pl.now < end; {
		if glitchAt >= 0 && pl.now >= glitchAt {
			glitchAt = -1
			c := pl.rng.IntN(len(pl.cells))
			was := pl.cells[c]
			pl.cells[c] = "?.owgb"[pl.rng.IntN(6)]
			for n := 1 + pl.rng.IntN(2); n > 0; n-- {
				if err := pl.scan(); err != nil {
					return err
				}
			}
			pl.cells[c] = was
			continue
		}
		if err := pl.scan(); err != nil {
			return err
		}
	}
	return nil
}

// touch changes one cell the way a hand does: unreadable for a few scans,
// then the new content. The result is not held.
func (pl *player) touch(c engine.Cell, to byte) error {
	pl.cells[c] = '?'
	for n := 1 + pl.rng.IntN(6); n > 0; n-- {
		if err := pl.scan(); err != nil {
			return err
		}
	}
	pl.cells[c] = to
	return pl.scan()
}

// brief shows the board for a moment shorter than the settle time.
func (pl *player) brief() error {
	for n := pl.rng.Int64N(pl.opt.SettleMS/pl.opt.ScanMS/2 + 1); n >= 0; n-- {
		if err := pl.scan(); err != nil {
			return err
		}
	}
	return nil
}

// pause holds the board either long enough to be seen or only briefly.
func (pl *player) pause() error {
	if pl.rng.IntN(2) == 0 {
		return pl.hold(600)
	}
	return pl.brief()
}

func (pl *player) turn(p engine.Position, turn engine.Turn, q engine.Position) error {
	if turn.Kind == engine.Pass {
		return nil // the referee passes for a player who cannot move
	}
	if pl.rng.Float64() < pl.opt.IllegalTries {
		if err := pl.illegalTry(p); err != nil {
			return err
		}
	}
	// A take-back must restore the board exactly, so none while claimed
	// rings of the last turn are still on it.
	if turn.Kind == engine.Place && len(pl.lag) == 0 && pl.rng.Float64() < pl.opt.Takebacks {
		if err := pl.takeback(p, turn); err != nil {
			return err
		}
	}
	lagging := pl.lag
	pl.lag = nil
	var err error
	switch turn.Kind {
	case engine.Place:
		err = pl.place(turn)
	case engine.Capture:
		err = pl.capture(turn)
	}
	if err != nil {
		return err
	}
	if err := pl.hold(800); err != nil { // the turn is complete: the referee commits it
		return err
	}
	for _, c := range lagging { // left over from the turn before
		if err := pl.clear(c); err != nil {
			return err
		}
	}
	claimed := q.Claimed()
	if len(claimed) > 0 && pl.rng.Float64() < pl.opt.Lag {
		pl.lag = claimed
		return nil
	}
	pl.rng.Shuffle(len(claimed), func(i, j int) { claimed[i], claimed[j] = claimed[j], claimed[i] })
	for _, c := range claimed {
		if err := pl.clear(c); err != nil {
			return err
		}
	}
	if len(claimed) > 0 {
		return pl.hold(400)
	}
	return nil
}

func (pl *player) clearLag() error {
	for _, c := range pl.lag {
		if err := pl.clear(c); err != nil {
			return err
		}
	}
	pl.lag = nil
	return nil
}

// clear takes a claimed ring off: the marble first, or both at once.
func (pl *player) clear(c engine.Cell) error {
	if pl.cells[c] != 'o' && pl.cells[c] != '.' && pl.rng.IntN(2) == 0 {
		if err := pl.touch(c, 'o'); err != nil {
			return err
		}
		if err := pl.pause(); err != nil {
			return err
		}
	}
	if err := pl.touch(c, '.'); err != nil {
		return err
	}
	return pl.pause()
}

func (pl *player) place(turn engine.Turn) error {
	marble := turn.Color.Letter()[0]
	steps := []func() error{
		func() error { return pl.touch(turn.At, marble) },
	}
	if turn.Remove != engine.NoCell {
		remove := func() error { return pl.touch(turn.Remove, '.') }
		if pl.rng.IntN(3) == 0 {
			steps = append([]func() error{remove}, steps...)
		} else {
			steps = append(steps, remove)
		}
	}
	for i, step := range steps {
		if err := step(); err != nil {
			return err
		}
		if i < len(steps)-1 {
			if err := pl.pause(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (pl *player) capture(turn engine.Turn) error {
	path := turn.Path()
	c := &captureHands{pl: pl, path: path, jumper: pl.cells[path[0]], jumped: make([]engine.Cell, len(path)-1)}
	for i := 1; i < len(path); i++ {
		c.jumped[i-1] = pl.b.Between(path[i-1], path[i])
	}
	// When each jumped marble comes off: 0 before its hop, 1 after it, 2 at
	// the end.
	c.when = make([]int, len(c.jumped))
	for i := range c.when {
		c.when[i] = pl.rng.IntN(3)
	}
	if pl.opt.Hover > 0 && pl.rng.Float64() < pl.opt.Hover {
		// The jumper lifted and held over the board, seen settled, but
		// set down well within a hop's time.
		pl.cells[path[0]] = 'o'
		if err := pl.holdFor(2*pl.opt.SettleMS + pl.rng.Int64N(pl.opt.HopMS/2)); err != nil {
			return err
		}
		pl.cells[path[0]] = c.jumper
	}
	var err error
	if pl.rng.IntN(2) == 0 {
		err = c.hopByHop()
	} else {
		err = c.sweep()
	}
	if err != nil {
		return err
	}
	for _, i := range pl.rng.Perm(len(c.jumped)) {
		if err := c.takeOff(c.jumped[i]); err != nil {
			return err
		}
	}
	return nil
}

// captureHands carries out one capture turn: the jumper's path, the
// marbles it jumps, and when each comes off (0 before its hop, 1 after
// it, 2 at the end).
type captureHands struct {
	pl     *player
	path   []engine.Cell
	jumper byte
	jumped []engine.Cell
	when   []int
}

// takeOff lifts a jumped marble, unless it is off already.
func (c *captureHands) takeOff(cell engine.Cell) error {
	if c.pl.cells[cell] == 'o' {
		return nil
	}
	if err := c.pl.touch(cell, 'o'); err != nil {
		return err
	}
	return c.pl.brief()
}

// land puts the jumper down, taking off first a jumped marble that still
// sits where it lands.
func (c *captureHands) land(cell engine.Cell) error {
	for _, m := range c.jumped {
		if m == cell {
			if err := c.takeOff(m); err != nil {
				return err
			}
		}
	}
	return c.pl.touch(cell, c.jumper)
}

// hopByHop moves the jumper one hop at a time, taking the jumped marbles
// off before or after their hop as when says.
func (c *captureHands) hopByHop() error {
	pl, path := c.pl, c.path
	for i := 1; i < len(path); i++ {
		if c.when[i-1] == 0 {
			if err := c.takeOff(c.jumped[i-1]); err != nil {
				return err
			}
		}
		if err := pl.touch(path[i-1], 'o'); err != nil {
			return err
		}
		if err := c.land(path[i]); err != nil {
			return err
		}
		if c.when[i-1] == 1 {
			if err := c.takeOff(c.jumped[i-1]); err != nil {
				return err
			}
		}
		if i < len(path)-1 {
			if err := pl.pause(); err != nil {
				return err
			}
		}
	}
	return nil
}

// sweep moves the jumper in one sweep to the last ring.
func (c *captureHands) sweep() error {
	if err := c.pl.touch(c.path[0], 'o'); err != nil {
		return err
	}
	if err := c.land(c.path[len(c.path)-1]); err != nil {
		return err
	}
	return c.pl.pause()
}

// illegalTry does something illegal, holds it so the referee sees it, and
// puts the board back.
func (pl *player) illegalTry(p engine.Position) error {
	saved := append([]byte(nil), pl.cells...)
	free := map[engine.Cell]bool{}
	for _, c := range p.FreeRings() {
		free[c] = true
	}
	var vacant, stuck []engine.Cell
	for c := 0; c < pl.b.Len(); c++ {
		if pl.cells[c] == 'o' {
			vacant = append(vacant, engine.Cell(c))
			if !free[engine.Cell(c)] {
				stuck = append(stuck, engine.Cell(c))
			}
		}
	}
	switch {
	case len(stuck) > 0 && pl.rng.IntN(2) == 0: // lift a ring that is not free
		if err := pl.touch(stuck[pl.rng.IntN(len(stuck))], '.'); err != nil {
			return err
		}
	case len(vacant) >= 2 && len(free) > 0: // two marbles at once
		pl.rng.Shuffle(len(vacant), func(i, j int) { vacant[i], vacant[j] = vacant[j], vacant[i] })
		// With no ring gone, two marbles are two legal placements when
		// the first fills the only free ring (then it removes none): that
		// would be no illegal try at all.
		if len(free) == 1 && (free[vacant[0]] || free[vacant[1]]) {
			return nil
		}
		for _, c := range vacant[:2] {
			if err := pl.touch(c, "wgb"[pl.rng.IntN(3)]); err != nil {
				return err
			}
		}
	default:
		return nil
	}
	if err := pl.hold(500); err != nil {
		return err
	}
	pl.stats.IllegalTries++
	for c := range saved {
		if pl.cells[c] != saved[c] {
			if err := pl.touch(engine.Cell(c), saved[c]); err != nil {
				return err
			}
		}
	}
	return pl.hold(300)
}

// takeback makes another legal placement, lets the referee commit it, and
// takes it back, before the recorded turn is played.
func (pl *player) takeback(p engine.Position, real engine.Turn) error {
	if p.HasCapture() {
		return nil
	}
	turns := p.LegalTurns(nil)
	alt := turns[pl.rng.IntN(len(turns))]
	q, err := p.Play(alt)
	if err != nil || alt == real || len(q.Claimed()) > 0 || q.Result().Over {
		return nil // keep it simple: no claims or endings to unwind
	}
	saved := append([]byte(nil), pl.cells...)
	if err := pl.place(alt); err != nil {
		return err
	}
	if err := pl.hold(500); err != nil {
		return err
	}
	pl.stats.Takebacks++
	if err := pl.touch(alt.At, 'o'); err != nil {
		return err
	}
	if alt.Remove != engine.NoCell {
		if err := pl.touch(alt.Remove, saved[alt.Remove]); err != nil {
			return err
		}
	}
	// Restored, the board must read as a take-back, not as the marble
	// lifted to jump: hold it for longer than a hop takes.
	if q.HasCapture() {
		if err := pl.holdFor(pl.opt.HopMS + pl.opt.SettleMS); err != nil {
			return err
		}
	}
	return pl.hold(300)
}

// holdFor keeps the board still for ms (referee time, not scaled).
func (pl *player) holdFor(ms int64) error {
	for end := pl.now + ms; pl.now < end; {
		if err := pl.scan(); err != nil {
			return err
		}
	}
	return nil
}

// Answer answers a referee's question as the players who played game g
// remember it: the longest option that is g's turns from turn on (a colour
// question: the colour g's turn put on cell). ok is false when no option
// is what they played: the players then leave the question open (the
// index returned is the referee's provisional line, or 0).
func Answer(b *engine.Board, g *engine.Game, about string, turn int, cell string, options []string, provisional int) (int, bool) {
	return AnswerSoFar(b, g, g.Len(), about, turn, cell, options, provisional)
}

// AnswerSoFar is Answer by players who have begun only the first played
// turns of g: what they did later is no answer to a question asked now.
func AnswerSoFar(b *engine.Board, g *engine.Game, played int, about string, turn int, cell string, options []string, provisional int) (int, bool) {
	if played < g.Len() {
		h := engine.NewGame(g.Start())
		for k := 0; k < played; k++ {
			tn, _ := g.Turn(k)
			if err := h.Play(tn); err != nil && h.PlayOverCapture(tn) != nil {
				break
			}
		}
		g = h
	}
	if about == "cell" {
		// The board missed a marble put down from turn on: the players
		// know where they put it, the first placement onto one of the
		// sockets offered. None: "another ring" (referee.OtherRing, the
		// last option when the sockets come a page at a time), if
		// offered.
		for k := max(turn-1, 0); k < g.Len(); k++ {
			tn, _ := g.Turn(k)
			if tn.Kind != engine.Place {
				continue
			}
			for i, o := range options {
				if o == b.Label(tn.At) {
					return i, true
				}
			}
		}
		if n := len(options); n > 0 && options[n-1] == "other" {
			return n - 1, true
		}
		return max(provisional, 0), false
	}
	if about == "colour" {
		at, err := b.ParseCell(cell)
		if err != nil {
			return max(provisional, 0), false
		}
		if turn < 1 || turn > g.Len() {
			return max(provisional, 0), false
		}
		want, _ := g.Turn(turn - 1)
		if want.Kind != engine.Place || want.At != at {
			return max(provisional, 0), false
		}
		for i, o := range options {
			if o == want.Color.Letter() {
				return i, true
			}
		}
		return max(provisional, 0), false
	}
	// Of the options that are g's turns, the longest: an option that
	// stops short of the last of them says a turn is still under way that
	// the players know they finished.
	best, bestN := -1, 0
	for i, o := range options {
		n := len(strings.Fields(o))
		if turn < 1 || turn-1+n > g.Len() || best >= 0 && n <= bestN {
			continue
		}
		parts := make([]string, 0, n)
		for k := turn - 1; k < turn-1+n; k++ {
			tn, _ := g.Turn(k)
			parts = append(parts, engine.FormatTurn(b, tn))
		}
		if strings.Join(parts, " ") == o {
			best, bestN = i, n
		}
	}
	if best >= 0 {
		return best, true
	}
	if n := len(options); n > 0 && options[n-1] == "other" {
		return n - 1, true // a page of lines, none theirs: the next ones
	}
	return max(provisional, 0), false
}

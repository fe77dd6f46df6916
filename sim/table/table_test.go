package table

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/settle"
)

// TestGames: the games to play are the built-in games in order, one
// record, or a random game the same for the same seed; a record that
// cannot be read or replayed is refused with its name.
func TestGames(t *testing.T) {
	games, note, err := Games("", 1)
	if err != nil {
		t.Fatal(err)
	}
	names := samples.BuiltinNames()
	if len(games) != len(names) || !strings.Contains(note, fmt.Sprint(len(names))) {
		t.Fatalf("built-in: %d games, note %q; want %d", len(games), note, len(names))
	}
	first, err := record.ReadFile(filepath.Join(samples.BuiltinDir(), names[0]))
	if err != nil {
		t.Fatal(err)
	}
	if len(games[0].Turns) != len(first.Turns) || games[0].Players != first.Players {
		t.Errorf("the first built-in game is %s, not %s", Describe(games[0]), Describe(first))
	}

	one, note, err := Games(filepath.Join(samples.BuiltinDir(), names[1]), 1)
	if err != nil || len(one) != 1 || note != "" {
		t.Fatalf("one record: %d games, note %q, %v", len(one), note, err)
	}

	a, _, err := Games(Random, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := Games(Random, 7)
	c, _, _ := Games(Random, 8)
	if fmt.Sprint(a[0].Turns) != fmt.Sprint(b[0].Turns) {
		t.Error("two random games of seed 7 differ")
	}
	if fmt.Sprint(a[0].Turns) == fmt.Sprint(c[0].Turns) {
		t.Error("the random games of seeds 7 and 8 are the same")
	}
	rep, err := a[0].Replay()
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Game.Position().Result().Over && rep.Game.Len() < 200 {
		t.Errorf("a random game stopped after %d turns, not over", rep.Game.Len())
	}

	dir := t.TempDir()
	if _, _, err := Games(filepath.Join(dir, "missing.sgf"), 1); err == nil || !strings.Contains(err.Error(), "missing.sgf") {
		t.Errorf("a missing record: %v; want an error naming it", err)
	}
	// A record whose second turn repeats the first is refused by name.
	bad := &record.Record{Variant: a[0].Variant, Turns: []engine.Turn{a[0].Turns[0], a[0].Turns[0]}}
	var buf bytes.Buffer
	if err := record.WriteJSON(&buf, bad); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Games(path, 1); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("an illegal record: %v; want an error naming it", err)
	}
}

func TestDescribe(t *testing.T) {
	for _, c := range []struct {
		rec  record.Record
		want string
	}{
		{record.Record{Variant: "37", Turns: make([]engine.Turn, 1)}, "a 37-ring game of 1 turn"},
		{record.Record{Variant: "48b", Turns: make([]engine.Turn, 12), Players: [2]string{"ann", "bob"}}, "a 48-ring game of 12 turns (ann v bob)"},
	} {
		if got := Describe(&c.rec); got != c.want {
			t.Errorf("Describe = %q; want %q", got, c.want)
		}
	}
}

// TestIsPrefix: the journal's game is resumed only if its moves begin
// the record.
func TestIsPrefix(t *testing.T) {
	rec := RandomGame(3)
	b, _, err := rec.Board()
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, turn := range rec.Turns[:3] {
		moves = append(moves, engine.FormatTurn(b, turn))
	}
	if !isPrefix(nil, rec) || !isPrefix(moves, rec) {
		t.Error("the record's first turns are not a prefix of it")
	}
	other := append(append([]string(nil), moves[:2]...), engine.FormatTurn(b, rec.Turns[3]))
	if isPrefix(other, rec) {
		t.Errorf("%v is taken for a prefix of a record that begins %v", other, moves)
	}
	all := make([]string, len(rec.Turns)+1)
	if isPrefix(all, rec) {
		t.Error("more moves than the record has are taken for a prefix")
	}
}

// scanHands is the players' time driven by the test: each Frame is one
// scan of scanMS that shows the base's cells to the frame watch.
type scanHands struct {
	now    time.Time
	ms     int64
	scanMS int64
	cells  func() string
	w      *frameWatch
	frames int
}

func (h *scanHands) Now() time.Time { return h.now }
func (h *scanHands) Sleep(ctx context.Context, d time.Duration) error {
	h.now = h.now.Add(max(d, 0))
	return ctx.Err()
}
func (h *scanHands) Frame(ctx context.Context, _ time.Duration) error {
	h.ms += h.scanMS
	h.now = h.now.Add(time.Duration(h.scanMS) * time.Millisecond)
	h.w.frame(h.ms, []byte(h.cells()))
	h.frames++
	return ctx.Err()
}
func (h *scanHands) Go(f func(hands)) { go f(h) }

// TestFrameWatchAwaitsTheSettleRule: a board counts as seen once the scan
// has shown it for the settle time and more than settle.MinScans frames,
// and one frame more; a board never shown times out, naming the wait.
func TestFrameWatchAwaitsTheSettleRule(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ scanMS, settleMS int64 }{{5, 200}, {10, 200}, {100, 200}} {
		w := newFrameWatch()
		h := &scanHands{now: time.Unix(0, 0), scanMS: c.scanMS, w: w, cells: func() string { return "ow." }}
		w.frame(0, []byte("oo.")) // the board before
		if err := w.await(ctx, h, "ow.", c.settleMS, time.Minute); err != nil {
			t.Fatalf("scan %d ms: %v", c.scanMS, err)
		}
		// The frames that showed it: the first at scanMS, the last but one
		// at least settleMS later, and more than MinScans of them.
		shown := int64(h.frames)
		if (shown-2)*c.scanMS < c.settleMS || shown <= settle.MinScans {
			t.Errorf("scan %d ms, settle %d ms: seen settled after %d frames", c.scanMS, c.settleMS, shown)
		}
		if (shown-3)*c.scanMS >= c.settleMS && shown-1 > settle.MinScans {
			t.Errorf("scan %d ms, settle %d ms: waited %d frames, more than the rule asks", c.scanMS, c.settleMS, shown)
		}
	}

	w := newFrameWatch()
	h := &scanHands{now: time.Unix(0, 0), scanMS: 10, w: w, cells: func() string { return "oo." }}
	err := w.await(ctx, h, "ow.", 200, 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "not seen settled within 5s") {
		t.Errorf("a board never shown: %v", err)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := w.await(cctx, h, "ow.", 200, time.Minute); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestPlayerOptions: the generator's time runs speed times faster than
// the wall clock, so the settle and hop times scale with the speed, and
// stalls come about every stallEvery of wall time.
func TestPlayerOptions(t *testing.T) {
	opt := PlayerOptions(9, 4, 250, 0)
	if opt.Seed != 9 || opt.Speed != 4 || opt.SettleMS != 1000 || opt.Stalls != 0 {
		t.Errorf("speed 4, settle 250: %+v", opt)
	}
	opt = PlayerOptions(9, 2, 250, 2*time.Second)
	// One scan in 2 s of wall time is one in 4 s of generator time.
	if want := float64(opt.ScanMS) / 4000; opt.Stalls != want || opt.StallMS != 1200 {
		t.Errorf("speed 2, stalls every 2s: Stalls %g, StallMS %d; want %g, 1200", opt.Stalls, opt.StallMS, want)
	}
}

// TestOpenRefusesBadConfig: a table without games, at no speed, or with
// the engine on no side is refused, naming what is wrong.
func TestOpenRefusesBadConfig(t *testing.T) {
	games := []*record.Record{RandomGame(1)}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Speed: 1}, "no games"},
		{Config{Games: games}, "speed 0"},
		{Config{Games: games, Speed: -2}, "speed -2"},
		{Config{Games: games, Speed: 1, VsEngine: true, EnginePlayer: 2}, "engine player 2"},
	} {
		if tb, err := Open(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			if tb != nil {
				tb.Close()
			}
			t.Errorf("Open(%+v): %v; want an error saying %q", c.cfg, err, c.want)
		}
	}
}

// TestSpawn: on the wall clock the players run on a goroutine of their
// own with the wall clock's hands; on virtual time they run as the
// lockstep clock's participant, from its next step, with its hands.
func TestSpawn(t *testing.T) {
	games := []*record.Record{RandomGame(1)}
	wall, err := Open(Config{Games: games, Speed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer wall.Close()
	if wall.Lockstep() != nil || wall.Rig() == nil || wall.Calibration() == nil {
		t.Fatalf("on the wall clock: lockstep %v, rig %v, calibration %v", wall.Lockstep(), wall.Rig(), wall.Calibration())
	}
	got := make(chan hands, 1)
	wall.Spawn(func() { got <- wall.hands })
	if _, ok := (<-got).(wallHands); !ok {
		t.Error("on the wall clock the players do not keep the wall clock")
	}

	virt, err := Open(Config{Games: games, Speed: 1, Virtual: true})
	if err != nil {
		t.Fatal(err)
	}
	defer virt.Close()
	ls := virt.Lockstep()
	if ls == nil {
		t.Fatal("on virtual time: no lockstep clock")
	}
	virt.Spawn(func() { got <- virt.hands })
	select {
	case <-got:
		t.Fatal("the players ran before the lockstep clock stepped")
	default:
	}
	ls.Step(ls.Now().Add(time.Millisecond))
	if _, ok := (<-got).(stepHands); !ok {
		t.Error("on virtual time the players do not keep the lockstep clock")
	}
}

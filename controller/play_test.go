package controller

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// shows records what the display was asked to show, and wakes waiters.
type shows struct {
	mu   sync.Mutex
	g    []referee.Guidance
	s    []wire.State
	wake chan struct{}
}

func (d *shows) Show(g referee.Guidance, s wire.State) {
	d.mu.Lock()
	d.g, d.s = append(d.g, g), append(d.s, s)
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// await waits until a show from index from on satisfies ok, and returns
// its index. It waits for the display, never for the clock.
func (d *shows) await(from int, ok func(referee.Guidance, wire.State) bool) int {
	for {
		d.mu.Lock()
		for i := from; i < len(d.g); i++ {
			if ok(d.g[i], d.s[i]) {
				d.mu.Unlock()
				return i
			}
		}
		from = len(d.g)
		d.mu.Unlock()
		<-d.wake
	}
}

func (d *shows) len() int { d.mu.Lock(); defer d.mu.Unlock(); return len(d.g) }

// playTable drives a controller with settled boards.
type playTable struct {
	t   *testing.T
	c   *Controller
	now int64
}

func (b *playTable) hold(cells string) {
	b.t.Helper()
	for i := 0; i < 30; i++ {
		if err := b.c.Frame(b.now, []byte(cells)); err != nil {
			b.t.Fatal(err)
		}
		b.now += 5
	}
}

func (b *playTable) play(p engine.Position, s string) engine.Position {
	b.t.Helper()
	turn, err := engine.ParseTurn(p.Board(), s)
	if err != nil {
		b.t.Fatal(err)
	}
	q := p.MustPlay(turn)
	b.hold(q.Cells())
	return q
}

func hasRole(g referee.Guidance, roles ...referee.Role) bool {
	for _, h := range g.Hints {
		for _, r := range roles {
			if h.Role == r {
				return true
			}
		}
	}
	return false
}

// TestPlayAgainstEngine: the engine (player 1, level 1) thinks after the
// person's turn, saying so; its turn is lit and is the search's own; a
// different legal turn is refused; carried out as lit, it is committed;
// its last turn can be shown again; a hint lights a legal turn for the
// person; and taking back the person's turn takes back the engine's too.
func TestPlayAgainstEngine(t *testing.T) {
	d := &shows{wake: make(chan struct{}, 1)}
	pub := &fakePub{}
	c, err := New(Config{BoardID: "b", Variant: "37", First: 0, Publisher: pub, Display: d, Play: &Play{Engine: 1, Level: 1, Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b := &playTable{t: t, c: c}
	start := c.ref.Position()
	b.hold(start.Cells())
	p1 := b.play(start, "WD4-A1")

	i := d.await(0, func(g referee.Guidance, s wire.State) bool {
		return s.Play != nil && s.Play.Thinking && strings.Contains(g.Status, "P1 (the engine) is thinking") && !hasRole(g, referee.RoleFreeRing)
	})
	d.await(i, func(_ referee.Guidance, s wire.State) bool { return s.Play != nil && s.Play.Turn != "" })
	st := c.State()
	want := search.Search(context.Background(), p1, search.Options{Level: 1, Seed: 3}).Move
	if st.Play.Turn != engine.FormatTurn(p1.Board(), want) || st.Play.Thinking {
		t.Fatalf("the engine's turn %q (thinking %v); the search plays %s", st.Play.Turn, st.Play.Thinking, engine.FormatTurn(p1.Board(), want))
	}
	if g := c.guidance(); !strings.Contains(g.Status, "plays "+st.Play.Turn) || !hasRole(g, referee.RolePlaceWhite, referee.RolePlaceGrey, referee.RolePlaceBlack, referee.RoleChainContinues) {
		t.Fatalf("guidance on the engine's turn: %q", g.Status)
	}

	// A different legal turn is refused, and the board put back.
	var other engine.Turn
	for _, turn := range p1.LegalTurns(nil) {
		if turn != want && turn.Kind == engine.Place && turn.Remove != engine.NoCell {
			other = turn
			break
		}
	}
	b.hold(p1.MustPlay(other).Cells())
	if st := c.State(); st.Turn != 1 || !strings.Contains(st.Status, "Illegal") {
		t.Fatalf("a different legal turn: turn %d, status %q; want it refused", st.Turn, st.Status)
	}
	b.hold(p1.Cells())
	p2 := p1.MustPlay(want)
	b.hold(p2.Cells())
	if st := c.State(); st.Turn != 2 || st.Moves[1] != engine.FormatTurn(p1.Board(), want) || st.Play.Turn != "" {
		t.Fatalf("the engine's turn carried out: turn %d, moves %v, still expected %q", st.Turn, st.Moves, st.Play.Turn)
	}

	// Its last turn, shown again on request.
	if err := c.Command(b.now, command.ShowLast{}); err != nil {
		t.Fatal(err)
	}
	if g := c.guidance(); !strings.HasPrefix(g.Status, "The engine played "+st.Play.Turn) {
		t.Errorf("show-last: %q", g.Status)
	}
	if g := c.guidance(); !hasRole(g, referee.RolePlaceWhite, referee.RolePlaceGrey, referee.RolePlaceBlack, referee.RoleJumpTarget) {
		t.Errorf("show-last lights nothing: %+v", g.Hints)
	}

	// A hint for the person: a legal turn, lit, not binding.
	n := d.len()
	if err := c.Command(b.now, command.Hint{}); err != nil {
		t.Fatal(err)
	}
	d.await(n, func(_ referee.Guidance, s wire.State) bool { return s.Play != nil && s.Play.Hint != "" })
	st = c.State()
	hint, err := engine.ParseTurn(p2.Board(), st.Play.Hint)
	if err != nil || !p2.Legal(hint) {
		t.Fatalf("hint %q: not a legal turn (%v)", st.Play.Hint, err)
	}
	if g := c.guidance(); !strings.HasPrefix(g.Status, "Hint: "+st.Play.Hint) {
		t.Errorf("hint status %q", g.Status)
	}
	if err := c.Command(b.now, command.Hint{}); err != nil || !strings.HasPrefix(c.guidance().Status, "The engine played") {
		t.Errorf("hint pressed again: %v, %q; want the engine's last turn", err, c.guidance().Status)
	}

	// Take-back: the person's turn and the engine's reply.
	if err := c.Command(b.now, command.Takeback{}); err != nil {
		t.Fatal(err)
	}
	if g := c.guidance(); !strings.HasPrefix(g.Status, "Take back turn 1") {
		t.Errorf("take-back guidance %q; want from turn 1", g.Status)
	}
	b.hold(start.Cells())
	if st := c.State(); st.Turn != 0 || st.ToMove != 0 || st.Play.Thinking || st.Play.Turn != "" {
		t.Fatalf("after the take-back: turn %d, to move %d, play %+v; want the start, the person to move", st.Turn, st.ToMove, *st.Play)
	}
	if err := c.Command(b.now, command.ShowLast{}); err == nil {
		t.Error("show-last with no engine turn played was accepted")
	}

	// The engine's turn in new-game, and its checks.
	none := NoEngine
	if err := c.Command(b.now, command.NewGame{Engine: &none}); err != nil || c.State().Play != nil {
		t.Errorf("new-game without the engine: %v, play %+v", err, c.State().Play)
	}
	bad := 2
	if err := c.Command(b.now, command.NewGame{Engine: &bad}); err == nil || !strings.Contains(err.Error(), "engine player 2") {
		t.Errorf("new-game with engine 2: %v", err)
	}
	zero := 0
	if err := c.Command(b.now, command.NewGame{Engine: &zero, Level: 2}); err != nil {
		t.Fatal(err)
	}
	d.await(d.len(), func(_ referee.Guidance, s wire.State) bool {
		return s.Play != nil && s.Play.Turn != "" && s.Play.Engine == 0 && s.Play.Level == 2
	})
}

// TestEngineGameResumes: the engine's side is journalled with the game: a
// board restarted mid-game plays on with it, whatever its configuration
// says; a game of two people resumes as one.
func TestEngineGameResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(Config{BoardID: "b", Variant: "37", Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	one := 1
	if err := c.Command(0, command.NewGame{Engine: &one, Level: 2}); err != nil {
		t.Fatal(err)
	}
	c.Close()
	j.Close()
	for _, cfg := range []*Play{nil, {Engine: 0, Level: 5}} {
		j, g, err := journal.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if g.Engine == nil || g.Engine.Player != 1 || g.Engine.Level != 2 {
			t.Fatalf("journalled engine %+v; want player 1 level 2", g.Engine)
		}
		c, err := New(Config{BoardID: "b", Variant: "37", Journal: j, Resume: g, Play: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if p := c.State().Play; p == nil || p.Engine != 1 || p.Level != 2 {
			t.Errorf("configured %+v: resumed play %+v; want the journal's, player 1 level 2", cfg, p)
		}
		c.Close()
		j.Close()
	}
	j, g, _ := journal.Open(path)
	c, err = New(Config{BoardID: "b", Variant: "37", Journal: j, Resume: g})
	if err != nil {
		t.Fatal(err)
	}
	none := NoEngine
	if err := c.Command(0, command.NewGame{Engine: &none}); err != nil {
		t.Fatal(err)
	}
	c.Close()
	j.Close()
	j, g, _ = journal.Open(path)
	defer j.Close()
	c, err = New(Config{BoardID: "b", Variant: "37", Journal: j, Resume: g, Play: &Play{Engine: 0}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if p := c.State().Play; p != nil {
		t.Errorf("a game of two people resumed with the engine: %+v", p)
	}
}

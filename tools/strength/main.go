// Command strength plays a match between two players over fixed openings,
// each opening twice with the colours swapped, and reports the score of
// the first with a 95 % Wilson score interval (draws count half) and the
// Elo difference it stands for. "make strength" runs it.
//
//	go run ./tools/strength --a level:6 --b level:4 --board 37 --openings 10
//
// Players:
//
//	level:L          engine/search at level L (a node budget)
//	nodes:N          engine/search with N nodes a turn
//	ms:T             engine/search with T ms a turn (not reproducible)
//	random           a random legal turn
//	dumbot:D[:N]     the Dumbot-like baseline (engine/search/arena) to depth D,
//	                 with N nodes a turn (0 or left out: no limit)
//	uct:N            the Zertz3D-like baseline: UCT with N random playouts a turn
//	kartoved:D[:N]   the Kartoved-like baseline: plain alpha-beta to depth D
//	                 (1, 3 or 5 in the program), captures-only evaluation,
//	                 with N nodes a turn (0 or left out: no limit)
//	holtz:N          the Holtz-like baseline: iterative deepening with a
//	                 capture extension, N nodes a turn
//
// Each board's line also gives each side's mean time per turn (wall
// clock, so it depends on the machine's load; node budgets keep the score
// itself the same on every machine).
//
//	exec:PATH[,ARG…] a program speaking the "zertzboard engine" protocol (an
//	                 older build, say), sent "go" with --go's words
//
// Layer: cmd. May import: base, game, drivers, sensors, services,
// presentation, config, simulator, rig, board, players, cmd.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
	"github.com/zertzboard/zertzboard/engine/search/arena"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strength", flag.ContinueOnError)
	fs.SetOutput(stderr)
	a := fs.String("a", "level:6", "the first player (see the package doc: level:L, nodes:N, ms:T, random, dumbot:D[:N], uct:N, kartoved:D[:N], holtz:N, exec:PATH)")
	b := fs.String("b", "level:4", "the second player")
	boards := fs.String("board", "37", "comma-separated variants to play on: 37, 48, 61, 37b, …")
	openings := fs.Int("openings", 10, "openings per board; each is played twice, colours swapped")
	seed := fs.Uint64("seed", 1, "chooses the openings (and the engines' tie-breaks)")
	goWords := fs.String("go", "level 6", "for exec: players, the words after \"go\"")
	jobs := fs.Int("jobs", 1, "games played at once (each on its own players)")
	verbose := fs.Bool("v", false, "print every game")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 || *openings < 1 || *jobs < 1 {
		fmt.Fprintln(stderr, "strength: want --openings and --jobs of 1 or more, and no arguments")
		return 2
	}
	for _, spec := range []string{*a, *b} {
		if _, err := newPlayer(spec, *seed, *goWords); err != nil {
			fmt.Fprintf(stderr, "strength: %v\n", err)
			return 2
		}
	}
	var total arena.Score
	for _, v := range strings.Split(*boards, ",") {
		bd, rules, err := engine.ParseVariant(strings.TrimSpace(v))
		if err != nil {
			fmt.Fprintf(stderr, "strength: --board: %v\n", err)
			return 2
		}
		t0 := time.Now()
		s, clocks, err := match(arena.Openings(bd, rules, *openings, *seed), *a, *b, *seed, *goWords, *jobs, func(line string) {
			if *verbose {
				fmt.Fprintln(stdout, line)
			}
		})
		if err != nil {
			fmt.Fprintf(stderr, "strength: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s rings: %s against %s: %s, Elo %s (%.0f s; per turn: a %s, b %s)\n", v, *a, *b, s, elo(s), time.Since(t0).Seconds(), clocks[0], clocks[1])
		total.Games += s.Games
		total.Wins += s.Wins
		total.Draws += s.Draws
		total.Losses += s.Losses
	}
	if strings.Contains(*boards, ",") {
		fmt.Fprintf(stdout, "all boards: %s against %s: %s, Elo %s\n", *a, *b, total, elo(total))
	}
	return 0
}

func elo(s arena.Score) string {
	lo, hi := s.Wilson()
	return fmt.Sprintf("%+.0f (%+.0f to %+.0f)", arena.Elo(s.Fraction()), arena.Elo(lo), arena.Elo(hi))
}

// clock adds up one side's time and turns over a match.
type clock struct {
	d     time.Duration
	turns int
}

func (c clock) String() string {
	if c.turns == 0 {
		return "no turns"
	}
	return fmt.Sprintf("%.1f ms", float64(c.d.Microseconds())/1000/float64(c.turns))
}

// clocked times the turns of the player it wraps.
type clocked struct {
	arena.Player
	c clock
}

func (c *clocked) Turn(p engine.Position) engine.Turn {
	t0 := time.Now()
	t := c.Player.Turn(p)
	c.c.d += time.Since(t0)
	c.c.turns++
	return t
}

// match plays the openings on jobs goroutines, each game with players of
// its own (the players keep state), and adds the scores up in game order,
// with each side's time per turn.
// matchGame is one game of a match: an opening, and whether player a
// moves second.
type matchGame struct {
	i    int
	swap bool
}

// gameResult is what one game of a match gave.
type gameResult struct {
	o      arena.Outcome
	clocks [2]clock
	err    error
}

func match(openings []engine.Position, a, b string, seed uint64, goWords string, jobs int, say func(string)) (arena.Score, [2]clock, error) {
	var games []matchGame
	for i := range openings {
		games = append(games, matchGame{i, false}, matchGame{i, true})
	}
	results := make([]gameResult, len(games))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				results[k] = playMatchGame(openings[games[k].i], games[k].swap, a, b, seed+uint64(k), goWords)
			}
		}()
	}
	for k := range games {
		next <- k
	}
	close(next)
	wg.Wait()
	return tally(games, results, say)
}

// playMatchGame plays one game between fresh players a and b from
// opening, b first if swap.
func playMatchGame(opening engine.Position, swap bool, a, b string, seed uint64, goWords string) gameResult {
	closePlayer := func(p arena.Player) {
		if c, ok := p.(io.Closer); ok {
			c.Close()
		}
	}
	pa, err := newPlayer(a, seed, goWords)
	if err != nil {
		return gameResult{err: err}
	}
	defer closePlayer(pa)
	pb, err := newPlayer(b, seed+1000, goWords)
	if err != nil {
		return gameResult{err: err}
	}
	defer closePlayer(pb)
	ca, cb := &clocked{Player: pa}, &clocked{Player: pb}
	players := [2]arena.Player{ca, cb}
	if swap {
		players = [2]arena.Player{cb, ca}
	}
	o, err := arena.PlayGame(opening, players)
	return gameResult{o, [2]clock{ca.c, cb.c}, err}
}

// tally adds the games' results up from player a's side, saying each.
func tally(games []matchGame, results []gameResult, say func(string)) (arena.Score, [2]clock, error) {
	var s arena.Score
	var clocks [2]clock
	for k, r := range results {
		if r.err != nil {
			return s, clocks, r.err
		}
		for i := range clocks {
			clocks[i].d += r.clocks[i].d
			clocks[i].turns += r.clocks[i].turns
		}
		aSide := 0
		if games[k].swap {
			aSide = 1
		}
		s.Games++
		res := "draw"
		switch r.o.Winner {
		case -1:
			s.Draws++
		case aSide:
			s.Wins++
			res = "a wins"
		default:
			s.Losses++
			res = "b wins"
		}
		say(fmt.Sprintf("opening %d, a moves %s: %s (%s, %d turns)", games[k].i+1, map[bool]string{false: "first", true: "second"}[games[k].swap], res, r.o.Reason, r.o.Turns))
	}
	return s, clocks, nil
}

func newPlayer(spec string, seed uint64, goWords string) (arena.Player, error) {
	kind, arg, _ := strings.Cut(spec, ":")
	num := func(s string) (int64, error) {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("player %q: %q is not a whole number", spec, s)
		}
		return v, nil
	}
	switch kind {
	case "level":
		v, err := num(arg)
		if err != nil || v < 1 || v > search.MaxLevel {
			return nil, fmt.Errorf("player %q: want level:1 to level:%d", spec, search.MaxLevel)
		}
		return &arena.Engine{Label: spec, Opt: search.Options{Level: int(v), Seed: seed}}, nil
	case "nodes":
		v, err := num(arg)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("player %q: want nodes:N, N ≥ 1", spec)
		}
		return &arena.Engine{Label: spec, Opt: search.Options{MaxNodes: v, Seed: seed}}, nil
	case "ms":
		v, err := num(arg)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("player %q: want ms:T, T ≥ 1", spec)
		}
		return &timed{label: spec, d: time.Duration(v) * time.Millisecond, seed: seed}, nil
	case "random":
		return &arena.Random{Seed: seed}, nil
	case "dumbot":
		d, n, _ := strings.Cut(arg, ":")
		depth, err := num(d)
		if err != nil || depth < 1 {
			return nil, fmt.Errorf("player %q: want dumbot:DEPTH[:NODES]", spec)
		}
		var nodes int64
		if n != "" {
			if nodes, err = num(n); err != nil {
				return nil, err
			}
		}
		return &arena.Dumbot{Depth: int(depth), MaxNodes: nodes}, nil
	case "uct":
		v, err := num(arg)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("player %q: want uct:ITERATIONS", spec)
		}
		return &arena.UCT{Iterations: int(v), Seed: seed}, nil
	case "kartoved":
		d, n, _ := strings.Cut(arg, ":")
		depth, err := num(d)
		if err != nil || depth < 1 {
			return nil, fmt.Errorf("player %q: want kartoved:DEPTH[:NODES]", spec)
		}
		var nodes int64
		if n != "" {
			if nodes, err = num(n); err != nil {
				return nil, err
			}
		}
		return &arena.Kartoved{Depth: int(depth), MaxNodes: nodes}, nil
	case "holtz":
		v, err := num(arg)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("player %q: want holtz:NODES, NODES ≥ 1", spec)
		}
		return &arena.Holtz{MaxNodes: v}, nil
	case "exec":
		parts := strings.Split(arg, ",")
		return startExec(spec, parts[0], parts[1:], goWords)
	}
	return nil, fmt.Errorf("player %q: want level:L, nodes:N, ms:T, random, dumbot:D[:N], uct:N, kartoved:D[:N], holtz:N or exec:PATH", spec)
}

// timed is the engine with a time budget.
type timed struct {
	label string
	d     time.Duration
	seed  uint64
}

func (t *timed) Name() string { return t.label }

func (t *timed) Turn(p engine.Position) engine.Turn {
	ctx, cancel := context.WithTimeout(context.Background(), t.d)
	defer cancel()
	return search.Search(ctx, p, search.Options{Seed: t.seed}).Move
}

// execPlayer talks to a program over the engine protocol.
type execPlayer struct {
	label   string
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Scanner
	goWords string
}

func startExec(spec, path string, args []string, goWords string) (*execPlayer, error) {
	cmd := exec.Command(path, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("player %q: %v", spec, err)
	}
	return &execPlayer{label: spec, cmd: cmd, in: in, out: bufio.NewScanner(out), goWords: goWords}, nil
}

func (e *execPlayer) Name() string { return e.label }

// Turn sends the position and a go, and reads the bestmove. A program that
// fails answers with a pass, which the game refuses as illegal (unless it
// is the only turn), so the match stops with the program named.
func (e *execPlayer) Turn(p engine.Position) engine.Turn {
	fmt.Fprintf(e.in, "position text %s\ngo %s\n", p, e.goWords)
	for e.out.Scan() {
		if m, ok := strings.CutPrefix(e.out.Text(), "bestmove "); ok {
			t, err := engine.ParseTurn(p.Board(), m)
			if err != nil {
				break
			}
			return t
		}
	}
	return engine.PassTurn()
}

func (e *execPlayer) Close() error {
	fmt.Fprintln(e.in, "quit")
	e.in.Close()
	return e.cmd.Wait()
}

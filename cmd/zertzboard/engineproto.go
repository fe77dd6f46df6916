package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
)

func init() {
	register(command{name: "engine", summary: "the engine on a line protocol (standard input and output), for GUIs and match runners", run: runEngine})
}

// stdin is the engine protocol's input; tests replace it.
var stdin io.Reader = os.Stdin

const engineAbout = `
Speaks a line protocol on standard input and output, like a chess engine's
UCI, for GUIs and match runners. One command a line:

  isready                          answered by "readyok"
  position startpos [VARIANT] [moves M1 M2 …]
                                   a board's start (VARIANT: 37, 48, 61,
                                   37b for blitz, …; default --board), then
                                   these turns in notation
  position text TEXT [moves M1 …]  a position's text form, then these turns
  go [level L | nodes N | ms T | infinite] [seed S]
                                   search the position; without a budget,
                                   --level. Prints "info" lines, then
                                   "bestmove M"
  stop                             end the search now: its best turn so far
                                   is printed as "bestmove"
  quit                             end the search and exit

Replies:
  info depth D score S win_prob P nodes N ms T pv M1 M2 …
                                   after each completed depth (score and
                                   win_prob for the player to move)
  bestmove M                       the turn to play; "bestmove none" when
                                   the game is over
  error TEXT                       a line that could not be obeyed, and why;
                                   the engine carries on

A "position" or "go" during a search waits for its bestmove first (and ends
an infinite search), so commands can be piped in; only "stop" and "quit"
cut a bounded search short. At the end of the input the engine waits for a
running search (ends an infinite one) and exits 0.

Example:
  printf 'position startpos 37 moves WD4-A1\ngo level 4\n' | zertzboard engine`

func runEngine(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("engine", "[--board B] [--level L]", engineAbout, stderr)
	board := fs.String("board", "37", "the variant of \"position startpos\" without one: 37, 40, 43, 44, 48 or 61, with b for blitz (37b)")
	level := fs.Int("level", search.DefaultLevel, fmt.Sprintf("the level of \"go\" without a budget, 1 to %d", search.MaxLevel))
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "zertzboard engine: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	if *level < 1 || *level > search.MaxLevel {
		return fail("--level %d: want 1 to %d", *level, search.MaxLevel)
	}
	b, r, err := engine.ParseVariant(*board)
	if err != nil {
		return fail("--board %s: %s", *board, errText(err))
	}
	s := &engineSession{out: stdout, variant: *board, level: *level, pos: engine.NewPosition(b, r, 0)}
	s.serve(stdin)
	return exitOK
}

type engineSession struct {
	mu      sync.Mutex // serialises writes to out
	out     io.Writer
	variant string
	level   int
	pos     engine.Position

	cancel   context.CancelFunc
	done     chan struct{}
	infinite bool
}

func (s *engineSession) say(format string, a ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.out, format+"\n", a...)
}

func (s *engineSession) serve(in io.Reader) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "isready":
			s.say("readyok")
		case "position":
			s.settle()
			if err := s.position(f[1:]); err != nil {
				s.say("error %v", err)
			}
		case "go":
			s.settle()
			if err := s.goSearch(f[1:]); err != nil {
				s.say("error %v", err)
			}
		case "stop":
			s.stop()
		case "quit":
			s.stop()
			return
		default:
			s.say("error unknown command %q (want isready, position, go, stop or quit)", f[0])
		}
	}
	if err := sc.Err(); err != nil {
		s.say("error reading the input: %v", err)
	}
	// End of input: let a bounded search finish, end an infinite one.
	s.settle()
}

func (s *engineSession) position(f []string) error {
	if len(f) == 0 {
		return fmt.Errorf("position: want \"startpos [VARIANT]\" or \"text TEXT\", then optionally \"moves M1 M2 …\"")
	}
	moves := -1
	for i, w := range f {
		if w == "moves" {
			moves = i
			break
		}
	}
	head := f
	var turns []string
	if moves >= 0 {
		head, turns = f[:moves], f[moves+1:]
	}
	var p engine.Position
	switch head[0] {
	case "startpos":
		v := s.variant
		switch len(head) {
		case 1:
		case 2:
			v = head[1]
		default:
			return fmt.Errorf("position startpos: unexpected %q after the variant", head[2])
		}
		b, r, err := engine.ParseVariant(v)
		if err != nil {
			return fmt.Errorf("position startpos: %v", err)
		}
		p = engine.NewPosition(b, r, 0)
	case "text":
		var err error
		p, err = engine.ParsePosition(strings.Join(head[1:], " "))
		if err != nil {
			return fmt.Errorf("position text: %v", err)
		}
	default:
		return fmt.Errorf("position: %q: want startpos or text", head[0])
	}
	p, err := playMoves(p, strings.Join(turns, " "))
	if err != nil {
		return fmt.Errorf("position: %v", err)
	}
	s.pos = p
	return nil
}

func (s *engineSession) goSearch(f []string) error {
	opt := search.Options{}
	infinite := false
	var ms int64
	budgets := 0
	for i := 0; i < len(f); i++ {
		key := f[i]
		if key == "infinite" {
			infinite = true
			budgets++
			continue
		}
		if i+1 >= len(f) {
			return fmt.Errorf("go: %q needs a number", key)
		}
		v, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil || v < 0 || key != "seed" && v == 0 {
			return fmt.Errorf("go: %s %q: want a positive whole number", key, f[i+1])
		}
		i++
		switch key {
		case "level":
			if v > search.MaxLevel {
				return fmt.Errorf("go: level %d: want 1 to %d", v, search.MaxLevel)
			}
			opt.Level = int(v)
			budgets++
		case "nodes":
			opt.MaxNodes = v
			budgets++
		case "ms":
			ms = v
			budgets++
		case "seed":
			opt.Seed = uint64(v)
		default:
			return fmt.Errorf("go: unknown %q (want level, nodes, ms, infinite or seed)", key)
		}
	}
	if budgets > 1 {
		return fmt.Errorf("go: give one budget: level, nodes, ms or infinite")
	}
	if budgets == 0 {
		opt.Level = s.level
	}
	p := s.pos
	if p.Result().Over {
		s.say("bestmove none")
		return nil
	}
	var ctx context.Context
	var cancel context.CancelFunc
	if ms > 0 {
		ctx, cancel = context.WithTimeout(context.Background(), time.Duration(ms)*time.Millisecond)
	} else {
		ctx, cancel = context.WithCancel(context.Background())
	}
	if infinite {
		opt.MaxNodes = math.MaxInt64
	}
	b := p.Board()
	t0 := time.Now()
	opt.Info = func(in search.Info) {
		pv := make([]string, len(in.PV))
		for i, t := range in.PV {
			pv[i] = engine.FormatTurn(b, t)
		}
		s.say("info depth %d score %d win_prob %.3f nodes %d ms %d pv %s", in.Depth, in.Score,
			float64(search.WinPermille(in.Score))/1000, in.Nodes, time.Since(t0).Milliseconds(), strings.Join(pv, " "))
	}
	done := make(chan struct{})
	s.cancel, s.done, s.infinite = cancel, done, infinite
	go func() {
		defer close(done)
		defer cancel()
		res := search.Search(ctx, p, opt)
		s.say("bestmove %s", engine.FormatTurn(b, res.Move))
	}()
	return nil
}

// settle waits for a running search to end, and ends an infinite one.
func (s *engineSession) settle() {
	if s.infinite {
		s.stop()
	}
	s.wait()
}

// stop ends the running search, if any, and waits for its bestmove.
func (s *engineSession) stop() {
	if s.cancel != nil {
		s.cancel()
	}
	s.wait()
}

func (s *engineSession) wait() {
	if s.done != nil {
		<-s.done
	}
	s.cancel, s.done, s.infinite = nil, nil, false
}

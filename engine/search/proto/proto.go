// Package proto is the engine's line protocol, like a chess engine's UCI,
// for GUIs and match runners: "zertzboard engine" serves it on standard
// input and output (docs/CONTRACTS.md gives the commands and replies).
//
// A Session reads one command a line (isready, position, go, stop, quit),
// runs each search on its own goroutine so that "stop" and "quit" can cut
// it short, and writes its replies (readyok, info, bestmove, error) one
// line each. It imports only the engine and its search.
//
// Layer: game. May import: base, game.
package proto

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
)

// MaxLine bounds a command line, in bytes; a longer line ends the session
// with an error reply.
const MaxLine = 1 << 20

// Session is one conversation with the engine.
type Session struct {
	mu      sync.Mutex // serialises writes to out
	out     io.Writer
	variant string
	level   int
	pos     engine.Position

	cancel   context.CancelFunc
	done     chan struct{}
	infinite bool
}

// New starts a session that replies on out. variant is the board of
// "position startpos" without one (37, 48, 61, 37b, …) and the starting
// position; level is the level of "go" without a budget (1 to
// search.MaxLevel).
func New(out io.Writer, variant string, level int) (*Session, error) {
	if level < 1 || level > search.MaxLevel {
		return nil, fmt.Errorf("level %d: want 1 to %d", level, search.MaxLevel)
	}
	b, r, err := engine.ParseVariant(variant)
	if err != nil {
		return nil, err
	}
	return &Session{out: out, variant: variant, level: level, pos: engine.NewPosition(b, r, 0)}, nil
}

func (s *Session) say(format string, a ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.out, format+"\n", a...)
}

// Serve obeys the commands read from in until "quit" or the end of the
// input. At the end of the input it waits for a running search (and ends
// an infinite one); it returns once no search runs.
func (s *Session) Serve(in io.Reader) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), MaxLine)
	for sc.Scan() {
		if !s.obey(strings.Fields(sc.Text())) {
			return
		}
	}
	if err := sc.Err(); err != nil {
		s.say("error reading the input: %v", err)
	}
	// End of input: let a bounded search finish, end an infinite one.
	s.settle()
}

// obey carries out one command line; false means quit.
func (s *Session) obey(f []string) bool {
	if len(f) == 0 {
		return true
	}
	var err error
	switch f[0] {
	case "isready":
		s.say("readyok")
	case "position":
		s.settle()
		err = s.position(f[1:])
	case "go":
		s.settle()
		err = s.goSearch(f[1:])
	case "stop":
		s.stop()
	case "quit":
		s.stop()
		return false
	default:
		err = fmt.Errorf("unknown command %q (want isready, position, go, stop or quit)", f[0])
	}
	if err != nil {
		s.say("error %v", err)
	}
	return true
}

func (s *Session) position(f []string) error {
	if len(f) == 0 {
		return fmt.Errorf("position: want \"startpos [VARIANT]\" or \"text TEXT\", then optionally \"moves M1 M2 …\"")
	}
	head, turns := f, []string(nil)
	for i, w := range f {
		if w == "moves" {
			head, turns = f[:i], f[i+1:]
			break
		}
	}
	p, err := s.startOf(head)
	if err != nil {
		return err
	}
	if p, err = engine.PlayLine(p, strings.Join(turns, " ")); err != nil {
		var le *engine.LineError
		if errors.As(err, &le) {
			return fmt.Errorf("position: %s", le.Message())
		}
		return fmt.Errorf("position: %v", err)
	}
	s.pos = p
	return nil
}

// startOf is the position a "position" command names before its moves.
func (s *Session) startOf(head []string) (engine.Position, error) {
	switch head[0] {
	case "startpos":
		v := s.variant
		switch len(head) {
		case 1:
		case 2:
			v = head[1]
		default:
			return engine.Position{}, fmt.Errorf("position startpos: unexpected %q after the variant", head[2])
		}
		b, r, err := engine.ParseVariant(v)
		if err != nil {
			return engine.Position{}, fmt.Errorf("position startpos: %v", err)
		}
		return engine.NewPosition(b, r, 0), nil
	case "text":
		p, err := engine.ParsePosition(strings.Join(head[1:], " "))
		if err != nil {
			return engine.Position{}, fmt.Errorf("position text: %v", err)
		}
		return p, nil
	}
	return engine.Position{}, fmt.Errorf("position: %q: want startpos or text", head[0])
}

// budget is what a "go" command asks for.
type budget struct {
	opt      search.Options
	ms       int64
	infinite bool
}

// parseGo reads the arguments of "go"; without a budget it takes level.
func parseGo(f []string, level int) (budget, error) {
	var g budget
	budgets := 0
	for i := 0; i < len(f); i++ {
		key := f[i]
		if key == "infinite" {
			g.infinite = true
			budgets++
			continue
		}
		if i+1 >= len(f) {
			return g, fmt.Errorf("go: %q needs a number", key)
		}
		v, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil || v < 0 || key != "seed" && v == 0 {
			return g, fmt.Errorf("go: %s %q: want a positive whole number", key, f[i+1])
		}
		i++
		switch key {
		case "level":
			if v > search.MaxLevel {
				return g, fmt.Errorf("go: level %d: want 1 to %d", v, search.MaxLevel)
			}
			g.opt.Level = int(v)
			budgets++
		case "nodes":
			g.opt.MaxNodes = v
			budgets++
		case "ms":
			g.ms = v
			budgets++
		case "seed":
			g.opt.Seed = uint64(v)
		default:
			return g, fmt.Errorf("go: unknown %q (want level, nodes, ms, infinite or seed)", key)
		}
	}
	if budgets > 1 {
		return g, fmt.Errorf("go: give one budget: level, nodes, ms or infinite")
	}
	if budgets == 0 {
		g.opt.Level = level
	}
	if g.infinite {
		g.opt.MaxNodes = math.MaxInt64
	}
	return g, nil
}

func (s *Session) goSearch(f []string) error {
	g, err := parseGo(f, s.level)
	if err != nil {
		return err
	}
	p := s.pos
	if p.Result().Over {
		s.say("bestmove none")
		return nil
	}
	var ctx context.Context
	var cancel context.CancelFunc
	if g.ms > 0 {
		ctx, cancel = context.WithTimeout(context.Background(), time.Duration(g.ms)*time.Millisecond)
	} else {
		ctx, cancel = context.WithCancel(context.Background())
	}
	b := p.Board()
	t0 := time.Now()
	g.opt.Info = func(in search.Info) {
		pv := make([]string, len(in.PV))
		for i, t := range in.PV {
			pv[i] = engine.FormatTurn(b, t)
		}
		s.say("info depth %d score %d win_prob %.3f nodes %d ms %d pv %s", in.Depth, in.Score,
			float64(search.WinPermille(in.Score))/1000, in.Nodes, time.Since(t0).Milliseconds(), strings.Join(pv, " "))
	}
	done := make(chan struct{})
	s.cancel, s.done, s.infinite = cancel, done, g.infinite
	go func() {
		defer close(done)
		defer cancel()
		res := search.Search(ctx, p, g.opt)
		s.say("bestmove %s", engine.FormatTurn(b, res.Move))
	}()
	return nil
}

// settle waits for a running search to end, and ends an infinite one.
func (s *Session) settle() {
	if s.infinite {
		s.stop()
	}
	s.wait()
}

// stop ends the running search, if any, and waits for its bestmove.
func (s *Session) stop() {
	if s.cancel != nil {
		s.cancel()
	}
	s.wait()
}

func (s *Session) wait() {
	if s.done != nil {
		<-s.done
	}
	s.cancel, s.done, s.infinite = nil, nil, false
}

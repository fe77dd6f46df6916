package record

import (
	"fmt"
	"strings"

	"github.com/zertzboard/zertzboard/engine"
)

// Record is one game as recorded: the variant, who played, the turns in
// order and how the game stopped if it stopped off the board. A Record is
// what was written down, not a verdict: Replay checks it against the rules.
type Record struct {
	// Variant is the contract's variant name, e.g. "37", "48" or "37b".
	Variant string
	// First is the player who moved first, 0 or 1.
	First int
	// Players are the players' names, P0 first; "" when unknown.
	Players [2]string
	// Date, Name and ResultText are free text kept from the source: the
	// SGF's DT, GN and RE. WriteSGF fills RE and GN from the game when
	// they are empty (SGFResult, SGFName).
	Date, Name, ResultText string
	// Event and Round name the tournament and its round, "" when
	// unknown: the SGF's EV and RO.
	Event, Round string
	// Turns are the whole turns in playing order.
	Turns []engine.Turn
	// Stop says how the game stopped off the board (resignation, time,
	// adjudication, a draw), or is the zero Stop when it did not.
	Stop Stop
	// Clock is the game's time control and each turn's time, or nil when
	// the record has none.
	Clock *Clock
	// GameID names the game on the board that recorded it (the state's
	// game_id), "" when unknown.
	GameID string
	// Undos counts the UI take-backs the SGF reader resolved while
	// assembling the turns (see ReadSGF). It is information about the
	// source only; writers do not reproduce it.
	Undos int
	// MissedCaptures lists the turns (1-based) that were placements made
	// while a capture was compulsory, which tournament rules let stand
	// until the opponent demands a take-back (rulebook I.3). Replay plays
	// them with engine.Position.PlayOverCapture; every other turn must obey
	// the compulsory capture.
	MissedCaptures []int
	// Answered lists the turns (1-based) the board did not show whole,
	// which the players or the arbiter answered the referee's question
	// about.
	Answered []int
	// Notes are the arbiter's notes about the game (the note command),
	// in the order of their turns; at most MaxNotes.
	Notes []Note
	// Warnings are what a reader tolerated in the source, e.g. a half
	// turn dropped before a resignation. Replay adds its own.
	Warnings []string
	// StopCut says the last turn was still under way when the game
	// stopped off the board (the SGF had no Done before the resignation
	// or time win): Replay drops it, with a warning, if it is illegal.
	StopCut bool
}

// StopKind is how a game stopped off the board.
type StopKind string

// The ways a game stops off the board.
const (
	// NotStopped means the record says nothing: the board decides, or
	// the game is unfinished.
	NotStopped StopKind = ""
	// Resign: Stop.Player resigned.
	Resign StopKind = "resign"
	// WinOnTime: Stop.Player won because the opponent ran out of time.
	WinOnTime StopKind = "win-on-time"
	// Adjudication: the arbiter declared Stop.Player the winner.
	Adjudication StopKind = "adjudication"
	// DrawDeclared: the arbiter declared the game drawn (agreed or
	// adjudicated).
	DrawDeclared StopKind = "draw"
	// DrawOnTime: a flag fell when the opponent could no longer win.
	DrawOnTime StopKind = "draw-on-time"
)

// HasPlayer reports whether the kind names a player (every kind but the
// draws).
func (k StopKind) HasPlayer() bool { return k == Resign || k == WinOnTime || k == Adjudication }

// Stop is how a recorded game stopped off the board. The zero Stop means it
// did not.
type Stop struct {
	Kind   StopKind
	Player int    // Resign: who resigned; WinOnTime, Adjudication: who won
	Note   string // the arbiter's note, may be ""
}

// Clock is a recorded game's time: the time control (clock.Control's
// text, e.g. "fischer:20m+10s" or "none") and one TurnTime per turn.
type Clock struct {
	Control string
	Turns   []TurnTime
}

// TurnTime is one turn's time: what the mover used, and both players'
// times after it (nil without a time control).
type TurnTime struct {
	UsedMS    int64
	Remaining *[2]int64
}

// Board returns the record's board and rules.
func (r *Record) Board() (*engine.Board, *engine.Rules, error) {
	b, rules, err := engine.ParseVariant(r.Variant)
	if err != nil {
		return nil, nil, fmt.Errorf("record: %w", err)
	}
	return b, rules, nil
}

// Start returns the position before the first turn.
func (r *Record) Start() (engine.Position, error) {
	b, rules, err := r.Board()
	if err != nil {
		return engine.Position{}, err
	}
	if r.First != 0 && r.First != 1 {
		return engine.Position{}, fmt.Errorf("record: first player is %d; want 0 or 1", r.First)
	}
	return engine.NewPosition(b, rules, r.First), nil
}

// Outcome is the contract's word for how a game ended.
type Outcome string

// The outcomes of the replay contract.
const (
	Win      Outcome = "win"      // a winning set, or the full board
	Draw     Outcome = "draw"     // repetition, or no one can move
	Resigned Outcome = "resigned" // the loser resigned
	Timeout  Outcome = "timeout"  // the winner won on time
	// Adjudicated: the arbiter declared the winner (ext).
	Adjudicated Outcome = "adjudicated"
	Unfinished  Outcome = "unfinished" // the record stops before the end
)

// Result is how a replayed game ended.
type Result struct {
	Outcome Outcome
	// Winner is 0 or 1, or -1 for a draw or an unfinished game.
	Winner int
	// Reason is the engine's reason for a win or draw on the board, e.g.
	// "captures" or "full-board"; "" otherwise.
	Reason engine.Reason
}

// Replay is a record played through the engine.
type Replay struct {
	// Game holds every position, turn and isolation claim. After an
	// illegal turn it holds the turns before it.
	Game *engine.Game
	// Result is how the game ended: on the board if it did, else as the
	// record's Stop says.
	Result Result
	// Warnings are what the record has that Boardspace accepts and the
	// rules do not use: the reader's (Record.Warnings), an incomplete last
	// turn before a resignation or time win, turns recorded after the
	// game ended.
	Warnings []string
}

// ReplayOptions tune Replay.
type ReplayOptions struct {
	// Strict makes turns recorded after the game ended, and an
	// incomplete last turn before a resignation, errors instead of
	// warnings.
	Strict bool
}

// Replay plays every turn of r through the engine, tolerating what
// Boardspace accepts (see Replay.Warnings). When a turn is illegal it
// returns the game up to that turn and a *TurnError; the Replay's Result
// is then that of the game so far.
func (r *Record) Replay() (*Replay, error) { return r.ReplayWith(ReplayOptions{}) }

// ReplayWith is Replay with options.
func (r *Record) ReplayWith(opt ReplayOptions) (*Replay, error) {
	start, err := r.Start()
	if err != nil {
		return nil, err
	}
	g := engine.NewGame(start)
	rep := &Replay{Game: g, Warnings: append([]string(nil), r.Warnings...)}
	missed := map[int]bool{}
	for _, n := range r.MissedCaptures {
		missed[n] = true
	}
	for i, t := range r.Turns {
		p := g.Position()
		if res := p.Result(); res.Over && !opt.Strict {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d turn(s) recorded after the game ended at turn %d (%s) are ignored; the result stands", len(r.Turns)-i, i, res))
			break
		}
		play := g.Play
		if missed[i+1] {
			play = g.PlayOverCapture
		}
		if err := play(t); err != nil {
			if i == len(r.Turns)-1 && r.StopCut && !opt.Strict {
				rep.Warnings = append(rep.Warnings, fmt.Sprintf("turn %d %s was still under way when the game stopped (%s) and is dropped: %v", i+1, engine.FormatTurn(p.Board(), t), r.Stop.Kind, err))
				break
			}
			rep.Result = r.result(g.Position())
			return rep, newTurnError(i+1, p, t, err)
		}
	}
	rep.Result = r.result(g.Position())
	if w := r.statedWinner(); w >= 0 && rep.Result.Winner >= 0 && w != rep.Result.Winner {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the record says %q, but the turns give the game to player %d (%s)", r.ResultText, rep.Result.Winner, rep.Result.Outcome))
	}
	return rep, nil
}

// statedWinner is the player the record's result text names in
// Boardspace's English form, "Game won by NAME" (with our writer's
// " (adjudication)…" after it), when NAME is one player's name or P0 or
// P1; -1 otherwise.
func (r *Record) statedWinner() int {
	name, ok := strings.CutPrefix(r.ResultText, "Game won by ")
	if !ok {
		return -1
	}
	if i := strings.Index(name, " (adjudication)"); i >= 0 {
		name = name[:i]
	}
	found := -1
	for p := range 2 {
		if name == r.Players[p] || r.Players[p] == "" && name == fmt.Sprintf("P%d", p) {
			if found >= 0 {
				return -1 // both players have the name
			}
			found = p
		}
	}
	return found
}

// result decides how the game ended. The board comes first: a turn that
// wins on the board ends the game, so a later resignation cannot change it.
func (r *Record) result(p engine.Position) Result {
	res := p.Result()
	switch {
	case res.Over && res.Winner >= 0:
		return Result{Outcome: Win, Winner: res.Winner, Reason: res.Reason}
	case res.Over:
		return Result{Outcome: Draw, Winner: -1, Reason: res.Reason}
	case r.Stop.Kind == Resign:
		return Result{Outcome: Resigned, Winner: 1 - r.Stop.Player}
	case r.Stop.Kind == WinOnTime:
		return Result{Outcome: Timeout, Winner: r.Stop.Player}
	case r.Stop.Kind == Adjudication:
		return Result{Outcome: Adjudicated, Winner: r.Stop.Player}
	case r.Stop.Kind == DrawDeclared || r.Stop.Kind == DrawOnTime:
		return Result{Outcome: Draw, Winner: -1}
	}
	return Result{Outcome: Unfinished, Winner: -1}
}

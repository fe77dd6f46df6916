package engine

// This file holds the game's words as the wire, the journal and the records
// write them: the Phase of a game and the Reason it ended. Both are strings
// underneath, so that a value from a newer board (a phase or a reason this
// build does not know) reads back and writes out unchanged; a reader that
// must have one of ours checks it (Reason.OffBoard, for instance).
// Nothing outside a codec compares these words as strings: code compares
// with the constants (a test in this package greps the tree for it).

// Phase is what a game waits for: a placement, a capture (compulsory), or
// nothing, the game being over (on the board or off it).
type Phase string

// The phases.
const (
	PhasePlace   Phase = "place"   // a placement is due (or a pass)
	PhaseCapture Phase = "capture" // a capture is compulsory
	PhaseOver    Phase = "over"    // the game is over
)

// Phase is the position's phase: over once the game is over on the board,
// capture when a capture is compulsory, else place. (A game ended off the
// board is over too: the referee says so, not the position.)
func (p Position) Phase() Phase {
	switch {
	case p.result.Over:
		return PhaseOver
	case p.HasCapture():
		return PhaseCapture
	}
	return PhasePlace
}

// String is the phase's word.
func (ph Phase) String() string { return string(ph) }

// Over reports whether the phase is PhaseOver.
func (ph Phase) Over() bool { return ph == PhaseOver }

// MarshalText writes the phase's word.
func (ph Phase) MarshalText() ([]byte, error) { return []byte(ph), nil }

// UnmarshalText reads a phase's word. It keeps a word it does not know, as
// the readers of the state always have: a newer board's phase is shown as
// it came, and is not over.
func (ph *Phase) UnmarshalText(b []byte) error {
	*ph = Phase(b)
	return nil
}

// Reason says why a game ended: on the board (the engine decides it:
// Position.Result), or off it (the arbiter or the clock decides it: the
// referee's Ending). The empty Reason is a game not over.
type Reason string

// The reasons a game ends on the board.
const (
	ReasonCaptures   Reason = "captures"   // a winning set of captures
	ReasonFullBoard  Reason = "full-board" // the last vacant ring was filled
	ReasonRepetition Reason = "repetition" // third occurrence of a position
	ReasonNoMoves    Reason = "no-moves"   // neither player can move
)

// The reasons a game ends off the board (docs/RULES.md section 6.4): the
// engine never gives them; the referee's Ending carries them.
const (
	ReasonTime         Reason = "time"         // a flag fell
	ReasonResignation  Reason = "resignation"  // a player resigned
	ReasonAdjudication Reason = "adjudication" // the arbiter declared the winner
	ReasonDraw         Reason = "draw"         // the arbiter declared a draw
)

// String is the reason's word.
func (r Reason) String() string { return string(r) }

// OffBoard reports whether the reason is one a game ends by off the board:
// time, resignation, adjudication or draw.
func (r Reason) OffBoard() bool {
	switch r {
	case ReasonTime, ReasonResignation, ReasonAdjudication, ReasonDraw:
		return true
	}
	return false
}

// MarshalText writes the reason's word ("" for a game not over).
func (r Reason) MarshalText() ([]byte, error) { return []byte(r), nil }

// UnmarshalText reads a reason's word. It keeps a word it does not know, as
// the readers of the state always have: a newer board's reason is shown as
// it came.
func (r *Reason) UnmarshalText(b []byte) error {
	*r = Reason(b)
	return nil
}

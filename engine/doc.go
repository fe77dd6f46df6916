// Package engine is the ZÈRTZ rules engine: boards, positions, legal turns,
// isolation claims and results, exactly as docs/RULES.md describes them
// (the rulebook, with the project's decisions on its open points). It is
// pure: no I/O, no goroutines, no clocks. Everything else in zertzboard
// (the referee, the LEDs, the broadcast) asks it what is legal.
//
// # Boards
//
// A Board is immutable layout data: a connected set of at most 64 cells in
// doubled coordinates, labelled the Boardspace way (column letter, row
// counted from 1 at the bottom of each column). StandardBoard gives the
// rulebook's 37, 40, 43, 44, 48 and 61-ring boards; NewBoard takes any
// Layout, e.g. one read from a configuration. Cells are numbered in board
// order (by column, then row), which is also the frame-log order.
//
// # Positions
//
// A Position is an immutable value. Play checks a Turn and returns the next
// position, leaving the old one untouched, so keeping the old value is an
// exact undo; Game keeps the whole line for take-backs. Illegal turns give
// an *IllegalTurnError whose Rule names the rule and whose Reason says why
// in a player's words:
//
//	illegal turn WD4-A1: ring A1 is not free: no two adjacent sides are open
//	illegal turn GC2-A1: capture is compulsory: E4 can jump D3
//
// After every placement each group of rings with no vacant ring goes to the
// mover, whatever its size (no main-group exemption); a board left with no
// vacant ring is claimed whole and its mover wins. A player who cannot move
// passes; if neither can, the game is drawn. The third occurrence of a
// position (rings, marbles, pool, captures and player to move) is a draw.
//
// # Text form
//
// Position.String and ParsePosition use one line of space-separated fields:
//
//		37 oooo/ooooo/oooooo/ooooooo/oooooo/ooooo/oooo 6,8,10 0,0,0 0,0,0 0
//
//	 1. the variant: the board's name, with a "b" suffix for blitz;
//	 2. every cell in board order, in the frame-log alphabet ('.' no ring,
//	    'o' vacant ring, 'w', 'g', 'b' a marble on a ring), with '/' between
//	    columns (the slashes may be left out);
//	 3. the pool: white, grey, black;
//	 4. player 0's captures and 5. player 1's captures, likewise;
//	 6. the player to move, 0 or 1;
//	 7. then, only late in a game, one "~cells,w,g,b,w,g,b,player" field per
//	    earlier position that still counts for repetition, oldest first.
//
// ParsePosition rejects text in which the marbles do not add up to the
// variant's set.
//
// # Notation
//
// FormatTurn and ParseTurn write and read turns, case-insensitively:
//
//	WD4-A1     a white marble from the pool on D4, then ring A1 removed
//	GC2        a grey marble on C2; no ring was free, so none was removed
//	*BE5-G1    a black marble from the mover's own captures (pool empty)
//	C3xE4xE6   a capture chain: the marble on C3 jumps to E4, then to E6
//	pass       the player could not move
//
// MoveObject is the same turn as the referee contract's JSON move object.
//
// # Searching
//
// For searches (perft, engine/solve) a Position keeps a Zobrist hash (Hash)
// and its edge rings up to date as turns are played, and offers the fast
// paths: CountTurns counts the legal turns without writing them, Turns
// yields them one at a time, Legal checks a turn without explaining,
// Apply plays a generated turn unchecked, and WinningTurn finds a turn that
// wins at once without playing every placement.
//
// It imports only the standard library, so every other package may use it.
// Layer: game. May import: base, game.
package engine

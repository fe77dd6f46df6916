// Package referee turns what the sensors see into the turns that were
// played, and tells the players what the rules require. It is pure: time
// arrives with each frame (milliseconds), and it does no I/O, so the same
// code runs on the Pi, in the simulator and in tests.
//
// # Settling
//
// A frame is one character per cell in board order ('.', 'o', 'w', 'g', 'b',
// '?'). An observation counts once it has held for the settle time
// (DefaultSettleMS, 100 ms: 10–20 scans at 100–200 Hz) with no unreadable
// cell. Frames that stray for less than the glitch window (DefaultGlitchMS,
// 25 ms) and come back do not restart the clock, so one- and two-scan
// glitches neither count nor delay a verdict.
//
// # Inference
//
// Each settled observation is compared with the official position:
//
//   - unchanged: nothing to say (or "restored" after an illegal board);
//   - a complete legal turn: committed. A placement is one vacant ring now
//     holding a marble and one free ring gone, in either order, or no ring
//     gone when none is free. A capture is the exact end of a legal chain.
//     Isolation claims are credited at once, and the claimed rings may come
//     off piece by piece, even while the next turn is played;
//   - an earlier position of this game: a take-back, reverting the game to
//     it, however many turns back;
//   - a legal turn in progress: pending, with what is still needed. A
//     marble waiting for its ring removal, a ring lifted before the
//     placement, a jumper lifted or part way along its chain, a chain swept
//     to its last ring with the jumped marbles still on, claimed rings still
//     coming off;
//   - anything else: illegal, with the reason and, per cell, what to
//     restore.
//
// A player who cannot move passes automatically.
//
// # Real timing
//
// A jumper lifted off its ring can leave exactly the position before the
// last turn (a placement that removed no ring, whose marble now jumps);
// that board is a capture under way, and becomes a take-back only if it
// holds for longer than a hop takes (HopMS). Any take-back is reversible:
// putting the pieces back re-commits the turns it undid.
//
// When the scan stalls (a GC pause, an SD card's fsync, a starved CPU)
// the referee can miss the settled end of a turn. A board that no single
// turn explains is read as two consecutive turns, and committed when
// every reading leads to the same position (an Inferred event says so);
// when the readings differ only in the colour of a marble the board never
// showed, the referee goes on with one and asks (Question, Answer). If a
// board is still unexplained, it follows every line of play from the
// official position and the three before it that explains each settled
// board in at most two turns, and resynchronises as soon as those that
// explain the board agree: it never stays lost. The first illegal board
// only starts those lines, since players put an illegal try right at once.
//
// After a finished game the board shows the result; once the players have
// cleared it and set it up again, a SetUp event lets the next game begin.
//
// # Modes
//
// Casual mode flags a placement while a capture is compulsory at once and
// waits for the board to be put back. Tournament mode (rulebook I) lets it
// stand as a missed capture, recorded, which the opponent may demand be
// taken back (DemandTakeback guides the players back); it also flags a
// marble that rested on one ring and then moved to another (touch-move)
// for the arbiter. Taking a marble from the pool and touching an edge ring
// cannot be sensed, so those parts of the touch-move rule are the
// arbiter's.
//
// # Guidance
//
// Guidance is pure data for the LEDs and the screen: a Role per cell (free
// ring, must capture, jump target, chain continues, take off, wrong, last
// move) and one status line.
//
// # Events
//
// Events marshal to the JSON lines of the contract in docs/CONTRACTS.md
// (section 4): {"t": …, "event": "move", …}. The rules they apply, the
// modes included, are docs/RULES.md.
//
// Layer: game. May import: base, game.
package referee

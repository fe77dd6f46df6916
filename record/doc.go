// Package record reads, writes and replays ZÈRTZ game records.
//
// A Record is what was written down: the variant, the first player, the
// players' names, the whole turns in order (engine.Turn values) and how the
// game stopped off the board, if it did (resignation or time). Reading
// checks the form; Record.Replay checks the rules by playing every turn
// through the engine, and reports the first illegal turn as a *TurnError
// with its 1-based number, the player, the move in notation and the rule.
// FromGame makes the record of a game played through the engine (the
// controller's live record, the referee command's game seen); CheckFile
// reads and replays a file into a FileReport, the replay command's line
// for it in words (Summary) or as its JSON object.
//
// Two formats are supported, and Read tells them apart by content: SGF
// starts with "(", JSON with "{".
//
// # Boardspace SGF
//
// ReadSGF reads Boardspace.net's ZÈRTZ records (GM[22], VV[1] and VV[2]),
// on 37 (SU[Zertz]), 48 (SU[Zertz+11]) and 61 rings (SU[Zertz+24]).
// Boardspace records UI actions, not turns, and ReadSGF assembles them:
//
//	RtoB rack colour col row   place a marble (rack 2 = pool, 0/1 = own captures)
//	R- col row                 remove a ring (before or after the RtoB)
//	BtoB c1 r1 c2 r2           one jump of a capture chain; or, as UI gestures,
//	                           the same cell (nothing), a marble placed this turn
//	                           moved elsewhere, or a jump straight back (undo)
//	R+ col row, BtoR col row r take back this turn's ring removal or placement
//	RtoR r c r                 nothing
//	Done                       end of the turn
//	Start P0|P1, Resign, WinOnTime
//
// Commands are case-insensitive and may carry a sequence number. A turn ends
// at Done or, in records without Done, when the other player acts. P-1[]
// values and the closing clock node are ignored. Record.Undos counts the
// take-backs resolved (R+, BtoR and the three BtoB gestures).
//
// WriteSGF writes the VV[2] style: sequence numbers, one action per node and
// Done after every turn, and the headers DT, GN, RE, EV and RO, making GN
// and RE from the game when the record has none (SGFName, SGFResult).
// Boardspace has no blitz, no 40/43/44-ring boards and
// no pass, so such records cannot be written as SGF.
//
// The arbiter's notes (Record.Notes) are SGF comments: the notes given
// after a turn are the C[] of that turn's Done node, those given before
// the first turn the C[] of the Start node, one note a line, each line
// "Arbiter: " and the note's text (escaped as SGF text: \] and \\).
// ReadSGF takes the lines of any node's comment that begin "Arbiter: "
// as notes, at the whole turns read once the node's actions are (a root
// comment's at turn 0); other comments are not notes.
//
// # The zertzboard JSON record
//
// The project's own format is one JSON object:
//
//	{
//	  "format": "zertzboard-record",
//	  "version": 1,
//	  "variant": "48",
//	  "first": 0,
//	  "players": ["alice", "bob"],
//	  "date": "2025-10-29",
//	  "name": "club final",
//	  "result_text": "alice won",
//	  "turns": ["WD4-A1", "BC2-G1", "C3xE4xE6", "*GB1", "pass"],
//	  "missed_captures": [4],
//	  "end": {"kind": "resign", "player": 1},
//	  "clock": {"control": "fischer:20m+10s",
//	            "turns": [{"used_ms": 5230, "remaining_ms": [1204770, 1200000]}, …]},
//	  "notes": [{"turn": 3, "text": "clock replaced"}]
//	}
//
// Its fields:
//
//   - format and version identify the format; version 1 is this one.
//     Readers ignore fields they do not know, so later versions can add some.
//   - variant is the ring count, with a "b" suffix for blitz: 37, 40, 43, 44,
//     48, 61, 37b, … (engine.ParseVariant).
//   - first is the player who moves first, 0 or 1; players are their names.
//   - date, name and result_text are optional free text (SGF DT, GN, RE);
//     so are event and round (SGF EV, RO), the tournament and its round.
//   - turns are whole turns in the engine's notation (engine.FormatTurn):
//     WD4-A1 places white on D4 and removes A1; GC2 removes nothing (no ring
//     was free); a leading * takes the marble from the mover's captures;
//     C3xE4xE6 is a capture chain; pass is a player who cannot move.
//   - missed_captures, optional, lists the turns (1-based) that were
//     placements made while a capture was compulsory, which tournament
//     rules let stand until the opponent demands a take-back. Replay plays
//     those turns without the compulsory-capture rule, and only those.
//   - end is present only when the game stopped off the board: kind
//     "resign" (player resigned), "win-on-time" (player won on time),
//     "adjudication" (the arbiter declared player the winner), "draw" (the
//     arbiter declared a draw) or "draw-on-time" (a flag fell when the
//     opponent could no longer win); the draws name no player. note, at
//     most 200 bytes, is the arbiter's. A win or draw on the board follows
//     from the turns, so it is not stored.
//   - clock, optional, is the time control (none, sudden:DUR or
//     fischer:DUR+INC) and one entry per turn: the time the mover used and
//     both players' times after it (null without a time control).
//   - notes, optional, are the arbiter's notes in the order given: each
//     its turn, the whole turns played when it was given (0 before the
//     first, at most the record's turns), and its text, 1 to 200 bytes of
//     UTF-8 with no control characters. A record carries at most 1000.
//
// Of this module it imports only engine.
// Layer: game. May import: base, game.
package record

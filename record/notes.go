package record

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Note is one of the arbiter's notes about the game ("clock replaced",
// "player 1 warned for touch-move"), at the game's turn Turn: the whole
// turns played when it was given, 0 before the first.
type Note struct {
	Turn int
	Text string
}

// The bounds on notes: a note's text as the note command takes it, and
// how many notes a record may carry (records come from files and the LAN).
const (
	// MaxNote bounds a note's text, and an end's note, in bytes.
	MaxNote = 200
	// MaxNotes bounds how many notes a record carries.
	MaxNotes = 1000
)

// sgfNotePrefix begins every line of an SGF comment (C[]) that is one of
// the arbiter's notes. The notes of one turn share the node's comment, one
// a line.
const sgfNotePrefix = "Arbiter: "

// checkNotes says what is wrong with notes for a record of turns whole
// turns, or nil: at most MaxNotes of them, in the order of their turns,
// each at a turn from 0 to turns, its text 1 to MaxNote bytes of UTF-8
// without control characters.
func checkNotes(notes []Note, turns int) error {
	if len(notes) > MaxNotes {
		return fmt.Errorf("%d notes; a record carries at most %d", len(notes), MaxNotes)
	}
	for i, n := range notes {
		if err := CheckNote(n.Text); err != nil {
			return fmt.Errorf("note %d: %w", i+1, err)
		}
		switch {
		case n.Turn < 0 || n.Turn > turns:
			return fmt.Errorf("note %d is at turn %d; the record has %d turns", i+1, n.Turn, turns)
		case i > 0 && n.Turn < notes[i-1].Turn:
			return fmt.Errorf("note %d is at turn %d, before note %d at turn %d: notes go in the order of their turns", i+1, n.Turn, i, notes[i-1].Turn)
		}
	}
	return nil
}

// CheckNote says what is wrong with a note's text, or nil: it is 1 to
// MaxNote bytes of UTF-8 without control characters, as the note command
// takes it.
func CheckNote(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("the text is empty")
	case len(s) > MaxNote:
		return fmt.Errorf("%q is %d bytes; a note is at most %d", clip(s), len(s), MaxNote)
	case !utf8.ValidString(s):
		return fmt.Errorf("%q is not UTF-8", clip(s))
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return fmt.Errorf("%q holds a control character (%U)", clip(s), r)
		}
	}
	return nil
}

// clip shortens a text quoted in an error.
func clip(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// sgfComment is the C[] text of the notes given at one turn, "" for none.
func sgfComment(notes []Note) string {
	lines := make([]string, len(notes))
	for i, n := range notes {
		lines[i] = sgfNotePrefix + n.Text
	}
	return strings.Join(lines, "\n")
}

// sgfCommentNotes reads the notes in an SGF comment: each line that
// begins with sgfNotePrefix, in order. Other lines are comments of
// another kind (a viewer's, a player's) and are not notes.
func sgfCommentNotes(comment string) []string {
	var out []string
	for _, line := range strings.Split(comment, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if text, ok := strings.CutPrefix(line, sgfNotePrefix); ok {
			out = append(out, text)
		}
	}
	return out
}

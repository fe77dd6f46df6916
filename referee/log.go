package referee

import (
	"errors"
	"fmt"
	"io"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/framelog"
)

// BoardMismatchError is a frame whose cells do not fit the referee's
// board.
type BoardMismatchError struct {
	Name  string
	Line  int
	Cells int
	Board *engine.Board
}

func (e *BoardMismatchError) Error() string {
	return fmt.Sprintf("referee: %s:%d: frame has %d cells; the %s board has %d", e.Name, e.Line, e.Cells, e.Board, e.Board.Len())
}

// ObserveLog referees every frame of the frame log read from in (name
// says where it comes from in errors), giving each event to emit. A log
// with no frames is an error: it is not a game. A torn last line (the
// power or a crash interrupted a write) ends the log: the frames before
// it are refereed and the *framelog.TornError is returned (its Frames
// says how many; 0 when the log holds nothing else). A frame that breaks the format is the framelog's error, one
// that does not fit the board a *BoardMismatchError, and emit's error
// ends the log too.
func (r *Referee) ObserveLog(in io.Reader, name string, emit func(Event) error) error {
	fr := framelog.NewReader(in, name)
	b := r.Game().Start().Board()
	var torn *framelog.TornError
	for seen := 0; ; seen++ {
		f, err := fr.Next()
		switch {
		case errors.Is(err, io.EOF) && seen == 0:
			return fmt.Errorf("referee: %s: the frame log has no frames", name)
		case errors.Is(err, io.EOF):
			return nil
		case errors.As(err, &torn):
			return torn
		case err != nil:
			return err
		case len(f.Cells) != b.Len():
			return &BoardMismatchError{Name: name, Line: fr.Line(), Cells: len(f.Cells), Board: b}
		}
		for _, e := range r.Observe(f.T, f.Cells) {
			if err := emit(e); err != nil {
				return fmt.Errorf("writing events: %w", err)
			}
		}
	}
}

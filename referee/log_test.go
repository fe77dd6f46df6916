package referee

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/framelog"
)

// ObserveLog referees a frame log's frames and reports what ends it: the
// end, a torn last line (after the frames before it), a frame that does
// not fit the board, an empty log, a failed write of the events.
func TestObserveLog(t *testing.T) {
	b := engine.MustStandardBoard("37")
	empty := strings.Repeat("o", b.Len())
	d4, _ := b.ParseCell("D4")
	placed := []byte(empty)
	placed[d4] = 'w'
	var log strings.Builder
	for ms := int64(0); ms < 2000; ms += 50 {
		cells := empty
		if ms >= 500 {
			cells = string(placed)
		}
		fmt.Fprintf(&log, `{"t":%d,"cells":"%s"}`+"\n", ms, cells)
	}
	newRef := func() *Referee {
		r, err := New(Config{Board: b, Rules: engine.Standard})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	var kinds []string
	emit := func(e Event) error { kinds = append(kinds, e.Body.Kind()); return nil }
	if err := newRef().ObserveLog(strings.NewReader(log.String()), "game", emit); err != nil {
		t.Fatal(err)
	}
	if len(kinds) == 0 || kinds[0] != "pending" {
		t.Errorf("events %v; want a pending placement first", kinds)
	}

	kinds = nil
	var torn *framelog.TornError
	err := newRef().ObserveLog(strings.NewReader(log.String()+`{"t":2000,"ce`), "game", emit)
	if !errors.As(err, &torn) || torn.Frames != 40 || torn.Line != 41 || len(kinds) == 0 {
		t.Errorf("a torn last line: %v after %d events; want a *framelog.TornError after the 40 frames, refereed", err, len(kinds))
	}

	var mismatch *BoardMismatchError
	err = newRef().ObserveLog(strings.NewReader(log.String()+`{"t":2000,"cells":"ooo"}`+"\n"), "game", emit)
	if !errors.As(err, &mismatch) || err.Error() != "referee: game:41: frame has 3 cells; the 37 board has 37" {
		t.Errorf("a frame of 3 cells: %v; want a *BoardMismatchError naming the line", err)
	}
	if err := newRef().ObserveLog(strings.NewReader(""), "game", emit); err == nil || err.Error() != "referee: game: the frame log has no frames" {
		t.Errorf("an empty log: %v", err)
	}
	full := errors.New("disk full")
	err = newRef().ObserveLog(strings.NewReader(log.String()), "game", func(Event) error { return full })
	if !errors.Is(err, full) || !strings.HasPrefix(err.Error(), "writing events: ") {
		t.Errorf("a failed write: %v; want it wrapped", err)
	}
}

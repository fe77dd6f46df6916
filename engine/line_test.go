package engine

import (
	"errors"
	"testing"
)

func TestPlayLine(t *testing.T) {
	start := NewPosition(MustStandardBoard("37"), Standard, 0)
	p, err := PlayLine(start, "  WD4-A1   GE4-G4 ")
	if err != nil {
		t.Fatal(err)
	}
	if p.ToMove() != 0 || p.Pool() == start.Pool() {
		t.Errorf("after two turns: %s", p)
	}
	if q, err := PlayLine(start, ""); err != nil || q.String() != start.String() {
		t.Errorf("the empty line: %s, %v; want the start", q, err)
	}
	for _, tt := range []struct {
		line, msg string
		illegal   bool
	}{
		{"WD4-A1 GE4-D4", "move 2, GE4-D4: ring D4 is not free: it holds a marble (ring-not-free)", true},
		{"WD4-A1 QQ", `move 2, QQ: cannot read turn "QQ": a placement starts with W, G or B`, false},
	} {
		q, err := PlayLine(start, tt.line)
		var le *LineError
		if !errors.As(err, &le) || le.N != 2 {
			t.Fatalf("%q: %v; want a *LineError at move 2", tt.line, err)
		}
		if le.Message() != tt.msg || err.Error() != "engine: "+tt.msg {
			t.Errorf("%q: Message %q, Error %q; want %q", tt.line, le.Message(), err, tt.msg)
		}
		if errors.Is(err, ErrIllegal) != tt.illegal {
			t.Errorf("%q: errors.Is(ErrIllegal) = %t", tt.line, !tt.illegal)
		}
		if q.ToMove() != 1 {
			t.Errorf("%q: returned the position after %s; want the one before the bad turn", tt.line, q)
		}
	}
}

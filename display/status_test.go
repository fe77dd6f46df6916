package display

import (
	"reflect"
	"testing"
)

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Status
		want []string
	}{
		{"no game", Status{ToMove: -1}, []string{
			"no game",
			" P0       w0 g0 b0",
			" P1       w0 g0 b0",
			"",
			"",
		}},
		{"mid game", Status{ToMove: 1, Players: [2]string{"Alice", "Bob"}, Captures: [2][3]int{{1, 2, 0}, {0, 0, 3}}, Line: "remove a free ring"}, []string{
			"Bob to move",
			" Alice    w1 g2 b0",
			">Bob      w0 g0 b3",
			"remove a free ring",
			"",
		}},
		{"faults and long names", Status{ToMove: 0, Players: [2]string{"Maximilian-Alexander", "Zoë"}, Faults: []string{"E5: drifting", "A3: saturated"}}, []string{
			"Maximilian to move",
			">Maximili w0 g0 b0",
			" Zoë      w0 g0 b0",
			"",
			"!2 E5: drifting",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := StatusLines(tc.s, 18); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("StatusLines(%+v, 18) =\n%q\nwant\n%q", tc.s, got, tc.want)
			}
		})
	}
}

package results

import (
	"testing"
)

// Finding: CSV formula defusing missed a leading space, a no-break space
// and the fullwidth ＝.
func TestCSVDefusesDisguisedFormulas(t *testing.T) {
	for _, cell := range []string{"=1+1", " =1+1", "\u00a0=1+1", "＝1+1", "\u200b=1", "\t=1", " ＋A1", "@SUM(A1)"} {
		if !formulaLike(cell) {
			t.Errorf("%q is not defused", cell)
		}
	}
	for _, cell := range []string{"ann", "", "Zoë = best", "1200"} {
		if formulaLike(cell) {
			t.Errorf("%q is defused; it is no formula", cell)
		}
	}
}

package analyst

import (
	"testing"

	"github.com/zertzboard/zertzboard/internal/background"
)

// Busy returns with the engine's thread in background work, and stop
// ends it before it returns.
func TestBusy(t *testing.T) {
	before := len(background.Running())
	stop := Busy()
	if n := len(background.Running()); n != before+1 {
		t.Fatalf("%d background threads while busy; want %d", n, before+1)
	}
	stop() // waits for the search's goroutine, which ends its count first
	if n := len(background.Running()); n != before {
		t.Errorf("%d background threads after stop; want %d", n, before)
	}
}

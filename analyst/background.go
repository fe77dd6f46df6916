package analyst

import "github.com/zertzboard/zertzboard/internal/background"

// background gives the calling goroutine an OS thread of its own at the
// lowest scheduling priority (nice 19) and returns what ends the work's
// count (package background). The goroutine must exit without unlocking:
// Go then ends the thread, and no other goroutine ever runs at that
// priority.
func backgroundWork() (exit func()) { return background.Enter() }

package analyst

import (
	"runtime"
	"syscall"
)

// background gives the calling goroutine an OS thread of its own at the
// lowest scheduling priority (nice 19), so a search never takes a core
// from the frame loop. On Linux the nice value belongs to the thread, not
// the process (setpriority(2), BUGS), and raising it needs no privilege.
// The goroutine must exit without unlocking: Go then ends the thread,
// and no other goroutine ever runs at that priority.
func background() {
	runtime.LockOSThread()
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}

// Package background runs CPU-bound work beside the scan (the engine's
// search, the live analysis) on an OS thread of the lowest priority, and
// keeps count of it so that the Pi timing model (package sim) can charge
// what it costs the scan.
//
// Two things keep such work off the scan's path. The kernel: on Linux the
// nice value belongs to the thread (setpriority(2), BUGS), so the
// goroutine locks its OS thread and sets nice 19 on its TID, and a
// waking scan preempts it at once. Go's scheduler: a goroutine locked to
// its thread holds a P while it runs, and with GOMAXPROCS 1 (a one-core
// Pi Zero) the scan goroutine would wait for it to be preempted, some
// 10 ms; Enter raises GOMAXPROCS to 2 so the scan always has a P.
//
// Layer: base. May import: base.
package background

import (
	"runtime"
	"sync"
)

// MinProcs is the GOMAXPROCS Enter ensures.
const MinProcs = 2

var (
	mu      sync.Mutex
	running = map[*int]bool{} // each thread in background work: its nice
	raised  sync.Once
)

// Enter gives the calling goroutine an OS thread of its own at nice 19
// and returns exit, to call when the work is done (defer it). The
// goroutine must then end without unlocking: Go ends the thread, and no
// other goroutine ever runs at that priority.
func Enter() (exit func()) {
	raised.Do(func() {
		if runtime.GOMAXPROCS(0) < MinProcs {
			runtime.GOMAXPROCS(MinProcs)
		}
	})
	runtime.LockOSThread()
	nice := lower()
	mu.Lock()
	running[&nice] = true
	mu.Unlock()
	return func() {
		mu.Lock()
		delete(running, &nice)
		mu.Unlock()
	}
}

// Running lists the nice value of each thread in background work now.
func Running() []int {
	mu.Lock()
	defer mu.Unlock()
	out := make([]int, 0, len(running))
	for n := range running {
		out = append(out, *n)
	}
	return out
}

// Register counts a thread of the given nice value as in background work
// until exit is called, without touching the calling thread: for models
// and tests of what other work would cost.
func Register(nice int) (exit func()) {
	mu.Lock()
	running[&nice] = true
	mu.Unlock()
	return func() {
		mu.Lock()
		delete(running, &nice)
		mu.Unlock()
	}
}

// Procs is the GOMAXPROCS a process on a machine with cores cores has
// once it runs background work.
func Procs(cores int) int { return max(cores, MinProcs) }

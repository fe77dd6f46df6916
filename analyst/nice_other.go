//go:build !linux

package analyst

// background does nothing where the nice value is per process: the Go
// scheduler's preemption still shares the cores.
func background() {}

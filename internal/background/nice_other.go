//go:build !linux

package background

// lower does nothing where the nice value is per process: the thread
// keeps the process's priority, and the model charges it as such.
func lower() int { return 0 }

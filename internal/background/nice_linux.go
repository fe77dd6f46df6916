package background

import "syscall"

// lower sets the calling thread's nice value to 19 and returns it as the
// kernel has it (raising the nice value needs no privilege). The raw
// getpriority system call returns 20 − nice.
func lower() int {
	tid := syscall.Gettid()
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, 19)
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
	if err != nil {
		return 0
	}
	return 20 - p
}

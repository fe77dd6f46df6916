package analyst

import (
	"syscall"
	"testing"
)

// niceOf reads the calling thread's nice value. The raw getpriority
// system call returns 20 − nice (getpriority(2), C library/kernel
// differences).
func niceOf(t *testing.T) int {
	t.Helper()
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	return 20 - p
}

// TestBackgroundThread: the search's thread runs at nice 19; the others
// keep their priority.
func TestBackgroundThread(t *testing.T) {
	before := niceOf(t)
	got := make(chan int)
	go func() {
		defer backgroundWork()()
		p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
		if err != nil {
			got <- -100
			return
		}
		got <- 20 - p
	}()
	if n := <-got; n != 19 {
		t.Errorf("the search thread's nice = %d; want 19", n)
	}
	if n := niceOf(t); n != before {
		t.Errorf("the test's own thread changed from nice %d to %d", before, n)
	}
}

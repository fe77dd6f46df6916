package background

import (
	"runtime"
	"testing"
)

// TestEnter: the work's thread is counted at nice 19 (on Linux) while it
// runs and not after; GOMAXPROCS is at least 2 from then on.
func TestEnter(t *testing.T) {
	got := make(chan []int)
	done := make(chan struct{})
	go func() {
		exit := Enter()
		got <- Running()
		<-done
		exit()
		got <- Running()
	}()
	during := <-got
	close(done)
	after := <-got
	want := 19
	if runtime.GOOS != "linux" {
		want = 0
	}
	if len(during) != 1 || during[0] != want {
		t.Errorf("running %v during the work; want [%d]", during, want)
	}
	if len(after) != 0 {
		t.Errorf("running %v after it", after)
	}
	if runtime.GOMAXPROCS(0) < MinProcs {
		t.Errorf("GOMAXPROCS %d; want at least %d", runtime.GOMAXPROCS(0), MinProcs)
	}
	if Procs(1) != 2 || Procs(4) != 4 {
		t.Errorf("Procs(1) = %d, Procs(4) = %d", Procs(1), Procs(4))
	}
}

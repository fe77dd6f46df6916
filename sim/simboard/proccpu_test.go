package simboard_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuTimes is the CPU time (user and system) used so far by this process
// ("load client") and by each kind of process it started, directly or
// not, by command name ("scoreboard" for copies of this binary), from
// /proc (Linux; empty elsewhere).
func cpuTimes() map[string]time.Duration {
	out := map[string]time.Duration{}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		out["load client"] = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	self := os.Getpid()
	type proc struct {
		ppid int
		comm string
		cpu  time.Duration
	}
	procs := map[int]proc{}
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		s := string(b)
		open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || closing < open {
			continue
		}
		f := strings.Fields(s[closing+1:])
		if len(f) < 13 {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(s[:open]))
		ppid, _ := strconv.Atoi(f[1])
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		procs[pid] = proc{ppid, s[open+1 : closing], time.Duration(ut+st) * 10 * time.Millisecond} // USER_HZ is 100 on Linux
	}
	me := procs[self].comm
	for pid, p := range procs {
		if pid == self {
			continue
		}
		for a, n := p.ppid, 0; a > 1 && n < 16; a, n = procs[a].ppid, n+1 {
			if a == self {
				name := p.comm
				if name == me {
					name = "scoreboard"
				}
				out[name] += p.cpu
				break
			}
		}
	}
	return out
}

// cpuPer says what each kind of process used between two cpuTimes, per
// unit (e.g. per state published), sorted by name.
func cpuPer(before, after map[string]time.Duration, units int) string {
	var names []string
	for n := range after {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %.1f ms", n, float64(after[n]-before[n])/float64(time.Millisecond)/float64(units)))
	}
	return strings.Join(parts, ", ")
}

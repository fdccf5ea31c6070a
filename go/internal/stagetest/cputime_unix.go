//go:build unix

package stagetest

import "syscall"

// cpuTime is the CPU time this process has used, user and system, in nanoseconds:
// all its threads, the garbage collector's included.
func cpuTime() (int64, bool) {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		return 0, false
	}
	return usage.Utime.Nano() + usage.Stime.Nano(), true
}

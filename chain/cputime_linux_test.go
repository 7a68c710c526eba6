//go:build linux

package chain

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU returns the calling OS thread's CPU time (user and system),
// which waiting for a CPU on a loaded machine does not inflate. Callers lock
// the goroutine to its thread.
func threadCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

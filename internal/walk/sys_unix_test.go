//go:build unix

package walk

import (
	"syscall"
	"time"
)

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// cpuTime is the process's user plus system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

//go:build unix

package watch

import (
	"errors"
	"syscall"
)

// alive reports whether process pid may still run: only a definite "no such
// process" says it does not.
func alive(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

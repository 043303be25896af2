//go:build unix

package bench

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockWorkDir takes the work directory for this run: a second bench on the
// same directory would clear the work trees under the first one. It fails
// at once, naming the directory, when another process holds it.
func lockWorkDir(dir string) (func(), error) {
	p := dir + "/bench.lock"
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("bench: lock the work directory: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("bench: work directory %s is in use by another hone bench; give each run its own --work-dir", dir)
		}
		return nil, fmt.Errorf("bench: lock %s: %w", p, err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

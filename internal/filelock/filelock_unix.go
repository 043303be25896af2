//go:build unix

// Package filelock takes exclusive advisory locks on files (flock) where
// the platform has them, so that processes sharing a directory take turns:
// the index cache's writers, and one hone bench per work directory.
package filelock

import (
	"errors"
	"os"
	"syscall"
)

// Lock takes an exclusive lock on p, creating the file, and waits while
// another process holds it. It returns the function that releases it.
func Lock(p string) (func(), error) {
	unlock, _, err := lock(p, syscall.LOCK_EX)
	return unlock, err
}

// TryLock takes the lock only if it is free: held reports false (and err
// is nil) when another process holds it.
func TryLock(p string) (unlock func(), held bool, err error) {
	return lock(p, syscall.LOCK_EX|syscall.LOCK_NB)
}

func lock(p string, how int) (func(), bool, error) {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		if how&syscall.LOCK_NB != 0 && errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, true, nil
}

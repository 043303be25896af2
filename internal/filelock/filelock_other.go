//go:build !unix

// Package filelock takes exclusive advisory locks on files (flock) where
// the platform has them; elsewhere its locks are no-ops, and callers rely
// on atomic renames or on separate directories.
package filelock

// Lock is a no-op where flock is missing.
func Lock(p string) (func(), error) { return func() {}, nil }

// TryLock is a no-op where flock is missing: it always holds.
func TryLock(p string) (unlock func(), held bool, err error) { return func() {}, true, nil }

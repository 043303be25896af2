//go:build !unix

package index

// lockFile is a no-op where flock is missing; the rename keeps writes atomic.
func lockFile(p string) (func(), error) { return func() {}, nil }

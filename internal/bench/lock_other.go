//go:build !unix

package bench

// lockWorkDir is a no-op where flock is missing: give concurrent runs their
// own work directories.
func lockWorkDir(dir string) (func(), error) { return func() {}, nil }

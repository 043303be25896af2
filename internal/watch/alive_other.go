//go:build !unix

package watch

// alive cannot tell here, so every process is taken as alive and no
// barrier directory is swept.
func alive(pid int) bool { return true }

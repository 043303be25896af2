//go:build unix

package index

import (
	"io/fs"
	"syscall"
)

// inodeOf returns the inode of a FileInfo as the walk reports it.
func inodeOf(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

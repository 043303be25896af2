//go:build !unix

package index

import "io/fs"

// inodeOf returns 0: the walk reports no inode here.
func inodeOf(fs.FileInfo) uint64 { return 0 }

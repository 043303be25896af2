//go:build !unix

package walk

import "io/fs"

func inode(fs.FileInfo) uint64 { return 0 }

func readable(fs.FileInfo) bool { return true }

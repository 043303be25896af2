//go:build !unix

package walk

import "io/fs"

// metaOf takes what the walk needs from a FileInfo; inodes are unknown here.
func metaOf(info fs.FileInfo) meta {
	return meta{size: info.Size(), modTime: info.ModTime().UnixNano(), mode: info.Mode(), readable: true}
}

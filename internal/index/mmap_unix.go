//go:build unix

package index

import (
	"fmt"
	"os"
	"sync"
	"syscall"
)

// fileVersion names one version of a file: a cache is replaced by renaming a
// new file over it, never rewritten in place, so a new version has a new
// inode.
type fileVersion struct {
	dev, ino    uint64
	size, mtime int64
}

// mapped holds the mappings of the cache files this process has decoded an
// index from, by version. They are never unmapped: the index's strings and
// arrays point into them and may outlive it (a file's path handed to a
// caller, an index reused by the next Open). Keeping them costs address
// space, not memory (the pages belong to the page cache), and a re-Open of
// an unchanged cache reuses its mapping instead of adding one.
var mapped struct {
	sync.Mutex
	m map[fileVersion][]byte
}

// mapFile returns the size bytes of f, mapped read-only. done(true) keeps a
// mapping whose bytes an index now points into; done(false) unmaps a new
// mapping nothing points into. A file truncated by another program while
// mapped would fault on access; hone itself only ever replaces a cache by
// rename.
func mapFile(f *os.File, fi os.FileInfo, size int) (b []byte, done func(keep bool), err error) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return readFile(f, size)
	}
	v := fileVersion{dev: uint64(st.Dev), ino: uint64(st.Ino), size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	mapped.Lock()
	b, ok = mapped.m[v]
	mapped.Unlock()
	if ok {
		return b, func(bool) {}, nil
	}
	b, err = syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("index: map cache: %w", err)
	}
	return b, func(keep bool) {
		if !keep {
			syscall.Munmap(b)
			return
		}
		mapped.Lock()
		defer mapped.Unlock()
		if mapped.m == nil {
			mapped.m = make(map[fileVersion][]byte)
		}
		if _, dup := mapped.m[v]; !dup {
			mapped.m[v] = b
		}
	}, nil
}

//go:build unix

package walk

import (
	"io/fs"
	"os"
	"slices"
	"sync"
	"syscall"
)

// inode returns the file's inode number, 0 when unknown.
func inode(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

var ids = sync.OnceValue(func() (v struct {
	uid, gid int
	groups   []int
}) {
	v.uid, v.gid = os.Geteuid(), os.Getegid()
	v.groups, _ = os.Getgroups()
	return v
})

// readable reports whether the process may open the file for reading, from
// its permission bits as the kernel checks them (owner, else group, else
// other; root reads everything). It costs no system call; ACLs are not
// consulted, so a reader must still handle a failing open.
func readable(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	id := ids()
	perm := info.Mode().Perm()
	switch {
	case id.uid == 0:
		return true
	case int(st.Uid) == id.uid:
		return perm&0o400 != 0
	case int(st.Gid) == id.gid || slices.Contains(id.groups, int(st.Gid)):
		return perm&0o040 != 0
	}
	return perm&0o004 != 0
}

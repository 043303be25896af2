//go:build unix

package walk

import (
	"io/fs"
	"os"
	"slices"
	"sync"
	"syscall"
)

// metaOf takes what the walk needs from a FileInfo.
func metaOf(info fs.FileInfo) meta {
	m := meta{size: info.Size(), modTime: info.ModTime().UnixNano(), mode: info.Mode(), readable: true}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		m.ino = uint64(st.Ino)
		m.cTime = cTimeOf(st)
		m.readable = readablePerm(info.Mode().Perm(), int(st.Uid), int(st.Gid))
	}
	return m
}

var ids = sync.OnceValue(func() (v struct {
	uid, gid int
	groups   []int
}) {
	v.uid, v.gid = os.Geteuid(), os.Getegid()
	v.groups, _ = os.Getgroups()
	return v
})

// readablePerm reports whether the process may open a file with permission
// bits perm, owned by uid and gid, for reading, as the kernel checks them
// (owner, else group, else other; root reads everything). It costs no system
// call; ACLs are not consulted, so a reader must still handle a failing open.
func readablePerm(perm fs.FileMode, uid, gid int) bool {
	id := ids()
	switch {
	case id.uid == 0:
		return true
	case uid == id.uid:
		return perm&0o400 != 0
	case gid == id.gid || slices.Contains(id.groups, gid):
		return perm&0o040 != 0
	}
	return perm&0o004 != 0
}

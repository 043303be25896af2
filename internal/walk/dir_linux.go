//go:build linux

package walk

import (
	"encoding/binary"
	"io/fs"

	"golang.org/x/sys/unix"
)

// dir is an open directory. On Linux it is a file descriptor: children are
// opened and files are stat'ed relative to it (openat, fstatat), so the
// kernel resolves one name per call instead of the whole path, and a listing
// is read with getdents64, whose entries carry their type: nothing is
// stat'ed to tell a directory from a file.
type dir struct {
	fd int
}

// openRoot opens the root directory, following symlinks.
func openRoot(abs string) (*dir, error) {
	return openAt(unix.AT_FDCWD, abs, 0)
}

// open opens the subdirectory name of d without following a symlink (a
// directory replaced by a link while walking is not entered). abs is its
// full path, unused here.
func (d *dir) open(name, _ string) (*dir, error) {
	return openAt(d.fd, name, unix.O_NOFOLLOW)
}

func openAt(at int, path string, flags int) (*dir, error) {
	for {
		fd, err := unix.Openat(at, path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|flags, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &dir{fd: fd}, nil
	}
}

func (d *dir) close() { unix.Close(d.fd) }

// stat stats d itself.
func (d *dir) stat() (meta, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstat(d.fd, &st)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return meta{}, err
		}
		return meta{modTime: st.Mtim.Nano(), cTime: st.Ctim.Nano(), ino: st.Ino, mode: fs.ModeDir}, nil
	}
}

// Offsets in a struct linux_dirent64, the same on every architecture:
// d_ino u64, d_off s64, d_reclen u16, d_type u8, then the NUL-terminated name.
const (
	direntIno    = 0
	direntReclen = 16
	direntType   = 18
	direntName   = 19
)

// list reads all entries of d but "." and "..", in directory order. buf is
// scratch space for getdents64; names are copied into one string per
// directory. On an error it returns the entries read before it.
func (d *dir) list(buf []byte) ([]dirent, error) {
	var ents []dirent
	var names []byte
	var ends []int
	var err error
	for {
		n, e := unix.Getdents(d.fd, buf)
		if e == unix.EINTR {
			continue
		}
		if e != nil {
			err = e
			break
		}
		if n <= 0 {
			break
		}
		for b := buf[:n]; len(b) >= direntName; {
			reclen := int(binary.NativeEndian.Uint16(b[direntReclen:]))
			if reclen < direntName || reclen > len(b) {
				break // malformed; never seen
			}
			name := b[direntName:reclen]
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			ino := binary.NativeEndian.Uint64(b[direntIno:])
			typ := b[direntType]
			b = b[reclen:]
			if len(name) == 0 || name[0] == '.' && (len(name) == 1 || len(name) == 2 && name[1] == '.') {
				continue
			}
			names = append(names, name...)
			ends = append(ends, len(names))
			ents = append(ents, dirent{typ: direntMode(typ), ino: ino})
			if typ == unix.DT_UNKNOWN {
				ents[len(ents)-1].typ = fs.ModeIrregular | modeUnknown
			}
		}
	}
	all := string(names)
	start := 0
	for i, end := range ends {
		ents[i].name = all[start:end]
		start = end
	}
	// Some file systems do not report types; ask them.
	for i := range ents {
		if ents[i].typ&modeUnknown == 0 {
			continue
		}
		if m, e := d.lstat(ents[i].name); e == nil {
			ents[i].typ = m.mode.Type()
		} else {
			ents[i].typ = fs.ModeIrregular | modeUnknown // still unknown: see walker.dir
		}
	}
	return ents, err
}

func direntMode(t uint8) fs.FileMode {
	switch t {
	case unix.DT_REG:
		return 0
	case unix.DT_DIR:
		return fs.ModeDir
	case unix.DT_LNK:
		return fs.ModeSymlink
	case unix.DT_FIFO:
		return fs.ModeNamedPipe
	case unix.DT_SOCK:
		return fs.ModeSocket
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.DT_BLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}

// lstat stats the entry name of d without following a symlink.
func (d *dir) lstat(name string) (meta, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return meta{}, err
		}
		break
	}
	mode := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	default:
		mode |= fs.ModeIrregular
	}
	return meta{
		size:     st.Size,
		modTime:  st.Mtim.Nano(),
		cTime:    st.Ctim.Nano(),
		ino:      st.Ino,
		mode:     mode,
		readable: readablePerm(mode.Perm(), int(st.Uid), int(st.Gid)),
	}, nil
}

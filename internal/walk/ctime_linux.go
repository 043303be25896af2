package walk

import (
	"io/fs"
	"syscall"
)

func cTimeOf(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }

// CTimeOf returns the status change time of a FileInfo in Unix nanoseconds,
// as File.CTime holds it (0 where the system gives none).
func CTimeOf(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return cTimeOf(st)
	}
	return 0
}

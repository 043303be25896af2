package history

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on the machines hone runs
// on (x86-64 and arm64 with 4 KiB base pages).
const hugePage = 2 << 20

// hugeBuffer returns a new buffer of n bytes whose pages the kernel is
// asked to back with huge pages when they are first touched: the cache file
// (2 MB for 20,000 commits) is then read into one or two pages, not 500,
// and on a virtual machine each page fault is dear. It starts a huge page
// in, so that it is aligned (the space before it is never touched); the
// advice is only advice.
func hugeBuffer(n int) []byte {
	if n < hugePage/4 {
		return make([]byte, n)
	}
	span := (n + hugePage - 1) &^ (hugePage - 1)
	buf := make([]byte, span+hugePage)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	at := int(((p + hugePage - 1) &^ (hugePage - 1)) - p)
	syscall.Madvise(buf[at:at+span], syscall.MADV_HUGEPAGE)
	return buf[at : at+n : at+n]
}

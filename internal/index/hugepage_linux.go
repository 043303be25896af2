package index

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on the machines hone
// runs on (x86-64 and arm64 with 4 KiB base pages).
const hugePage = 2 << 20

// adviseHuge asks the kernel to back b's whole 2 MiB blocks with huge pages
// when they are first touched. b is a fresh heap buffer about to be filled
// from a cache file: in 4 KiB pages, filling it costs a page fault per page
// (50,000 for a 200 MB cache). A process that only loads a 204 MB cache took
// 0.37 s of CPU time without the advice and 0.19 s with it (medians of 15
// runs; mapping the file instead, 0.12-0.16 s). The advice is only advice:
// where huge pages are off, b is filled page by page as before.
func adviseHuge(b []byte) {
	if len(b) < 2*hugePage {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (p + hugePage - 1) &^ (hugePage - 1)
	hi := (p + uintptr(len(b))) &^ (hugePage - 1)
	if hi > lo {
		syscall.Madvise(b[lo-p:hi-p], syscall.MADV_HUGEPAGE)
	}
}

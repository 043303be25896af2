//go:build !unix

package index

import "os"

// mapFile reads the size bytes of f into the heap where memory mapping is
// not available.
func mapFile(f *os.File, _ os.FileInfo, size int) (b []byte, done func(keep bool), err error) {
	return readFile(f, size)
}

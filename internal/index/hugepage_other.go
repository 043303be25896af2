//go:build !linux

package index

// adviseHuge does nothing where the kernel takes no huge-page advice.
func adviseHuge([]byte) {}

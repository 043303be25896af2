//go:build unix && !linux

package walk

import "syscall"

func cTimeOf(*syscall.Stat_t) int64 { return 0 }

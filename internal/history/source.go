package history

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"strings"
)

// CacheSource reads which source the cache file at p (history-<hash>.bin)
// holds the log of: a working tree (gitDir false) or a git directory read
// instead (gitDir true), by its path. It is for listing the cache: a file
// of another version still names its source when its body starts as this
// version's does.
func CacheSource(p string) (path string, gitDir bool, err error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", false, err
	}
	if len(b) < headerSize || string(b[:8]) != cacheMagic ||
		crc32.ChecksumIEEE(b[headerSize:]) != binary.LittleEndian.Uint32(b[12:]) {
		return "", false, fmt.Errorf("history: %s: %w", p, errCorrupt)
	}
	r := &reader{b: b[headerSize:]}
	key := r.string()
	switch {
	case r.err != nil:
		return "", false, fmt.Errorf("history: %s: %w", p, errCorrupt)
	case strings.HasPrefix(key, "git-dir "):
		return strings.TrimPrefix(key, "git-dir "), true, nil
	case strings.HasPrefix(key, "dir "):
		return strings.TrimPrefix(key, "dir "), false, nil
	}
	return "", false, fmt.Errorf("history: %s: %w", p, errCorrupt)
}

package index

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"

	"github.com/hone-dev/hone/internal/filelock"
)

// ManifestInfo is what ReadManifestInfo reads of a manifest without
// checking that its segments suit this executable's extractor: enough to
// list and prune the cache (see internal/cachedir).
type ManifestInfo struct {
	// Root is the repository the manifest indexes.
	Root string
	// Segments are the file names of its segments; nil, with Current
	// false, for a manifest of another format version.
	Segments []string
	// Current: the manifest is of this executable's format version.
	Current bool
}

// ReadManifestInfo reads the root and the segment names of the manifest at
// p. A file that is no manifest, or whose checksum fails, is an error; one
// of another format version yields its root alone (every version starts
// its body with the root).
func ReadManifestInfo(p string) (ManifestInfo, error) {
	buf, err := os.ReadFile(p)
	if err != nil {
		return ManifestInfo{}, err
	}
	if len(buf) < manifestHead || string(buf[:8]) != cacheMagic {
		return ManifestInfo{}, fmt.Errorf("index: %s: %w", p, errCorrupt)
	}
	body := buf[manifestHead:]
	if crc32.Checksum(body, crcTable) != binary.LittleEndian.Uint32(buf[12:]) {
		return ManifestInfo{}, fmt.Errorf("index: %s: %w", p, errCorrupt)
	}
	d := &decoder{b: body}
	info := ManifestInfo{Root: d.str()}
	if d.err != nil {
		return ManifestInfo{}, fmt.Errorf("index: %s: %w", p, errCorrupt)
	}
	if binary.LittleEndian.Uint32(buf[8:]) != formatVersion {
		return info, nil
	}
	n := d.count(len(body))
	segs := make([]string, 0, n)
	for range n {
		name := d.str()
		d.uv() // byte size
		files := d.count(1 << 31)
		for range d.count(files) {
			d.uv()
		}
		if d.err != nil || name != filepath.Base(name) || !strings.HasSuffix(name, ".seg") {
			return ManifestInfo{}, fmt.Errorf("index: %s: %w", p, errCorrupt)
		}
		segs = append(segs, name)
	}
	info.Segments, info.Current = segs, true
	return info, nil
}

// ManifestName is the file name of root's manifest in a cache directory.
func ManifestName(root string) string {
	p, _ := cachePath(".", root)
	return filepath.Base(p)
}

// TryLockManifest takes, if it is free, the lock the index holds on the
// manifest at p while it writes root's cache (p + ".lock"); held is false
// when another process holds it. The lock file is created when missing.
func TryLockManifest(p string) (unlock func(), held bool, err error) {
	return filelock.TryLock(p + ".lock")
}

// RecordsBudget is the byte budget of the records store (records.db) when
// Options leave it unset: $HONE_RECORDS_MB mebibytes, else
// DefaultRecordsMax.
func RecordsBudget() int64 { return recordsBudget(func(string, ...any) {}) }

// RecordsFile is the file name of the records store in a cache directory.
const RecordsFile = recordsFile

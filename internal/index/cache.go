package index

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"os"
	"path/filepath"
	"sync"

	"github.com/hone-dev/hone/internal/secret"
	"github.com/hone-dev/hone/internal/syntax"
	"github.com/hone-dev/hone/internal/walk"
)

// The cache of one repository is a manifest, index-<hash of the absolute
// root>.bin, and the immutable segment files it names,
// index-<same hash>-<16 hex digits>.seg, in one directory; records.db
// beside them is the store of parsed files that every repository of the
// directory shares (records.go). Every file is
// little-endian, written to a temporary file and renamed into place, and a
// segment file is never written again under its name: readers see a whole
// file or none. The manifest is small (it is rewritten at each change); the
// segments hold the bulk and are made to be loaded without rebuilding: the
// arrays a search reads (term table, name tables, offsets) are stored
// fixed-width, 8-byte aligned, and Open reads each file into one heap buffer
// and views them in it instead of decoding them. The forward index and
// postings are stored compressed, one run per file and per term (runs.go),
// decoded run by run as a search asks for them; they come last, as the tail,
// so that an Open that searches in place (Options.InPlace, segment_disk.go)
// reads the file up to them and the rest by offset.
//
// Manifest (see manifest.go):
//
//	header (32 bytes):
//	  magic      [8]byte  "HONEIDX\n"
//	  version    uint32   formatVersion
//	  crc        uint32   CRC-32 (IEEE) of the body
//	  extractor  uint64   fingerprint of the syntax extractor (see extractorPrint)
//	  exe        uint64   stamp of the executable that wrote the file (see exeStamp)
//	body (uvarints; strings are uvarint length + bytes):
//	  root string
//	  segments: count, then per segment its file name, byte size, number
//	            of files, number of tombstones and the tombstoned local
//	            file ids (ascending, each less the previous one)
//	  files: count of live files, then per file id its resolved imports
//	         (count, then ascending file ids, each less the previous one)
//	  content skips: count, then path, reason, detail (strings), size,
//	         mtime, ctime (varints), inode
//	  quiet and listed directories (see walk.Memo): count, then per
//	         directory path, inode, mtime, ctime (varints), the fingerprint
//	         of its ignore files and options (uint64), its ignore files
//	         (count, names), items: count, then per item 0 and a skip
//	         (path, reason, detail), 1 and a subdirectory's name, 2 and a
//	         file's or 3 and a symbolic link's, then 1 if it is listed, else 0
//
// Segment:
//
//	header (48 bytes):
//	  magic      [8]byte  "HONESEG\n"
//	  version    uint32   formatVersion
//	  crc        uint32   CRC-32 (IEEE) of everything after the header up to the tail
//	  extractor  uint64   fingerprint of the syntax extractor
//	  tailCRC    uint32   CRC-32 (IEEE) of the tail, to the end of the file
//	  reserved   uint32   0
//	  lenDecoded uint64   byte length of the decoded part
//	  lenViewed  uint64   byte length of the viewed part
//	decoded part (only the tags stay in use, decoded per file on first use,
//	see lazyTags):
//	  lenMeta uint64, then the meta section (uvarints unless noted):
//	    files (in path order): count, total tags, total imports, then per
//	           file: path, lang (string ids), size, mtime, ctime (varints), inode,
//	           content key (16 bytes, see records.go; all 0xff for a
//	           file a Lexical Open did not parse),
//	           len per field, defs count, refs count, byte length of its
//	           tags, imports (count, string ids)
//	    overflow: count, then term id, file id and the three counts of each
//	           pair whose stored counts are escaped (see tf3)
//	  tags: per file its defs then its refs, each name, parent, kind (string
//	        ids) and line as uvarints, a definition then its last line
//	        less its first; zero padding to a multiple of 8
//	viewed part (kept; arrays below are slices of it):
//	  directory: section count uint64, then offset and length (uint64s,
//	  from the part's start) of each section, in this order; every section
//	  starts 8-aligned, and fwdRuns and postRuns are laid out last, in that
//	  order (the tail), the others in directory order:
//	    strings offsets []uint32, strings bytes (paths, languages, tag
//	        strings, imports; index 0 is "")
//	    terms offsets []uint32, terms bytes (sorted)
//	    fwdOff []int32 (per file, where its entries start; the last is the
//	        number of entries), fwdAt []uint32 (per file, where its run
//	        starts in fwdRuns; the last is its length), fwdRuns (per file
//	        its run: term ids and counts, see runs.go)
//	    postOff []int32, postAt []uint32, postRuns: the same per term
//	        (file ids and counts)
//	    defs keys offsets, bytes, defs off []int32, ids []int32
//	    refs keys offsets, bytes, refs off []int32, ids []int32
//	    module keys and directories, laid out as defs (see resolve.go)
//	    informative terms, one byte (0 or 1) per term (see assoc.go)
//
// A manifest that fails any check (magic, version, extractor, checksum,
// root, bounds) is not used: the index is rebuilt with a warning. A segment
// that fails one (or is missing) costs only its own files, which are parsed
// again, with a warning. Checking the extractor means running it on probes
// (tens of milliseconds of grammar set-up), so a manifest written by the
// very executable that reads it (same exe stamp) is trusted to carry the
// current fingerprint; its segments must carry the same.
const (
	cacheMagic    = "HONEIDX\n"
	segmentMagic  = "HONESEG\n"
	formatVersion = 13 // 13: the manifest records every directory's listing; 12: the forward index and postings in varint runs; 11: the manifest records the quiet directories; 10: the forward index and postings last
	headerSize    = 48
	manifestHead  = 32
)

// crcTable is the IEEE polynomial's: with carry-less multiplication it is
// checked at about 10 GB/s, several times faster than Castagnoli here, and a
// warm Open checks the whole file.
var crcTable = crc32.IEEETable

// errStale marks a cache written by another format or extractor.
var errStale = errors.New("index: cache is of another version")

// CacheDir resolves hone's cache directory: dir if set, else
// $HONE_CACHE_DIR, else the user cache directory's hone/.
func CacheDir(dir string) (string, error) {
	if dir == "" {
		dir = os.Getenv("HONE_CACHE_DIR")
	}
	if dir == "" {
		ucd, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("index: no cache directory: %w", err)
		}
		dir = filepath.Join(ucd, "hone")
	}
	return dir, nil
}

// cachePath returns the cache file for root.
func cachePath(dir, root string) (string, error) {
	dir, err := CacheDir(dir)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(dir, "index-"+hex.EncodeToString(sum[:8])+".bin"), nil
}

var (
	printOnce sync.Once
	printVal  uint64
)

// extractorPrint fingerprints the syntax extractor by its output on a few
// small probes (ProbesPrint), and the content rules by walk.SniffRules, so
// that a cache written by an older extractor, or holding older verdicts on
// what to skip, is rebuilt.
func extractorPrint() uint64 {
	printOnce.Do(func() {
		h := fnv.New64a()
		fmt.Fprintf(h, "probes|%x\n", ProbesPrint)
		fmt.Fprintf(h, "sniff|%d\n", walk.SniffRules)
		// Scrubbing changes what is indexed: a cache of unscrubbed text is rebuilt.
		fmt.Fprintf(h, "scrub|%q\n", secret.Scrub("p/a.properties", []byte("db.password=hunter2\n")))
		printVal = h.Sum64()
	})
	return printVal
}

// ProbesPrint is probesPrint's value for this extractor: a constant, since
// computing it compiles the queries of eight grammars (about 140 ms of CPU,
// a tenth of a first contact with django). TestProbesPrint computes it and
// fails when the extractor's output changed (a query, a grammar version,
// the tags it keeps): set the value it reports, and every cache is rebuilt
// once by the next release.
const ProbesPrint = 0x194fed551e726262

// probesPrint hashes the syntax extractor's output on small probes of each
// language whose extraction differs.
func probesPrint() uint64 {
	h := fnv.New64a()
	probes := []struct{ path, src string }{
		{"p/m.py", "import os\nfrom .a import b\nclass A(B):\n    def f(self):\n        g()\n"},
		{"p/m.go", "package m\nimport \"fmt\"\ntype T struct{}\nfunc (T) F() { fmt.Println() }\n"},
		{"p/m.ts", "import { a } from './a'\nexport class C { m(): void { a() } }\ninterface I { f(): void }\n"},
		{"p/M.astro", "---\nimport A from './A.astro'\nfunction f() { return A }\n---\n<div>{f()}</div>\n"},
		{"p/M.vue", "<template><div/></template>\n<script setup lang=\"ts\">\nimport { a } from './a'\nfunction f(): void { a() }\n</script>\n"},
		{"p/M.java", "package p;\ninterface I { void f(); }\nclass M implements I { public void f() {} }\n"},
		{"p/m.c", "#include \"m.h\"\nint f(int);\nint g(void) { return f(1); }\n"},
		{"p/m.cpp", "namespace n { struct S { void f(); }; }\nvoid n::S::f() {}\ntemplate <class T> void B<T>::g() {}\n"},
	}
	for _, p := range probes {
		r, err := syntax.Extract(p.path, []byte(p.src))
		fmt.Fprintf(h, "%s|%v|%v|%v|%v|%v\n", p.path, r.Lang, r.Defs, r.Refs, r.Imports, err)
	}
	return h.Sum64()
}

var (
	stampOnce sync.Once
	stampVal  uint64
)

// exeStamp identifies the running executable by its path, size and
// modification time (0 when unknown): two processes with the same stamp run
// the same extractor.
func exeStamp() uint64 {
	stampOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			return
		}
		fi, err := os.Stat(exe)
		if err != nil {
			return
		}
		h := fnv.New64a()
		fmt.Fprintf(h, "%s|%d|%d", exe, fi.Size(), fi.ModTime().UnixNano())
		stampVal = h.Sum64() | 1
	})
	return stampVal
}

// HasCache reports whether the cache directory dir ("" as in Options.CacheDir)
// holds an index of root (an absolute path): its manifest exists.
func HasCache(dir, root string) bool {
	p, err := cachePath(dir, root)
	if err != nil {
		return false
	}
	_, err = os.Stat(p)
	return err == nil
}

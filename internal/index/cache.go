package index

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/hone-dev/hone/internal/syntax"
	"github.com/hone-dev/hone/internal/walk"
)

// The cache of one repository is a manifest, index-<hash of the absolute
// root>.bin, and the immutable segment files it names,
// index-<same hash>-<16 hex digits>.seg, in one directory. Every file is
// little-endian, written to a temporary file and renamed into place, and a
// segment file is never written again under its name: readers see a whole
// file or none. The manifest is small (it is rewritten at each change); the
// segments hold the bulk and are made to be loaded without rebuilding: the
// arrays a search reads (forward index, postings, term table, name tables)
// are stored fixed-width, 8-byte aligned, and Open reads each file into one
// heap buffer and views them in it instead of decoding them.
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
//	         mtime (varint), inode
//
// Segment:
//
//	header (48 bytes):
//	  magic      [8]byte  "HONESEG\n"
//	  version    uint32   formatVersion
//	  crc        uint32   CRC-32 (IEEE) of everything after the header
//	  extractor  uint64   fingerprint of the syntax extractor
//	  reserved   uint64   0
//	  lenDecoded uint64   byte length of the decoded part
//	  lenViewed  uint64   byte length of the viewed part
//	decoded part (only the tags stay in use, decoded per file on first use,
//	see lazyTags):
//	  lenMeta uint64, then the meta section (uvarints unless noted):
//	    files (in path order): count, total tags, total imports, then per
//	           file: path, lang (string ids), size, mtime (varint), inode,
//	           len per field, defs count, refs count, byte length of its
//	           tags, imports (count, string ids)
//	    overflow: count, then term id, file id and the three counts of each
//	           pair whose stored counts are escaped (see tf3)
//	  tags: per file its defs then its refs, each name, parent, kind (string
//	        ids) and line as uvarints, a definition then its last line
//	        less its first; zero padding to a multiple of 8
//	viewed part (kept; arrays below are slices of it):
//	  directory: section count uint64, then offset and length (uint64s,
//	  from the part's start) of each section; every section starts 8-aligned:
//	    strings offsets []uint32, strings bytes (paths, languages, tag
//	        strings, imports; index 0 is "")
//	    terms offsets []uint32, terms bytes (sorted)
//	    fwdOff []int32, fwdTerm []int32, fwdTF [][3]uint8
//	    postOff []int32, postDoc []int32, postTF [][3]uint8
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
	formatVersion = 6
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
// small probes, and the content rules by walk.SniffRules, so that a cache
// written by an older extractor, or holding older verdicts on what to skip,
// is rebuilt.
func extractorPrint() uint64 {
	printOnce.Do(func() {
		h := fnv.New64a()
		probes := []struct{ path, src string }{
			{"p/m.py", "import os\nfrom .a import b\nclass A(B):\n    def f(self):\n        g()\n"},
			{"p/m.go", "package m\nimport \"fmt\"\ntype T struct{}\nfunc (T) F() { fmt.Println() }\n"},
			{"p/m.ts", "import { a } from './a'\nexport class C { m(): void { a() } }\ninterface I { f(): void }\n"},
			{"p/M.java", "package p;\ninterface I { void f(); }\nclass M implements I { public void f() {} }\n"},
			{"p/m.c", "#include \"m.h\"\nint f(int);\nint g(void) { return f(1); }\n"},
			{"p/m.cpp", "namespace n { struct S { void f(); }; }\nvoid n::S::f() {}\ntemplate <class T> void B<T>::g() {}\n"},
		}
		for _, p := range probes {
			r, err := syntax.Extract(p.path, []byte(p.src))
			fmt.Fprintf(h, "%s|%v|%v|%v|%v|%v\n", p.path, r.Lang, r.Defs, r.Refs, r.Imports, err)
		}
		fmt.Fprintf(h, "sniff|%d\n", walk.SniffRules)
		printVal = h.Sum64()
	})
	return printVal
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

// encoder appends varints and strings.
type encoder struct{ b []byte }

func (e *encoder) uv(x uint64) { e.b = binary.AppendUvarint(e.b, x) }
func (e *encoder) v(x int64)   { e.b = binary.AppendVarint(e.b, x) }
func (e *encoder) str(s string) {
	e.uv(uint64(len(s)))
	e.b = append(e.b, s...)
}

// sections lays out the viewed part: a directory, then 8-aligned sections.
type sections struct{ data [][]byte }

func (s *sections) add(b []byte) { s.data = append(s.data, b) }

// int32s adds x, viewed as bytes on a little-endian machine.
func (s *sections) int32s(x []int32) {
	if littleEndian {
		s.add(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(x))), 4*len(x)))
		return
	}
	b := make([]byte, 4*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	s.add(b)
}

func (s *sections) uint32s(x []uint32) {
	s.int32s(unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(x))), len(x)))
}

func (s *sections) tfs(x []tf3) {
	s.add(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(x))), 3*len(x)))
}

func (s *sections) table(t strTable) {
	s.uint32s(t.off)
	s.add([]byte(t.blob))
}

func (s *sections) nameTable(nt *nameTable) {
	s.table(nt.keys)
	s.int32s(nt.off)
	s.int32s(unsafe.Slice((*int32)(unsafe.SliceData(nt.ids)), len(nt.ids)))
}

func align8(n int) int { return (n + 7) &^ 7 }

// size returns the byte length of the laid-out part.
func (s *sections) size() int {
	at := align8(8 + 16*len(s.data))
	for _, b := range s.data {
		at = align8(at + len(b))
	}
	return at
}

// appendTo appends the laid-out part to out, whose length must be a
// multiple of 8.
func (s *sections) appendTo(out []byte) []byte {
	base := len(out)
	out = append(out, make([]byte, s.size())...)
	part := out[base:]
	binary.LittleEndian.PutUint64(part, uint64(len(s.data)))
	at := align8(8 + 16*len(s.data))
	for i, b := range s.data {
		binary.LittleEndian.PutUint64(part[8+16*i:], uint64(at))
		binary.LittleEndian.PutUint64(part[16+16*i:], uint64(len(b)))
		copy(part[at:], b)
		at = align8(at + len(b))
	}
	return out
}

// encode serialises the segment, stamped with the extractor fingerprint
// print.
func (ix *segment) encode(print uint64) []byte {
	sids := map[string]uint32{"": 0}
	strs := []string{""}
	sid := func(s string) uint64 {
		if id, ok := sids[s]; ok {
			return uint64(id)
		}
		id := uint32(len(strs))
		sids[s] = id
		strs = append(strs, s)
		return uint64(id)
	}
	var meta encoder
	var nTags, nImps int
	for i := range ix.files {
		f := ix.file(int32(i)) // decodes lazy tags
		nTags += len(f.Defs) + len(f.Refs)
		nImps += len(f.Imports)
	}
	meta.uv(uint64(len(ix.files)))
	meta.uv(uint64(nTags))
	meta.uv(uint64(nImps))
	var tags encoder
	addTags := func(ts []syntax.Tag, defs bool) {
		for _, t := range ts {
			tags.uv(sid(t.Name))
			tags.uv(sid(t.Parent))
			tags.uv(sid(t.Kind))
			tags.uv(uint64(max(t.Line, 0)))
			if defs {
				tags.uv(uint64(max(t.End-t.Line, 0)))
			}
		}
	}
	for i := range ix.files {
		f := &ix.files[i]
		meta.uv(sid(f.Path))
		meta.uv(sid(f.Lang))
		meta.v(f.Size)
		meta.v(f.ModTime)
		meta.uv(ix.inodes[i])
		for _, l := range f.Len {
			meta.uv(uint64(l))
		}
		meta.uv(uint64(len(f.Defs)))
		meta.uv(uint64(len(f.Refs)))
		at := len(tags.b)
		addTags(f.Defs, true)
		addTags(f.Refs, false)
		meta.uv(uint64(len(tags.b) - at))
		meta.uv(uint64(len(f.Imports)))
		for _, s := range f.Imports {
			meta.uv(sid(s))
		}
	}
	// The overflow pairs in a stable order.
	keys := make([]uint64, 0, len(ix.overflow))
	for k := range ix.overflow {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	meta.uv(uint64(len(keys)))
	for _, k := range keys {
		meta.uv(k >> 32)
		meta.uv(k & math.MaxUint32)
		for _, n := range ix.overflow[k] {
			meta.uv(uint64(n))
		}
	}

	dec := binary.LittleEndian.AppendUint64(nil, uint64(len(meta.b)))
	dec = append(dec, meta.b...)
	dec = append(dec, tags.b...)
	// Pad so that the viewed part starts 8-aligned in a buffer of the whole file.
	for len(dec)%8 != 0 {
		dec = append(dec, 0)
	}

	var sec sections
	sec.table(newStrTable(strs))
	sec.table(ix.terms)
	sec.int32s(ix.fwdOff)
	sec.int32s(ix.fwdTerm)
	sec.tfs(ix.fwdTF)
	sec.int32s(ix.postOff)
	sec.int32s(ix.postDoc)
	sec.tfs(ix.postTF)
	sec.nameTable(&ix.defs)
	sec.nameTable(&ix.refs)
	sec.nameTable(&ix.modKeys)
	sec.nameTable(&ix.dirs)
	info := make([]byte, len(ix.informative))
	for i, ok := range ix.informative {
		if ok {
			info[i] = 1
		}
	}
	sec.add(info)

	out := make([]byte, headerSize, headerSize+len(dec)+sec.size())
	out = append(out, dec...)
	out = sec.appendTo(out)
	view := out[headerSize+len(dec):]
	copy(out, segmentMagic)
	binary.LittleEndian.PutUint32(out[8:], formatVersion)
	binary.LittleEndian.PutUint32(out[12:], crc32.Checksum(out[headerSize:], crcTable))
	binary.LittleEndian.PutUint64(out[16:], print)
	binary.LittleEndian.PutUint64(out[32:], uint64(len(dec)))
	binary.LittleEndian.PutUint64(out[40:], uint64(len(view)))
	return out
}

// decoder reads what encoder wrote; the first error sticks.
type decoder struct {
	b   []byte
	i   int
	err error
}

var errCorrupt = errors.New("index: cache is corrupt")

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.i = len(d.b)
}

func (d *decoder) uv() uint64 {
	if d.i < len(d.b) && d.b[d.i] < 0x80 {
		x := d.b[d.i]
		d.i++
		return uint64(x)
	}
	x, n := binary.Uvarint(d.b[d.i:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.i += n
	return x
}

func (d *decoder) v() int64 {
	x, n := binary.Varint(d.b[d.i:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.i += n
	return x
}

func (d *decoder) u64() uint64 {
	if len(d.b)-d.i < 8 {
		d.fail()
		return 0
	}
	x := binary.LittleEndian.Uint64(d.b[d.i:])
	d.i += 8
	return x
}

// count reads a count that must not exceed limit.
func (d *decoder) count(limit int) int {
	x := d.uv()
	if x > uint64(limit) {
		d.fail()
		return 0
	}
	return int(x)
}

func (d *decoder) str() string {
	n := d.count(len(d.b) - d.i)
	s := string(d.b[d.i : d.i+n])
	d.i += n
	return s
}

// loadSegment reads the segment file at p, which must hold files files
// and carry the extractor fingerprint print. A missing file yields an error
// satisfying errors.Is(err, fs.ErrNotExist). The file is read into one heap
// buffer that the segment's arrays, strings and lazy tags then point into,
// so the garbage collector keeps it exactly as long as something does, and
// checked against its CRC before use.
//
// The file is read, not mapped: a mapping reads the same pages without a
// copy, but it ties the process to the file for as long as any string of the
// index lives, and a file truncated under a live mapping (by a cache
// cleaner, another hone version, anyone) kills the process with SIGBUS at
// its next access, wherever that is: in a search, in a session that keeps
// its index, in a caller holding a path. A copy cannot be taken away.
func loadSegment(p string, files int, print uint64) (*segment, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if size < headerSize || size > math.MaxInt {
		return nil, errCorrupt
	}
	buf, err := readCache(f, int(size))
	if err != nil {
		return nil, err
	}
	sg, err := decodeSegment(buf, print, true)
	if err != nil {
		return nil, err
	}
	if len(sg.files) != files {
		return nil, errCorrupt
	}
	sg.name = filepath.Base(p)
	sg.size.Store(size)
	return sg, nil
}

// sameVersion reports whether a and b describe the same version of a file:
// a cache is replaced by renaming a new file over it (a new inode), and
// anything else that changes it in place moves its size or modification
// time.
func sameVersion(a, b os.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// readCache reads the size bytes of f into a new heap buffer.
func readCache(f *os.File, size int) ([]byte, error) {
	b := make([]byte, size)
	adviseHuge(b)
	if _, err := f.ReadAt(b, 0); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w (shorter than when opened)", errCorrupt)
		}
		return nil, fmt.Errorf("index: read cache: %w", err)
	}
	return b, nil
}

// checkHeader checks the magic, version and lengths of a segment's header
// for a file of size bytes and returns the lengths of the two parts.
func checkHeader(hdr []byte, size int64) (lenDec, lenView uint64, err error) {
	if len(hdr) < headerSize || string(hdr[:8]) != segmentMagic {
		return 0, 0, errCorrupt
	}
	if binary.LittleEndian.Uint32(hdr[8:]) != formatVersion {
		return 0, 0, errStale
	}
	lenDec, lenView = binary.LittleEndian.Uint64(hdr[32:]), binary.LittleEndian.Uint64(hdr[40:])
	body := uint64(size - headerSize)
	if size < headerSize || lenDec > body || lenView != body-lenDec {
		return 0, 0, errCorrupt
	}
	return lenDec, lenView, nil
}

// decodeSegment decodes a whole segment file held in buf, whose extractor
// fingerprint must be print; lazy leaves the tags to be decoded per file
// (see lazyTags).
func decodeSegment(buf []byte, print uint64, lazy bool) (*segment, error) {
	lenDec, _, err := checkHeader(buf, int64(len(buf)))
	if err != nil {
		return nil, err
	}
	hdr, dec, view := buf[:headerSize], buf[headerSize:headerSize+lenDec], buf[headerSize+lenDec:]
	if crc32.Update(crc32.Checksum(dec, crcTable), crcTable, view) != binary.LittleEndian.Uint32(hdr[12:]) {
		return nil, errCorrupt
	}
	if binary.LittleEndian.Uint64(hdr[16:]) != print {
		return nil, errStale
	}
	d := &decoder{b: dec}
	lenMeta := d.u64()
	if d.err != nil || lenMeta > uint64(len(dec)-8) {
		return nil, errCorrupt
	}
	meta := &decoder{b: dec[8 : 8+lenMeta]}
	tags := dec[8+lenMeta:]
	sg := &segment{}
	strs, err := sg.viewArrays(view)
	if err != nil {
		return nil, err
	}
	if err := sg.decodeMeta(meta, strs, tags, lazy); err != nil {
		return nil, err
	}
	if len(sg.fwdOff) != len(sg.files)+1 {
		return nil, errCorrupt
	}
	for i := 1; i < len(sg.files); i++ {
		if sg.files[i-1].Path >= sg.files[i].Path {
			return nil, errCorrupt // files are in path order, each once
		}
	}
	return sg, nil
}

// littleEndian is whether this machine stores integers as the cache does, so
// that arrays can be viewed in place.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// int32View returns b as int32s: in place when the machine is little-endian
// and b is aligned, else decoded.
func int32View(b []byte) ([]int32, error) {
	if len(b)%4 != 0 {
		return nil, errCorrupt
	}
	if len(b) == 0 {
		return []int32{}, nil
	}
	if littleEndian && uintptr(unsafe.Pointer(&b[0]))%4 == 0 {
		return unsafe.Slice((*int32)(unsafe.Pointer(&b[0])), len(b)/4), nil
	}
	out := make([]int32, len(b)/4)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out, nil
}

func tfView(b []byte) ([]tf3, error) {
	if len(b)%3 != 0 {
		return nil, errCorrupt
	}
	if len(b) == 0 {
		return []tf3{}, nil
	}
	return unsafe.Slice((*tf3)(unsafe.Pointer(&b[0])), len(b)/3), nil
}

// offsets checks that off is a non-decreasing offset array into n items.
func offsets(off []int32, n int) bool {
	if len(off) == 0 || off[0] != 0 || int(off[len(off)-1]) != n {
		return false
	}
	for i := 1; i < len(off); i++ {
		if off[i] < off[i-1] {
			return false
		}
	}
	return true
}

// below checks that every value of x is in [0, n).
func below(x []int32, n int) bool {
	for _, v := range x {
		if v < 0 || int(v) >= n {
			return false
		}
	}
	return true
}

// viewArrays points the index's arrays into the viewed part and returns
// the string table.
func (ix *segment) viewArrays(view []byte) (strs strTable, err error) {
	if len(view) < 8 {
		return strs, errCorrupt
	}
	n := binary.LittleEndian.Uint64(view)
	if n != 27 || uint64(len(view)) < 8+16*n {
		return strs, errCorrupt
	}
	sec := make([][]byte, n)
	for i := range sec {
		at, l := binary.LittleEndian.Uint64(view[8+16*i:]), binary.LittleEndian.Uint64(view[16+16*i:])
		if at > uint64(len(view)) || l > uint64(len(view))-at {
			return strs, errCorrupt
		}
		sec[i] = view[at : at+l : at+l]
	}
	i32 := func(b []byte) []int32 {
		x, e := int32View(b)
		err = errors.Join(err, e)
		return x
	}
	table := func(off, blob []byte) strTable {
		o := i32(off)
		if err != nil || !offsets(o, len(blob)) {
			err = errCorrupt
			return strTable{}
		}
		return strTable{off: unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(o))), len(o)), blob: unsafe.String(unsafe.SliceData(blob), len(blob))}
	}
	strs = table(sec[0], sec[1])
	terms := table(sec[2], sec[3])
	ix.fwdOff = i32(sec[4])
	ix.fwdTerm = i32(sec[5])
	ix.postOff = i32(sec[7])
	ix.postDoc = i32(sec[8])
	if err != nil {
		return strs, errCorrupt
	}
	if ix.fwdTF, err = tfView(sec[6]); err != nil {
		return strs, err
	}
	if ix.postTF, err = tfView(sec[9]); err != nil {
		return strs, err
	}
	T, P := terms.len(), len(ix.fwdTerm)
	nFiles := len(ix.fwdOff) - 1
	if nFiles < 0 || !offsets(ix.fwdOff, P) || !offsets(ix.postOff, P) || len(ix.postOff) != T+1 ||
		len(ix.fwdTF) != P || len(ix.postDoc) != P || len(ix.postTF) != P ||
		!below(ix.fwdTerm, T) || !below(ix.postDoc, nFiles) {
		return strs, errCorrupt
	}
	names := func(s [][]byte) nameTable {
		keys := table(s[0], s[1])
		off, ids := i32(s[2]), i32(s[3])
		if err != nil || len(off) != keys.len()+1 || !offsets(off, len(ids)) || !below(ids, nFiles) {
			err = errCorrupt
			return nameTable{}
		}
		return nameTable{keys: keys, off: off, ids: unsafe.Slice((*ID)(unsafe.SliceData(ids)), len(ids))}
	}
	ix.defs = names(sec[10:14])
	ix.refs = names(sec[14:18])
	ix.modKeys = names(sec[18:22])
	ix.dirs = names(sec[22:26])
	if err != nil || len(sec[26]) != T {
		return strs, errCorrupt
	}
	ix.informative = unsafe.Slice((*bool)(unsafe.Pointer(unsafe.SliceData(sec[26]))), T)
	for _, b := range sec[26] {
		if b > 1 {
			return strs, errCorrupt
		}
	}
	ix.terms = terms
	return strs, nil
}

// decodeMeta decodes the files and overflow pairs from d and
// checks the tags' fixed-width records; strings are substrings of strs. The
// tags are decoded now, or, when lazy, per file on its first File call.
func (ix *segment) decodeMeta(d *decoder, strs strTable, tagRecs []byte, lazy bool) error {
	nStr := uint64(strs.len())
	str := func() string {
		i := d.uv()
		if i >= nStr {
			d.fail()
			return ""
		}
		return strs.at(int(i))
	}
	rest := len(d.b)
	n := d.count(rest)
	nTags := d.count(len(tagRecs))
	nImps := d.count(rest)
	if d.err != nil || n != len(ix.fwdOff)-1 {
		return errCorrupt
	}
	var tags []syntax.Tag
	if lazy {
		ix.lazy = &lazyTags{recs: tagRecs, strs: strs, at: make([]int32, n+1), defs: make([]int32, n), refs: make([]int32, n), once: make([]sync.Once, n)}
	} else {
		tags = make([]syntax.Tag, nTags)
	}
	left, at := nTags, 0
	take := func(c, nDefs, size int) []syntax.Tag {
		if c > left || size > len(tagRecs)-at {
			d.fail()
			return nil
		}
		left -= c
		blob := tagRecs[at : at+size]
		at += size
		if c == 0 || lazy {
			return nil
		}
		ts := tags[:c:c]
		tags = tags[c:]
		td := &decoder{b: blob}
		for i := range ts {
			ts[i] = decodeTag(td, strs, i < nDefs)
		}
		if td.err != nil || td.i != len(blob) {
			d.fail()
		}
		return ts
	}
	impBuf := make([]string, nImps)
	ix.files = make([]File, n)
	ix.inodes = make([]uint64, n)
	langs := interner{}
	for i := 0; i < n && d.err == nil; i++ {
		f := &ix.files[i]
		f.Path = str()
		f.Lang = langs.get(str())
		f.Size = d.v()
		f.ModTime = d.v()
		ix.inodes[i] = d.uv()
		for j := range f.Len {
			f.Len[j] = int32(d.count(1 << 31))
		}
		nd, nr, size := d.count(nTags), d.count(nTags), d.count(len(tagRecs))
		ts := take(nd+nr, nd, size)
		if len(ts) > 0 {
			if nd > 0 {
				f.Defs = ts[:nd:nd]
			}
			if nr > 0 {
				f.Refs = ts[nd:]
			}
		}
		if lazy {
			ix.lazy.defs[i], ix.lazy.refs[i] = int32(nd), int32(nr)
			ix.lazy.at[i+1] = int32(at)
		}
		if c := d.count(len(impBuf)); c > 0 {
			f.Imports = impBuf[:c:c]
			impBuf = impBuf[c:]
			for j := range f.Imports {
				f.Imports[j] = str()
			}
		}
	}
	nOver := d.count(rest)
	ix.overflow = make(map[uint64]tfFull, nOver)
	for i := 0; i < nOver && d.err == nil; i++ {
		t, doc := d.count(ix.terms.len()-1), d.count(n-1)
		var tf tfFull
		for f := range tf {
			tf[f] = uint16(d.count(math.MaxUint16))
		}
		ix.overflow[pairKey(int32(t), int32(doc))] = tf
	}
	if d.err == nil && (d.i != len(d.b) || left != 0 || len(tagRecs)-at >= 8) {
		d.fail()
	}
	// Paths (and languages) are copied out of the file's buffer, into one
	// blob: a caller that keeps a path (a result, a log) keeps that blob
	// alive, not the whole buffer.
	total := 0
	for i := range ix.files {
		total += len(ix.files[i].Path)
	}
	var blob strings.Builder
	blob.Grow(total)
	for i := range ix.files {
		blob.WriteString(ix.files[i].Path)
	}
	all, at2 := blob.String(), 0
	for i := range ix.files {
		n := len(ix.files[i].Path)
		ix.files[i].Path = all[at2 : at2+n]
		at2 += n
	}
	return d.err
}

// lazyTags holds the tag records of an index loaded from its cache: a
// warm run looks at the tags of a few files, so each file's are decoded on
// its first File call (about 6 bytes of varints become a 56-byte
// syntax.Tag).
type lazyTags struct {
	recs       []byte // the tags section (see the format)
	strs       strTable
	at         []int32 // file i's tags are recs[at[i]:at[i+1]], its defs first
	defs, refs []int32 // per file
	once       []sync.Once
}

// interner copies strings of a small set (languages, tag kinds) once.
type interner map[string]string

func (in interner) get(s string) string {
	if v, ok := in[s]; ok {
		return v
	}
	v := strings.Clone(s)
	in[v] = v
	return v
}

// kinds interns tag kinds across segments; guarded by kindsMu.
var (
	kindsMu  sync.Mutex
	kindsMap = interner{}
)

type kindInterner struct{}

func (kindInterner) get(s string) string {
	kindsMu.Lock()
	defer kindsMu.Unlock()
	return kindsMap.get(s)
}

var kinds kindInterner

// decodeTag reads one tag record; a string id out of range (a damaged file
// that passed the checksum) reads as "".
func decodeTag(d *decoder, strs strTable, def bool) syntax.Tag {
	s := func() string {
		i := d.uv()
		if i >= uint64(strs.len()) {
			d.fail()
			return ""
		}
		return strs.at(int(i))
	}
	// Copied: a caller may keep a name (see decodeMeta).
	t := syntax.Tag{Name: strings.Clone(s()), Parent: strings.Clone(s()), Kind: kinds.get(s()), Line: int(min(d.uv(), math.MaxInt32))}
	if def {
		t.End = int(min(uint64(t.Line)+d.uv(), math.MaxInt32))
	}
	return t
}

// tags fills file id's Defs and Refs once.
func (ix *segment) tags(id ID) {
	l := ix.lazy
	l.once[id].Do(func() {
		nd, nr := int(l.defs[id]), int(l.refs[id])
		if nd+nr == 0 {
			return
		}
		ts := make([]syntax.Tag, nd+nr)
		d := &decoder{b: l.recs[l.at[id]:l.at[id+1]]}
		for i := range ts {
			ts[i] = decodeTag(d, l.strs, i < nd)
		}
		f := &ix.files[id]
		if nd > 0 {
			f.Defs = ts[:nd:nd]
		}
		if nr > 0 {
			f.Refs = ts[nd:]
		}
	})
}

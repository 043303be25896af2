package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/hone-dev/hone/internal/syntax"
)

// Reading a segment file: its checks, the views of its fixed-width arrays
// in the one buffer it is read into, and the meta and tags decoded (the
// tags per file on first use).

// decoder reads what encoder wrote; the first error sticks.
type decoder struct {
	b   []byte
	i   int
	err error
	// s, when set, holds b's bytes from sAt on: str then returns pieces
	// of it there, one string for many (the manifest's tens of thousands
	// of names).
	s   string
	sAt int
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

// v reads a varint: a uvarint holding the value zig-zag encoded, as
// binary.Varint reads it.
func (d *decoder) v() int64 {
	ux := d.uv()
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x
}

func (d *decoder) key() recordKey {
	var k recordKey
	if len(d.b)-d.i < len(k) {
		d.fail()
		return k
	}
	d.i += copy(k[:], d.b[d.i:])
	return k
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
	if d.s != "" && d.i >= d.sAt {
		d.i += n
		return d.s[d.i-n-d.sAt : d.i-d.sAt]
	}
	s := string(d.b[d.i : d.i+n])
	d.i += n
	return s
}

// loadSegment reads the segment file at p, which must hold files files
// (files < 0: any number) and carry the extractor fingerprint print. A missing file yields an error
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
//
// inPlace reads the file only up to its tail (the forward index and
// postings), checked against the head's CRC, and keeps the file open for
// the tail's positioned reads (segment_disk.go): nothing is mapped there
// either, and what a cut file takes away is reported, not faulted on.
func loadSegment(p string, files int, print uint64, inPlace bool) (*segment, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	return loadSegmentFrom(f, files, print, inPlace)
}

// loadSegmentFrom is loadSegment of the file f, open on a segment's file,
// which it closes unless the segment keeps it (inPlace).
func loadSegmentFrom(f *os.File, files int, print uint64, inPlace bool) (*segment, error) {
	p := f.Name()
	keep := false
	defer func() {
		if !keep {
			f.Close()
		}
	}()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if size < headerSize || size > math.MaxInt {
		return nil, errCorrupt
	}
	n := int(size)
	if inPlace {
		if n, err = headLength(f, size); err != nil {
			return nil, err
		}
	}
	buf, err := readCache(f, n)
	if err != nil {
		return nil, err
	}
	var disk *os.File
	if inPlace {
		disk = f
	}
	sg, err := decodeSegment(buf, size, print, true, disk)
	if err != nil {
		return nil, err
	}
	if files >= 0 && len(sg.files) != files {
		return nil, errCorrupt
	}
	keep = inPlace
	sg.name = filepath.Base(p)
	sg.size.Store(size)
	return sg, nil
}

// headLength returns the byte length of what a segment searched in place
// reads into memory: the file of size bytes up to its tail.
func headLength(f *os.File, size int64) (int, error) {
	hdr := make([]byte, headerSize)
	if _, err := f.ReadAt(hdr, 0); err != nil {
		return 0, errCorrupt
	}
	lenDec, lenView, err := checkHeader(hdr, size)
	if err != nil {
		return 0, err
	}
	viewAt := int64(headerSize + lenDec)
	dir := make([]byte, min(int64(8+16*sectionCount), int64(lenView)))
	if _, err := f.ReadAt(dir, viewAt); err != nil {
		return 0, errCorrupt
	}
	tail, err := tailStart(dir, lenView)
	if err != nil {
		return 0, err
	}
	return int(viewAt + int64(tail)), nil
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

// sectionCount is the number of sections of a segment's viewed part.
const sectionCount = 27

// tailStart returns where, in the viewed part of lenView bytes whose
// directory begins dir, the tail starts (the sections of tailSections, laid
// out last, in that order, each 8-aligned after the one before).
func tailStart(dir []byte, lenView uint64) (uint64, error) {
	if len(dir) < 8+16*sectionCount || binary.LittleEndian.Uint64(dir) != sectionCount {
		return 0, errCorrupt
	}
	span := func(i int) (at, l uint64) {
		return binary.LittleEndian.Uint64(dir[8+16*i:]), binary.LittleEndian.Uint64(dir[16+16*i:])
	}
	tail, _ := span(tailSections[0])
	next := tail
	for _, i := range tailSections {
		at, l := span(i)
		if at != next || at > lenView || l > lenView-at {
			return 0, errCorrupt
		}
		next = uint64(align8(int(at + l)))
	}
	if next != lenView {
		return 0, errCorrupt
	}
	for i := range sectionCount {
		if at, l := span(i); !slices.Contains(tailSections[:], i) && (at > tail || l > tail-at) {
			return 0, errCorrupt
		}
	}
	return tail, nil
}

// decodeSegment decodes a segment file of size bytes, whose extractor
// fingerprint must be print; lazy leaves the tags to be decoded per file
// (see lazyTags). With f nil, buf holds the whole file; else buf holds the
// file up to its tail and the segment is searched in place, reading its
// tail from f (see segment_disk.go).
func decodeSegment(buf []byte, size int64, print uint64, lazy bool, f *os.File) (*segment, error) {
	lenDec, lenView, err := checkHeader(buf, size)
	if err != nil {
		return nil, err
	}
	viewAt := headerSize + lenDec
	if uint64(len(buf)) < viewAt {
		return nil, errCorrupt
	}
	tail, err := tailStart(buf[viewAt:], lenView)
	if err != nil {
		return nil, err
	}
	tailAt := viewAt + tail
	want := uint64(size) // the whole file, or up to the tail in place
	if f != nil {
		want = tailAt
	}
	if uint64(len(buf)) != want {
		return nil, errCorrupt
	}
	hdr, dec := buf[:headerSize], buf[headerSize:viewAt]
	if crc32.Checksum(buf[headerSize:tailAt], crcTable) != binary.LittleEndian.Uint32(hdr[12:]) {
		return nil, errCorrupt
	}
	if f == nil && crc32.Checksum(buf[tailAt:], crcTable) != binary.LittleEndian.Uint32(hdr[24:]) {
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
	disk := &onDisk{f: f, end: size, crc: binary.LittleEndian.Uint32(hdr[24:])}
	if f == nil {
		disk.mem = buf
	}
	for k, i := range tailSections {
		disk.at[k] = int64(viewAt + binary.LittleEndian.Uint64(buf[viewAt+8+16*uint64(i):]))
	}
	strs, err := sg.viewArrays(buf[viewAt:], disk)
	if err != nil {
		return nil, err
	}
	disk.cache = newRunCache(disk.end - disk.at[0])
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

// byteOffsets checks that at is a non-decreasing offset array into n bytes.
func byteOffsets(at []uint32, n uint64) bool {
	if len(at) == 0 || at[0] != 0 || uint64(at[len(at)-1]) != n {
		return false
	}
	for i := 1; i < len(at); i++ {
		if at[i] < at[i-1] {
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
func (ix *segment) viewArrays(view []byte, disk *onDisk) (strs strTable, err error) {
	if len(view) < 8 {
		return strs, errCorrupt
	}
	n := binary.LittleEndian.Uint64(view)
	if n != sectionCount || uint64(len(view)) < 8+16*n {
		return strs, errCorrupt
	}
	sec := make([][]byte, n)
	lens := make([]uint64, n)
	for i := range sec {
		at, l := binary.LittleEndian.Uint64(view[8+16*i:]), binary.LittleEndian.Uint64(view[16+16*i:])
		lens[i] = l
		if disk.f != nil && slices.Contains(tailSections[:], i) {
			continue // on disk (tailStart checked its bounds)
		}
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
	ix.postOff = i32(sec[7])
	if err != nil {
		return strs, errCorrupt
	}
	T, nFiles := terms.len(), len(ix.fwdOff)-1
	if nFiles < 0 {
		return strs, errCorrupt
	}
	P := int(ix.fwdOff[nFiles])
	at32 := func(b []byte) []uint32 {
		x := i32(b)
		return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(x))), len(x))
	}
	ix.fwdAt, ix.postAt = at32(sec[5]), at32(sec[8])
	if err != nil || !offsets(ix.fwdOff, P) || !offsets(ix.postOff, P) || len(ix.postOff) != T+1 ||
		len(ix.fwdAt) != nFiles+1 || !byteOffsets(ix.fwdAt, lens[6]) ||
		len(ix.postAt) != T+1 || !byteOffsets(ix.postAt, lens[9]) {
		return strs, errCorrupt
	}
	disk.nTerms, disk.nFiles = int32(T), int32(nFiles)
	ix.disk = disk
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
	ix.keys = make([]recordKey, n)
	langs := interner{}
	for i := 0; i < n && d.err == nil; i++ {
		f := &ix.files[i]
		f.Path = str()
		f.Lang = langs.get(str())
		f.Size = d.v()
		f.ModTime = d.v()
		f.CTime = d.v()
		ix.inodes[i] = d.uv()
		ix.keys[i] = d.key()
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

// tagsCopy returns file id's tags, their strings copied, without keeping
// them decoded in the segment (a segment read through a records pointer is
// read for one Open, and its tags are the new index's to keep).
func (ix *segment) tagsCopy(id ID) (defs, refs []syntax.Tag) {
	l := ix.lazy
	if l == nil {
		return mapTags(ix.files[id].Defs, strings.Clone), mapTags(ix.files[id].Refs, strings.Clone)
	}
	nd, nr := int(l.defs[id]), int(l.refs[id])
	if nd+nr == 0 {
		return nil, nil
	}
	ts := make([]syntax.Tag, nd+nr)
	d := &decoder{b: l.recs[l.at[id]:l.at[id+1]]}
	for i := range ts {
		ts[i] = decodeTag(d, l.strs, i < nd)
	}
	if d.err != nil {
		return nil, nil
	}
	ts = mapTags(ts, strings.Clone)
	return ts[:nd:nd], ts[nd:]
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

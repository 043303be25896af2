package index

import (
	"encoding/binary"
	"hash/crc32"
	"math"
	"slices"
	"unsafe"

	"github.com/hone-dev/hone/internal/syntax"
)

// Writing a segment file: the sections of its viewed part, 8-byte
// aligned, and the meta and tags of its decoded part (the layout is in
// cache.go).

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

// order returns the sections' indexes in the order they are laid out:
// every section but those of last in index order, then those of last.
func (s *sections) order(last []int) []int {
	tail := map[int]bool{}
	for _, i := range last {
		tail[i] = true
	}
	var out []int
	for i := range s.data {
		if !tail[i] {
			out = append(out, i)
		}
	}
	return append(out, last...)
}

// appendTo appends the laid-out part to out, whose length must be a
// multiple of 8, with the sections of last laid out last (the directory
// keeps index order), and returns the offset in the part where the first
// of them starts.
func (s *sections) appendTo(out []byte, last []int) ([]byte, int) {
	base := len(out)
	out = append(out, make([]byte, s.size())...)
	part := out[base:]
	binary.LittleEndian.PutUint64(part, uint64(len(s.data)))
	at := align8(8 + 16*len(s.data))
	tail := s.size()
	for _, i := range s.order(last) {
		b := s.data[i]
		if len(last) > 0 && i == last[0] {
			tail = at
		}
		binary.LittleEndian.PutUint64(part[8+16*i:], uint64(at))
		binary.LittleEndian.PutUint64(part[16+16*i:], uint64(len(b)))
		copy(part[at:], b)
		at = align8(at + len(b))
	}
	return out, tail
}

// encode serialises the segment, stamped with the extractor fingerprint
// print. It fails for a segment read from the cache whose runs cannot be
// read back, or one too large for the format (errTooLarge).
func (ix *segment) encode(print uint64) ([]byte, error) {
	fwdTerm, fwdTF, postDoc, postTF, err := ix.tail()
	if err != nil {
		return nil, err
	}
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
		meta.v(f.CTime)
		meta.uv(ix.inodes[i])
		meta.b = append(meta.b, ix.keys[i][:]...)
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
	fwdAt, fwdRuns, err := encodeRuns(ix.fwdOff, fwdTerm, fwdTF)
	if err != nil {
		return nil, err
	}
	postAt, postRuns, err := encodeRuns(ix.postOff, postDoc, postTF)
	if err != nil {
		return nil, err
	}
	sec.int32s(ix.fwdOff)
	sec.uint32s(fwdAt)
	sec.add(fwdRuns)
	sec.int32s(ix.postOff)
	sec.uint32s(postAt)
	sec.add(postRuns)
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
	out, tail := sec.appendTo(out, tailSections[:])
	view := out[headerSize+len(dec):]
	tail += headerSize + len(dec)
	copy(out, segmentMagic)
	binary.LittleEndian.PutUint32(out[8:], formatVersion)
	binary.LittleEndian.PutUint32(out[12:], crc32.Checksum(out[headerSize:tail], crcTable))
	binary.LittleEndian.PutUint32(out[24:], crc32.Checksum(out[tail:], crcTable))
	binary.LittleEndian.PutUint64(out[16:], print)
	binary.LittleEndian.PutUint64(out[32:], uint64(len(dec)))
	binary.LittleEndian.PutUint64(out[40:], uint64(len(view)))
	return out, nil
}

package index

import (
	"sort"
	"strings"
	"sync/atomic"
)

// segment is an immutable index of some of the repository's files: the unit
// the index is built, stored and merged in (see the package comment). Its
// files are numbered from 0 in path order (local ids); the Index that holds
// it maps them to the repository's file ids, and marks the ones a later
// segment replaced or the tree lost (tombstones) without changing it.
type segment struct {
	// name is the segment's file name in the cache directory, given when
	// it is built; a name is never reused for other content.
	name string
	// size is the byte length of its file (0 until written; a segment
	// written again after a failed save may be in use meanwhile).
	size atomic.Int64

	files  []File
	inodes []uint64
	keys   []recordKey // content keys (see records.go); zero where unknown

	// terms is the sorted term table; a term's local id is its position.
	terms strTable

	// Forward index: file d has fwdOff[d+1]-fwdOff[d] entries, sorted by
	// term id; in a built segment they are fwdTerm/fwdTF[fwdOff[d]:fwdOff[d+1]].
	fwdOff  []int32
	fwdTerm []int32
	fwdTF   []tf3

	// Postings: term t has postOff[t+1]-postOff[t] entries, sorted by file
	// id; in a built segment they are postDoc/postTF[postOff[t]:postOff[t+1]].
	postOff []int32
	postDoc []int32
	postTF  []tf3

	// fwdAt and postAt, for a segment read from the cache, are the byte
	// offsets of each file's and each term's encoded run (see runs.go) in
	// the forward index's and the postings' bytes.
	fwdAt, postAt []uint32

	// disk, when set (a segment read from the cache), is where the encoded
	// runs are read and decoded as they are asked for: from memory, or,
	// searched in place, from its file (see segment_disk.go). The four
	// arrays fwdTerm, fwdTF, postDoc and postTF are then nil.
	disk *onDisk

	// overflow holds the exact counts of the pairs whose tf3 is escaped.
	overflow map[uint64]tfFull

	// lazy, when set, holds the tags not yet decoded: files[id].Defs and
	// Refs are read through file, which decodes them on first use.
	lazy *lazyTags

	// defs and refs map names to the files defining or referencing them.
	defs, refs nameTable

	modKeys nameTable // extension-less path suffix -> files
	dirs    nameTable // directory path suffix -> files directly in it

	informative []bool // per term: fit for Associations and Distinctive
}

// full returns the exact counts of term t in file d stored as tf.
func (s *segment) full(t, d int32, tf tf3) tfFull {
	if tf.escaped() {
		return s.overflow[pairKey(t, d)]
	}
	return tfFull{uint16(tf[0]), uint16(tf[1]), uint16(tf[2])}
}

// termID returns the local id of term, or -1.
func (s *segment) termID(term string) int32 { return int32(s.terms.find(term)) }

// df returns the number of the segment's files holding local term t, dead
// ones included.
func (s *segment) df(t int32) int32 { return s.postOff[t+1] - s.postOff[t] }

// file returns local file d with its tags decoded.
func (s *segment) file(d int32) *File {
	if s.lazy != nil {
		s.tags(ID(d))
	}
	return &s.files[d]
}

// tf returns the counts of term t (local) in local file d, or zeros.
func (s *segment) tf(d, t int32) tfFull {
	ts, tfs := s.forward(d)
	i := sort.Search(len(ts), func(i int) bool { return ts[i] >= t })
	if i < len(ts) && ts[i] == t {
		return s.full(t, d, tfs[i])
	}
	return tfFull{}
}

// prefix returns the local ids of the terms starting with p, in order.
func (s *segment) prefix(p string) (lo, hi int) {
	n := s.terms.len()
	lo = sort.Search(n, func(i int) bool { return s.terms.at(i) >= p })
	hi = lo
	for hi < n && strings.HasPrefix(s.terms.at(hi), p) {
		hi++
	}
	return lo, hi
}

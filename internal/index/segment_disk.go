package index

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// Searching a segment in place: the forward index and the postings (about
// half of a segment file) stay on disk, read by offset as a query needs them.
//
// A segment file keeps these four arrays (fwdTerm, fwdTF, postDoc, postTF)
// last, as its tail, under a checksum of their own (see the format in
// cache.go). An Open with Options.InPlace reads the file up to the tail into
// memory and checks it as ever; it keeps the file open, and a file's forward
// entries or a term's postings are read with one positioned read per array
// the first time they are asked for, checked (every term id and file id in
// range) and kept. A read never maps the file: a file cut or rewritten under
// the process (a cache cleaner, another hone version) cannot kill it. The
// tail's checksum is not checked (that would read it all); a read that fails
// or finds an id out of range yields nothing and makes the segment's error
// stick (segment.diskErr), which the Index reports (Index.Err) so that a
// caller fails its answer rather than give one from a damaged index.
//
// Measured on the 58,346-file tree of bench/bigtree.sh:
// see BENCHMARKS.md, *Searching in place*.

// tailSections are the directory indexes of the tail's sections, in file
// order: fwdTerm, fwdTF, postDoc, postTF.
var tailSections = [...]int{5, 6, 8, 9}

// onDisk is where a segment searched in place reads its tail.
type onDisk struct {
	f *os.File
	// at are the tail arrays' file offsets, in the order of tailSections;
	// the tail is the file from at[0] to end.
	at     [4]int64
	end    int64
	nTerms int32  // term ids must be below
	nFiles int32  // file ids must be below
	crc    uint32 // the tail's checksum

	mu   sync.Mutex
	fwd  map[int32]entries // by local file id
	post map[int32]entries // by local term id
	err  atomic.Pointer[error]
}

// entries is one run of a forward list or of a postings list: ids (term or
// file) and their counts.
type entries struct {
	ids []int32
	tfs []tf3
}

// forward returns local file d's entries: term ids ascending, counts.
func (s *segment) forward(d int32) ([]int32, []tf3) {
	lo, hi := s.fwdOff[d], s.fwdOff[d+1]
	if s.disk == nil {
		return s.fwdTerm[lo:hi], s.fwdTF[lo:hi]
	}
	e := s.disk.get(s.disk.fwd, d, lo, hi, 0, s.disk.nTerms)
	return e.ids, e.tfs
}

// postings returns local term t's entries: file ids ascending, counts.
func (s *segment) postings(t int32) ([]int32, []tf3) {
	lo, hi := s.postOff[t], s.postOff[t+1]
	if s.disk == nil {
		return s.postDoc[lo:hi], s.postTF[lo:hi]
	}
	e := s.disk.get(s.disk.post, t, lo, hi, 2, s.disk.nFiles)
	return e.ids, e.tfs
}

// diskErr returns the first failed read of a segment searched in place.
func (s *segment) diskErr() error {
	if s.disk == nil {
		return nil
	}
	if p := s.disk.err.Load(); p != nil {
		return *p
	}
	return nil
}

// get returns the entries [lo, hi) of the pair of tail arrays starting at
// pair (0: forward, 2: postings), kept in m under key, whose ids must be
// below limit.
func (o *onDisk) get(m map[int32]entries, key, lo, hi int32, pair int, limit int32) entries {
	if hi <= lo {
		return entries{}
	}
	o.mu.Lock()
	e, ok := m[key]
	o.mu.Unlock()
	if ok {
		return e
	}
	n := int(hi - lo)
	ib := make([]byte, 4*n)
	tb := make([]byte, 3*n)
	if err := o.read(ib, o.at[pair]+4*int64(lo)); err != nil {
		o.fail(err)
		return entries{}
	}
	if err := o.read(tb, o.at[pair+1]+3*int64(lo)); err != nil {
		o.fail(err)
		return entries{}
	}
	ids, err := int32View(ib)
	if err == nil && !below(ids, int(limit)) {
		err = errCorrupt
	}
	if err != nil {
		o.fail(err)
		return entries{}
	}
	tfs, _ := tfView(tb)
	e = entries{ids: ids, tfs: tfs}
	o.mu.Lock()
	m[key] = e
	o.mu.Unlock()
	return e
}

func (o *onDisk) read(b []byte, at int64) error {
	if _, err := o.f.ReadAt(b, at); err != nil {
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%w (cut under this process)", errCorrupt)
		}
		return err
	}
	return nil
}

func (o *onDisk) fail(err error) {
	err = fmt.Errorf("index: cache segment %s: %w", o.f.Name(), err)
	o.err.CompareAndSwap(nil, &err)
}

// tail returns the segment's forward index and postings: its arrays, or,
// for a segment searched in place, the whole tail read from its file and
// checked against its checksum (for save, which may have to write the
// segment again).
func (s *segment) tail() (fwdTerm []int32, fwdTF []tf3, postDoc []int32, postTF []tf3, err error) {
	o := s.disk
	if o == nil {
		return s.fwdTerm, s.fwdTF, s.postDoc, s.postTF, nil
	}
	if err := s.diskErr(); err != nil {
		return nil, nil, nil, nil, err
	}
	P := int64(s.fwdOff[len(s.fwdOff)-1])
	buf := make([]byte, o.end-o.at[0])
	if err := o.read(buf, o.at[0]); err != nil {
		o.fail(err)
		return nil, nil, nil, nil, s.diskErr()
	}
	if crc32.Checksum(buf, crcTable) != o.crc {
		o.fail(errCorrupt)
		return nil, nil, nil, nil, s.diskErr()
	}
	view := func(k int, size int64) []byte {
		off := o.at[k] - o.at[0]
		return buf[off : off+size*P : off+size*P]
	}
	fwdTerm, e1 := int32View(view(0, 4))
	fwdTF, e2 := tfView(view(1, 3))
	postDoc, e3 := int32View(view(2, 4))
	postTF, e4 := tfView(view(3, 3))
	if err := errors.Join(e1, e2, e3, e4); err != nil || !below(fwdTerm, int(o.nTerms)) || !below(postDoc, int(o.nFiles)) {
		o.fail(errCorrupt)
		return nil, nil, nil, nil, s.diskErr()
	}
	return fwdTerm, fwdTF, postDoc, postTF, nil
}

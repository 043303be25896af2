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

// Reading a segment's forward index and postings: a segment read from the
// cache keeps them encoded, one run per file and per term (see runs.go), and
// decodes a run the first time it is asked for, checked (every term id and
// file id in range, the run exactly its bytes) and kept, in a cache bounded
// by the size of the encoded runs (runCache): a long server that asks for
// every run of a segment in time holds at most about twice their encoded
// size decoded, not all of them.
//
// Searching a segment in place: the forward index and the postings (about
// a quarter of a segment file) stay on disk, read by offset as a query needs
// them.
//
// A segment file keeps the encoded runs (fwdRuns, postRuns) last, as its
// tail, under a checksum of their own (see the format in cache.go). An Open
// with Options.InPlace reads the file up to the tail into memory and checks
// it as ever; it keeps the file open, and a run is read with one positioned
// read the first time it is asked for. A read never maps the file: a file
// cut or rewritten under the process (a cache cleaner, another hone version)
// cannot kill it. The tail's checksum is not checked (that would read it
// all); a read that fails or a run that does not decode yields nothing and
// makes the segment's error stick (segment.diskErr), which the Index reports
// (Index.Err) so that a caller fails its answer rather than give one from a
// damaged index.
//
// Measured on the 58,346-file tree of bench/bigtree.sh:
// see BENCHMARKS.md, *Searching in place*.

// tailSections are the directory indexes of the tail's sections, in file
// order: fwdRuns, postRuns.
var tailSections = [...]int{6, 9}

// onDisk is where a segment read from the cache reads its encoded runs: the
// file's bytes in memory (mem), or, searched in place, the file itself (f).
type onDisk struct {
	f   *os.File
	mem []byte // the whole file, when f is nil
	// at are the tail sections' file offsets, in the order of tailSections;
	// the tail is the file from at[0] to end.
	at     [2]int64
	end    int64
	nTerms int32  // term ids must be below
	nFiles int32  // file ids must be below
	crc    uint32 // the tail's checksum

	mu    sync.Mutex
	cache runCache
	err   atomic.Pointer[error]
}

// runCache keeps decoded runs in two generations, each of at most max
// bytes decoded: a run is looked up in the current one, then in the old
// one (and moved to the current); when the current one is full it becomes
// the old one and the old one is dropped. A run asked for again and again
// stays; the whole holds at most 2*max bytes.
type runCache struct {
	max      int
	cur, old map[runKey]entries
	curBytes int
}

// runKey names a run: tail section (0: forward, 1: postings) and local id.
type runKey struct {
	sec int
	id  int32
}

// runCacheMin is the least a segment's generation of decoded runs may hold.
const runCacheMin = 1 << 20

// newRunCache returns a cache whose generations hold max(encoded,
// runCacheMin) bytes each, encoded being the size of the segment's encoded
// runs: decoded, a run takes about three and a half times its encoding.
func newRunCache(encoded int64) runCache {
	return runCache{max: int(max(encoded, runCacheMin))}
}

// size is the bytes a decoded run holds.
func (e entries) size() int {
	return 4*cap(e.ids) + 3*cap(e.tfs) + 64
}

func (c *runCache) get(k runKey) (entries, bool) {
	if e, ok := c.cur[k]; ok {
		return e, true
	}
	e, ok := c.old[k]
	if ok {
		delete(c.old, k)
		c.put(k, e)
	}
	return e, ok
}

func (c *runCache) put(k runKey, e entries) {
	if _, ok := c.cur[k]; ok {
		return
	}
	if c.cur == nil || c.curBytes+e.size() > c.max && len(c.cur) > 0 {
		c.old, c.cur, c.curBytes = c.cur, map[runKey]entries{}, 0
	}
	c.cur[k] = e
	c.curBytes += e.size()
}

// bytes is what the cache holds: the decoded bytes of both generations.
func (c *runCache) bytes() int {
	n := c.curBytes
	for _, e := range c.old {
		n += e.size()
	}
	return n
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
	e := s.disk.get(d, int(hi-lo), s.fwdAt[d], s.fwdAt[d+1], 0, s.disk.nTerms)
	return e.ids, e.tfs
}

// postings returns local term t's entries: file ids ascending, counts.
func (s *segment) postings(t int32) ([]int32, []tf3) {
	lo, hi := s.postOff[t], s.postOff[t+1]
	if s.disk == nil {
		return s.postDoc[lo:hi], s.postTF[lo:hi]
	}
	e := s.disk.get(t, int(hi-lo), s.postAt[t], s.postAt[t+1], 1, s.disk.nFiles)
	return e.ids, e.tfs
}

// diskErr returns the first failed read of a segment read from the cache.
func (s *segment) diskErr() error {
	if s.disk == nil {
		return nil
	}
	if p := s.disk.err.Load(); p != nil {
		return *p
	}
	return nil
}

// get returns the n entries encoded in bytes [lo, hi) of tail section sec
// (0: forward, 1: postings), the run of local id key, whose ids must be
// below limit.
func (o *onDisk) get(key int32, n int, lo, hi uint32, sec int, limit int32) entries {
	if n == 0 && hi == lo {
		return entries{}
	}
	k := runKey{sec, key}
	o.mu.Lock()
	e, ok := o.cache.get(k)
	o.mu.Unlock()
	if ok {
		return e
	}
	var b []byte
	if hi < lo {
		o.fail(errCorrupt)
		return entries{}
	}
	at := o.at[sec] + int64(lo)
	if o.f == nil {
		b = o.mem[at : at+int64(hi-lo)]
	} else {
		b = make([]byte, hi-lo)
		if err := o.read(b, at); err != nil {
			o.fail(err)
			return entries{}
		}
	}
	ids, tfs, err := decodeRun(b, n, limit)
	if err != nil {
		o.fail(err)
		return entries{}
	}
	e = entries{ids: ids, tfs: tfs}
	o.mu.Lock()
	o.cache.put(k, e)
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
// for a segment read from the cache, its runs decoded (for save, which may
// have to write the segment again); in place, the tail is read from its
// file and checked against its checksum.
func (s *segment) tail() (fwdTerm []int32, fwdTF []tf3, postDoc []int32, postTF []tf3, err error) {
	o := s.disk
	if o == nil {
		return s.fwdTerm, s.fwdTF, s.postDoc, s.postTF, nil
	}
	if err := s.diskErr(); err != nil {
		return nil, nil, nil, nil, err
	}
	buf, base := o.mem, int64(0) // buf[i] is the file's byte base+i
	if o.f != nil {
		buf, base = make([]byte, o.end-o.at[0]), o.at[0]
		if err := o.read(buf, base); err != nil {
			o.fail(err)
			return nil, nil, nil, nil, s.diskErr()
		}
		if crc32.Checksum(buf, crcTable) != o.crc {
			o.fail(errCorrupt)
			return nil, nil, nil, nil, s.diskErr()
		}
	}
	// The sections' bounds were checked by tailStart and viewArrays.
	fwd := buf[o.at[0]-base : o.at[0]-base+int64(s.fwdAt[len(s.fwdAt)-1])]
	post := buf[o.at[1]-base : o.at[1]-base+int64(s.postAt[len(s.postAt)-1])]
	fwdTerm, fwdTF, e1 := decodeRuns(s.fwdOff, s.fwdAt, fwd, o.nTerms)
	postDoc, postTF, e2 := decodeRuns(s.postOff, s.postAt, post, o.nFiles)
	if e1 != nil || e2 != nil {
		o.fail(errCorrupt)
		return nil, nil, nil, nil, s.diskErr()
	}
	return fwdTerm, fwdTF, postDoc, postTF, nil
}

package history

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// The body of a cache file (after its header, see saveCache) is laid out so
// that a warm call reads only what it asks for: opening it reads a few
// counts and slices the rest, a term's postings or a commit's paths are
// decoded when a query asks for them, and a term or a path is found by
// binary search, with no map of them all. In order:
//
//	key, rev          string: uvarint length, then the bytes
//	flags             uvarint: 1 partial, 2 truncated
//	limit             uvarint
//	commits, docs,    uvarints: the number of commits, of those with files
//	total, most       (the documents), the sum of their lengths, and the
//	                  most ranked commits any one path had (Touches)
//	paths, terms      table (below), each sorted (bytewise): a path's or a
//	                  term's id is its place
//	hashes            table, one entry per commit
//	lens              per commit, its number of terms: uint32 little-endian
//	times             per commit, its committer time (Unix seconds): int64
//	                  little-endian
//	post              table, one entry per term: its (commit, frequency)
//	                  pairs, each as the commit's zigzag varint delta from
//	                  the pair before (the first from 0) and the frequency
//	                  as a uvarint
//	files             table, one entry per commit: the ids of the paths it
//	                  touched, each a zigzag varint delta from the one before
//	touched           table, one entry per path: the uvarint number of
//	                  commits that touched it, then each commit as a
//	                  uvarint delta from the one before (ascending, the
//	                  first from 0)
//
// A table is a uvarint count k, then k+1 uint32 little-endian offsets, then
// the bytes they point into: entry i is bytes [off[i], off[i+1]), and
// off[k] is the number of bytes. Opening checks the counts and sizes (a
// count larger than the bytes left or a varint that runs off the end is a
// corrupt file, and so are tables of the wrong count); an entry is checked
// when it is read: offsets out of order or past the end, a varint that runs
// off the entry, or an id out of range make it absent (no postings, no
// paths, no commits), never a panic. The checksum in the header catches
// the damage a disk does; these checks keep a file that is made wrong from
// crashing the process. Commits, their lengths, times and hashes are in
// the log's order; ids are those of the sorted tables, not the in-memory
// log's. On django (20,000 commits, a 2 MB file) opening takes about 1 ms;
// the format before, decoded whole into slices and maps, took 9.5 ms (and
// gob, before that, about 20 ms).

// encodeBody appends the body of a cache file for log l (one in memory,
// not read from a cache) under key.
func encodeBody(b []byte, key string, l *Log) []byte {
	if l.disk != nil {
		// Not reached: a log read from the cache is saved only once it
		// changed, and then it is in memory.
		m := &Log{rev: l.rev, limit: l.limit, partial: l.partial, truncated: l.truncated, disk: l.disk}
		if m.materialize() == nil {
			l = m
		} else {
			l = &Log{rev: l.rev, limit: l.limit, partial: l.partial, truncated: l.truncated}
		}
	}
	b = appendString(b, key)
	b = appendString(b, l.rev)
	var flags uint64
	if l.partial {
		flags |= 1
	}
	if l.truncated {
		flags |= 2
	}
	b = binary.AppendUvarint(b, flags)
	b = binary.AppendUvarint(b, uint64(max(l.limit, 0)))

	// Sorted ids: pathRank[old id] is the new one. An id out of range (only
	// a test makes such a log) is written as it is.
	paths, pathRank := sorted(l.paths)
	terms, termRank := sorted(l.terms)
	newPath := func(id int32) int32 {
		if id >= 0 && int(id) < len(pathRank) {
			return pathRank[id]
		}
		return id
	}
	docs, total := 0, int64(0)
	by := make([][]int32, len(paths))
	for c, fs := range l.files {
		if len(fs) > 0 {
			docs++
		}
		for _, f := range fs {
			if f := newPath(f); f >= 0 && int(f) < len(by) {
				by[f] = append(by[f], int32(c))
			}
		}
	}
	most := 0
	for _, cs := range by {
		most = max(most, len(cs))
	}
	for _, n := range l.lens {
		total += int64(n)
	}
	b = binary.AppendUvarint(b, uint64(len(l.lens)))
	b = binary.AppendUvarint(b, uint64(docs))
	b = binary.AppendUvarint(b, uint64(total))
	b = binary.AppendUvarint(b, uint64(most))

	var entry []byte
	b = appendTable(b, len(paths), func(i int) []byte { return append(entry[:0], paths[i]...) })
	b = appendTable(b, len(terms), func(i int) []byte { return append(entry[:0], terms[i]...) })
	b = appendTable(b, len(l.hashes), func(i int) []byte { return append(entry[:0], l.hashes[i]...) })
	for _, n := range l.lens {
		b = binary.LittleEndian.AppendUint32(b, uint32(n))
	}
	for _, t := range l.times {
		b = binary.LittleEndian.AppendUint64(b, uint64(t))
	}
	post := make([][]int32, len(l.post))
	for t, ps := range l.post {
		if t < len(termRank) {
			post[termRank[t]] = ps
		}
	}
	b = appendTable(b, len(post), func(t int) []byte {
		entry = entry[:0]
		prev := int64(0)
		for j := 0; j+1 < len(post[t]); j += 2 {
			entry = binary.AppendVarint(entry, int64(post[t][j])-prev)
			prev = int64(post[t][j])
			entry = binary.AppendUvarint(entry, uint64(uint32(post[t][j+1])))
		}
		return entry
	})
	b = appendTable(b, len(l.files), func(c int) []byte {
		entry = entry[:0]
		prev := int64(0)
		for _, id := range l.files[c] {
			id := newPath(id)
			entry = binary.AppendVarint(entry, int64(id)-prev)
			prev = int64(id)
		}
		return entry
	})
	b = appendTable(b, len(by), func(p int) []byte {
		entry = binary.AppendUvarint(entry[:0], uint64(len(by[p])))
		prev := int32(0)
		for _, c := range by[p] {
			entry = binary.AppendUvarint(entry, uint64(c-prev))
			prev = c
		}
		return entry
	})
	return b
}

// sorted returns ss sorted and, per index into ss, its index in the result.
func sorted(ss []string) ([]string, []int32) {
	order := make([]int32, len(ss))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(ss[a], ss[b]) })
	out := make([]string, len(ss))
	rank := make([]int32, len(ss))
	for i, o := range order {
		out[i] = ss[o]
		rank[o] = int32(i)
	}
	return out, rank
}

// appendTable appends a table of k entries, entry(i) giving the bytes of
// the i-th (valid until the next call).
func appendTable(b []byte, k int, entry func(i int) []byte) []byte {
	b = binary.AppendUvarint(b, uint64(k))
	offs := len(b)
	b = append(b, make([]byte, 4*(k+1))...)
	start := len(b)
	for i := 0; i < k; i++ {
		binary.LittleEndian.PutUint32(b[offs+4*i:], uint32(len(b)-start))
		b = append(b, entry(i)...)
	}
	binary.LittleEndian.PutUint32(b[offs+4*k:], uint32(len(b)-start))
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// errShort is a body that ends early or holds an impossible count.
var errShort = errors.New("truncated or impossible count")

// reader decodes a body; the first error sticks and every later read returns
// zero.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a count of items that take at least per bytes each.
func (r *reader) count(per int) int {
	v := r.uvarint()
	if r.err == nil && v > uint64(len(r.b)/per) {
		r.err = errShort
		return 0
	}
	return int(v)
}

// int32 reads an unsigned varint that must fit an int32.
func (r *reader) int32() int32 {
	v := r.uvarint()
	if v > math.MaxInt32 {
		r.fail(fmt.Errorf("integer %d out of range", v))
		return 0
	}
	return int32(v)
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.err = errShort
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) string() string { return string(r.bytes(r.count(1))) }

// table is a table of the body (see encodeBody): its offsets and bytes,
// slices of the body.
type table struct {
	n    int
	off  []byte // n+1 uint32s
	data []byte
}

func (r *reader) table() table {
	n := r.count(4)
	off := r.bytes(4 * (n + 1))
	if r.err != nil {
		return table{}
	}
	size := binary.LittleEndian.Uint32(off[4*n:])
	return table{n: n, off: off, data: r.bytes(int(min(size, math.MaxInt32)))}
}

// entry returns entry i, or false when i is out of range or its offsets
// are wrong.
func (t table) entry(i int) ([]byte, bool) {
	if i < 0 || i >= t.n {
		return nil, false
	}
	a := binary.LittleEndian.Uint32(t.off[4*i:])
	z := binary.LittleEndian.Uint32(t.off[4*i+4:])
	if a > z || uint64(z) > uint64(len(t.data)) {
		return nil, false
	}
	return t.data[a:z], true
}

// str returns entry i as a string ("" when it is wrong).
func (t table) str(i int) string {
	e, _ := t.entry(i)
	return string(e)
}

// search returns the id of s in a sorted table.
func (t table) search(s string) (int32, bool) {
	i := sort.Search(t.n, func(i int) bool {
		e, _ := t.entry(i)
		return string(e) >= s
	})
	if e, ok := t.entry(i); ok && string(e) == s {
		return int32(i), true
	}
	return 0, false
}

// disk is a log as its cache file holds it, decoded as it is asked.
type disk struct {
	n                         int // commits
	paths, terms, hashes      table
	lens, times               []byte
	post, files, touchedPaths table
}

// decodeBody opens a cache file's body: it reads the counts and slices the
// tables, which keep b. The log's other fields (rev, limit, flags, docs,
// total, most) are set in l, the key returned.
func decodeBody(b []byte, l *Log) (key string, err error) {
	r := &reader{b: b}
	key = r.string()
	l.rev = r.string()
	flags := r.uvarint()
	l.partial, l.truncated = flags&1 != 0, flags&2 != 0
	l.limit = int(r.int32())
	d := &disk{}
	d.n = r.count(12) // a commit takes 12 bytes at least: its length and time
	l.docs = int(min(r.uvarint(), uint64(d.n)))
	l.total = int64(r.uvarint())
	l.most = int(min(r.uvarint(), uint64(d.n)))
	d.paths = r.table()
	d.terms = r.table()
	d.hashes = r.table()
	d.lens = r.bytes(4 * d.n)
	d.times = r.bytes(8 * d.n)
	d.post = r.table()
	d.files = r.table()
	d.touchedPaths = r.table()
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%d bytes after the end", len(r.b))
	}
	if r.err != nil {
		return "", r.err
	}
	if d.hashes.n != d.n || d.files.n != d.n || d.post.n != d.terms.n || d.touchedPaths.n != d.paths.n {
		return "", errors.New("tables of the wrong count")
	}
	l.disk = d
	return key, nil
}

func (d *disk) len(c int32) int32 { return int32(binary.LittleEndian.Uint32(d.lens[4*int(c):])) }

func (d *disk) time(c int32) int64 { return int64(binary.LittleEndian.Uint64(d.times[8*int(c):])) }

// postings decodes term t's (commit, frequency) pairs; nil when they are
// wrong.
func (d *disk) postings(t int32) []int32 {
	e, ok := d.post.entry(int(t))
	if !ok {
		return nil
	}
	return deltas(e, true, int64(d.n), make([]int32, 0, len(e))) // a pair takes two bytes at least
}

// commitFiles decodes the ids of the paths commit c touched into buf; nil
// when they are wrong.
func (d *disk) commitFiles(c int32, buf []int32) []int32 {
	e, ok := d.files.entry(int(c))
	if !ok {
		return nil
	}
	return deltas(e, false, int64(d.paths.n), buf[:0])
}

// deltas decodes entry e, a list of ids each the zigzag delta from the one
// before (the first from 0), each below bound, and with pairs each followed
// by a frequency (a uvarint below MaxInt32), appending them to out; nil when
// the entry is wrong.
func deltas(e []byte, pairs bool, bound int64, out []int32) []int32 {
	prev := int64(0)
	for len(e) > 0 {
		delta, k := binary.Varint(e)
		if k <= 0 {
			return nil
		}
		e = e[k:]
		id := prev + delta
		if id < 0 || id >= bound {
			return nil
		}
		prev = id
		out = append(out, int32(id))
		if pairs {
			f, k := binary.Uvarint(e)
			if k <= 0 || f > math.MaxInt32 {
				return nil
			}
			e = e[k:]
			out = append(out, int32(f))
		}
	}
	return out
}

// touchCount returns how many commits touched path id (0 when its entry is
// wrong).
func (d *disk) touchCount(id int32) int {
	e, ok := d.touchedPaths.entry(int(id))
	if !ok {
		return 0
	}
	n, k := binary.Uvarint(e)
	if k <= 0 || n > uint64(len(e)-k) {
		return 0
	}
	return int(n)
}

// touching decodes the commits that touched path id; nil when they are
// wrong.
func (d *disk) touching(id int32) []int32 {
	e, ok := d.touchedPaths.entry(int(id))
	if !ok {
		return nil
	}
	n, k := binary.Uvarint(e)
	if k <= 0 || n > uint64(len(e)-k) {
		return nil
	}
	e = e[k:]
	out := make([]int32, 0, n)
	prev := uint64(0)
	for range n {
		delta, k := binary.Uvarint(e)
		if k <= 0 {
			return nil
		}
		e = e[k:]
		prev += delta
		if prev >= uint64(d.n) {
			return nil
		}
		out = append(out, int32(prev))
	}
	if len(e) != 0 {
		return nil
	}
	return out
}

// materialize decodes a log read from the cache whole, into memory, as add
// and without need it; it fails on a wrong entry.
func (l *Log) materialize() error {
	d := l.disk
	if d == nil {
		return nil
	}
	paths, err := d.paths.strings()
	if err != nil {
		return err
	}
	terms, err := d.terms.strings()
	if err != nil {
		return err
	}
	hashes, err := d.hashes.strings()
	if err != nil {
		return err
	}
	post := make([][]int32, len(terms))
	for t := range post {
		if e, _ := d.post.entry(t); len(e) > 0 {
			if post[t] = d.postings(int32(t)); post[t] == nil {
				return fmt.Errorf("term %d: wrong postings", t)
			}
		}
	}
	files := make([][]int32, d.n)
	lens := make([]int32, d.n)
	times := make([]int64, d.n)
	total, docs := int64(0), 0
	for c := range files {
		if e, _ := d.files.entry(c); len(e) > 0 {
			if files[c] = d.commitFiles(int32(c), nil); files[c] == nil {
				return fmt.Errorf("commit %d: wrong paths", c)
			}
			docs++
		}
		lens[c], times[c] = d.len(int32(c)), d.time(int32(c))
		total += int64(lens[c])
	}
	l.paths, l.terms, l.hashes, l.post, l.files, l.lens, l.times = paths, terms, hashes, post, files, lens, times
	l.total, l.docs = total, docs
	l.pathID = make(map[string]int32, len(paths))
	for i, s := range paths {
		l.pathID[s] = int32(i)
	}
	l.termID = make(map[string]int32, len(terms))
	for i, s := range terms {
		l.termID[s] = int32(i)
	}
	l.most, l.disk = 0, nil
	return nil
}

// strings decodes every entry of a table.
func (t table) strings() ([]string, error) {
	out := make([]string, t.n)
	for i := range out {
		e, ok := t.entry(i)
		if !ok {
			return nil, fmt.Errorf("entry %d of %d: wrong offsets", i, t.n)
		}
		out[i] = string(e)
	}
	return out, nil
}

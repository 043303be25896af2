package history

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The body of a cache file (after its header, see saveCache) is a sequence of
// unsigned varints (encoding/binary's Uvarint) and byte strings, in this
// order:
//
//	key, rev          string: uvarint length, then the bytes
//	flags             uvarint: 1 partial, 2 truncated
//	limit             uvarint
//	paths, terms,     string list: uvarint count, count uvarint lengths,
//	hashes            then every string's bytes back to back
//	lens              uvarint count, then count uvarints
//	times             uvarint count, then each committer time (Unix
//	                  seconds) as the zigzag delta from the one before
//	post              uvarint count (of terms), uvarint number of pairs
//	                  in all, then per term: uvarint
//	                  number of (commit, frequency) pairs, then each pair as
//	                  the commit's zigzag delta from the pair before (the
//	                  first from 0) and the frequency
//	files             uvarint count (of commits), uvarint number of ids
//	                  in all, then per commit: uvarint
//	                  number of paths, then each path id as a zigzag delta
//	                  from the one before
//
// A list's strings share one allocation and its integers one backing array,
// so a log of 20,000 commits decodes in a few milliseconds; gob, the format
// before, took about 20 ms of every warm CLI call on django. A count larger
// than the bytes left, a varint that runs off the end, or an integer beyond
// int32 is a corrupt file.

// encodeBody appends the body of a cache file for log l under key.
func encodeBody(b []byte, key string, l *Log) []byte {
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
	for _, list := range [][]string{l.paths, l.terms, l.hashes} {
		b = binary.AppendUvarint(b, uint64(len(list)))
		for _, s := range list {
			b = binary.AppendUvarint(b, uint64(len(s)))
		}
		for _, s := range list {
			b = append(b, s...)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(l.lens)))
	for _, n := range l.lens {
		b = binary.AppendUvarint(b, uint64(uint32(n)))
	}
	b = binary.AppendUvarint(b, uint64(len(l.times)))
	prevTime := int64(0)
	for _, t := range l.times {
		b = binary.AppendVarint(b, t-prevTime)
		prevTime = t
	}
	b = binary.AppendUvarint(b, uint64(len(l.post)))
	b = binary.AppendUvarint(b, uint64(total(l.post)/2))
	for _, ps := range l.post {
		b = binary.AppendUvarint(b, uint64(len(ps)/2))
		prev := int64(0)
		for j := 0; j+1 < len(ps); j += 2 {
			b = binary.AppendVarint(b, int64(ps[j])-prev)
			prev = int64(ps[j])
			b = binary.AppendUvarint(b, uint64(uint32(ps[j+1])))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(l.files)))
	b = binary.AppendUvarint(b, uint64(total(l.files)))
	for _, fs := range l.files {
		b = binary.AppendUvarint(b, uint64(len(fs)))
		prev := int64(0)
		for _, id := range fs {
			b = binary.AppendVarint(b, int64(id)-prev)
			prev = int64(id)
		}
	}
	return b
}

func total(ls [][]int32) int {
	n := 0
	for _, l := range ls {
		n += len(l)
	}
	return n
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

func (r *reader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
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
	if n > len(r.b) {
		r.err = errShort
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) string() string { return string(r.bytes(r.count(1))) }

// strings reads a string list into one allocation.
func (r *reader) strings() []string {
	n := r.count(1)
	lens := make([]int, n)
	total := 0
	for i := range lens {
		lens[i] = r.count(1)
		total += lens[i]
	}
	all := string(r.bytes(total))
	if r.err != nil {
		return nil
	}
	out := make([]string, n)
	at := 0
	for i, l := range lens {
		out[i] = all[at : at+l]
		at += l
	}
	return out
}

// lists reads a list of int32 lists into one backing array: each list's
// elements (with pairs, the first of each pair) as zigzag deltas, and with
// pairs the second of each pair as a plain uvarint.
func (r *reader) lists(pairs bool) [][]int32 {
	width := 1
	if pairs {
		width = 2
	}
	n := r.count(1)
	all := r.count(width) // elements (pairs) in all: each takes a byte at least
	if r.err != nil {
		return nil
	}
	out := make([][]int32, n)
	back := make([]int32, 0, all*width)
	b := r.b
	for i := range out {
		m, k := binary.Uvarint(b)
		if k <= 0 || m > uint64(cap(back)-len(back))/uint64(width) {
			r.err = errShort
			return nil
		}
		b = b[k:]
		start := len(back)
		prev := int64(0)
		for j := uint64(0); j < m; j++ {
			d, k := binary.Varint(b)
			if k <= 0 {
				r.err = errShort
				return nil
			}
			b = b[k:]
			v := prev + d
			if v < 0 || v > math.MaxInt32 {
				r.err = fmt.Errorf("id %d out of range", v)
				return nil
			}
			prev = v
			back = append(back, int32(v))
			if pairs {
				f, k := binary.Uvarint(b)
				if k <= 0 || f > math.MaxInt32 {
					r.err = errShort
					return nil
				}
				b = b[k:]
				back = append(back, int32(f))
			}
		}
		if len(back) > start {
			out[i] = back[start:len(back):len(back)]
		}
	}
	if len(back) != cap(back) {
		r.err = fmt.Errorf("%d of %d ids", len(back), cap(back))
		return nil
	}
	r.b = b
	return out
}

// decodeBody decodes a cache file's body into its parts; the caller checks
// them against each other.
func decodeBody(b []byte) (cacheFile, error) {
	r := &reader{b: b}
	var c cacheFile
	c.Key = r.string()
	c.Rev = r.string()
	flags := r.uvarint()
	c.Partial, c.Truncated = flags&1 != 0, flags&2 != 0
	c.Limit = int(r.int32())
	c.Paths = r.strings()
	c.Terms = r.strings()
	c.Hashes = r.strings()
	nl := r.count(1)
	if r.err == nil {
		c.Lens = make([]int32, nl)
		for i := range c.Lens {
			c.Lens[i] = r.int32()
		}
	}
	nt := r.count(1)
	if r.err == nil {
		c.Times = make([]int64, nt)
		prev := int64(0)
		for i := range c.Times {
			prev += r.varint()
			c.Times[i] = prev
		}
	}
	c.Post = r.lists(true)
	c.Files = r.lists(false)
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%d bytes after the end", len(r.b))
	}
	return c, r.err
}

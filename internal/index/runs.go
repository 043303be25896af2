package index

import (
	"encoding/binary"
	"errors"
	"math"
)

// errTooLarge is the error of writing a segment whose encoded forward index
// or postings pass the 4 GiB its byte offsets can address.
var errTooLarge = errors.New("index: segment too large for the cache format")

// The encoding of a run of the forward index (one file's term ids and
// counts) or of the postings (one term's file ids and counts) in a segment
// file. Each entry is its id, as a uvarint (the first id itself, each next
// one less the previous one less 1: the ids of a run are strictly
// ascending), then its tf3 in one of three forms:
//
//	0b0ppsssc ccc... one byte 0x00-0x7f: path count p (0-3) in bits 5-6,
//	                 symbols count s (0-3) in bits 3-4, content count (0-7)
//	                 in bits 0-2
//	0x80|p<<2|s, c   two bytes: p and s (0-3 each) in the first (0x80-0x8f),
//	                 the content count in the second
//	0xff, tf3        four bytes: the three counts as they are, in field
//	                 order (escaped counts, tfEscape, included)
//
// Any other first byte (0x90-0xfe) is damage. An entry therefore takes two
// bytes in the common case (small ids gap, small counts) instead of the
// seven of the fixed-width arrays.

const (
	tfTwo  = 0x80 // first byte of the two-byte form, or'ed with p<<2|s
	tfFour = 0xff // first byte of the four-byte form
)

// appendTF appends the encoding of tf.
func appendTF(b []byte, tf tf3) []byte {
	p, s, c := tf[FieldPath], tf[FieldSymbols], tf[FieldContent]
	switch {
	case p < 4 && s < 4 && c < 8:
		return append(b, p<<5|s<<3|c)
	case p < 4 && s < 4:
		return append(b, tfTwo|p<<2|s, c)
	}
	return append(b, tfFour, tf[0], tf[1], tf[2])
}

// appendRun appends the encoding of the run ids (strictly ascending, none
// negative) and their counts tfs.
func appendRun(b []byte, ids []int32, tfs []tf3) []byte {
	prev := int64(-1)
	for i, id := range ids {
		b = binary.AppendUvarint(b, uint64(int64(id)-prev-1))
		prev = int64(id)
		b = appendTF(b, tfs[i])
	}
	return b
}

// decodeRun decodes a run of n entries that takes all of b and whose ids
// must be below limit; it fails (errCorrupt) on anything else.
func decodeRun(b []byte, n int, limit int32) ([]int32, []tf3, error) {
	if n == 0 && len(b) == 0 {
		return nil, nil, nil
	}
	if n <= 0 || n > len(b)/2 { // an entry takes at least two bytes
		return nil, nil, errCorrupt
	}
	ids := make([]int32, n)
	tfs := make([]tf3, n)
	next, i := uint64(0), 0
	for k := range n {
		gap, w := binary.Uvarint(b[i:])
		if w <= 0 || gap >= uint64(limit) || next+gap >= uint64(limit) {
			return nil, nil, errCorrupt
		}
		i += w
		id := next + gap
		ids[k] = int32(id)
		next = id + 1
		if i >= len(b) {
			return nil, nil, errCorrupt
		}
		var tf tf3
		switch h := b[i]; {
		case h < tfTwo:
			tf[FieldPath], tf[FieldSymbols], tf[FieldContent] = h>>5, h>>3&3, h&7
			i++
		case h < tfTwo+16:
			if i+2 > len(b) {
				return nil, nil, errCorrupt
			}
			tf[FieldPath], tf[FieldSymbols], tf[FieldContent] = h>>2&3, h&3, b[i+1]
			i += 2
		case h == tfFour:
			if i+4 > len(b) {
				return nil, nil, errCorrupt
			}
			copy(tf[:], b[i+1:i+4])
			i += 4
		default:
			return nil, nil, errCorrupt
		}
		tfs[k] = tf
	}
	if i != len(b) {
		return nil, nil, errCorrupt
	}
	return ids, tfs, nil
}

// encodeRuns encodes the runs ids/tfs[off[r]:off[r+1]] one after the other
// and returns their bytes and at, the byte offset of each run (len(off)
// offsets, the last the total); it fails when the total passes a uint32.
func encodeRuns(off []int32, ids []int32, tfs []tf3) (at []uint32, runs []byte, err error) {
	at = make([]uint32, len(off))
	runs = make([]byte, 0, 2*len(ids))
	for r := 0; r+1 < len(off); r++ {
		runs = appendRun(runs, ids[off[r]:off[r+1]], tfs[off[r]:off[r+1]])
		if len(runs) > math.MaxUint32 {
			return nil, nil, errTooLarge
		}
		at[r+1] = uint32(len(runs))
	}
	return at, runs, nil
}

// decodeRuns decodes all the runs of runs, at and off as encodeRuns wrote
// them, their ids below limit.
func decodeRuns(off []int32, at []uint32, runs []byte, limit int32) ([]int32, []tf3, error) {
	if len(off) == 0 || len(at) != len(off) {
		return nil, nil, errCorrupt
	}
	P := off[len(off)-1]
	ids := make([]int32, 0, P)
	tfs := make([]tf3, 0, P)
	for r := 0; r+1 < len(off); r++ {
		lo, hi := at[r], at[r+1]
		if hi < lo || uint64(hi) > uint64(len(runs)) || off[r+1] < off[r] {
			return nil, nil, errCorrupt
		}
		x, y, err := decodeRun(runs[lo:hi], int(off[r+1]-off[r]), limit)
		if err != nil {
			return nil, nil, err
		}
		ids = append(ids, x...)
		tfs = append(tfs, y...)
	}
	if len(ids) != int(P) {
		return nil, nil, errCorrupt
	}
	return ids, tfs, nil
}

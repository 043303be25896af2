// Package index is hone's code-aware inverted index of one repository.
//
// # What is indexed
//
// Every file the walk keeps is read once, parsed for definitions, references
// and imports (package syntax), and cut into terms (package tokenize) in three
// fields, each scored on its own:
//
//   - path: the terms of each path segment (directories and the file's stem,
//     without its extension): django/db/models/query.py -> django, db, models,
//     query.
//   - symbols: the names the file defines, whole and split, and the dotted
//     Parent.Name of members (QuerySet.filter -> queryset.filter, filter).
//   - content: every term of the text: identifiers, comments, strings.
//
// The index keeps a forward index (per file, its distinct terms with their
// count in each field, sorted by term id) and inverted postings (per term, the
// files holding it with the same counts). Terms are interned once in a sorted
// table and named by int32 ids everywhere else. A count takes one byte per
// field; the rare pair with a count of 255 or more keeps its exact counts in
// an overflow table.
//
// # Building
//
// Workers (one per core) read and parse files in parallel; each cuts text
// with a tokenize.Scanner (no allocation per ASCII identifier) into its own
// term dictionary, so a term is copied once per worker, not once per file.
// The builder then interns the workers' terms, sorts the term table and
// inverts the forward index by a counting sort.
//
// # Ranking
//
// Search ranks files by BM25F: per term t and file d, the field counts are
// length-normalised and weighted into one pseudo-frequency
//
//	tf~(t,d) = Σ_f weight_f · tf_f(t,d) / (1 - b_f + b_f · len_f(d)/avglen_f)
//
// which saturates once for the whole file, score += w_t · idf(t) ·
// tf~/(k1 + tf~), with idf(t) = ln(1 + (N - df + 0.5)/(df + 0.5)) over files
// (df counts a file once whatever fields hold t). The weights are the
// constants in search.go.
//
// # Symbols, imports and associations
//
// Defining and Referencing look names up in sorted name tables (name ->
// files), built with the index and stored with it. Imports are resolved per
// language family (resolve.go) into a file graph, computed when the index is
// built and stored with it. Associations finds the repository's own words for
// a term by normalised pointwise mutual information of file co-occurrence
// (assoc.go).
//
// # Persistence
//
// Open keeps one cache file per repository (cache.go describes the format):
// the arrays are stored as they lie in memory and a warm Open reads the file
// into one buffer and views them in it rather than decoding them. A warm
// Open re-stats the tree, re-reads only files whose size, mtime or inode
// changed, and drops deleted ones; a cache that is corrupt, truncated, of
// another version or of another root is rebuilt with a warning. An index
// never depends on its file once opened (nothing is mapped), and a reopen
// that is given the index it had (Options.Prev) reads the file again only
// when someone else changed it: a damaged file is then rewritten from the
// index in memory.
package index

import (
	"log/slog"
	"math"
	"os"
	"sort"

	"github.com/hone-dev/hone/internal/syntax"
	"github.com/hone-dev/hone/internal/walk"
)

// Field is a scored part of a file.
type Field int

const (
	FieldPath    Field = iota // the path's terms: directories, file name, extension-less stem
	FieldSymbols              // names the file defines (whole and split)
	FieldContent              // every term of the text: identifiers, comments, strings
	NumFields
)

// String names the field.
func (f Field) String() string {
	switch f {
	case FieldPath:
		return "path"
	case FieldSymbols:
		return "symbols"
	case FieldContent:
		return "content"
	}
	return "field?"
}

// ID is a file's number in an Index, dense from 0.
type ID int32

// File is what the index knows of one file.
type File struct {
	Path    string
	Lang    string
	Size    int64
	ModTime int64
	Defs    []syntax.Tag
	Refs    []syntax.Tag
	Imports []string
	// Len holds the number of terms per field.
	Len [NumFields]int32
}

// Options control Open.
type Options struct {
	// CacheDir holds the persisted index; "" means the user cache directory
	// (os.UserCacheDir()/hone), overridden by $HONE_CACHE_DIR.
	CacheDir string
	// NoCache builds in memory and persists nothing.
	NoCache bool
	Walk    walk.Options
	// Workers bounds parallel parsing (default GOMAXPROCS).
	Workers int
	// Progress, when set, is called as files are read: done of total.
	Progress func(done, total int)
	// Prev, when set, is an index an earlier Open returned for the same
	// root (the one a caller still serves). Open starts from it instead of
	// reading the cache file when the file still holds it, and when the
	// file is missing or unusable (then the file is written again). Prev
	// is only read, so it may be in use meanwhile; it is ignored with
	// NoCache.
	Prev *Index
	// Logger receives each warning as Open meets it, the text of
	// Stats.Warnings (a caller that logs them itself leaves it nil).
	Logger *slog.Logger
}

// Stats describe an Open.
type Stats struct {
	Files    int // indexed
	Reused   int // taken from the cache unchanged
	Parsed   int // read and parsed this time
	Removed  int // in the cache but gone from the tree
	Skipped  []walk.Skip
	Warnings []string // e.g. "cache was corrupt; rebuilt"; each also went to Options.Logger
	Millis   int64
	// CachePath is the cache file used ("" with NoCache).
	CachePath string
}

// tfFull holds a term's count in each field of one file (saturating at
// 65535).
type tfFull [NumFields]uint16

// tf3 is the stored form of a tfFull: one byte per field. A count of
// tfEscape or more is stored as tfEscape and the exact counts of that pair
// live in Index.overflow (rare: a term written 255 times in one file).
type tf3 [NumFields]uint8

// tfEscape marks a tf3 whose exact counts are in the overflow table.
const tfEscape = math.MaxUint8

// escaped reports whether tf's exact counts are in the overflow table.
func (tf tf3) escaped() bool {
	return tf[0] == tfEscape || tf[1] == tfEscape || tf[2] == tfEscape
}

// compact returns the stored form of tf and whether it needs the overflow table.
func compact(tf tfFull) (tf3, bool) {
	var c tf3
	over := false
	for f, n := range tf {
		if n >= tfEscape {
			n, over = tfEscape, true
		}
		c[f] = uint8(n)
	}
	return c, over
}

// pairKey names a (term, file) pair in the overflow table.
func pairKey(t int32, d int32) uint64 { return uint64(uint32(t))<<32 | uint64(uint32(d)) }

// full returns the exact counts of term t in file d stored as tf.
func (ix *Index) full(t, d int32, tf tf3) tfFull {
	if tf.escaped() {
		return ix.overflow[pairKey(t, d)]
	}
	return tfFull{uint16(tf[0]), uint16(tf[1]), uint16(tf[2])}
}

// Index is read-only once opened; it is safe for concurrent use.
type Index struct {
	root   string
	files  []File
	inodes []uint64
	byPath map[string]ID

	// terms is the sorted term table; a term's id is its position.
	terms strTable

	// Forward index: file d's entries are fwdTerm/fwdTF[fwdOff[d]:fwdOff[d+1]],
	// sorted by term id.
	fwdOff  []int32
	fwdTerm []int32
	fwdTF   []tf3

	// Postings: term t's entries are postDoc/postTF[postOff[t]:postOff[t+1]],
	// sorted by file id.
	postOff []int32
	postDoc []int32
	postTF  []tf3

	// overflow holds the exact counts of the pairs whose tf3 is escaped.
	overflow map[uint64]tfFull

	// norm[d][f] = weight_f / (1 - b_f + b_f·len_f(d)/avglen_f).
	norm [][NumFields]float32

	// imports and importedBy are the resolved import graph.
	imports    [][]ID
	importedBy [][]ID

	// contentSkips are files the walk kept but Sniff refused, with the stat
	// that saw them, so a warm Open need not read them again.
	contentSkips []contentSkip

	// lazy, when set, holds the tags not yet decoded: files[id].Defs and
	// Refs are read through File, which decodes them on first use.
	lazy *lazyTags

	// defs and refs map names to the files defining or referencing them.
	defs, refs nameTable

	modKeys nameTable // extension-less path suffix -> files
	dirs    nameTable // directory path suffix -> files directly in it

	informative []bool // per term: fit for Associations and Distinctive

	// file is the version of the cache file that holds this index, as
	// loaded or saved (nil: none).
	file os.FileInfo
}

// heldBy reports whether the cache file at p still holds ix.
func (ix *Index) heldBy(p string) bool {
	if ix.file == nil {
		return false
	}
	fi, err := os.Stat(p)
	return err == nil && sameVersion(fi, ix.file)
}

type contentSkip struct {
	skip  walk.Skip
	size  int64
	mtime int64
	inode uint64
}

// Root returns the absolute repository root.
func (ix *Index) Root() string { return ix.root }

// Len returns the number of files.
func (ix *Index) Len() int { return len(ix.files) }

// File returns file id, or nil when id is out of range.
func (ix *Index) File(id ID) *File {
	if id < 0 || int(id) >= len(ix.files) {
		return nil
	}
	if ix.lazy != nil {
		ix.tags(id)
	}
	return &ix.files[id]
}

// Path returns file id's repository path, or "" when id is out of range.
// Unlike File it never decodes a loaded index's tags: a filter that looks
// only at paths should use it.
func (ix *Index) Path(id ID) string {
	if id < 0 || int(id) >= len(ix.files) {
		return ""
	}
	return ix.files[id].Path
}

// Lookup returns the id of a repository path.
func (ix *Index) Lookup(path string) (ID, bool) {
	id, ok := ix.byPath[path]
	return id, ok
}

// NumTerms returns the number of distinct terms.
func (ix *Index) NumTerms() int { return ix.terms.len() }

// termID returns the id of term, or -1.
func (ix *Index) termID(term string) int32 {
	return int32(ix.terms.find(term))
}

// DocFreq returns the number of files that contain term in any field.
func (ix *Index) DocFreq(term string) int {
	t := ix.termID(term)
	if t < 0 {
		return 0
	}
	return int(ix.postOff[t+1] - ix.postOff[t])
}

// IDF returns the BM25 inverse document frequency of term.
func (ix *Index) IDF(term string) float64 {
	return idf(len(ix.files), ix.DocFreq(term))
}

// TermFreq returns how often term occurs in field of file id.
func (ix *Index) TermFreq(id ID, f Field, term string) int {
	if id < 0 || int(id) >= len(ix.files) || f < 0 || f >= NumFields {
		return 0
	}
	t := ix.termID(term)
	if t < 0 {
		return 0
	}
	lo, hi := int(ix.fwdOff[id]), int(ix.fwdOff[id+1])
	ts := ix.fwdTerm[lo:hi]
	i := sort.Search(len(ts), func(i int) bool { return ts[i] >= t })
	if i < len(ts) && ts[i] == t {
		return int(ix.full(t, int32(id), ix.fwdTF[lo+i])[f])
	}
	return 0
}

// Imports returns the indexed files that file id imports (resolved).
func (ix *Index) Imports(id ID) []ID {
	if id < 0 || int(id) >= len(ix.imports) {
		return nil
	}
	return ix.imports[id]
}

// ImportedBy returns the files that import file id.
func (ix *Index) ImportedBy(id ID) []ID {
	if id < 0 || int(id) >= len(ix.importedBy) {
		return nil
	}
	return ix.importedBy[id]
}

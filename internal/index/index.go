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
// inverts the forward index by a counting sort. A large read (a first index
// of a big tree, a checkout far away) is built in up to four chunks by
// bytes of source, each written as a segment before the next is parsed (the
// last too on a first index) and read back in its compact stored form once
// the last is built (spill.go): the build's peak holds one chunk's parse,
// not the tree's.
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
// # Segments and persistence
//
// The index is a set of immutable segments, each a complete index of some
// files (forward index, postings, term table, name tables), read together
// as Lucene and zoekt read theirs, with tombstones for the files a later
// segment replaced or the tree lost. Index is the read interface over them:
// file ids are dense in path order over the live files of all segments,
// and document frequencies and field length averages are taken over the
// live files, so that every score, tie and list is the one an index built
// from scratch gives. Open keeps, per repository, a manifest naming the
// segments, their tombstones and the resolved import graph, beside the
// segment files (cache.go describes the format). A warm Open re-stats the
// tree (or, with Options.Touched, only the paths a watcher saw change),
// re-reads only files whose size, mtime or inode changed and writes them as
// a new segment, which absorbs the segments small beside it (see
// foldPlan): one edited file costs a segment of one file and a manifest,
// and what a new segment gathers stays within a chunk of a large read
// (foldCap), so that no Open rebuilds most of the index in memory.
// The files of each segment are read into one heap buffer and its arrays
// viewed in it rather than decoded (the forward index and postings, stored
// compressed, are decoded run by run as queries ask, see runs.go); nothing
// is mapped, so an index never depends on its files once opened.
// Options.InPlace (for a process that answers and exits) reads each file up
// to its forward index and postings, about a quarter of it, and those by
// offset as queries need them (segment_disk.go): the index then depends on its files, and Err says
// when one was cut under it. A manifest that is corrupt, truncated,
// of another version or of another root is rebuilt with a warning; a
// damaged segment costs its own files. A reopen given the index it had
// (Options.Prev) reads nothing when the manifest still describes it, takes
// from it every segment a newer manifest still names, and writes the files
// again from memory when they were cut or removed.
//
// # Lexical Opens: a first answer
//
// Options.Lexical reads files without parsing them: a lexical file has its
// path and content terms (so BM25F ranks it, without the symbols field)
// but no tags or imports, and is marked by the content key unparsedKey.
// Options.Parse names files to parse all the same (the candidates of a
// first query), and an Open that is not lexical reads every marked file
// again, as if it had changed: a first contact answers after a read of the
// tree, and the next Open completes the index. Options.ParseBytes bounds
// that completion instead: each lexical Open parses about that many bytes
// of the files not parsed yet, so that the cost of a run stays bounded on
// a large tree while successive runs complete the index.
//
// # Records addressed by content
//
// What parsing a file gives (tags, imports, terms and counts) depends only
// on its path and bytes. Open keeps it in a store shared by every root of
// one cache directory, keyed by a hash of both (records.go): a file read
// again is hashed and, when the store has that version, not parsed. A
// checkout of another commit, a branch switched back, a second worktree or
// clone of a repository parse only the versions never seen.
package index

import (
	"log/slog"
	"math"

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
	CTime   int64 // status change time (walk.File.CTime)
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
	// is only read, so it may be in use meanwhile. With NoCache, Open
	// starts from Prev (of the same root) in memory.
	Prev *Index
	// Touched, when not nil, lists every repository path (forward slashes)
	// that may have changed since Prev was opened, as a watcher of the tree
	// saw them: Open then stats only those instead of walking the tree.
	// When one of them is new to Prev (a file created, a directory), an
	// ignore file, or no longer a plain file within the size limit, or when
	// Prev is not what the cache holds, Open walks the tree as without it.
	// An Open that did not walk reports in Stats.Skipped only the files
	// whose content was refused.
	Touched []string
	// RecordsMax is the byte budget of the records store of parsed files
	// addressed by content, shared by the repositories of one cache
	// directory (see records.go): 0 means $HONE_RECORDS_MB (MiB; 0 turns
	// the store off) when set, else DefaultRecordsMax; below 0 no store
	// (every file read is parsed).
	RecordsMax int64
	// Lexical reads the files this Open reads (new, changed, or not parsed
	// yet) without parsing them, except those named in Parse: a lexical
	// file is searchable by its path and content terms, but has no tags,
	// references or imports (Parsed reports false) until an Open that is
	// not lexical, or names it in Parse, reads it again. A first answer on
	// a tree never indexed costs a read of the tree instead of a parse of
	// it (see Unparsed). A file whose parse the records store holds is
	// taken from it, parsed.
	Lexical bool
	// Parse names the files (repository paths) a Lexical Open parses.
	Parse []string
	// ParseBytes bounds a step towards completing a lexical index: a
	// Lexical Open also parses the files it finds not parsed yet (new,
	// changed, or left unparsed by an earlier lexical Open), in the order
	// it visits them (the walk's), while the sizes of those it took sum to
	// less than ParseBytes: it may pass the bound by one file (at most the
	// walk's size limit). The rest stay lexical; the files of Parse are
	// parsed all the same, outside the bound. Successive Opens with
	// ParseBytes > 0 complete the index. 0 parses only Parse.
	ParseBytes int64
	// InPlace searches the segments read from the cache in place: their
	// forward index and postings (about a quarter of each file) stay on
	// disk and are read by offset as queries need them (see
	// segment_disk.go), which saves the memory they take. For a process that answers and
	// exits (the CLI): a cache file cut or rewritten under it makes the
	// index's Err report it, and the answer must then be refused, where an
	// index read whole (the default, for servers) answers on from memory.
	InPlace bool
	// Logger receives each warning as Open meets it, the text of
	// Stats.Warnings (a caller that logs them itself leaves it nil).
	Logger *slog.Logger
}

// Stats describe an Open.
type Stats struct {
	Files    int // indexed
	Reused   int // taken from the cache unchanged
	Parsed   int // read and parsed this time
	Recalled int // read this time, their parse taken from the records store
	Removed  int // in the cache but gone from the tree
	Lexical  int // read this time without parsing (Options.Lexical)
	Unparsed int // indexed without their parse, read now or before (Options.Lexical)
	Skipped  []walk.Skip
	Warnings []string // e.g. "cache was corrupt; rebuilt"; each also went to Options.Logger
	Millis   int64
	// Walked is false when Options.Touched spared the walk of the tree.
	Walked bool
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

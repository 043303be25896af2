// Package index is hone's code-aware inverted index.
//
// CONTRACT STUB: the implementation replaces the bodies below.
package index

import (
	"context"
	"errors"
	"log/slog"

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
	Logger   *slog.Logger
}

// Stats describe an Open.
type Stats struct {
	Files    int // indexed
	Reused   int // taken from the cache unchanged
	Parsed   int // read and parsed this time
	Removed  int // in the cache but gone from the tree
	Skipped  []walk.Skip
	Warnings []string // e.g. "cache was corrupt; rebuilt"
	Millis   int64
}

// Index is read-only once opened; it is safe for concurrent use.
type Index struct{}

// Open loads root's index from the cache, brings it up to date with the tree
// (re-reading only files whose size, mtime or inode changed), saves it, and
// returns it.
func Open(ctx context.Context, root string, opts Options) (*Index, Stats, error) {
	return nil, Stats{}, errors.New("index: not implemented")
}

// Root returns the absolute repository root.
func (ix *Index) Root() string { return "" }

// Len returns the number of files.
func (ix *Index) Len() int { return 0 }

// File returns file id.
func (ix *Index) File(id ID) *File { return nil }

// Lookup returns the id of a repository path.
func (ix *Index) Lookup(path string) (ID, bool) { return 0, false }

// Term is a query term with a weight.
type Term struct {
	Text   string
	Weight float64
}

// Hit is a file matched by Search.
type Hit struct {
	ID    ID
	Score float64
	// Matched lists the query terms found in the file.
	Matched []string
}

// Search ranks files by BM25F over the path, symbols and content fields for
// terms; keep, when non-nil, filters files. It returns at most limit hits,
// best first.
func (ix *Index) Search(terms []Term, keep func(ID) bool, limit int) []Hit { return nil }

// DocFreq returns the number of files that contain term in any field.
func (ix *Index) DocFreq(term string) int { return 0 }

// IDF returns the BM25 inverse document frequency of term.
func (ix *Index) IDF(term string) float64 { return 0 }

// TermFreq returns how often term occurs in field of file id.
func (ix *Index) TermFreq(id ID, f Field, term string) int { return 0 }

// Defining returns the files that define a symbol named name (exact match of
// the name, or of Parent.Name for a dotted name such as "QuerySet.filter").
func (ix *Index) Defining(name string) []ID { return nil }

// Referencing returns the files that reference name (calls, types, imports).
func (ix *Index) Referencing(name string) []ID { return nil }

// ResolveImport maps an import of file from (as syntax reports it) to the
// indexed files it names.
func (ix *Index) ResolveImport(from ID, imp string) []ID { return nil }

// ResolveModule maps a dotted or slashed module path ("django.db.models.query",
// "src/auth/tokens") to indexed files, by path suffix.
func (ix *Index) ResolveModule(mod string) []ID { return nil }

// Imports returns the indexed files that file id imports (resolved).
func (ix *Index) Imports(id ID) []ID { return nil }

// ImportedBy returns the files that import file id.
func (ix *Index) ImportedBy(id ID) []ID { return nil }

// Assoc is a term associated with another by co-occurrence in the repository.
type Assoc struct {
	Term    string
	Score   float64 // normalised pointwise mutual information, in (0,1]
	Support int     // files where both occur
}

// Associations returns up to k terms that co-occur with term in the
// repository's files, strongest first.
func (ix *Index) Associations(term string, k int) []Assoc { return nil }

// Distinctive returns up to k terms of file id with the highest tf·idf in the
// symbols and content fields.
func (ix *Index) Distinctive(id ID, k int) []string { return nil }

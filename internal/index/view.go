package index

import (
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hone-dev/hone/internal/walk"
)

// Index is the repository's index: its segments read together, with the
// tombstones of the files a later segment replaced or the tree lost. File
// ids are dense from 0 in path order over the live files of all segments,
// so that they, and every ranking, are those of one index built from
// scratch. An Index is read-only once opened; it is safe for concurrent use.
type Index struct {
	root string
	segs []*segment
	// dead[s][d] marks local file d of segment s as replaced or removed
	// (nil: none); segments are shared between indexes, tombstones are not.
	dead  [][]bool
	nDead []int

	// loc maps a file id to its segment and local id; glob maps each
	// segment's local ids back (-1: dead).
	loc    []loc
	glob   [][]ID
	byPath map[string]ID

	// deadDF[s] counts, per local term of segment s, its dead files holding
	// it (nil: none dead), so that document frequencies leave them out.
	deadDF []map[int32]int32

	// norm[d][f] = weight_f / (1 - b_f + b_f·len_f(d)/avglen_f).
	norm [][NumFields]float32

	// imports and importedBy are the resolved import graph.
	imports    [][]ID
	importedBy [][]ID

	// contentSkips are files the walk kept but Sniff refused, with the stat
	// that saw them, so a warm Open need not read them again.
	contentSkips []contentSkip

	// unparsed counts the live files a Lexical Open did not parse.
	unparsed int

	// quiet are the directories of the tree as the last walk found them
	// (walk.Memo): those that hold nothing to index, which the next walk
	// stats instead of listing, and the listings of the others, which it
	// does not list again while they are as they were.
	quiet walk.Memo

	// uni is the term space shared by all segments, built on first use
	// (see terms), from uniPrev when an earlier index's space is at hand.
	uniOnce sync.Once
	uni     atomic.Pointer[unified]
	uniPrev *unified

	// print is the extractor fingerprint its segments carry (0: not known
	// yet; see printOf).
	print uint64

	// file is the version of the manifest that describes this index, as
	// loaded or saved (nil: none).
	file os.FileInfo
}

type loc struct{ seg, id int32 }

type contentSkip struct {
	skip  walk.Skip
	size  int64
	mtime int64
	ctime int64
	inode uint64
}

// newIndex lays out the index of segs with the given tombstones (nil
// entries: none): file ids, the path map, the dead files' term counts and
// the length norms. The import graph is left to the caller.
func newIndex(root string, segs []*segment, dead [][]bool, skips []contentSkip) *Index {
	ix := &Index{root: root, segs: segs, dead: dead, contentSkips: skips}
	if ix.dead == nil {
		ix.dead = make([][]bool, len(segs))
	}
	ix.nDead = make([]int, len(segs))
	ix.deadDF = make([]map[int32]int32, len(segs))
	live := 0
	for s, sg := range segs {
		for d, x := range ix.dead[s] {
			if !x {
				continue
			}
			ix.nDead[s]++
			if ix.deadDF[s] == nil {
				ix.deadDF[s] = map[int32]int32{}
			}
			ts, _ := sg.forward(int32(d))
			for _, t := range ts {
				ix.deadDF[s][t]++
			}
		}
		live += len(sg.files) - ix.nDead[s]
	}
	// Merge the segments' live files by path (each is sorted already).
	ix.loc = make([]loc, 0, live)
	ix.glob = make([][]ID, len(segs))
	next := make([]int32, len(segs))
	for s, sg := range segs {
		ix.glob[s] = make([]ID, len(sg.files))
	}
	skipDead := func(s int) {
		for int(next[s]) < len(segs[s].files) && ix.isDead(s, next[s]) {
			ix.glob[s][next[s]] = -1
			next[s]++
		}
	}
	for s := range segs {
		skipDead(s)
	}
	for {
		best := -1
		for s, sg := range segs {
			if int(next[s]) < len(sg.files) && (best < 0 || sg.files[next[s]].Path < segs[best].files[next[best]].Path) {
				best = s
			}
		}
		if best < 0 {
			break
		}
		ix.glob[best][next[best]] = ID(len(ix.loc))
		ix.loc = append(ix.loc, loc{int32(best), next[best]})
		next[best]++
		skipDead(best)
	}
	ix.byPath = make(map[string]ID, len(ix.loc))
	for id, l := range ix.loc {
		ix.byPath[segs[l.seg].files[l.id].Path] = ID(id)
		if segs[l.seg].keys[l.id] == unparsedKey {
			ix.unparsed++
		}
	}
	ix.deriveNorms()
	return ix
}

// single reports whether the index is one segment without tombstones.
func (ix *Index) single() bool { return len(ix.segs) == 1 && ix.nDead[0] == 0 }

func (ix *Index) isDead(s int, d int32) bool {
	return ix.dead[s] != nil && ix.dead[s][d]
}

// deriveNorms computes the length norms over the live files.
func (ix *Index) deriveNorms() {
	n := len(ix.loc)
	var avg [NumFields]float64
	for _, l := range ix.loc {
		f := &ix.segs[l.seg].files[l.id]
		for i := range NumFields {
			avg[i] += float64(f.Len[i])
		}
	}
	for f := range NumFields {
		avg[f] /= float64(max(n, 1))
		if avg[f] == 0 {
			avg[f] = 1
		}
	}
	ix.norm = make([][NumFields]float32, n)
	for id, l := range ix.loc {
		f := &ix.segs[l.seg].files[l.id]
		for i := range NumFields {
			b := fieldB[i]
			ix.norm[id][i] = float32(fieldWeight[i] / (1 - b + b*float64(f.Len[i])/avg[i]))
		}
	}
}

// printOf returns the extractor fingerprint of ix's segments: the one its
// manifest carried (checked when it was loaded), else the running
// extractor's, which costs the set-up of every grammar the first time.
func (ix *Index) printOf() uint64 {
	if ix.print != 0 {
		return ix.print
	}
	return extractorPrint()
}

// heldBy reports whether the manifest at p still describes ix.
func (ix *Index) heldBy(p string) bool {
	if ix.file == nil {
		return false
	}
	fi, err := os.Stat(p)
	return err == nil && sameVersion(fi, ix.file)
}

// Root returns the absolute repository root.
func (ix *Index) Root() string { return ix.root }

// Len returns the number of files.
func (ix *Index) Len() int { return len(ix.loc) }

// Segments returns the number of segments the index reads.
func (ix *Index) Segments() int { return len(ix.segs) }

// Err reports the first read that failed in a segment searched in place
// (Options.InPlace): its cache file was cut or rewritten since Open, and
// what the index answered since may lack that segment's entries. It is
// always nil for an index read whole.
func (ix *Index) Err() error {
	for _, sg := range ix.segs {
		if err := sg.diskErr(); err != nil {
			return err
		}
	}
	return nil
}

// File returns file id, or nil when id is out of range.
func (ix *Index) File(id ID) *File {
	if id < 0 || int(id) >= len(ix.loc) {
		return nil
	}
	l := ix.loc[id]
	return ix.segs[l.seg].file(l.id)
}

// meta returns file id without decoding its tags (Defs and Refs may be
// unset), or nil when id is out of range.
func (ix *Index) meta(id ID) *File {
	if id < 0 || int(id) >= len(ix.loc) {
		return nil
	}
	l := ix.loc[id]
	return &ix.segs[l.seg].files[l.id]
}

// Path returns file id's repository path, or "" when id is out of range.
// Unlike File it never decodes a loaded index's tags: a filter that looks
// only at paths should use it.
func (ix *Index) Path(id ID) string {
	if id < 0 || int(id) >= len(ix.loc) {
		return ""
	}
	l := ix.loc[id]
	return ix.segs[l.seg].files[l.id].Path
}

// inode returns file id's inode as the walk saw it.
func (ix *Index) inode(id ID) uint64 {
	l := ix.loc[id]
	return ix.segs[l.seg].inodes[l.id]
}

// Lookup returns the id of a repository path.
func (ix *Index) Lookup(path string) (ID, bool) {
	id, ok := ix.byPath[path]
	return id, ok
}

// segDF returns the live files of segment s holding its local term t.
func (ix *Index) segDF(s int, t int32) int {
	n := ix.segs[s].df(t)
	if m := ix.deadDF[s]; m != nil {
		n -= m[t]
	}
	return int(n)
}

// DocFreq returns the number of files that contain term in any field.
func (ix *Index) DocFreq(term string) int {
	n := 0
	for s, sg := range ix.segs {
		if t := sg.termID(term); t >= 0 {
			n += ix.segDF(s, t)
		}
	}
	return n
}

// IDF returns the BM25 inverse document frequency of term.
func (ix *Index) IDF(term string) float64 {
	return idf(ix.Len(), ix.DocFreq(term))
}

// TermFreq returns how often term occurs in field of file id.
func (ix *Index) TermFreq(id ID, f Field, term string) int {
	if id < 0 || int(id) >= len(ix.loc) || f < 0 || f >= NumFields {
		return 0
	}
	l := ix.loc[id]
	sg := ix.segs[l.seg]
	t := sg.termID(term)
	if t < 0 {
		return 0
	}
	return int(sg.tf(l.id, t)[f])
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

// names returns the live files that the name table pick chooses of each
// segment holds under key, ascending.
func (ix *Index) names(pick func(*segment) *nameTable, key string) []ID {
	var out []ID
	for s, sg := range ix.segs {
		for _, d := range pick(sg).get(key) {
			if g := ix.glob[s][d]; g >= 0 {
				out = append(out, g)
			}
		}
	}
	if len(ix.segs) > 1 {
		slices.Sort(out)
	}
	return out
}

func pickDefs(s *segment) *nameTable    { return &s.defs }
func pickRefs(s *segment) *nameTable    { return &s.refs }
func pickModKeys(s *segment) *nameTable { return &s.modKeys }
func pickDirs(s *segment) *nameTable    { return &s.dirs }

// NumTerms returns the number of distinct terms.
func (ix *Index) NumTerms() int {
	if len(ix.segs) == 0 {
		return 0
	}
	u := ix.terms()
	n := 0
	for _, df := range u.df {
		if df > 0 {
			n++
		}
	}
	return n
}

// liveTerm returns the lower-cased text of term when some live file holds it.
func (ix *Index) liveTerm(term string) (string, bool) {
	t := strings.ToLower(term)
	return t, ix.DocFreq(t) > 0
}

// Parsed reports whether file id was parsed (its tags, references and
// imports are known), false for a file a Lexical Open only read.
func (ix *Index) Parsed(id ID) bool {
	l := ix.loc[id]
	return ix.segs[l.seg].keys[l.id] != unparsedKey
}

// Unparsed counts the files indexed without their parse (see
// Options.Lexical); 0 for a complete index.
func (ix *Index) Unparsed() int { return ix.unparsed }

// UnparsedBytes is the size of the files Unparsed counts: what completing
// the index has left to parse.
func (ix *Index) UnparsedBytes() int64 {
	if ix.unparsed == 0 {
		return 0
	}
	var n int64
	for _, l := range ix.loc {
		if sg := ix.segs[l.seg]; sg.keys[l.id] == unparsedKey {
			n += sg.files[l.id].Size
		}
	}
	return n
}

package index

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/hone-dev/hone/internal/secret"
	"github.com/hone-dev/hone/internal/syntax"
	"github.com/hone-dev/hone/internal/tokenize"
	"github.com/hone-dev/hone/internal/walk"
)

// parsed is one file read and cut into terms by a worker.
type parsed struct {
	file  File
	inode uint64
	key   recordKey
	// recalled: the records store gave what the parse would have.
	recalled bool
	dict     *dict   // the worker's term dictionary
	terms    []int32 // distinct terms, ids in dict
	tfs      []tfFull
	skip     *walk.Skip // set when the content was refused
}

// dict is one worker's term dictionary: terms get ids in the order the worker
// first meets them, so that a term is copied out of the text once per worker
// rather than once per file.
type dict struct {
	ids   map[string]int32
	terms []string
	slot  []int32 // per term: 1 + its position in the current file's list, or 0
	sc    tokenize.Scanner
}

// intern returns t's id in the dictionary, adding a copy of t (which may
// be transient) the first time the worker meets it.
func (d *dict) intern(t string) int32 {
	if id, ok := d.ids[t]; ok {
		return id
	}
	t = strings.Clone(t)
	id := int32(len(d.terms))
	d.ids[t] = id
	d.terms = append(d.terms, t)
	d.slot = append(d.slot, 0)
	return id
}

// parseAll reads and parses files with up to workers goroutines. The result
// is in the order of files. With a records store, a file whose record it
// holds is not parsed, and every file parsed is put in it.
//
// lexical, when not nil, says which files are only read, not parsed (see
// Options.Lexical): they are cut into terms without tags or imports, unless
// the records store holds their parse.
func parseAll(ctx context.Context, files []walk.File, workers int, rs *records, lexical func(string) bool, progress func(done, total int)) ([]parsed, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	out := make([]parsed, len(files))
	var next, done atomic.Int64
	var progressMu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < workers && w < len(files); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := &dict{ids: make(map[string]int32, 1<<16)}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) || ctx.Err() != nil {
					return
				}
				out[i] = parseFile(files[i], d, rs, lexical != nil && lexical(files[i].Path))
				n := int(done.Add(1))
				if progress != nil {
					progressMu.Lock()
					progress(n, len(files))
					progressMu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	return out, nil
}

// parseFile reads one file, extracts its tags and counts its terms per field
// with the worker's dictionary d; or takes all that from the records store
// rs (nil: none), where it is put after a parse. A lexical file that the
// store does not hold is not parsed: it gets its language from its name, no
// tags, and the key unparsedKey, and is not put in the store.
func parseFile(wf walk.File, d *dict, rs *records, lexical bool) parsed {
	p := parsed{
		file:  File{Path: wf.Path, Size: wf.Size, ModTime: wf.ModTime, CTime: wf.CTime},
		inode: wf.Inode,
		dict:  d,
	}
	raw, err := os.ReadFile(wf.Abs)
	if err != nil {
		p.skip = &walk.Skip{Path: wf.Path, Reason: walk.SkipUnreadable, Detail: err.Error()}
		return p
	}
	p.key = keyOf(wf.Path, raw)
	if rs != nil && rs.recall(p.key, &p) {
		p.recalled = true
		return p
	}
	text, reason, detail, skip := walk.Sniff(wf.Path, raw)
	if skip {
		p.skip = &walk.Skip{Path: wf.Path, Reason: reason, Detail: detail}
		return p
	}
	// Nothing of a credential becomes a term, a definition or an
	// association: what the index holds, REFINE may learn and a model see.
	text = secret.Scrub(wf.Path, text)
	var res syntax.Result
	if lexical {
		res.Lang, p.key = syntax.Language(wf.Path), unparsedKey
	} else if res, err = syntax.Extract(wf.Path, text); err != nil {
		// A parse failure leaves the file searchable as text.
		res = syntax.Result{Lang: "text"}
	}
	if res.Lang == "" {
		res.Lang = "text"
	}
	p.file.Lang = res.Lang
	p.file.Defs = res.Defs
	p.file.Refs = res.Refs
	p.file.Imports = res.Imports

	// Terms reported by the Scanner are transient: the dictionary copies a
	// term the first time the worker meets it.
	add := func(f Field) func(string) {
		return func(t string) {
			id := d.intern(t)
			s := d.slot[id]
			if s == 0 {
				p.terms = append(p.terms, id)
				p.tfs = append(p.tfs, tfFull{})
				s = int32(len(p.terms))
				d.slot[id] = s
			}
			if tf := &p.tfs[s-1]; tf[f] < math.MaxUint16 {
				tf[f]++
			}
			p.file.Len[f]++
		}
	}
	addPath, addSym, addContent := add(FieldPath), add(FieldSymbols), add(FieldContent)
	pathTerms(&d.sc, wf.Path, addPath)
	for _, def := range res.Defs {
		d.sc.Identifier(def.Name, addSym)
		if def.Parent != "" {
			if t := strings.ToLower(def.Parent + "." + def.Name); len(t) <= tokenize.MaxLen {
				addSym(t)
			}
		}
	}
	// text is not written while it is scanned and no term keeps a reference
	// to it, so it is viewed as a string without a copy.
	d.sc.Terms(unsafe.String(unsafe.SliceData(text), len(text)), addContent)
	for _, id := range p.terms {
		d.slot[id] = 0
	}
	if rs != nil && !lexical {
		// The record is the file's entry in the segment it goes into: the
		// store keeps a pointer there, and the record in full only once
		// the version leaves its segment (useRecords).
		rs.pointTo(p.key)
	}
	return p
}

// pathTerms reports the terms of a repository path: each directory name and
// the file's stem (its name without the last extension), split as identifiers.
func pathTerms(sc *tokenize.Scanner, path string, fn func(string)) {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if i == len(segs)-1 {
			if dot := strings.LastIndexByte(s, '.'); dot > 0 {
				s = s[:dot]
			}
		}
		sc.Identifier(s, fn)
	}
}

// record is one file of an index under construction.
type record struct {
	file  File
	inode uint64
	key   recordKey
	terms []int32 // builder term ids, distinct
	tfs   []tfFull
}

// builder interns terms and tag strings while an index is assembled.
//
// Term ids: when an index is rebuilt from an older one, the older index's
// sorted term table is the base, and its ids stay the builder's ids for
// those terms (0 to base.len()-1): an unchanged file's terms need no
// interning, and the final table is a merge of the base with the few new
// terms rather than a sort of every term. Terms the base lacks get ids from
// base.len() up, interned in termID.
type builder struct {
	baseSeg *segment // whose term ids are the builder's (nil: none)
	base    strTable
	termID  map[string]int32
	terms   []string // new terms: builder id base.len()+i is terms[i]
	strs    map[string]string
	recs    []record
	remap   map[*dict][]int32    // worker term id -> builder term id, or -1
	segMap  map[*segment][]int32 // another segment's term id -> builder term id, or -1
}

// newBuilder returns a builder for about files files; base, when set, is the
// segment most of the files are copied from: its sorted term table is the
// builder's base (see builder).
func newBuilder(files int, base *segment) *builder {
	b := &builder{
		baseSeg: base,
		termID:  make(map[string]int32, 1<<16),
		strs:    map[string]string{},
		recs:    make([]record, 0, files),
	}
	if base != nil {
		b.base = base.terms
	}
	return b
}

// term interns t, which must not alias a file's text.
func (b *builder) term(t string) int32 {
	if i := b.base.find(t); i >= 0 {
		return int32(i)
	}
	if id, ok := b.termID[t]; ok {
		return id
	}
	id := int32(b.base.len() + len(b.terms))
	b.termID[t] = id
	b.terms = append(b.terms, t)
	return id
}

// termText returns the text of builder term id.
func (b *builder) termText(id int32) string {
	if n := b.base.len(); int(id) < n {
		return b.base.at(int(id))
	}
	return b.terms[int(id)-b.base.len()]
}

// str interns a tag string so that files share one copy and the parsed text
// can be freed.
func (b *builder) str(s string) string {
	if s == "" {
		return ""
	}
	if v, ok := b.strs[s]; ok {
		return v
	}
	s = strings.Clone(s)
	b.strs[s] = s
	return s
}

// mapTags returns a copy of ts with each string passed through str (a
// segment's tags handed on cloned, tagsCopy); nil for none.
func mapTags(ts []syntax.Tag, str func(string) string) []syntax.Tag {
	if len(ts) == 0 {
		return nil
	}
	out := make([]syntax.Tag, len(ts))
	for i, t := range ts {
		out[i] = syntax.Tag{Name: str(t.Name), Parent: str(t.Parent), Kind: str(t.Kind), Line: t.Line, End: t.End}
	}
	return out
}

// file returns f, whose slices another segment holds, with its strings
// interned in copies of them (own).
func (b *builder) file(f File) File {
	f.Defs, f.Refs, f.Imports = slices.Clone(f.Defs), slices.Clone(f.Refs), slices.Clone(f.Imports)
	return b.own(f)
}

// own returns f, a parse's own (no one else holds its tags), with its
// strings interned in place: a copy of the tags would double what a
// chunk's parses hold until the chunk is added.
func (b *builder) own(f File) File {
	f.Path = strings.Clone(f.Path)
	f.Lang = b.str(f.Lang)
	for _, ts := range [][]syntax.Tag{f.Defs, f.Refs} {
		for i := range ts {
			t := &ts[i]
			t.Name, t.Parent, t.Kind = b.str(t.Name), b.str(t.Parent), b.str(t.Kind)
		}
	}
	if len(f.Defs) == 0 {
		f.Defs = nil
	}
	if len(f.Refs) == 0 {
		f.Refs = nil
	}
	for i, s := range f.Imports {
		f.Imports[i] = b.str(s)
	}
	return f
}

// addParsed adds a freshly parsed file, whose tags it takes (own).
func (b *builder) addParsed(p *parsed) {
	f := b.own(p.file)
	if b.remap == nil {
		b.remap = map[*dict][]int32{}
	}
	remap := b.remap[p.dict]
	for len(remap) < len(p.dict.terms) {
		remap = append(remap, -1)
	}
	b.remap[p.dict] = remap
	r := record{file: f, inode: p.inode, key: p.key, terms: p.terms, tfs: p.tfs}
	for i, t := range p.terms {
		if remap[t] < 0 {
			remap[t] = b.term(p.dict.terms[t])
		}
		r.terms[i] = remap[t]
	}
	b.recs = append(b.recs, r)
}

// refused appends to skips the files whose content the parse refused
// (files[i] is parsed[i]'s), with the stat that saw them, and returns them
// with the number of files kept.
func refused(skips []contentSkip, parsed []parsed, files []walk.File) ([]contentSkip, int) {
	kept := 0
	for i := range parsed {
		if p := &parsed[i]; p.skip != nil {
			f := files[i]
			skips = append(skips, contentSkip{skip: *p.skip, size: f.Size, mtime: f.ModTime, ctime: f.CTime, inode: f.Inode})
		} else {
			kept++
		}
	}
	return skips, kept
}

// addKept adds the parses that were not refused and returns how many of
// them were parsed and how many recalled from the records store.
func (b *builder) addKept(parsed []parsed) (parsedN, recalledN, lexicalN int) {
	for i := range parsed {
		if p := &parsed[i]; p.skip == nil {
			b.addParsed(p)
			p.file = File{} // the builder's now
			switch {
			case p.recalled:
				recalledN++
			case p.key == unparsedKey:
				lexicalN++
			default:
				parsedN++
			}
		}
	}
	return parsedN, recalledN, lexicalN
}

// addReused adds local file d of segment old unchanged. Its term ids are
// the builder's when old is the builder's base, else they are interned by
// their text. Strings are copied, so that the new segment does not keep the
// old one's buffers alive.
func (b *builder) addReused(old *segment, d int32) {
	ts, tfs := old.forward(d)
	r := record{file: b.file(*old.file(d)), inode: old.inodes[d], key: old.keys[d], terms: slices.Clone(ts), tfs: make([]tfFull, len(ts))}
	for i, t := range r.terms {
		r.tfs[i] = old.full(t, d, tfs[i])
	}
	if old != b.baseSeg {
		if b.segMap == nil {
			b.segMap = map[*segment][]int32{}
		}
		m := b.segMap[old]
		if m == nil {
			m = make([]int32, old.terms.len())
			for i := range m {
				m[i] = -1
			}
			b.segMap[old] = m
		}
		for i, t := range r.terms {
			if m[t] < 0 {
				m[t] = b.term(strings.Clone(old.terms.at(int(t))))
			}
			r.terms[i] = m[t]
		}
	}
	b.recs = append(b.recs, r)
}

// finish sorts the files by path and the term table, lays out the forward
// index and derives the postings and the name tables of a new segment.
func (b *builder) finish() *segment {
	slices.SortFunc(b.recs, func(x, y record) int { return strings.Compare(x.file.Path, y.file.Path) })
	newID, sorted := b.termOrder()
	// From here on the workers' dictionaries and the builder's own term map
	// are garbage (the table below copies the strings), and each record is
	// dropped once the forward index holds it: a large tree's build peaks
	// lower.
	b.remap, b.segMap, b.termID, b.terms = nil, nil, nil, nil
	// One blob for all terms: no header per allocation, and no reference to
	// an old segment's buffers.
	terms := newStrTable(sorted)

	sg := &segment{terms: terms}
	sg.files = make([]File, len(b.recs))
	sg.inodes = make([]uint64, len(b.recs))
	sg.keys = make([]recordKey, len(b.recs))
	total := 0
	for _, r := range b.recs {
		total += len(r.terms)
	}
	sg.fwdOff = make([]int32, len(b.recs)+1)
	sg.fwdTerm = make([]int32, 0, total)
	sg.fwdTF = make([]tf3, 0, total)
	sg.overflow = map[uint64]tfFull{}
	var pairs []termTF // one file's list, sorted by the new ids
	for d, r := range b.recs {
		sg.files[d] = r.file
		sg.inodes[d] = r.inode
		sg.keys[d] = r.key
		pairs = pairs[:0]
		for i, t := range r.terms {
			tf, over := compact(r.tfs[i])
			pairs = append(pairs, termTF{newID[t], tf})
			if over {
				sg.overflow[pairKey(newID[t], int32(d))] = r.tfs[i]
			}
		}
		// A file's terms are distinct: any sort gives the one order.
		slices.SortFunc(pairs, func(x, y termTF) int { return cmp.Compare(x.t, y.t) })
		for _, p := range pairs {
			sg.fwdTerm = append(sg.fwdTerm, p.t)
			sg.fwdTF = append(sg.fwdTF, p.tf)
		}
		sg.fwdOff[d+1] = int32(len(sg.fwdTerm))
		b.recs[d] = record{}
	}
	b.recs = nil
	sg.buildPostings(sg.terms.len())
	sg.buildModules()
	sg.buildNameTables()
	sg.markInformative()
	return sg
}

// termOrder lays out the final term table: the terms some file holds, in
// sorted order (the base's, already sorted, merged with the new ones,
// sorted here), and each builder id's position in it (-1 for a base term no
// file holds any more).
func (b *builder) termOrder() (newID []int32, sorted []string) {
	nb := b.base.len()
	used := make([]bool, nb+len(b.terms))
	for _, r := range b.recs {
		for _, t := range r.terms {
			used[t] = true
		}
	}
	fresh := make([]int32, 0, len(b.terms))
	for i := range b.terms {
		if id := int32(nb + i); used[id] {
			fresh = append(fresh, id)
		}
	}
	slices.SortFunc(fresh, func(x, y int32) int { return strings.Compare(b.termText(x), b.termText(y)) })
	newID = make([]int32, len(used))
	sorted = make([]string, 0, len(used))
	place := func(id int32) {
		newID[id] = int32(len(sorted))
		sorted = append(sorted, b.termText(id))
	}
	j := 0
	for i := range nb {
		if !used[i] {
			newID[i] = -1
			continue
		}
		s := b.base.at(i)
		for j < len(fresh) && b.termText(fresh[j]) < s {
			place(fresh[j])
			j++
		}
		place(int32(i))
	}
	for ; j < len(fresh); j++ {
		place(fresh[j])
	}
	return newID, sorted
}

// termTF is a term of a file's forward list and its counts.
type termTF struct {
	t  int32
	tf tf3
}

// buildPostings inverts the forward index by a counting sort on term ids;
// T is the number of terms.
func (ix *segment) buildPostings(T int) {
	n := len(ix.fwdOff) - 1
	off := make([]int32, T+1)
	for _, t := range ix.fwdTerm {
		off[t+1]++
	}
	for t := 0; t < T; t++ {
		off[t+1] += off[t]
	}
	pos := make([]int32, T)
	copy(pos, off[:T])
	ix.postOff = off
	ix.postDoc = make([]int32, len(ix.fwdTerm))
	ix.postTF = make([]tf3, len(ix.fwdTerm))
	for d := 0; d < n; d++ {
		for i := ix.fwdOff[d]; i < ix.fwdOff[d+1]; i++ {
			t := ix.fwdTerm[i]
			p := pos[t]
			pos[t]++
			ix.postDoc[p] = int32(d)
			ix.postTF[p] = ix.fwdTF[i]
		}
	}
}
